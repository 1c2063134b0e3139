/// The root of the responder chain: views, view controllers and windows are all responders.
@MainActor
open class UIResponder {

    public init() {}

    /// The next responder in the chain, or `nil`.
    open var next: UIResponder? {
        nil
    }

    open var canBecomeFirstResponder: Bool {
        false
    }

    public private(set) var isFirstResponder = false

    @discardableResult
    open func becomeFirstResponder() -> Bool {
        guard canBecomeFirstResponder else { return false }
        isFirstResponder = true
        return true
    }

    @discardableResult
    open func resignFirstResponder() -> Bool {
        isFirstResponder = false
        return true
    }
}
