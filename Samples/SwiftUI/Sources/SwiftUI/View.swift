// Like Apple's SwiftUI, importing SwiftUI also imports Foundation.
@_exported import Foundation

/// A piece of user interface, described by its `body`.
@MainActor @preconcurrency
public protocol View {
    associatedtype Body: View
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

extension Never: View {
    public typealias Body = Never
    public var body: Never { fatalError("Never has no body") }
}

/// A view the renderer draws itself instead of asking for its body.
@MainActor
protocol PrimitiveView {
    func render(in environment: EnvironmentValues, into output: Rendering)
}

/// A view that shows nothing.
public struct EmptyView: View, PrimitiveView {
    public typealias Body = Never
    public init() {}
    public var body: Never { fatalError("EmptyView has no body") }
    func render(in environment: EnvironmentValues, into output: Rendering) {}
}

/// Views side by side in a builder block.
public struct TupleView<T>: View, PrimitiveView {
    public typealias Body = Never
    public var value: T
    let children: [any View]

    init(_ value: T, children: [any View]) {
        self.value = value
        self.children = children
    }

    public var body: Never { fatalError("TupleView has no body") }

    func render(in environment: EnvironmentValues, into output: Rendering) {
        for child in children { output.draw(child, in: environment) }
    }
}

/// One of two views, as an `if`/`else` in a builder chose.
public struct _ConditionalContent<TrueContent: View, FalseContent: View>: View, PrimitiveView {
    public typealias Body = Never
    enum Storage {
        case trueContent(TrueContent)
        case falseContent(FalseContent)
    }
    let storage: Storage
    public var body: Never { fatalError("_ConditionalContent has no body") }

    func render(in environment: EnvironmentValues, into output: Rendering) {
        switch storage {
        case .trueContent(let view): output.draw(view, in: environment)
        case .falseContent(let view): output.draw(view, in: environment)
        }
    }
}

extension Optional: View where Wrapped: View {
    public typealias Body = Never
    public var body: Never { fatalError("Optional has no body") }
}

extension Optional: PrimitiveView where Wrapped: View {
    func render(in environment: EnvironmentValues, into output: Rendering) {
        if let view = self { output.draw(view, in: environment) }
    }
}

/// Builds a view from the statements of a closure.
@resultBuilder @MainActor
public struct ViewBuilder {
    public static func buildBlock() -> EmptyView { EmptyView() }

    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }

    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<(repeat each Content)> {
        var children: [any View] = []
        for view in repeat each content { children.append(view) }
        return TupleView((repeat each content), children: children)
    }

    public static func buildExpression<Content: View>(_ content: Content) -> Content { content }

    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }

    public static func buildEither<TrueContent: View, FalseContent: View>(first: TrueContent) -> _ConditionalContent<TrueContent, FalseContent> {
        _ConditionalContent(storage: .trueContent(first))
    }

    public static func buildEither<TrueContent: View, FalseContent: View>(second: FalseContent) -> _ConditionalContent<TrueContent, FalseContent> {
        _ConditionalContent(storage: .falseContent(second))
    }
}
