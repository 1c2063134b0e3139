/// One message: reading it marks it read; it can be archived or deleted.
@MainActor
final class MessageScreen {
    let messageID: Int
    private(set) var title = ""

    init(messageID: Int) {
        self.messageID = messageID
    }

    func appear() {
        title = AppServices.shared.message(id: messageID)?.subject ?? "(deleted)"
        AppServices.shared.markMessageRead(id: messageID)
        AppServices.shared.trackEvent("message.open")
    }

    func archive() {
        AppServices.shared.archiveMessage(id: messageID)
        AppServices.shared.trackEvent("message.archive")
    }

    func delete() {
        AppServices.shared.deleteMessage(id: messageID)
        AppServices.shared.trackEvent("message.delete")
    }
}
