/// Mixes what plays; costly to make, so its owner makes it lazily.
@MainActor
final class Mixer {
    private(set) static var made = 0

    init() {
        Mixer.made += 1
    }

    var status: String { Store.shared.isPlaying ? "playing" : "stopped" }
}
