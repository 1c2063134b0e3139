import UIKit

/// A hidden screen for testers: shows each feature flag with a button to flip it, and a
/// button to drop every override.
final class DebugSettingsViewController: UIViewController {

    private let flags: [FeatureFlags.Flag]
    private var stateLabels: [FeatureFlags.Flag: UILabel] = [:]
    private let resetButton = UIButton(type: .system)

    init(flags: [FeatureFlags.Flag] = FeatureFlags.Flag.allCases) {
        self.flags = flags
        super.init(nibName: nil, bundle: nil)
        title = "Debug"
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    override func viewDidLoad() {
        super.viewDidLoad()

        for flag in flags {
            let stateLabel = UILabel()
            stateLabel.accessibilityIdentifier = "debug.\(flag.rawValue).state"
            stateLabels[flag] = stateLabel

            let toggleButton = UIButton(type: .system)
            toggleButton.setTitle("Toggle", for: .normal)
            toggleButton.accessibilityIdentifier = "debug.\(flag.rawValue).toggle"
            toggleButton.addAction(UIAction { [weak self] _ in
                let flags = FeatureFlags.shared
                flags.setOverride(!flags.isEnabled(flag), for: flag)
                self?.updateLabels()
            }, for: .touchUpInside)

            view.addSubview(UIStackView(arrangedSubviews: [stateLabel, toggleButton]))
        }

        resetButton.setTitle("Reset all flags", for: .normal)
        resetButton.accessibilityIdentifier = "debug.reset"
        resetButton.addAction(UIAction { [weak self] _ in
            FeatureFlags.reset()
            self?.updateLabels()
        }, for: .touchUpInside)
        view.addSubview(resetButton)

        updateLabels()
    }

    private func updateLabels() {
        for (flag, label) in stateLabels {
            label.text = "\(flag.rawValue): \(FeatureFlags.shared.isEnabled(flag) ? "on" : "off")"
        }
    }
}
