/// Plays the items; its mixer is made the first time it is needed.
@MainActor
final class Player {
    lazy var mixer = Mixer()

    init() {}

    var status: String { mixer.status }
}
