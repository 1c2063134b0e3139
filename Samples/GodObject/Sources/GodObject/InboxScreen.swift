/// The message list with its unread badge.
@MainActor
final class InboxScreen {
    private(set) var rows: [String] = []
    private(set) var badge = ""

    func appear() {
        AppServices.shared.trackScreen("inbox")
        if AppServices.shared.messages.isEmpty {
            AppServices.shared.loadMessages()
        }
        rows = AppServices.shared.messages.filter { !$0.isArchived }.map(\.subject)
        badge = "\(AppServices.shared.messageCount) messages, \(AppServices.shared.unreadCount) unread"
    }

    func markAllSeen() {
        AppServices.shared.resetUnreadCount()
        badge = "\(AppServices.shared.messageCount) messages, \(AppServices.shared.unreadCount) unread"
    }
}
