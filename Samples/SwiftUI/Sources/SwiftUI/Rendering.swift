/// What a view shows when it is rendered once: its texts in order, and its controls.
///
/// `render(_:)` stands in for the screen: it resolves each view's environment down the tree, asks
/// each view for its body, and runs `onAppear` actions, as SwiftUI does the first time it shows a view.
@MainActor
public final class Rendering {
    /// Every text shown, top to bottom.
    public internal(set) var texts: [String] = []
    var buttons: [(title: String, action: @MainActor () -> Void)] = []
    var fields: [(title: String, text: Binding<String>)] = []
    var toggles: [(title: String, isOn: Binding<Bool>)] = []

    init() {}

    /// The titles of the buttons shown.
    public var buttonTitles: [String] { buttons.map(\.title) }

    /// Taps the first button titled `title`; false when there is none.
    @discardableResult
    public func tap(_ title: String) -> Bool {
        guard let button = buttons.first(where: { $0.title == title }) else { return false }
        button.action()
        return true
    }

    /// Types `text` into the text field titled `title`; false when there is none.
    @discardableResult
    public func type(_ text: String, into title: String) -> Bool {
        guard let field = fields.first(where: { $0.title == title }) else { return false }
        field.text.wrappedValue = text
        return true
    }

    /// Flips the toggle titled `title`; false when there is none.
    @discardableResult
    public func toggle(_ title: String) -> Bool {
        guard let toggle = toggles.first(where: { $0.title == title }) else { return false }
        toggle.isOn.wrappedValue.toggle()
        return true
    }

    func draw(_ view: any View, in environment: EnvironmentValues) {
        if let primitive = view as? any PrimitiveView {
            primitive.render(in: environment, into: self)
            return
        }
        install(environment, in: view)
        draw(view.body, in: environment)
    }

    func draw(_ scene: any Scene, in environment: EnvironmentValues) {
        if let primitive = scene as? any PrimitiveScene {
            primitive.render(in: environment, into: self)
            return
        }
        install(environment, in: scene)
        draw(scene.body, in: environment)
    }

    /// Gives each `@Environment` and `@EnvironmentObject` of a view the environment it is shown in.
    private func install(_ environment: EnvironmentValues, in value: Any) {
        for child in Mirror(reflecting: value).children {
            if let reading = child.value as? any EnvironmentReading { reading.install(environment) }
        }
    }
}

/// Shows a view once, in `environment`, and returns what it shows.
@MainActor
public func render<V: View>(_ view: V, in environment: EnvironmentValues = EnvironmentValues()) -> Rendering {
    let output = Rendering()
    output.draw(view, in: environment)
    return output
}

/// Shows an app's scenes once and returns what they show.
@MainActor
public func render<A: App>(_ app: A) -> Rendering {
    let output = Rendering()
    output.draw(app.body, in: EnvironmentValues())
    return output
}
