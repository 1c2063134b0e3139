import Core

/// The profile screen's state.
public final class ProfileViewModel {
    public let userName: String

    public init(userName: String) {
        self.userName = userName
    }

    public var themeTitle: String {
        "Theme: \(Settings.shared.theme)"
    }

    public func toggleTheme() {
        Settings.shared.setTheme(Settings.shared.theme == "light" ? "dark" : "light")
    }
}
