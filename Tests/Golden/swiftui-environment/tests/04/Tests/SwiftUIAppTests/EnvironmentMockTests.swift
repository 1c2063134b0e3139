import SwiftUI
import Testing

@testable import SwiftUIApp

/// The views show what the environment gives them, and act on it.
@Suite struct EnvironmentMockTests {
    @Test @MainActor func filterFieldCountsTheTitlesItIsGiven() {
        let titles = TitlesProviderMock()
        titles.titles = ["A", "B"]
        let shown = render(FilterField(filter: .constant("")).environment(\.titlesProvider, titles))
        #expect(shown.texts.first == "Filter 2 books")
    }

    @Test @MainActor func addBookViewAddsItsDraft() {
        let adding = AddingMock()
        let shown = render(AddBookView(draft: "Walden").environment(\.adding, adding))
        shown.tap("Add")
        #expect(adding.addArgValues == ["Walden"])
    }
}
