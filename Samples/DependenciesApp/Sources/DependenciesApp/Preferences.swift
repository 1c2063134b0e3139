import Foundation

/// The user's preferences, read and changed from any thread.
final class Preferences: @unchecked Sendable {

    static let shared = Preferences()

    private let lock = NSLock()
    private var name = "friend"
    private var metric = true

    var userName: String {
        lock.withLock { name }
    }

    func rename(to newName: String) {
        lock.withLock { name = newName }
    }

    var usesMetricUnits: Bool {
        lock.withLock { metric }
    }

    func switchUnits() {
        lock.withLock { metric.toggle() }
    }
}
