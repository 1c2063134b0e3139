/// Manages a view hierarchy. The view is created lazily, on first access, by `loadView()`,
/// followed once by `viewDidLoad()`. Appearance callbacks run when the controller is shown
/// in a visible window, pushed or popped in a visible navigation controller, or presented.
@MainActor
open class UIViewController: UIResponder {

    public private(set) var nibName: String?
    public private(set) var nibBundle: Bundle?

    open var title: String?

    public internal(set) weak var parent: UIViewController?
    public private(set) var children: [UIViewController] = []

    public private(set) var presentedViewController: UIViewController?
    public private(set) weak var presentingViewController: UIViewController?

    private var loadedView: UIView?
    private var isLoadingView = false

    /// Whether the controller is between `viewWillAppear(_:)` and `viewWillDisappear(_:)`.
    var isAppearing = false

    public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
        self.nibName = nibNameOrNil
        self.nibBundle = nibBundleOrNil
        super.init()
    }

    public required init?(coder: NSCoder) {
        super.init()
    }

    public override convenience init() {
        self.init(nibName: nil, bundle: nil)
    }

    // MARK: - View

    /// The root view. Reading it loads it (`loadView()` then `viewDidLoad()`) if needed.
    open var view: UIView! {
        get {
            if loadedView == nil && !isLoadingView {
                isLoadingView = true
                loadView()
                if loadedView == nil {
                    loadedView = UIView()
                }
                isLoadingView = false
                viewDidLoad()
            }
            return loadedView
        }
        set {
            loadedView = newValue
        }
    }

    public var isViewLoaded: Bool {
        loadedView != nil
    }

    public var viewIfLoaded: UIView? {
        loadedView
    }

    open func loadView() {
        view = UIView()
    }

    open func viewDidLoad() {}

    open func loadViewIfNeeded() {
        _ = view
    }

    // MARK: - Appearance

    open func viewWillAppear(_ animated: Bool) {}

    open func viewDidAppear(_ animated: Bool) {}

    open func viewWillDisappear(_ animated: Bool) {}

    open func viewDidDisappear(_ animated: Bool) {}

    /// The children whose appearance follows this controller's (all of them for plain containment).
    var appearanceChildren: [UIViewController] {
        children
    }

    func beginAppearance(animated: Bool) {
        guard !isAppearing else { return }
        loadViewIfNeeded()
        viewWillAppear(animated)
        isAppearing = true
        viewDidAppear(animated)
        for child in appearanceChildren {
            child.beginAppearance(animated: animated)
        }
        presentedViewController?.beginAppearance(animated: animated)
    }

    func endAppearance(animated: Bool) {
        guard isAppearing else { return }
        presentedViewController?.endAppearance(animated: animated)
        for child in appearanceChildren {
            child.endAppearance(animated: animated)
        }
        viewWillDisappear(animated)
        isAppearing = false
        viewDidDisappear(animated)
    }

    // MARK: - Containment

    /// The nearest ancestor that is a navigation controller.
    public var navigationController: UINavigationController? {
        var ancestor = parent
        while let candidate = ancestor {
            if let navigationController = candidate as? UINavigationController {
                return navigationController
            }
            ancestor = candidate.parent
        }
        return nil
    }

    open func addChild(_ childController: UIViewController) {
        guard childController.parent !== self else { return }
        childController.removeFromParent()
        children.append(childController)
        childController.parent = self
    }

    open func removeFromParent() {
        guard let parent else { return }
        parent.children.removeAll { $0 === self }
        self.parent = nil
    }

    open func willMove(toParent parent: UIViewController?) {}

    open func didMove(toParent parent: UIViewController?) {}

    // MARK: - Presentation

    /// Presents `viewControllerToPresent` modally. As in UIKit, presenting while already
    /// presenting something does nothing. Completion runs at once: there is no animation.
    open func present(_ viewControllerToPresent: UIViewController, animated flag: Bool, completion: (() -> Void)? = nil) {
        guard presentedViewController == nil, viewControllerToPresent.presentingViewController == nil else {
            return
        }
        presentedViewController = viewControllerToPresent
        viewControllerToPresent.presentingViewController = self
        if isAppearing {
            viewControllerToPresent.beginAppearance(animated: flag)
        }
        completion?()
    }

    /// Dismisses the controller this one presented, or, if it presented none, this controller itself.
    open func dismiss(animated flag: Bool, completion: (() -> Void)? = nil) {
        if let presented = presentedViewController {
            presented.endAppearance(animated: flag)
            presented.presentingViewController = nil
            presentedViewController = nil
            completion?()
        } else if let presenting = presentingViewController {
            presenting.dismiss(animated: flag, completion: completion)
        } else {
            completion?()
        }
    }
}
