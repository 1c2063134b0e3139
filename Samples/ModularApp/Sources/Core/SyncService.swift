/// Uploads changed settings; lives next to `Settings` and sees its internal state.
final class SyncService {
    private(set) var uploaded: [String] = []

    init() {}

    func upload() {
        uploaded.append(contentsOf: Settings.shared.pendingUpload)
        Settings.shared.pendingUpload.removeAll()
    }
}
