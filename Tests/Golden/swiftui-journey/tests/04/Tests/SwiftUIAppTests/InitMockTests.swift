import SwiftUI
import Testing

@testable import SwiftUIApp

/// The views show what their inits are given, and act on it.
@Suite struct InitMockTests {
    @Test @MainActor func filterFieldCountsTheTitlesItIsGiven() {
        let titles = TitlesProviderMock()
        titles.titles = ["A", "B"]
        let shown = render(FilterField(titlesProvider: titles, filter: .constant("")))
        #expect(shown.texts.first == "Filter 2 books")
    }

    @Test @MainActor func readingSettingsEnlargesThroughItsModel() {
        let size = FontSizeProviderMock()
        size.fontSize = 20
        let enlarging = EnlargeServiceMock()
        let shown = render(ReadingSettings(fontSizeProvider: size, enlargeService: enlarging))
        #expect(shown.texts.first == "Font 20")
        shown.tap("Larger")
        #expect(enlarging.enlargeCallCount == 1)
    }
}
