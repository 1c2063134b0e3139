import UIKit

/// Inherits `init(screenTitle:)` through `ListScreen` (depth 2); its rows are dequeued cells.
@MainActor
final class FontScreen: ListScreen {
    @Scaled var rowHeight = 44

    override func viewDidLoad() {
        super.viewDidLoad()
        tableView.register(FontCell.self, forCellReuseIdentifier: "font")
        view.addSubview(tableView)
    }

    func cell(at indexPath: IndexPath) -> UITableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "font", for: indexPath) as! FontCell
        cell.show(row: indexPath.row)
        return cell
    }

    func makeLarger() {
        Preferences.shared.increaseFontSize()
    }
}
