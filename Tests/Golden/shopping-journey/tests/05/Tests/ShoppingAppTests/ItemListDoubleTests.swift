import Testing
import UIKit
@testable import ShoppingApp

/// The shop screen against the generated doubles of its slices: no session, no catalogue.
@MainActor
struct ItemListDoubleTests {

    @Test func showsWhatTheFetcherStubsAndAsksItToFetchOnce() throws {
        let mug = Item(id: 7, name: "Mug", price: 12, status: .available)
        let fetcher = ItemFetcherMock()
        fetcher.fetchedItems = [mug, Item(id: 8, name: "Kettle", price: 30, status: .soldOut)]
        fetcher.availableItems = [mug]
        let itemList = ItemListViewController(currentCart: CurrentCartMock(cart: Cart()), itemFetcher: fetcher)

        itemList.loadViewIfNeeded()

        #expect(fetcher.fetchAvailableItemsCallCount == 1)
        #expect(itemList.label("itemList.header")?.text == "2 items in the catalogue")
        #expect(itemList.label("itemList.item.7.name")?.text == "Mug")
        #expect(itemList.button("itemList.item.8.add") == nil)
    }

    @Test func tappingAddHandsTheItemToTheCart() throws {
        let mug = Item(id: 7, name: "Mug", price: 12, status: .available)
        let fetcher = ItemFetcherMock()
        fetcher.availableItems = [mug]
        let cart = CurrentCartMock(cart: Cart())
        cart.addItemToCartHandler = { [unowned cart] item in cart.cart.add(item) }
        let itemList = ItemListViewController(currentCart: cart, itemFetcher: fetcher)
        itemList.loadViewIfNeeded()

        try #require(itemList.button("itemList.item.7.add")).tap()

        #expect(cart.addItemToCartCallCount == 1)
        #expect(cart.addItemToCartArgValues == [mug])
        #expect(itemList.label("itemList.cartBadge")?.text == "Cart (1)")
    }
}
