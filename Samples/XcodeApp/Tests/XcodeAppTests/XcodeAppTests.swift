import Testing
import UIKit
@testable import XcodeApp

/// The settings screen, driven through the coordinator, and the phone banner.
@MainActor
struct XcodeAppTests {
    let window = UIWindow(frame: .zero)

    @Test func theSettingsScreenShowsTheFontSize() throws {
        let coordinator = AppCoordinator(window: window)
        coordinator.start()
        let settings = try #require(coordinator.navigationController.topViewController as? SettingsViewController)
        _ = settings.view
        let before = try #require(settings.sizeLabel.text?.split(separator: " ").first.flatMap { Int($0) })
        settings.makeTextBigger()
        #expect(settings.sizeLabel.text == "\(before + 2) pt")
    }

    @Test func theBannerSwitchesTheTheme() {
        let banner = PhoneBanner(frame: .zero)
        banner.switchTheme()
        let first = banner.label.text
        banner.switchTheme()
        #expect(first != banner.label.text)
        #expect(["Theme: light", "Theme: dark"].contains(banner.label.text ?? ""))
    }

    @Test func freshPreferencesStartLight() {
        let preferences = Preferences()
        preferences.toggleTheme()
        #expect(preferences.theme == "dark")
        #expect(preferences.changes == 1)
    }
}
