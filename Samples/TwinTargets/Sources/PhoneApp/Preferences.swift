/// The phone app's preferences.
@MainActor
final class Preferences {
    static let shared = Preferences()

    var vibrates = true
    var ringtone = "classic"

    private init() {}

    func mute() {
        vibrates = false
    }
}
