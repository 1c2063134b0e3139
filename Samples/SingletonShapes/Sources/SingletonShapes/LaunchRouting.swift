/// The notification router the app launches with: the built-in routes plus the ones only
/// the app target knows about.
@MainActor
let launchNotificationRouter: NotificationRouter = {
    let router = NotificationRouter()
    router.register(category: "promo") { _ in .settings }
    return router
}()
