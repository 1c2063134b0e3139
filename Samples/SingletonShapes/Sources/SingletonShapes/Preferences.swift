/// The user's settings, like `UserDefaults`: values stored as strings under known keys.
@MainActor
final class Preferences {

    static let standard = Preferences()

    /// The keys the app stores.
    enum Key: String, CaseIterable, Sendable {
        case hasSeenOnboarding
        case launchCount
        case preferredName
    }

    private var values: [Key: String]

    init(values: [Key: String] = [:]) {
        self.values = values
    }

    func value<T>(forKey key: Key) -> T? where T: LosslessStringConvertible {
        values[key].flatMap { T($0) }
    }

    /// Stores `value` under `key`; `nil` removes it.
    func set<T>(_ value: T?, forKey key: Key) where T: LosslessStringConvertible {
        values[key] = value?.description
    }
}
