import UIKit

/// Shows the volume; only the app has it.
@MainActor
final class SettingsScreen: UIViewController {
    let volumeLabel = UILabel()

    override func viewDidLoad() {
        super.viewDidLoad()
        view.addSubview(volumeLabel)
        refresh()
    }

    func louder() {
        Settings.shared.louder()
        refresh()
    }

    func mute() {
        Settings.shared.mute()
        refresh()
    }

    func refresh() {
        volumeLabel.text = Settings.shared.isMuted ? "muted" : "volume \(Settings.shared.volume)"
    }
}
