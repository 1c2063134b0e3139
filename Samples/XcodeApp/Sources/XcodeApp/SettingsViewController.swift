import UIKit

/// Shows the font size and the theme, in both apps.
@MainActor
final class SettingsViewController: UIViewController {
    let sizeLabel = UILabel()
    let themeLabel = UILabel()

    override func viewDidLoad() {
        super.viewDidLoad()
        view.addSubview(sizeLabel)
        view.addSubview(themeLabel)
        refresh()
    }

    func makeTextBigger() {
        Preferences.shared.increaseFontSize()
        refresh()
    }

    func refresh() {
        sizeLabel.text = "\(Preferences.shared.fontSize) pt"
        themeLabel.text = Preferences.shared.theme
    }
}
