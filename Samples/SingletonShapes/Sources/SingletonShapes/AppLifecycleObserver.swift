/// Counts sessions: the app delegate calls it each time the app becomes active.
@MainActor
final class AppLifecycleObserver {

    /// Returns the number of the session that just started.
    @discardableResult
    func applicationDidBecomeActive() -> Int {
        Analytics.shared.sessionCount += 1
        let session = Analytics.shared.sessionCount
        Analytics.shared.track("app_active", properties: ["session": "\(session)"])
        return session
    }
}
