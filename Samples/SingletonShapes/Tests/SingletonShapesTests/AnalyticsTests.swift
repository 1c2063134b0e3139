import Testing
import UIKit
@testable import SingletonShapes

/// Shape 2, the non-strict singleton with an internal `init()`.
@MainActor
struct AnalyticsTests {

    @Test func anInstanceRecordsEventsWithTheirProperties() {
        let analytics = Analytics()

        analytics.track("opened")
        analytics.track("tapped", properties: ["button": "buy"])
        analytics.log(Analytics.Event(name: "tapped"))

        #expect(analytics.events.map(\.name) == ["opened", "tapped", "tapped"])
        #expect(analytics.events.first?.properties == [:])
        #expect(analytics.events(named: "tapped").first?.properties == ["button": "buy"])
        #expect(analytics.sessionCount == 0)
    }

    @Test func placingAnOrderCountsOrders() throws {
        let checkout = CheckoutViewController()
        checkout.total = "$12.00"
        checkout.loadViewIfNeeded()
        let placeOrder = try #require(checkout.button("checkout.placeOrder"))

        placeOrder.tap()
        let first = try #require(firstNumber(in: checkout.label("checkout.status")?.text))
        placeOrder.tap()

        #expect(checkout.label("checkout.status")?.text == "Order placed (\(first + 1) so far)")
    }

    @Test func checkoutShowsTheTotalWhenItAppears() {
        let checkout = CheckoutViewController()
        checkout.total = "$7.50"
        let window = UIWindow(frame: .zero)
        window.rootViewController = checkout
        window.makeKeyAndVisible()

        #expect(checkout.label("checkout.total")?.text == "Total: $7.50")
    }

    @Test func eachActivationStartsANewSession() {
        let observer = AppLifecycleObserver()

        let first = observer.applicationDidBecomeActive()
        let second = observer.applicationDidBecomeActive()

        #expect(first >= 1)
        #expect(second == first + 1)
    }
}

/// The first whole number in `text`.
func firstNumber(in text: String?) -> Int? {
    guard let text else { return nil }
    return Int(text.drop { !$0.isNumber }.prefix { $0.isNumber })
}
