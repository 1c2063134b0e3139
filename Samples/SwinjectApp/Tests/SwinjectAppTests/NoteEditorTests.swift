import Testing
@testable import SwinjectApp

@MainActor
struct NoteEditorTests {

    @Test func savingClearsTheDraft() {
        let editor = NoteEditor()
        editor.draft = "Buy milk"
        editor.save()
        #expect(editor.draft == "")
    }

    @Test func theRootsScreensShareTheNotes() {
        let root = AppRoot()
        let editor = root.makeEditor()
        let badge = root.makeBadge()
        editor.discardAll()
        editor.draft = "Call Ada"
        editor.save()
        #expect(badge.text == "1")
        editor.draft = "   "
        editor.save()
        #expect(badge.text == "1")
    }
}
