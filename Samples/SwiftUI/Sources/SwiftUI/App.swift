/// An app's entry point: the system creates it with `init()` and shows its scenes.
@MainActor @preconcurrency
public protocol App {
    associatedtype Body: Scene
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
    @MainActor @preconcurrency init()
}

extension App {
    /// What `@main` calls: the system makes the app and shows its scenes.
    @MainActor @preconcurrency public static func main() {
        _ = render(Self())
    }
}

/// A part of an app's user interface the system manages, such as a window.
@MainActor @preconcurrency
public protocol Scene {
    associatedtype Body: Scene
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

extension Never: Scene {}

/// A scene the renderer shows itself.
@MainActor
protocol PrimitiveScene {
    func render(in environment: EnvironmentValues, into output: Rendering)
}

/// Builds a scene from the statements of a closure.
@resultBuilder @MainActor
public struct SceneBuilder {
    public static func buildBlock<Content: Scene>(_ content: Content) -> Content { content }
}

/// A window showing a view.
public struct WindowGroup<Content: View>: Scene, PrimitiveScene {
    public typealias Body = Never
    let content: Content

    public init(@ViewBuilder content: () -> Content) { self.content = content() }

    public var body: Never { fatalError("WindowGroup has no body") }

    func render(in environment: EnvironmentValues, into output: Rendering) { output.draw(content, in: environment) }
}

extension View {
    /// Runs `action` when the view appears.
    public func onAppear(perform action: (() -> Void)? = nil) -> some View {
        OnAppear(content: self, action: action)
    }
}

struct OnAppear<Content: View>: View, PrimitiveView {
    typealias Body = Never
    let content: Content
    let action: (() -> Void)?

    var body: Never { fatalError("OnAppear has no body") }

    func render(in environment: EnvironmentValues, into output: Rendering) {
        action?()
        output.draw(content, in: environment)
    }
}
