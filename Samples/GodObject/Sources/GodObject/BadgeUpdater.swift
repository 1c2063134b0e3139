/// The app icon's badge: unread messages and pending reminders.
@MainActor
final class BadgeUpdater {
    private(set) var badge = ""

    func newMessageArrived() {
        AppServices.shared.incrementUnreadCount()
        update()
    }

    func update() {
        let pending = AppServices.shared.pendingNotificationCount
        badge = AppServices.shared.unreadCountText + (pending > 0 ? " (+\(pending))" : "")
    }
}
