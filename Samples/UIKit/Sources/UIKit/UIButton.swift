/// A control that runs its actions when tapped.
@MainActor
open class UIButton: UIControl {

    /// Button styles, as in UIKit.
    public enum ButtonType: Int, Sendable {
        case custom = 0
        case system = 1
        case detailDisclosure = 2
        case close = 7
    }

    public private(set) var buttonType: ButtonType = .custom

    private var titles: [UInt: String] = [:]
    private var images: [UInt: UIImage] = [:]

    public convenience init(type buttonType: ButtonType) {
        self.init(frame: .zero)
        self.buttonType = buttonType
    }

    open func setTitle(_ title: String?, for state: State) {
        titles[state.rawValue] = title
    }

    /// The title for `state`, falling back to the `.normal` title as UIKit does.
    open func title(for state: State) -> String? {
        titles[state.rawValue] ?? titles[State.normal.rawValue]
    }

    open var currentTitle: String? {
        title(for: state)
    }

    open func setImage(_ image: UIImage?, for state: State) {
        images[state.rawValue] = image
    }

    open func image(for state: State) -> UIImage? {
        images[state.rawValue] ?? images[State.normal.rawValue]
    }

    open var currentImage: UIImage? {
        image(for: state)
    }
}
