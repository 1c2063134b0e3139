/// The app's items, theme and playback: the singleton every consumer reaches for.
@MainActor
final class Store {
    static let shared = Store()

    private(set) var items: [String] = []
    var theme = "light"
    private(set) var isPlaying = false

    init() {}

    var count: Int { items.count }

    func add(_ item: String) {
        items.append(item)
    }

    func play() {
        isPlaying = true
    }
}
