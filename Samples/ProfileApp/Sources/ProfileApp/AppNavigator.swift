import UIKit

/// Decides which screen is shown: the login screen, then the profile of whoever logged in,
/// and back to the login screen on logout. Plays the app delegate's part in the article;
/// it is where the screens are created.
@MainActor
final class AppNavigator {

    let navigationController = UINavigationController()

    private let window: UIWindow

    init(window: UIWindow) {
        self.window = window
    }

    func start() {
        showLoginScreen()
        window.rootViewController = navigationController
        window.makeKeyAndVisible()
    }

    func showLoginScreen() {
        let loginViewController = LoginViewController()
        loginViewController.onLogin = { [weak self] user in
            self?.showProfile(for: user)
        }
        navigationController.setViewControllers([loginViewController], animated: false)
    }

    func showProfile(for user: User) {
        let profileViewController = ProfileViewController(user: user)
        profileViewController.onLogout = { [weak self] in
            self?.navigationController.popViewController(animated: true)
        }
        navigationController.pushViewController(profileViewController, animated: true)
    }
}
