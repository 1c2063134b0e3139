/// The desk app's preferences.
@MainActor
final class Preferences {
    static let shared = Preferences()

    var windowWidth = 800
    var showsSidebar = true

    private init() {}

    func toggleSidebar() {
        showsSidebar.toggle()
    }
}
