import UIKit

/// The app's settings, shared by the iOS and the Mac app.
@MainActor
final class Preferences {
    static let shared = Preferences()

    var fontSize: Int = 14
    var theme: String = "light"
    private(set) var changes: Int = 0

    func increaseFontSize() {
        fontSize += 2
        changes += 1
    }

    func toggleTheme() {
        theme = theme == "light" ? "dark" : "light"
        changes += 1
    }
}
