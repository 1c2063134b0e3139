/// A container that manages a stack of view controllers.
@MainActor
open class UINavigationController: UIViewController {

    public init(rootViewController: UIViewController) {
        super.init(nibName: nil, bundle: nil)
        setViewControllers([rootViewController], animated: false)
    }

    public override init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
        super.init(nibName: nibNameOrNil, bundle: nibBundleOrNil)
    }

    public required init?(coder: NSCoder) {
        super.init(coder: coder)
    }

    /// The stack, root first.
    open var viewControllers: [UIViewController] {
        get { children }
        set { setViewControllers(newValue, animated: false) }
    }

    open var topViewController: UIViewController? {
        children.last
    }

    /// The top controller, or what it presents.
    open var visibleViewController: UIViewController? {
        var visible = topViewController
        while let presented = visible?.presentedViewController {
            visible = presented
        }
        return visible
    }

    override var appearanceChildren: [UIViewController] {
        topViewController.map { [$0] } ?? []
    }

    open func pushViewController(_ viewController: UIViewController, animated: Bool) {
        let previousTop = topViewController
        viewController.willMove(toParent: self)
        addChild(viewController)
        if isAppearing {
            previousTop?.endAppearance(animated: animated)
            viewController.beginAppearance(animated: animated)
        }
        viewController.didMove(toParent: self)
    }

    @discardableResult
    open func popViewController(animated: Bool) -> UIViewController? {
        guard children.count > 1 else { return nil }
        return popToViewController(children[children.count - 2], animated: animated)?.last
    }

    @discardableResult
    open func popToRootViewController(animated: Bool) -> [UIViewController]? {
        guard let root = children.first else { return nil }
        return popToViewController(root, animated: animated)
    }

    /// Pops until `viewController` is on top; returns the popped controllers, top last.
    @discardableResult
    open func popToViewController(_ viewController: UIViewController, animated: Bool) -> [UIViewController]? {
        guard let index = children.firstIndex(where: { $0 === viewController }) else { return nil }
        let popped = Array(children[(index + 1)...])
        guard !popped.isEmpty else { return [] }
        if isAppearing {
            popped.last?.endAppearance(animated: animated)
        }
        for controller in popped.reversed() {
            controller.willMove(toParent: nil)
            controller.removeFromParent()
            controller.didMove(toParent: nil)
        }
        if isAppearing {
            viewController.beginAppearance(animated: animated)
        }
        return popped
    }

    open func setViewControllers(_ viewControllers: [UIViewController], animated: Bool) {
        let previousTop = topViewController
        let newTop = viewControllers.last
        if isAppearing, previousTop !== newTop {
            previousTop?.endAppearance(animated: animated)
        }
        for controller in children where !viewControllers.contains(where: { $0 === controller }) {
            controller.removeFromParent()
        }
        for controller in viewControllers {
            controller.removeFromParent()
            addChild(controller)
        }
        if isAppearing, previousTop !== newTop {
            newTop?.beginAppearance(animated: animated)
        }
    }
}
