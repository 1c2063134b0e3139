/// A view that displays one or more lines of read-only text.
@MainActor
open class UILabel: UIView {

    open var text: String?
    open var numberOfLines = 1
    open var textAlignment: NSTextAlignment = .natural
    open var isEnabled = true
}
