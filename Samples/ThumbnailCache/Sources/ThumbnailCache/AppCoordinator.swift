import UIKit

/// Owns the session: which account is logged in and which screens are shown. The app's
/// composition root.
@MainActor
final class AppCoordinator {

    let navigationController = UINavigationController()

    private(set) var currentUser: User?

    private let window: UIWindow
    private let accounts: [User]
    private let imageLoader: ProfileImageLoader

    init(window: UIWindow, accounts: [User], imageLoader: ProfileImageLoader) {
        self.window = window
        self.accounts = accounts
        self.imageLoader = imageLoader
    }

    /// Shows the account list in the window.
    func start() {
        showLoginScreen()
        window.rootViewController = navigationController
        window.makeKeyAndVisible()
    }

    func logIn(as user: User) {
        currentUser = user

        let friendListViewController = FriendListViewController(friends: user.friends, imageLoader: imageLoader)
        friendListViewController.onSwitchAccount = { [weak self] in
            self?.showAccountSwitcher()
        }
        navigationController.setViewControllers([friendListViewController], animated: true)
    }

    func logOut() {
        currentUser = nil
        // The next account must not see this one's pictures.
        ThumbnailCache.sharedThumbnailCache.tearDown()
        showLoginScreen()
    }

    /// Presents the account list as a sheet; picking an account logs out and logs in as it.
    func showAccountSwitcher() {
        let switcher = LoginViewController(accounts: accounts)
        switcher.onLogin = { [weak self] user in
            self?.navigationController.dismiss(animated: true) {
                self?.logOut()
                self?.logIn(as: user)
            }
        }
        navigationController.present(switcher, animated: true)
    }

    private func showLoginScreen() {
        let loginViewController = LoginViewController(accounts: accounts)
        loginViewController.onLogin = { [weak self] user in
            self?.logIn(as: user)
        }
        navigationController.setViewControllers([loginViewController], animated: true)
    }
}
