import UIKit

/// Shows the signed-in user, with a button to log out.
final class ProfileViewController: UIViewController {

    /// Called after the user has logged out.
    var onLogout: (() -> Void)?

    private let user: User
    private let nameLabel = UILabel()
    private let usernameLabel = UILabel()
    private let logOutButton = UIButton(type: .system)

    init(user: User) {
        self.user = user
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        title = user.name

        nameLabel.text = user.name
        nameLabel.accessibilityIdentifier = "profile.name"
        usernameLabel.text = "@\(user.username)"
        usernameLabel.accessibilityIdentifier = "profile.username"

        logOutButton.setTitle("Log out", for: .normal)
        logOutButton.accessibilityIdentifier = "profile.logOut"
        logOutButton.addAction(UIAction { [weak self] _ in
            UserManager.shared.logOut()
            self?.onLogout?()
        }, for: .touchUpInside)

        view.addSubview(nameLabel)
        view.addSubview(usernameLabel)
        view.addSubview(logOutButton)
    }
}
