import Core

/// The settings screen: offers to restore the defaults.
public final class SettingsScreen {
    public init() {}

    public var canRestoreDefaults: Bool { !Settings.shared.isDefault }

    public func restoreDefaults() {
        Settings.shared.reset()
    }
}
