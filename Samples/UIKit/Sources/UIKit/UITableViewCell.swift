/// A row of a table view. Cells are made by the table view from the class registered for a reuse
/// identifier (as a storyboard makes its objects, through `init?(coder:)`), or by the app with
/// `init(style:reuseIdentifier:)`.
@MainActor
open class UITableViewCell: UIView {

    public enum CellStyle: Int, Sendable {
        case `default`, value1, value2, subtitle
    }

    open private(set) var reuseIdentifier: String?
    open private(set) var textLabel: UILabel? = UILabel()

    public init(style: UITableViewCell.CellStyle, reuseIdentifier: String?) {
        self.reuseIdentifier = reuseIdentifier
        super.init(frame: .zero)
    }

    public required init?(coder: NSCoder) {
        super.init(coder: coder)
    }

    open func prepareForReuse() {}

    func setReuseIdentifier(_ identifier: String) {
        reuseIdentifier = identifier
    }
}
