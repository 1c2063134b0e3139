import Testing
import UIKit
@testable import ShoppingApp

/// The cart screen on its own, created the way the coordinator creates it.
@MainActor
struct CartViewControllerTests {

    @Test func usesTheTitleItIsGiven() {
        let cart = CartViewController(title: "Your Basket")
        #expect(cart.title == "Your Basket")
        #expect(!cart.isViewLoaded)
    }

    @Test func theTotalIsTheSumOfTheLines() throws {
        let cart = CartViewController(title: "Cart")
        cart.loadViewIfNeeded()

        let subtotals = cart.view.descendants(UILabel.self, identifierPrefix: "cart.line.", suffix: ".subtotal")
        let sum = try subtotals.reduce(Decimal.zero) { try $0 + #require(dollars(in: $1.text)) }
        #expect(dollars(in: cart.label("cart.total")?.text) == sum)
        #expect(cart.label("cart.empty")?.isHidden == !subtotals.isEmpty)
    }
}
