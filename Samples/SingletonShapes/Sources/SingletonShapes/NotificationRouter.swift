/// Decides which screen a push notification opens.
@MainActor
final class NotificationRouter {

    // Khanlou's article declares `static let sharedController: SessionController` and sets the
    // instance up elsewhere. Swift needs the value of a `static let` in its declaration, so the
    // closest form that compiles keeps the explicit type and takes the instance the launch code
    // builds: `launchNotificationRouter`, in LaunchRouting.swift.
    static let sharedController: NotificationRouter = launchNotificationRouter

    enum Destination: Equatable, Sendable {
        case inbox
        case order(id: String)
        case settings
    }

    private var routes: [String: @MainActor ([String: String]) -> Destination?] = [:]

    init() {
        register(category: "message") { _ in .inbox }
        register(category: "order") { payload in
            payload["orderID"].map { .order(id: $0) }
        }
    }

    /// Routes notifications of `category` with `route`, replacing any earlier route for it.
    func register(category: String, route: @escaping @MainActor ([String: String]) -> Destination?) {
        routes[category] = route
    }

    /// Where the notification with this payload should go, or `nil` to just open the app.
    func destination(for userInfo: [String: String]) -> Destination? {
        guard let category = userInfo["category"], let route = routes[category] else {
            return nil
        }
        return route(userInfo)
    }
}
