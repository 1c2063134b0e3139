/// A rectangular area on screen. There is no rendering here: a view is its hierarchy and its flags.
@MainActor
open class UIView: UIResponder {

    open var frame: CGRect
    open var isHidden = false
    open var alpha: CGFloat = 1
    open var tag = 0
    open var isUserInteractionEnabled = true

    /// Used by UI tests to find a view, as on iOS.
    open var accessibilityIdentifier: String?
    open var accessibilityLabel: String?

    public private(set) weak var superview: UIView?
    public private(set) var subviews: [UIView] = []

    public init(frame: CGRect) {
        self.frame = frame
        super.init()
    }

    public required init?(coder: NSCoder) {
        self.frame = .zero
        super.init()
    }

    public override convenience init() {
        self.init(frame: .zero)
    }

    /// The window the view is in, if any.
    open var window: UIWindow? {
        var view: UIView? = self
        while let current = view {
            if let window = current as? UIWindow {
                return window
            }
            view = current.superview
        }
        return nil
    }

    open override var next: UIResponder? {
        superview
    }

    open func addSubview(_ view: UIView) {
        insertSubview(view, at: subviews.count)
    }

    open func insertSubview(_ view: UIView, at index: Int) {
        if view.superview === self, let current = subviews.firstIndex(where: { $0 === view }) {
            subviews.remove(at: current)
            subviews.insert(view, at: min(index, subviews.count))
            return
        }
        view.removeFromSuperview()
        subviews.insert(view, at: min(index, subviews.count))
        view.superview = self
        didAddSubview(view)
        view.didMoveToSuperview()
    }

    open func removeFromSuperview() {
        guard let superview else { return }
        superview.willRemoveSubview(self)
        superview.subviews.removeAll { $0 === self }
        self.superview = nil
        didMoveToSuperview()
    }

    open func bringSubviewToFront(_ view: UIView) {
        guard view.superview === self else { return }
        insertSubview(view, at: subviews.count)
    }

    open func isDescendant(of view: UIView) -> Bool {
        var current: UIView? = self
        while let candidate = current {
            if candidate === view {
                return true
            }
            current = candidate.superview
        }
        return false
    }

    /// Returns the view itself or the first descendant (depth first) whose `tag` matches.
    open func viewWithTag(_ tag: Int) -> UIView? {
        if self.tag == tag {
            return self
        }
        for subview in subviews {
            if let match = subview.viewWithTag(tag) {
                return match
            }
        }
        return nil
    }

    open func didAddSubview(_ subview: UIView) {}

    open func willRemoveSubview(_ subview: UIView) {}

    open func didMoveToSuperview() {}

    open func setNeedsLayout() {}

    open func layoutIfNeeded() {
        layoutSubviews()
    }

    open func layoutSubviews() {}
}
