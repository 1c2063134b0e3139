import UIKit

/// Creates the screens and shows them.
@MainActor
final class AppCoordinator {
    let navigationController = UINavigationController()

    init() {}

    func showSettings() -> SettingsScreen {
        let screen = SettingsScreen(screenTitle: "Settings")
        navigationController.pushViewController(screen, animated: false)
        return screen
    }

    func showFonts() -> FontScreen {
        let screen = FontScreen(screenTitle: "Fonts")
        navigationController.pushViewController(screen, animated: false)
        return screen
    }

    func showAbout() -> AboutViewController {
        let about = AboutViewController(nibName: "About", bundle: nil)
        navigationController.pushViewController(about, animated: false)
        return about
    }
}
