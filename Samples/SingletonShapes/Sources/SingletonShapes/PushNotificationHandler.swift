/// Turns an incoming push notification into the screen to open.
@MainActor
struct PushNotificationHandler {

    /// The screen to open for `userInfo`; the inbox when the router has no better idea.
    func screen(for userInfo: [String: String]) -> NotificationRouter.Destination {
        NotificationRouter.sharedController.destination(for: userInfo) ?? .inbox
    }
}
