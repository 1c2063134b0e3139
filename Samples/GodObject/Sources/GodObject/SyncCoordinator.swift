/// Fetches new mail and account changes on a timer.
@MainActor
final class SyncCoordinator {
    private(set) var runs = 0

    var interval: Double { AppServices.shared.syncInterval }

    func run() {
        guard !AppServices.shared.isSyncing else { return }
        AppServices.shared.syncNow()
        AppServices.shared.loadMessages()
        AppServices.shared.refreshAccount()
        AppServices.shared.log("synced at \(AppServices.shared.lastSyncDate?.timeIntervalSince1970 ?? 0)")
        runs += 1
    }

    func stop() {
        AppServices.shared.cancelSync()
    }
}
