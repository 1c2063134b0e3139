/// The screen where a note is written and saved.
@MainActor
final class NoteEditor {
    var draft = ""

    func save() {
        NoteStore.shared.add(draft)
        draft = ""
    }

    func discardAll() {
        NoteStore.shared.removeAll()
    }
}
