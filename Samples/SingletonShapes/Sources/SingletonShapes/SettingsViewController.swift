import UIKit

/// The settings screen: the current theme, how often it changed, and a button to switch it.
final class SettingsViewController: UIViewController {

    private let themeLabel = UILabel()
    private let themeToggleButton = ThemeToggleButton()

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Settings"

        themeLabel.accessibilityIdentifier = "settings.theme"
        themeToggleButton.onToggle = { [weak self] in
            self?.updateThemeLabel()
        }

        view.addSubview(themeLabel)
        view.addSubview(themeToggleButton)
        updateThemeLabel()
    }

    private func updateThemeLabel() {
        let theme = ThemeManager.shared.current
        themeLabel.text = "Theme: \(theme.rawValue) (changed \(ThemeManager.shared.changeCount) times)"
    }
}
