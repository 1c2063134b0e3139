/// Plays episodes, and tells the sync service how far the listener got.
@MainActor
final class Player {

    static let shared = Player()

    private(set) var nowPlaying: String?
    private(set) var position: Double = 0

    func play(_ episode: String) {
        nowPlaying = episode
        position = 0
        SyncService.shared.report(episode, at: 0)
    }

    func seek(to position: Double) {
        self.position = position
        if let episode = nowPlaying {
            SyncService.shared.report(episode, at: position)
        }
    }
}
