import UIKit

/// Asks for the shopper's name and signs them in.
final class LoginViewController: UIViewController {

    weak var delegate: LoginViewControllerDelegate?

    private let nameField = UITextField()
    private let logInButton = UIButton(type: .system)
    private let errorLabel = UILabel()

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Welcome"

        nameField.placeholder = "Your name"
        nameField.accessibilityIdentifier = "login.name"

        logInButton.setTitle("Log in", for: .normal)
        logInButton.accessibilityIdentifier = "login.submit"
        logInButton.addAction(UIAction { [weak self] _ in
            self?.logIn()
        }, for: .touchUpInside)

        errorLabel.accessibilityIdentifier = "login.error"
        errorLabel.isHidden = true

        view.addSubview(nameField)
        view.addSubview(logInButton)
        view.addSubview(errorLabel)
    }

    private func logIn() {
        let name = (nameField.text ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else {
            errorLabel.text = "Please enter your name."
            errorLabel.isHidden = false
            return
        }
        errorLabel.isHidden = true

        let user = User(name: name)
        SessionController.sharedController.currentUser = user
        delegate?.loginViewController(self, didLogInAs: user)
    }
}
