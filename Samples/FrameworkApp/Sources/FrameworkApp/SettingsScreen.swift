import UIKit

/// Inherits `init(screenTitle:)` from `Screen` (depth 1).
@MainActor
final class SettingsScreen: Screen {
    let themeLabel = UILabel()

    override func viewDidLoad() {
        super.viewDidLoad()
        themeLabel.text = "Theme: \(Preferences.shared.theme)"
        view.addSubview(themeLabel)
    }

    func switchTheme() {
        Preferences.shared.theme = Preferences.shared.theme == "light" ? "dark" : "light"
        themeLabel.text = "Theme: \(Preferences.shared.theme)"
    }

    /// Read off the main actor, as a background export would.
    nonisolated func exportedTheme() async -> String {
        await Preferences.shared.theme
    }
}
