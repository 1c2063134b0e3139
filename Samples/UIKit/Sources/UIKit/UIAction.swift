/// The type of the closure a `UIAction` runs.
public typealias UIActionHandler = @MainActor (UIAction) -> Void

/// A menu element or control action that runs a closure.
@MainActor
open class UIAction {

    /// Identifies an action, as in UIKit.
    public struct Identifier: Hashable, RawRepresentable, Sendable {
        public let rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        public init(_ rawValue: String) {
            self.rawValue = rawValue
        }
    }

    open var title: String
    open var image: UIImage?
    public let identifier: Identifier

    /// The control that sent the action while its handler runs.
    public internal(set) var sender: Any?

    let handler: UIActionHandler

    public init(
        title: String = "",
        image: UIImage? = nil,
        identifier: Identifier? = nil,
        handler: @escaping UIActionHandler
    ) {
        self.title = title
        self.image = image
        self.identifier = identifier ?? Identifier(UUID().uuidString)
        self.handler = handler
    }
}
