import Testing
import Core
import Profile
import Reader
@testable import App

@Suite(.serialized) struct AppTests {
    @Test func theProfileTogglesTheTheme() {
        let app = AppCoordinator()
        app.start(userName: "kim")
        app.settings?.restoreDefaults()
        app.profile?.toggleTheme()
        #expect(app.profile?.themeTitle == "Theme: dark")
        #expect(app.settings?.canRestoreDefaults == true)
        app.settings?.restoreDefaults()
        #expect(app.settings?.canRestoreDefaults == false)
    }

    @Test func theReaderZoomsAndCaches() {
        let app = AppCoordinator()
        app.start(userName: "kim")
        app.settings?.restoreDefaults()
        app.reader?.zoomIn()
        #expect(app.reader?.textSize == 15)
        #expect(app.reader?.cacheFile(for: 2).lastPathComponent == "page-2")
        app.settings?.restoreDefaults()
    }
}
