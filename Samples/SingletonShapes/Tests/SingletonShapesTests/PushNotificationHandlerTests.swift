import Testing
@testable import SingletonShapes

/// Shape 7, `static let sharedController: NotificationRouter` taking an instance made elsewhere.
@MainActor
struct PushNotificationHandlerTests {

    let handler = PushNotificationHandler()

    @Test func opensTheOrder() {
        #expect(handler.screen(for: ["category": "order", "orderID": "42"]) == .order(id: "42"))
    }

    @Test func fallsBackToTheInbox() {
        #expect(handler.screen(for: ["category": "message"]) == .inbox)
        #expect(handler.screen(for: ["category": "order"]) == .inbox)
        #expect(handler.screen(for: ["category": "unknown"]) == .inbox)
        #expect(handler.screen(for: [:]) == .inbox)
    }

    @Test func aRouterUsesTheLatestRouteForACategory() {
        let router = NotificationRouter()
        router.register(category: "message") { _ in .settings }
        #expect(router.destination(for: ["category": "message"]) == .settings)
    }
}
