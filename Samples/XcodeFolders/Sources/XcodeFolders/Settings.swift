import UIKit

/// The app's sound settings. The widget target leaves this file out (a membership exception).
@MainActor
final class Settings {
    static let shared = Settings()

    var volume: Int = 5
    var isMuted: Bool = false

    func mute() {
        isMuted = true
    }

    func louder() {
        volume = min(volume + 1, 10)
        isMuted = false
    }
}
