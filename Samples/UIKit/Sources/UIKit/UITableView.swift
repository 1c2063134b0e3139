/// A list of rows. Only cell registration and dequeueing are modelled: a dequeued cell is made
/// from the registered class, or reused after `prepareForReuse()`.
@MainActor
open class UITableView: UIView {

    public enum Style: Int, Sendable {
        case plain, grouped, insetGrouped
    }

    public let style: UITableView.Style
    private var registered: [String: UITableViewCell.Type] = [:]
    private var reusable: [String: [UITableViewCell]] = [:]

    public init(frame: CGRect, style: UITableView.Style) {
        self.style = style
        super.init(frame: frame)
    }

    public required init?(coder: NSCoder) {
        self.style = .plain
        super.init(coder: coder)
    }

    open func register(_ cellClass: AnyClass?, forCellReuseIdentifier identifier: String) {
        registered[identifier] = cellClass as? UITableViewCell.Type
    }

    /// The registered class's cell for `identifier`; a missing registration is a programming
    /// error, as in UIKit.
    open func dequeueReusableCell(withIdentifier identifier: String, for indexPath: IndexPath) -> UITableViewCell {
        if let cell = reusable[identifier]?.popLast() {
            cell.prepareForReuse()
            return cell
        }
        guard let cellClass = registered[identifier], let cell = cellClass.init(coder: NSCoder()) else {
            preconditionFailure("unable to dequeue a cell with identifier \(identifier): register a class first")
        }
        cell.setReuseIdentifier(identifier)
        return cell
    }

    /// Hands a cell back for reuse (in UIKit, scrolling does this).
    public func enqueueReusableCell(_ cell: UITableViewCell) {
        guard let identifier = cell.reuseIdentifier else { return }
        reusable[identifier, default: []].append(cell)
    }
}
