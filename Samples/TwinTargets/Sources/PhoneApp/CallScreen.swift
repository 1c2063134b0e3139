/// Shows an incoming call.
@MainActor
final class CallScreen {
    let caller: String

    init(caller: String) {
        self.caller = caller
    }

    var summary: String {
        "\(caller), \(Preferences.shared.ringtone)\(Preferences.shared.vibrates ? ", vibrating" : "")"
    }

    func silence() {
        Preferences.shared.mute()
    }
}
