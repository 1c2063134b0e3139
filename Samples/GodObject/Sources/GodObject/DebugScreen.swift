/// Internals for support: the log, the cache and the last sync.
@MainActor
final class DebugScreen {
    func report() -> [String] {
        [
            "log: \(AppServices.shared.logLines.count) lines",
            "images: \(AppServices.shared.cachedImageCount)",
            "synced: \(AppServices.shared.lastSyncDate == nil ? "never" : "yes")",
        ]
    }
}
