/// The desk app's composition root.
@MainActor
public final class DeskRoot {
    public init() {}

    public func openWindow(titled title: String) -> String {
        let window = MainWindow(title: title)
        let before = window.layout
        window.toggleSidebar()
        let after = window.layout
        window.toggleSidebar()
        return before + " / " + after
    }
}
