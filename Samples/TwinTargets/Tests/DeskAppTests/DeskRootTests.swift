import Testing
@testable import DeskApp

@MainActor
@Suite struct DeskRootTests {
    @Test func theSidebarToggles() {
        #expect(DeskRoot().openWindow(titled: "Notes") == "Notes: 800pt with sidebar / Notes: 800pt")
    }
}
