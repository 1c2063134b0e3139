import UIKit

/// The project's base screen: every screen has a title given at creation.
@MainActor
class Screen: UIViewController {
    let screenTitle: String

    init(screenTitle: String) {
        self.screenTitle = screenTitle
        super.init(nibName: nil, bundle: nil)
        title = screenTitle
    }

    required init?(coder: NSCoder) {
        return nil
    }
}

/// Screens that show a list; adds nothing to creation.
@MainActor
class ListScreen: Screen {
    let tableView = UITableView(frame: .zero, style: .plain)
}
