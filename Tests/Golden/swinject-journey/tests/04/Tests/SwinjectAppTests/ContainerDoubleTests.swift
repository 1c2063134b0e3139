import Swinject
import Testing
@testable import SwinjectApp

/// Doubles registered after the generated assembly replace the slices the screens resolve.
@MainActor
struct ContainerDoubleTests {

    @Test func theBadgeShowsTheCountOfTheDoubleRegisteredInTheContainer() throws {
        let container = Container()
        NoteStoreAssembly().assemble(container: container)
        let counting = NoteCountingMock()
        counting.count = 3                                                      // stub a value
        container.register(NoteCounting.self) { _ in counting }

        let badge = try #require(container.resolve(NoteBadge.self))

        #expect(badge.text == "3")
    }

    @Test func savingHandsTheDraftToTheDoubleInTheContainer() throws {
        let container = Container()
        NoteStoreAssembly().assemble(container: container)
        let notes = CurrentNotesMock()
        container.register(CurrentNotes.self) { _ in notes }

        let editor = try #require(container.resolve(NoteEditor.self))
        editor.draft = "Call Ada"
        editor.save()

        #expect(notes.addArgValues == ["Call Ada"])                             // spy on the call
        #expect(editor.draft == "")
    }

    @Test func withoutDoublesEveryProtocolIsTheOneInstance() throws {
        let container = Container()
        NoteStoreAssembly().assemble(container: container)

        let store = try #require(container.resolve(NoteStore.self))
        let notes = try #require(container.resolve(CurrentNotes.self))
        let counting = try #require(container.resolve(NoteCounting.self))

        #expect(notes === store && counting === store)
        let editor = try #require(container.resolve(NoteEditor.self))
        let badge = try #require(container.resolve(NoteBadge.self))
        editor.draft = "Buy milk"
        editor.save()
        #expect(badge.text == "1")
    }
}
