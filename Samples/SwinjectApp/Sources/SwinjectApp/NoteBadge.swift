/// The badge on the notes tab.
@MainActor
final class NoteBadge {
    var text: String {
        let count = NoteStore.shared.count
        return count == 0 ? "" : "\(count)"
    }
}
