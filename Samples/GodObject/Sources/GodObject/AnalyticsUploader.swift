/// Sends tracked events for signed-in users.
@MainActor
final class AnalyticsUploader {
    private(set) var uploaded = 0

    func upload() {
        guard AppServices.shared.isSignedIn, !AppServices.shared.trackedEvents.isEmpty else { return }
        let count = AppServices.shared.flushTrackedEvents()
        uploaded += count
        AppServices.shared.log("uploaded \(count) events")
    }
}
