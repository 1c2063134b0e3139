import UIKit

/// Shows who is signed in.
final class ProfileViewController: UIViewController {

    private let nameLabel = UILabel()

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Profile"

        nameLabel.accessibilityIdentifier = "profile.name"
        view.addSubview(nameLabel)

        showCurrentUser()
    }

    override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        showCurrentUser()
    }

    private func showCurrentUser() {
        let session = SessionController.sharedController
        nameLabel.text = session.currentUser?.name ?? "Guest"
    }
}
