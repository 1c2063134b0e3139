import UIKit

/// A log of changes. `Preferences` makes it while it is itself being made, so it must never be
/// handed `Preferences.shared` through its init.
@MainActor
final class History {
    private(set) var entries: [String] = []

    func record(_ change: String) {
        entries.append("\(change) → \(Preferences.shared.fontSize)")
    }
}
