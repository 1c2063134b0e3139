import Testing
import UIKit
@testable import SingletonShapes

/// Shape 4, `class var shared` over a nested struct's constant.
@MainActor
struct SettingsViewControllerTests {

    private func theme(in text: String?) -> String? {
        text?.split(separator: " ").dropFirst().first.map(String.init)
    }

    @Test func theToggleSwitchesThemeAndCountsTheChange() throws {
        let settings = SettingsViewController()
        settings.loadViewIfNeeded()
        let toggle = try #require(settings.view.descendant(ThemeToggleButton.self, identifier: "themeToggle"))
        let before = try #require(settings.label("settings.theme")?.text)
        let themeBefore = try #require(theme(in: before))
        let changesBefore = try #require(firstNumber(in: before))

        toggle.tap()

        let themeAfter = themeBefore == "light" ? "dark" : "light"
        #expect(settings.label("settings.theme")?.text == "Theme: \(themeAfter) (changed \(changesBefore + 1) times)")
        #expect(toggle.title(for: .normal) == "Switch to \(themeBefore)")
    }

    @Test func aToggleButtonOffersTheOtherTheme() throws {
        let toggle = ThemeToggleButton()
        let offered = try #require(toggle.title(for: .normal))

        toggle.tap()
        toggle.tap()

        #expect(toggle.title(for: .normal) == offered)
        #expect(offered == "Switch to dark" || offered == "Switch to light")
    }

    @Test func applyingTheCurrentThemeIsNotAChange() {
        let manager = ThemeManager()
        manager.apply(.light)
        #expect(manager.changeCount == 0)

        manager.apply(.dark, animated: false)
        #expect(manager.current == .dark)
        #expect(manager.changeCount == 1)
    }
}
