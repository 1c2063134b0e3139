import Foundation

/// The app's god object: accounts, the inbox, drafts, settings, notifications, sync, analytics,
/// search, contacts, the image cache and the log, all behind one shared instance.
@MainActor
final class AppServices {
    static let shared = AppServices()

    // MARK: Account

    var accountID: String?
    var accountName = ""
    var isSignedIn: Bool { accountID != nil }
    var lastAccountRefresh: Date?
    var accountAvatarURL: URL?

    func signIn(user: String) {
        accountID = user.lowercased()
        accountName = user
    }

    func signOut() {
        accountID = nil
        accountName = ""
    }

    func refreshAccount() {
        lastAccountRefresh = Date()
        accountAvatarURL = accountID.flatMap { URL(string: "https://example.com/avatars/\($0)") }
    }

    // MARK: Unread

    var unreadCount = 0
    var unreadCountText: String { unreadCount == 0 ? "" : "\(unreadCount)" }

    func resetUnreadCount() {
        unreadCount = 0
    }

    func incrementUnreadCount() {
        unreadCount += 1
    }

    // MARK: Inbox

    var messages: [Message] = []
    var messageCount: Int { messages.count }

    func loadMessages() {
        let start = messages.count
        messages += (start..<start + 3).map { Message(id: $0, subject: "Message \($0)") }
        unreadCount += 3
    }

    func message(id: Int) -> Message? {
        messages.first { $0.id == id }
    }

    func markMessageRead(id: Int) {
        guard let index = messages.firstIndex(where: { $0.id == id }), !messages[index].isRead else { return }
        messages[index].isRead = true
        unreadCount = max(0, unreadCount - 1)
    }

    func deleteMessage(id: Int) {
        messages.removeAll { $0.id == id }
    }

    func archiveMessage(id: Int) {
        guard let index = messages.firstIndex(where: { $0.id == id }) else { return }
        messages[index].isArchived = true
    }

    // MARK: Drafts

    var drafts: [Draft] = []
    var draftCount: Int { drafts.count }

    func saveDraft(_ text: String) {
        drafts.append(Draft(id: drafts.count, text: text))
    }

    func discardDraft(id: Int) {
        drafts.removeAll { $0.id == id }
    }

    // MARK: Theme

    var themeName = "Light"
    var fontSize: Double = 14
    var isDarkMode = false

    func toggleDarkMode() {
        isDarkMode.toggle()
        themeName = isDarkMode ? "Dark" : "Light"
    }

    func applyTheme(named name: String) {
        themeName = name
        isDarkMode = name == "Dark"
    }

    // MARK: Notifications

    var notificationsEnabled = false
    var pendingNotificationCount = 0

    func enableNotifications() {
        notificationsEnabled = true
    }

    func disableNotifications() {
        notificationsEnabled = false
        pendingNotificationCount = 0
    }

    func scheduleNotification(title: String) {
        guard notificationsEnabled, !title.isEmpty else { return }
        pendingNotificationCount += 1
    }

    // MARK: Sync

    var isSyncing = false
    var lastSyncDate: Date?
    var syncInterval: TimeInterval = 300

    func syncNow() {
        isSyncing = true
        lastSyncDate = Date()
        isSyncing = false
    }

    func cancelSync() {
        isSyncing = false
    }

    // MARK: Analytics

    var trackedEvents: [String] = []

    func trackEvent(_ name: String) {
        trackedEvents.append(name)
    }

    func trackScreen(_ name: String) {
        trackedEvents.append("screen:" + name)
    }

    func flushTrackedEvents() -> Int {
        defer { trackedEvents.removeAll() }
        return trackedEvents.count
    }

    // MARK: Search

    var searchQuery = ""
    var searchResults: [Message] = []

    func search(for query: String) {
        searchQuery = query
        searchResults = messages.filter { $0.subject.localizedCaseInsensitiveContains(query) }
    }

    func clearSearch() {
        searchQuery = ""
        searchResults = []
    }

    // MARK: Contacts

    var contacts: [String] = []
    var favoriteContacts: Set<String> = []
    var contactCount: Int { contacts.count }

    func addContact(name: String) {
        contacts.append(name)
    }

    func removeContact(name: String) {
        contacts.removeAll { $0 == name }
        favoriteContacts.remove(name)
    }

    // MARK: Image cache

    var cachedImageCount = 0
    var cacheSizeInBytes = 0

    func clearImageCache() {
        cachedImageCount = 0
        cacheSizeInBytes = 0
    }

    // MARK: Log

    var logLines: [String] = []

    func log(_ line: String) {
        logLines.append(line)
    }

    func clearLog() {
        logLines.removeAll()
    }

    // MARK: Unused by the screens

    var version = "1.0"
    var buildNumber = 1
    var debugDescriptionText: String { "\(version) (\(buildNumber))" }

    func resetAll() {
        signOut()
        messages = []
        drafts = []
        unreadCount = 0
    }
}
