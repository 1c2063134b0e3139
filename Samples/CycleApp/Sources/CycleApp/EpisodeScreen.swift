/// One episode's page: it plays the episode from where the listener left it.
@MainActor
final class EpisodeScreen {
    let episode: String

    init(episode: String) {
        self.episode = episode
    }

    /// Plays the episode, then seeks to where the sync service says the listener got.
    func resume() {
        let position = SyncService.shared.progress[episode] ?? 0
        Player.shared.play(episode)
        Player.shared.seek(to: position)
    }

    var isPlaying: Bool {
        Player.shared.nowPlaying == episode
    }
}
