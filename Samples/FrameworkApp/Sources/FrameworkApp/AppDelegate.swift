import UIKit

/// Made by the system at launch; it owns the coordinator.
@MainActor
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?
    let coordinator = AppCoordinator()

    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        let window = UIWindow(frame: .zero)
        window.rootViewController = coordinator.navigationController
        window.makeKeyAndVisible()
        self.window = window
        coordinator.navigationController.title = Preferences.shared.theme
        return true
    }
}
