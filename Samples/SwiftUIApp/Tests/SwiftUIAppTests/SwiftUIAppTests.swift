import SwiftUI
import Testing

@testable import SwiftUIApp

@Suite("SwiftUIApp", .serialized)
struct SwiftUIAppTests {
    @Test @MainActor func appShowsTheShelf() {
        let shown = render(LibraryApp())
        #expect(shown.texts.first?.hasPrefix("Shelf (") == true)
        #expect(shown.texts.contains("Dune"))
        #expect(shown.buttonTitles == ["Larger", "Add"])
    }

    @Test @MainActor func environmentLimitsTheShelf() {
        var environment = EnvironmentValues()
        environment.lineLimit = 1
        let limited = render(ShelfView(heading: "Few"), in: environment)
        #expect(limited.texts.contains("Dune"))
        #expect(!limited.texts.contains("Emma"))
    }

    @Test @MainActor func addingAndEnlargingReachTheLibrary() {
        let shown = render(ShelfView(heading: "Shelf"))
        let count = shown.texts.filter { $0 == "New book" }.count
        let font = shown.texts.first { $0.hasPrefix("Font ") }
        shown.tap("Larger")
        shown.tap("Add")
        let again = render(ShelfView(heading: "Shelf"))
        #expect(again.texts.filter { $0 == "New book" }.count == count + 1)
        #expect(again.texts.first { $0.hasPrefix("Font ") } != font)
    }
}
