import Testing
@testable import GodObject

/// A consumer of the god object against one generated slice double.
@MainActor
@Suite struct DoubleTests {
    /// Stubbed counts and a spy on the increment: the badge shows what the slice says.
    @Test func aNewMessageIncrementsTheCountAndTheBadgeShowsUnreadAndPending() {
        let counting = UnreadCountingMock()
        counting.pendingNotificationCount = 2
        counting.incrementUnreadCountHandler = { counting.unreadCountText = "3" }
        let badge = BadgeUpdater(unreadCounting: counting)

        badge.newMessageArrived()

        #expect(counting.incrementUnreadCountCallCount == 1)
        #expect(badge.badge == "3 (+2)")
    }
}
