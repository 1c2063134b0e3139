/// Reminds the user of unread messages.
@MainActor
final class NotificationScheduler {
    func remindIfNeeded() -> Int {
        if AppServices.shared.notificationsEnabled && AppServices.shared.unreadCount > 0 {
            AppServices.shared.scheduleNotification(title: "\(AppServices.shared.unreadCount) unread")
        }
        return AppServices.shared.pendingNotificationCount
    }
}
