/// Sends local changes to the server.
@MainActor
final class SyncEngine {

    private(set) var syncedCount = 0

    /// Syncs `items` and returns how many were sent.
    @discardableResult
    func sync(_ items: [String]) -> Int {
        Logger.shared.log("Syncing \(items.count) items")
        for item in items {
            Logger.shared.log("Sent \(item)", level: .debug)
        }
        if items.isEmpty {
            Logger.shared.log("Nothing to sync", level: .info, file: "SyncEngine")
        }
        syncedCount += items.count
        return items.count
    }

    /// The log lines the sync engine wrote, for bug reports.
    func diagnostics() -> [String] {
        Logger.shared.entries.filter {
            $0.hasPrefix("[SingletonShapes/SyncEngine.swift]") || $0.hasPrefix("[SyncEngine]")
        }
    }
}
