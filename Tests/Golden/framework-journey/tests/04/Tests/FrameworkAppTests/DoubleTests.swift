import Testing
import UIKit
@testable import FrameworkApp

/// Screens against the generated doubles instead of the shared preferences.
@MainActor
@Suite struct DoubleTests {
    /// A stubbed theme: switching writes the other one back through the slice.
    @Test func switchingTheThemeWritesTheOtherThemeToTheSlice() {
        let theme = ThemeProviderMock()
        theme.theme = "light"
        let settings = SettingsScreen(themeProvider: theme, screenTitle: "Settings")

        settings.switchTheme()

        #expect(theme.theme == "dark")
        #expect(theme.themeSetCallCount == 2)
        #expect(settings.themeLabel.text == "Theme: dark")
    }

    /// A spy: the font screen asks the slice to grow the font, once per tap.
    @Test func makingTheFontLargerCallsTheSliceOncePerTap() {
        let fontSize = IncreaseFontSizeServiceMock()
        var taps = 0
        fontSize.increaseFontSizeHandler = { taps += 1 }
        let screen = FontScreen(increaseFontSizeService: fontSize, screenTitle: "Fonts")

        screen.makeLarger()
        screen.makeLarger()

        #expect(fontSize.increaseFontSizeCallCount == 2)
        #expect(taps == 2)
    }
}
