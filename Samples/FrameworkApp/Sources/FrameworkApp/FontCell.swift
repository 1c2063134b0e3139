import UIKit

/// A row the table view makes from its registered class: it cannot take init arguments.
@MainActor
final class FontCell: UITableViewCell {
    func show(row: Int) {
        textLabel?.text = "Row \(row) at \(Preferences.shared.fontSize) pt"
    }
}
