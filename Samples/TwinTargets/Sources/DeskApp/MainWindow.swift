/// The desk app's main window.
@MainActor
final class MainWindow {
    let title: String

    init(title: String) {
        self.title = title
    }

    var layout: String {
        "\(title): \(Preferences.shared.windowWidth)pt\(Preferences.shared.showsSidebar ? " with sidebar" : "")"
    }

    func toggleSidebar() {
        Preferences.shared.toggleSidebar()
    }
}
