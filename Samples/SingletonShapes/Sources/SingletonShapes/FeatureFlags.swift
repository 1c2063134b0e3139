/// Switches for features that are still being rolled out, with local overrides for testing.
@MainActor
final class FeatureFlags {

    private static var _shared = FeatureFlags()

    static var shared: FeatureFlags {
        return _shared
    }

    /// Drops every override by replacing the shared instance.
    ///
    /// Not airtight: whoever kept a reference to the old instance keeps its overrides.
    static func reset() {
        _shared = FeatureFlags()
    }

    private init() {}

    enum Flag: String, CaseIterable, Sendable {
        case newCheckout = "new_checkout"
        case darkMode = "dark_mode"
    }

    private var overrides: [Flag: Bool] = [:]

    private let defaults: [Flag: Bool] = [
        .newCheckout: false,
        .darkMode: true,
    ]

    func isEnabled(_ flag: Flag) -> Bool {
        overrides[flag] ?? defaults[flag] ?? false
    }

    /// Forces `flag` on or off; `nil` goes back to the default.
    func setOverride(_ value: Bool?, for flag: Flag) {
        overrides[flag] = value
    }
}
