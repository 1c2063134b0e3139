import Testing
@testable import GodObject

/// The screens and services, driven through their own methods. The app's state is shared, so each
/// test checks changes relative to what it found, and passes alone or in any order.
@MainActor
struct ScreenTests {
    @Test func theInboxListsMessagesAndClearsItsBadge() {
        let inbox = InboxScreen()
        inbox.appear()
        #expect(!inbox.rows.isEmpty)
        inbox.markAllSeen()
        #expect(inbox.badge.hasSuffix(", 0 unread"))
    }

    @Test func readingAMessageMarksItAndArchivingHidesIt() throws {
        let inbox = InboxScreen()
        inbox.appear()
        let before = inbox.rows.count
        let screen = MessageScreen(messageID: try #require(firstVisibleMessage()))
        screen.appear()
        #expect(screen.title.hasPrefix("Message "))
        screen.archive()
        inbox.appear()
        #expect(inbox.rows.count == before - 1)
    }

    @Test func aDeletedMessageIsGone() throws {
        InboxScreen().appear()
        let id = try #require(firstVisibleMessage())
        let screen = MessageScreen(messageID: id)
        screen.delete()
        screen.appear()
        #expect(screen.title == "(deleted)")
    }

    @Test func draftsAreSignedAndCounted() {
        _ = LoginFlow().signIn(as: "Ada")
        let compose = ComposeScreen()
        compose.appear()
        #expect(compose.signature.hasPrefix("-- "))
        let count = compose.saveDraft("hello")
        #expect(count >= 1)
        compose.discardAll()
        #expect(compose.saveDraft("again") == 1)
        compose.discardAll()
    }

    @Test func theAccountScreenRefreshesAndSignsOut() {
        _ = LoginFlow().signIn(as: "Grace")
        let account = AccountScreen()
        account.appear()
        #expect(account.lines.count == 4)
        #expect(account.lines[3] == "refreshed")
        account.signOut()
        #expect(account.lines.isEmpty)
        #expect(LoginFlow().signIn(as: "Linus") == "linus")
    }

    @Test func settingsChangeTheThemeAndNotifications() {
        let settings = SettingsScreen()
        settings.choose(theme: "Dark", fontSize: 18)
        #expect(settings.summary.hasPrefix("Dark, 18 pt"))
        settings.toggleDarkMode()
        #expect(settings.summary.hasPrefix("Light"))
        settings.setNotifications(true)
        #expect(settings.summary.hasSuffix("notifications on"))
        settings.setNotifications(false)
        #expect(settings.summary.hasSuffix("notifications off"))
    }

    @Test func remindersNeedNotificationsAndUnreadMail() {
        let settings = SettingsScreen()
        settings.setNotifications(true)
        BadgeUpdater().newMessageArrived()
        let scheduler = NotificationScheduler()
        let first = scheduler.remindIfNeeded()
        #expect(scheduler.remindIfNeeded() == first + 1)
        let badge = BadgeUpdater()
        badge.update()
        #expect(badge.badge.contains("(+"))
        settings.setNotifications(false)
        #expect(scheduler.remindIfNeeded() == 0)
    }

    @Test func syncLoadsMailAndLogs() {
        let sync = SyncCoordinator()
        let lines = DebugScreen().report()
        sync.run()
        #expect(sync.runs == 1)
        #expect(sync.interval == 300)
        #expect(DebugScreen().report()[2] == "synced: yes")
        #expect(lines.count == 3)
        sync.stop()
    }

    @Test func searchFindsLoadedMessages() {
        let search = SearchScreen()
        #expect(!search.search("Message").isEmpty)
        #expect(search.search("no such subject").isEmpty)
        #expect(search.cancel() == "")
    }

    @Test func contactsAreAddedAndRemoved() {
        let contacts = ContactsScreen()
        let name = "Contact \(Int.random(in: 0..<1_000_000))"
        let count = contacts.add(name)
        contacts.favorite(name)
        #expect(contacts.remove(name) == count - 1)
    }

    @Test func theJanitorFreesTheCache() {
        let janitor = CacheJanitor()
        _ = janitor.freeMemory()
        #expect(janitor.freeMemory() == 0)
        #expect(DebugScreen().report()[1] == "images: 0")
    }

    @Test func analyticsUploadsForSignedInUsers() {
        _ = LoginFlow().signIn(as: "Barbara")
        _ = SearchScreen().search("x")
        let uploader = AnalyticsUploader()
        uploader.upload()
        #expect(uploader.uploaded >= 1)
    }

    @Test func aFreshServicesObjectStartsEmpty() {
        let services = AppServices()
        #expect(services.messageCount == 0)
        #expect(services.debugDescriptionText == "1.0 (1)")
        services.loadMessages()
        #expect(services.unreadCountText == "3")
        services.resetAll()
        #expect(services.unreadCount == 0)
        #expect(!services.isSignedIn)
    }

    /// The first message the inbox shows (not archived, not deleted).
    private func firstVisibleMessage() -> Int? {
        let inbox = InboxScreen()
        inbox.appear()
        return inbox.rows.first.flatMap { Int($0.dropFirst("Message ".count)) }
    }
}
