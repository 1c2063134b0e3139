import UIKit

/// Lists the accounts on this device, each with its picture and a "Log in as …" button.
/// Shown at launch, after logging out, and as a sheet to switch accounts.
final class LoginViewController: UIViewController {

    /// Called with the account the user picked.
    var onLogin: ((User) -> Void)?

    private let accounts: [User]
    private let avatarProvider = AvatarProvider(placeholder: UIImage(systemName: "person.crop.circle")!)
    private let accountsStackView = UIStackView()

    init(accounts: [User]) {
        self.accounts = accounts
        super.init(nibName: nil, bundle: nil)
        title = "Choose an account"
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        accountsStackView.accessibilityIdentifier = "login.accounts"
        view.addSubview(accountsStackView)

        for account in accounts {
            accountsStackView.addArrangedSubview(makeRow(for: account))
        }
    }

    private func makeRow(for account: User) -> UIView {
        let avatarView = UIImageView(image: avatarProvider.avatar(forUserId: account.id))
        avatarView.accessibilityIdentifier = "login.account.\(account.id).avatar"

        let logInButton = UIButton(type: .system)
        logInButton.setTitle("Log in as \(account.name)", for: .normal)
        logInButton.accessibilityIdentifier = "login.account.\(account.id)"
        logInButton.addAction(UIAction { [weak self] _ in
            self?.onLogin?(account)
        }, for: .touchUpInside)

        return UIStackView(arrangedSubviews: [avatarView, logInButton])
    }
}
