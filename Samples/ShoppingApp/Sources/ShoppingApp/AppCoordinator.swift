import UIKit

/// Creates the app's screens and moves between them: log in, then the shop, with the cart
/// and the profile one tap away. The app's composition root.
@MainActor
final class AppCoordinator {

    let navigationController = UINavigationController()

    private let window: UIWindow

    init(window: UIWindow) {
        self.window = window
    }

    /// Shows the login screen in the window.
    func start() {
        let loginViewController = LoginViewController()
        loginViewController.delegate = self
        navigationController.setViewControllers([loginViewController], animated: false)

        window.rootViewController = navigationController
        window.makeKeyAndVisible()
    }

    func showItemList() {
        let itemListViewController = ItemListViewController()
        itemListViewController.onShowCart = { [weak self] in
            self?.showCart()
        }
        itemListViewController.onShowProfile = { [weak self] in
            self?.showProfile()
        }
        navigationController.pushViewController(itemListViewController, animated: true)
    }

    func showCart() {
        let cartViewController = CartViewController(title: "Cart")
        navigationController.pushViewController(cartViewController, animated: true)
    }

    func showProfile() {
        navigationController.pushViewController(ProfileViewController(), animated: true)
    }
}

extension AppCoordinator: LoginViewControllerDelegate {

    func loginViewController(_ controller: LoginViewController, didLogInAs user: User) {
        showItemList()
    }
}
