import Foundation
import Testing
import UIKit
@testable import FrameworkApp

/// The app driven through its delegate and coordinator. Tests check relative changes: the
/// preferences are shared by every test in the process.
@MainActor
struct FrameworkAppTests {

    @Test func launchingShowsTheNavigationStack() {
        let delegate = AppDelegate()
        #expect(delegate.application(UIApplication.shared, didFinishLaunchingWithOptions: nil))
        #expect(delegate.window?.rootViewController === delegate.coordinator.navigationController)
        #expect(delegate.coordinator.navigationController.title == "light" || delegate.coordinator.navigationController.title == "dark")
    }

    @Test func settingsShowAndSwitchTheTheme() async {
        let coordinator = AppCoordinator()
        let settings = coordinator.showSettings()
        #expect(settings.title == "Settings")
        settings.loadViewIfNeeded()
        let before = settings.themeLabel.text
        settings.switchTheme()
        #expect(settings.themeLabel.text != before)
        settings.switchTheme()
        #expect(settings.themeLabel.text == before)
        let exported = await settings.exportedTheme()
        #expect(before == "Theme: \(exported)")
    }

    @Test func fontRowsAreDequeuedAndGrowWithTheFontSize() throws {
        let coordinator = AppCoordinator()
        let fonts = coordinator.showFonts()
        #expect(fonts.title == "Fonts")
        fonts.loadViewIfNeeded()
        let cell = fonts.cell(at: IndexPath(row: 2, section: 0))
        let before = try #require(cell.textLabel?.text)
        #expect(before.hasPrefix("Row 2 at "))
        let height = fonts.rowHeight
        fonts.makeLarger()
        let again = fonts.cell(at: IndexPath(row: 2, section: 0))
        #expect(again.textLabel?.text != before)
        #expect(fonts.rowHeight >= height)
    }

    @Test func aboutShowsTheFontSizeAndKeepsItsNib() {
        let about = AppCoordinator().showAbout()
        #expect(about.nibName == "About")
        about.loadViewIfNeeded()
        #expect(about.sizeLabel.text?.hasPrefix("Font size ") == true)
    }

    @Test func bookmarksRoundTripThroughJSON() throws {
        let bookmark = Bookmark(title: "Fonts", row: 3)
        let decoded = try JSONDecoder().decode(Bookmark.self, from: JSONEncoder().encode(bookmark))
        #expect(decoded == bookmark)
        #expect(decoded.label().hasPrefix("Fonts ("))
    }

    @Test func freshPreferencesKeepTheirOwnHistory() {
        let preferences = Preferences()
        #expect(preferences.history.entries.isEmpty)
        preferences.increaseFontSize()
        #expect(preferences.fontSize == 15)
        #expect(preferences.history.entries.count == 1)
    }
}
