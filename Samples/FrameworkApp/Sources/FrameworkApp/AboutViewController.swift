import UIKit

/// Made with UIKit's nib-style init, which it inherits.
@MainActor
final class AboutViewController: UIViewController {
    let sizeLabel = UILabel()

    override func viewDidLoad() {
        super.viewDidLoad()
        sizeLabel.text = "Font size \(Preferences.shared.fontSize)"
        view.addSubview(sizeLabel)
    }
}
