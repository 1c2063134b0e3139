/// A line of text.
public struct Text: View, PrimitiveView, Equatable {
    public typealias Body = Never
    let content: String

    public init(_ content: String) { self.content = content }
    public init(verbatim content: String) { self.content = content }

    public var body: Never { fatalError("Text has no body") }

    func render(in environment: EnvironmentValues, into output: Rendering) {
        output.texts.append(content)
    }
}

/// Views one above the other.
public struct VStack<Content: View>: View, PrimitiveView {
    public typealias Body = Never
    let content: Content

    public init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {
        self.content = content()
    }

    public var body: Never { fatalError("VStack has no body") }

    func render(in environment: EnvironmentValues, into output: Rendering) { output.draw(content, in: environment) }
}

/// Views side by side.
public struct HStack<Content: View>: View, PrimitiveView {
    public typealias Body = Never
    let content: Content

    public init(alignment: VerticalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {
        self.content = content()
    }

    public var body: Never { fatalError("HStack has no body") }

    func render(in environment: EnvironmentValues, into output: Rendering) { output.draw(content, in: environment) }
}

public enum HorizontalAlignment: Sendable { case leading, center, trailing }
public enum VerticalAlignment: Sendable { case top, center, bottom }

/// A scrolling list of rows.
public struct List<Content: View>: View, PrimitiveView {
    public typealias Body = Never
    let content: Content

    public init(@ViewBuilder content: () -> Content) { self.content = content() }

    public var body: Never { fatalError("List has no body") }

    func render(in environment: EnvironmentValues, into output: Rendering) { output.draw(content, in: environment) }
}

/// A view per element of a collection.
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content: View>: View, PrimitiveView {
    public typealias Body = Never
    public var data: Data
    public var content: (Data.Element) -> Content

    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.data = data
        self.content = content
    }

    public var body: Never { fatalError("ForEach has no body") }

    func render(in environment: EnvironmentValues, into output: Rendering) {
        for element in data { output.draw(content(element), in: environment) }
    }
}

extension ForEach where Data.Element: Identifiable, ID == Data.Element.ID {
    public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.data = data
        self.content = content
    }
}

/// A control that runs an action when tapped.
public struct Button<Label: View>: View, PrimitiveView {
    public typealias Body = Never
    let label: Label
    let action: @MainActor () -> Void

    public init(action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {
        self.action = action
        self.label = label()
    }

    public var body: Never { fatalError("Button has no body") }

    func render(in environment: EnvironmentValues, into output: Rendering) {
        let label = Rendering()
        label.draw(self.label, in: environment)
        output.buttons.append((label.texts.joined(separator: " "), action))
        output.texts += label.texts
    }
}

extension Button where Label == Text {
    public init(_ title: String, action: @escaping @MainActor () -> Void) {
        self.init(action: action) { Text(title) }
    }
}

/// An editable line of text bound to a string.
public struct TextField: View, PrimitiveView {
    public typealias Body = Never
    let title: String
    let text: Binding<String>

    public init(_ title: String, text: Binding<String>) {
        self.title = title
        self.text = text
    }

    public var body: Never { fatalError("TextField has no body") }

    func render(in environment: EnvironmentValues, into output: Rendering) {
        output.fields.append((title, text))
        output.texts.append(text.wrappedValue)
    }
}

/// A switch bound to a Boolean.
public struct Toggle: View, PrimitiveView {
    public typealias Body = Never
    let title: String
    let isOn: Binding<Bool>

    public init(_ title: String, isOn: Binding<Bool>) {
        self.title = title
        self.isOn = isOn
    }

    public var body: Never { fatalError("Toggle has no body") }

    func render(in environment: EnvironmentValues, into output: Rendering) {
        output.toggles.append((title, isOn))
        output.texts.append("\(title): \(isOn.wrappedValue ? "on" : "off")")
    }
}
