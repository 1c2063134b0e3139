import UIKit

/// Asks for a username and password and logs the user in.
final class LoginViewController: UIViewController {

    /// Called with the user once they have logged in.
    var onLogin: ((User) -> Void)?

    private let usernameField = UITextField()
    private let passwordField = UITextField()
    private let logInButton = UIButton(type: .system)
    private let errorLabel = UILabel()

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Log in"

        usernameField.placeholder = "Username"
        usernameField.accessibilityIdentifier = "login.username"
        passwordField.placeholder = "Password"
        passwordField.isSecureTextEntry = true
        passwordField.accessibilityIdentifier = "login.password"

        logInButton.setTitle("Log in", for: .normal)
        logInButton.accessibilityIdentifier = "login.submit"
        logInButton.addAction(UIAction { [weak self] _ in
            self?.handleLogInButtonTap()
        }, for: .touchUpInside)

        errorLabel.accessibilityIdentifier = "login.error"
        errorLabel.isHidden = true

        view.addSubview(usernameField)
        view.addSubview(passwordField)
        view.addSubview(logInButton)
        view.addSubview(errorLabel)
    }

    override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        // Coming back after logging out: never leave the password behind.
        passwordField.text = ""
    }

    private func handleLogInButtonTap() {
        let username = usernameField.text ?? ""
        let password = passwordField.text ?? ""

        UserManager.shared.logIn(username: username, password: password) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let user):
                self.errorLabel.isHidden = true
                self.onLogin?(user)
            case .failure(let error):
                self.show(error)
            }
        }
    }

    private func show(_ error: LoginError) {
        switch error {
        case .missingUsername:
            errorLabel.text = "Please enter your username."
        case .invalidCredentials:
            errorLabel.text = "Wrong username or password."
        }
        errorLabel.isHidden = false
    }
}
