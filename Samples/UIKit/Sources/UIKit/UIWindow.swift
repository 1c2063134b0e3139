/// The backdrop for an app's user interface. A window is hidden until `makeKeyAndVisible()`.
@MainActor
open class UIWindow: UIView {

    /// The controller whose view fills the window. Replacing it on a visible window makes the
    /// old one disappear and the new one appear.
    open var rootViewController: UIViewController? {
        didSet {
            guard oldValue !== rootViewController else { return }
            oldValue?.viewIfLoaded?.removeFromSuperview()
            if !isHidden {
                oldValue?.endAppearance(animated: false)
                showRootViewController()
            }
        }
    }

    public private(set) var isKeyWindow = false

    public override init(frame: CGRect) {
        super.init(frame: frame)
        isHidden = true
    }

    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        isHidden = true
    }

    open func makeKey() {
        isKeyWindow = true
    }

    open func makeKeyAndVisible() {
        makeKey()
        guard isHidden else { return }
        isHidden = false
        showRootViewController()
    }

    private func showRootViewController() {
        guard let rootViewController else { return }
        addSubview(rootViewController.view)
        rootViewController.beginAppearance(animated: false)
    }
}
