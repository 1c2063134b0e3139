import UIKit

/// The composition root of both apps.
@MainActor
final class AppCoordinator {
    let window: UIWindow
    let navigationController = UINavigationController()

    init(window: UIWindow) {
        self.window = window
    }

    func start() {
        window.rootViewController = navigationController
        navigationController.pushViewController(SettingsViewController(), animated: false)
    }
}
