import AppIntents
import SwiftUI
import Testing

@testable import ConvergenceShapes

@Suite("ConvergenceShapes", .serialized)
struct ConvergenceShapesTests {
    @Test @MainActor func coordinatorStartsTheListThroughTheFactory() {
        let coordinator = AppCoordinator()
        let list = coordinator.start()
        #expect(list.title == "Items")
        #expect(list.rows.contains("welcome"))
        #expect(list.header.text == "Items (\(list.rows.count))")
        #expect(list.select("welcome").summary.hasPrefix("welcome in "))
        #expect(coordinator.open("other").summary.hasPrefix("other in "))
    }

    @Test @MainActor func headerCountsTheStoreItIsGiven() {
        let store = Store()
        let header = Header(title: "Mine", store: store)
        #expect(header.text == "Mine (0)")
        store.add("a")
        #expect(header.text == "Mine (1)")
    }

    @Test @MainActor func appShowsItsViews() {
        let shown = render(ShapesApp())
        #expect(shown.texts.first?.hasPrefix("Items (") == true)
        #expect(shown.texts.contains("welcome"))
        #expect(shown.texts.contains { $0.hasPrefix("Theme: ") })
        #expect(shown.texts.contains("Selected: none"))
        #expect(shown.texts.contains("Zoom 1.0"))
        #expect(shown.buttonTitles == ["Add note", "Dark", "Zoom in"])
    }

    @Test @MainActor func itemsViewReadsTheStoreFromItsEnvironment() {
        let store = Store()
        store.add("one")
        store.add("two")
        let shown = render(ItemsView().environment(store))
        #expect(Array(shown.texts.prefix(3)) == ["2 items", "one", "two"])
        #expect(shown.texts.last?.hasPrefix("Theme: ") == true)
    }

    @Test @MainActor func detailViewSelectsTheNoteItAdds() {
        let view = DetailView()
        let shown = render(view)
        #expect(shown.texts.first == "Selected: none")
        shown.tap("Add note")
        #expect(render(view).texts.first?.hasPrefix("Selected: note ") == true)
    }

    @Test @MainActor func zoomViewZoomsAndDarkens() {
        let view = ZoomView()
        let shown = render(view)
        shown.tap("Zoom in")
        shown.tap("Dark")
        let again = render(view)
        #expect(again.texts.contains("Theme dark"))
        #expect(again.texts.contains("Zoom 2.0"))
    }

    @Test @MainActor func playIntentRunsAsTheSystemMakesIt() async throws {
        #expect(PlayIntent.title == "Play")
        #expect(try await IntentSystem.run(PlayIntent.self) == "Playing")
    }

    @Test @MainActor func playerMakesItsMixerOnFirstUse() {
        let before = Mixer.made
        let coordinator = AppCoordinator()
        coordinator.start()
        #expect(Mixer.made == before)
        #expect(["playing", "stopped"].contains(coordinator.player.status))
        #expect(Mixer.made == before + 1)
        _ = coordinator.player.status
        #expect(Mixer.made == before + 1)
    }
}
