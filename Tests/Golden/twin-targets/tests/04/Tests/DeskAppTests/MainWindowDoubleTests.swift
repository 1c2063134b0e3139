import Testing
@testable import DeskApp

/// The main window against the desk app's generated double of its preferences.
@MainActor
struct MainWindowDoubleTests {

    @Test func theLayoutShowsTheStubbedPreferencesAndTheToggleReachesThem() {
        let preferences = PreferencesProtocolMock()
        preferences.windowWidth = 800
        preferences.showsSidebar = true
        let window = MainWindow(preferencesProtocol: preferences, title: "Notes")

        #expect(window.layout == "Notes: 800pt with sidebar")
        window.toggleSidebar()
        #expect(preferences.toggleSidebarCallCount == 1)
    }
}
