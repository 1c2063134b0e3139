import Testing
@testable import GodObject

/// A consumer of the god object against its generated slice doubles.
@MainActor
@Suite struct DoubleTests {
    /// Stubbed counts and a spy on the increment: the badge shows what the slice says.
    @Test func aNewMessageIncrementsTheCountAndTheBadgeShowsUnreadAndPending() {
        let counting = UnreadCountingMock()
        let notifications = PendingNotificationCountProviderMock()
        notifications.pendingNotificationCount = 2
        counting.incrementUnreadCountHandler = { counting.unreadCountText = "3" }
        let badge = BadgeUpdater(unreadCounting: counting, pendingNotificationCountProvider: notifications)

        badge.newMessageArrived()

        #expect(counting.incrementUnreadCountCallCount == 1)
        #expect(badge.badge == "3 (+2)")
    }
}
