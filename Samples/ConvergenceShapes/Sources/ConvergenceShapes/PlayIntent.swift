import AppIntents

/// "Play" from Shortcuts or Siri: the system makes it with `init()`.
struct PlayIntent: AudioPlaybackIntent {
    static let title = "Play"

    init() {}

    @MainActor
    func perform() async throws -> String {
        Store.shared.play()
        return Store.shared.isPlaying ? "Playing" : "Stopped"
    }
}
