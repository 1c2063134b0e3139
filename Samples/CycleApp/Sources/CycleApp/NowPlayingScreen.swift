/// The screen with the play button and the scrubber.
@MainActor
final class NowPlayingScreen {
    func tapPlay(_ episode: String) {
        Player.shared.play(episode)
    }

    func drag(to position: Double) {
        Player.shared.seek(to: position)
    }

    var title: String {
        Player.shared.nowPlaying ?? "Nothing playing"
    }
}
