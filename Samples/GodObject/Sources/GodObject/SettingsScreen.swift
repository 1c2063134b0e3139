/// Theme and notification settings.
@MainActor
final class SettingsScreen {
    private(set) var summary = ""

    func appear() {
        summary = "\(AppServices.shared.themeName), \(Int(AppServices.shared.fontSize)) pt, "
            + (AppServices.shared.notificationsEnabled ? "notifications on" : "notifications off")
    }

    func toggleDarkMode() {
        AppServices.shared.toggleDarkMode()
        appear()
    }

    func choose(theme: String, fontSize: Double) {
        AppServices.shared.applyTheme(named: theme)
        AppServices.shared.fontSize = fontSize
        appear()
    }

    func setNotifications(_ on: Bool) {
        if on {
            AppServices.shared.enableNotifications()
        } else {
            AppServices.shared.disableNotifications()
        }
        appear()
    }
}
