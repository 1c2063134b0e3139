/// Keeps the listener's progress, and asks the player what is playing.
@MainActor
final class SyncService {

    static let shared = SyncService()

    private(set) var progress: [String: Double] = [:]

    func report(_ episode: String, at position: Double) {
        progress[episode] = position
    }

    /// The episode to show as "continue listening": the one playing, else the last one reported.
    var resumeEpisode: String? {
        Player.shared.nowPlaying ?? progress.keys.sorted().last
    }
}
