import Testing
import UIKit
@testable import ShoppingApp

/// The shop screen on its own, created the way the coordinator creates it.
@MainActor
struct ItemListViewControllerTests {

    @Test func showsOnlyAvailableItemsOnceLoaded() throws {
        let itemList = ItemListViewController()
        #expect(!itemList.isViewLoaded)

        itemList.loadViewIfNeeded()

        // Five items in the catalogue, two of them sold out.
        #expect(itemList.label("itemList.header")?.text == "5 items in the catalogue")
        let rows = itemList.view.descendants(UILabel.self, identifierPrefix: "itemList.item.", suffix: ".name")
        #expect(rows.map(\.text) == ["Coffee Beans", "Mug", "Filter Papers"])
        #expect(itemList.label("itemList.item.3.price")?.text == "$8.00")
        #expect(itemList.button("itemList.item.2.add") == nil)
        #expect(itemList.button("itemList.item.4.add") == nil)
    }

    @Test func eachAddButtonAddsOneItemToTheBadge() throws {
        let itemList = ItemListViewController()
        itemList.loadViewIfNeeded()
        let before = try #require(firstNumber(in: itemList.label("itemList.cartBadge")?.text))

        try #require(itemList.button("itemList.item.3.add")).tap()
        try #require(itemList.button("itemList.item.1.add")).tap()

        #expect(itemList.label("itemList.cartBadge")?.text == "Cart (\(before + 2))")
    }

    @Test func buttonsCallBackTheCoordinator() throws {
        let itemList = ItemListViewController()
        var shown: [String] = []
        itemList.onShowCart = { shown.append("cart") }
        itemList.onShowProfile = { shown.append("profile") }
        itemList.loadViewIfNeeded()

        try #require(itemList.button("itemList.showCart")).tap()
        try #require(itemList.button("itemList.showProfile")).tap()

        #expect(shown == ["cart", "profile"])
    }

    @Test func theAddActionDoesNotKeepTheScreenAlive() throws {
        weak var weakItemList: ItemListViewController?
        var addButton: UIButton?
        do {
            let itemList = ItemListViewController()
            itemList.loadViewIfNeeded()
            weakItemList = itemList
            addButton = itemList.button("itemList.item.1.add")
        }

        #expect(weakItemList == nil)
        // Tapping a button that outlived its screen must not crash.
        try #require(addButton).tap()
    }
}
