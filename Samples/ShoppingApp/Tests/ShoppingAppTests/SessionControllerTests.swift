import Foundation
import Testing
@testable import ShoppingApp

/// The session model on its own; each test makes its own instance.
@MainActor
struct SessionControllerTests {

    @Test func startsSignedOutWithAnEmptyCart() {
        let session = SessionController()
        #expect(session.currentUser == nil)
        #expect(session.cart.isEmpty)
        #expect(session.fetchedItems.isEmpty)
        #expect(session.availableItems.isEmpty)
    }

    @Test func availableItemsLeaveOutSoldOutItems() {
        let session = SessionController()
        session.fetchAvailableItems()

        #expect(session.fetchedItems.count == 5)
        #expect(session.availableItems.map(\.name) == ["Coffee Beans", "Mug", "Filter Papers"])
        #expect(session.availableItems.allSatisfy { $0.status == .available })

        session.fetchAvailableItems()
        #expect(session.fetchedItems.count == 5)
    }

    @Test func addingToTheCart() throws {
        let session = SessionController()
        session.fetchAvailableItems()
        let mug = try #require(session.availableItems.first { $0.name == "Mug" })

        session.addItemToCart(item: mug)
        session.addItemToCart(item: mug)

        #expect(session.cart.items == [mug, mug])
        #expect(session.cart.total == Decimal(16))
    }
}
