/// Creates the screens; the app's composition root.
@MainActor
final class AppRoot {
    func makeNowPlaying() -> NowPlayingScreen {
        NowPlayingScreen()
    }

    func makeProgress() -> ProgressScreen {
        ProgressScreen()
    }

    func makeEpisode(_ episode: String) -> EpisodeScreen {
        EpisodeScreen(episode: episode)
    }
}
