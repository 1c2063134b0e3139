/// Creates the screens; the app's composition root.
@MainActor
final class AppRoot {

    func makeEditor() -> NoteEditor {
        NoteEditor()
    }

    func makeBadge() -> NoteBadge {
        NoteBadge()
    }
}
