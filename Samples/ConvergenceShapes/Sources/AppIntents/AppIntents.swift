/// An action the system runs for the user (Shortcuts, Siri, widgets). The system makes the intent
/// with `init()` and calls `perform()`; Apple's `perform` returns `some IntentResult`.
public protocol AppIntent: Sendable {
    init()
    static var title: String { get }
    func perform() async throws -> String
}

/// An intent that plays audio.
public protocol AudioPlaybackIntent: AppIntent {}

/// Stands in for the system: makes the intent as the system does, through `init()`, and runs it.
public enum IntentSystem {
    public static func run<Intent: AppIntent>(_ type: Intent.Type) async throws -> String {
        try await Intent().perform()
    }
}
