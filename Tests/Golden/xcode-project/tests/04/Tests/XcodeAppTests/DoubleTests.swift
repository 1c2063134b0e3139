import Testing
import UIKit
@testable import XcodeApp

/// The phone banner against the generated theme double.
@MainActor
@Suite struct DoubleTests {
    /// A spy that flips a stubbed theme: the banner asks once and shows what the slice says.
    @Test func switchingTheThemeAsksTheSliceAndShowsItsTheme() {
        let theme = CurrentThemeMock()
        theme.theme = "light"
        theme.toggleThemeHandler = { theme.theme = "dark" }
        let banner = PhoneBanner(currentTheme: theme, frame: .zero)

        banner.switchTheme()

        #expect(theme.toggleThemeCallCount == 1)
        #expect(banner.label.text == "Theme: dark")
    }
}
