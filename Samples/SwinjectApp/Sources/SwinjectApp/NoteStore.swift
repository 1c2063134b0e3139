/// Keeps the notes the user wrote, in the order they were written.
@MainActor
final class NoteStore {

    static let shared = NoteStore()

    private(set) var notes: [String] = []

    /// Adds a note; blank notes are ignored.
    func add(_ note: String) {
        guard note.contains(where: { !$0.isWhitespace }) else { return }
        notes.append(note)
    }

    func removeAll() {
        notes.removeAll()
    }

    var count: Int {
        notes.count
    }
}
