import Foundation
import Testing
@testable import ShoppingApp

struct CartTests {

    private let beans = Item(id: 1, name: "Coffee Beans", price: Decimal(string: "12.50")!, status: .available)
    private let mug = Item(id: 3, name: "Mug", price: Decimal(8), status: .available)

    @Test func linesGroupItemsInTheOrderTheyWereFirstAdded() {
        var cart = Cart()
        cart.add(mug)
        cart.add(beans)
        cart.add(mug)

        #expect(cart.lines == [
            Cart.Line(item: mug, quantity: 2),
            Cart.Line(item: beans, quantity: 1),
        ])
        #expect(cart.lines.first?.subtotal == Decimal(16))
        #expect(cart.total == Decimal(string: "28.50")!)
    }

    @Test func anEmptyCartHasNoLinesAndNoTotal() {
        let cart = Cart()
        #expect(cart.isEmpty)
        #expect(cart.lines.isEmpty)
        #expect(cart.total == .zero)
    }
}
