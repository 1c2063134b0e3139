/// An editable line of text.
@MainActor
open class UITextField: UIControl {

    open var text: String? = ""
    open var placeholder: String?
    open var isSecureTextEntry = false

    open override var canBecomeFirstResponder: Bool {
        isEnabled
    }
}
