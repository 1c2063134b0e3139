import Foundation
import Testing
import UIKit
@testable import ShoppingApp

/// The whole app, driven through its coordinator the way a user would drive it.
@MainActor
struct ShoppingFlowTests {

    let window = UIWindow(frame: .zero)
    let coordinator: AppCoordinator

    init() {
        coordinator = AppCoordinator(window: window)
    }

    private var navigationController: UINavigationController {
        coordinator.navigationController
    }

    /// Logs in through the login screen and returns the item list it leads to.
    private func logIn(as name: String) throws -> ItemListViewController {
        let login = try #require(navigationController.topViewController as? LoginViewController)
        login.textField("login.name")?.text = name
        try #require(login.button("login.submit")).tap()
        return try #require(navigationController.topViewController as? ItemListViewController)
    }

    @Test func startShowsTheLoginScreenInTheWindow() {
        coordinator.start()

        #expect(window.rootViewController === navigationController)
        #expect(window.isKeyWindow)
        #expect(navigationController.viewControllers.count == 1)
        #expect(navigationController.topViewController is LoginViewController)
    }

    @Test func loggingInShowsTheShop() throws {
        coordinator.start()

        let itemList = try logIn(as: "Ada")

        #expect(itemList.title == "Shop")
        #expect(itemList.isViewLoaded)
        #expect(navigationController.viewControllers.count == 2)
    }

    @Test func anEmptyNameIsRejected() throws {
        coordinator.start()
        let login = try #require(navigationController.topViewController as? LoginViewController)

        login.textField("login.name")?.text = "   "
        try #require(login.button("login.submit")).tap()

        #expect(navigationController.topViewController === login)
        #expect(login.label("login.error")?.isHidden == false)
        #expect(login.label("login.error")?.text == "Please enter your name.")
    }

    @Test func theProfileShowsTheUserWhoLoggedIn() throws {
        coordinator.start()
        let name = "Grace \(UUID().uuidString.prefix(8))"
        let itemList = try logIn(as: name)

        try #require(itemList.button("itemList.showProfile")).tap()

        let profile = try #require(navigationController.topViewController as? ProfileViewController)
        #expect(profile.title == "Profile")
        #expect(profile.label("profile.name")?.text == name)
    }

    @Test func addingToTheCartUpdatesTheBadgeAndTheCartScreen() throws {
        coordinator.start()
        let itemList = try logIn(as: "Ada")
        let badgeBefore = try #require(firstNumber(in: itemList.label("itemList.cartBadge")?.text))

        // Coffee Beans, $12.50.
        try #require(itemList.button("itemList.item.1.add")).tap()
        #expect(firstNumber(in: itemList.label("itemList.cartBadge")?.text) == badgeBefore + 1)

        try #require(itemList.button("itemList.showCart")).tap()
        let cart = try #require(navigationController.topViewController as? CartViewController)
        #expect(cart.title == "Cart")
        #expect(cart.label("cart.empty")?.isHidden == true)
        let quantityBefore = try #require(firstNumber(in: cart.label("cart.line.1.quantity")?.text))
        let totalBefore = try #require(dollars(in: cart.label("cart.total")?.text))
        #expect(quantityBefore >= 1)
        #expect(cart.label("cart.line.1.quantity")?.text?.hasSuffix("× Coffee Beans") == true)

        try #require(cart.button("cart.line.1.addOneMore")).tap()
        #expect(firstNumber(in: cart.label("cart.line.1.quantity")?.text) == quantityBefore + 1)
        #expect(dollars(in: cart.label("cart.total")?.text) == totalBefore + Decimal(string: "12.50")!)

        // Back in the shop, the badge counts the item added on the cart screen too.
        navigationController.popViewController(animated: true)
        #expect(navigationController.topViewController === itemList)
        #expect(firstNumber(in: itemList.label("itemList.cartBadge")?.text) == badgeBefore + 2)
    }

    @Test func theCartScreenShowsWhatTheShopAdded() throws {
        coordinator.start()
        let itemList = try logIn(as: "Ada")

        // Filter Papers, $3.25; twice.
        let addFilterPapers = try #require(itemList.button("itemList.item.5.add"))
        coordinator.showCart()
        let firstCart = try #require(navigationController.topViewController as? CartViewController)
        let quantityBefore = firstNumber(in: firstCart.label("cart.line.5.quantity")?.text) ?? 0
        let totalBefore = try #require(dollars(in: firstCart.label("cart.total")?.text))
        navigationController.popViewController(animated: false)

        addFilterPapers.tap()
        addFilterPapers.tap()

        coordinator.showCart()
        let cart = try #require(navigationController.topViewController as? CartViewController)
        #expect(cart !== firstCart)
        #expect(firstNumber(in: cart.label("cart.line.5.quantity")?.text) == quantityBefore + 2)
        #expect(dollars(in: cart.label("cart.total")?.text) == totalBefore + Decimal(string: "6.50")!)
    }
}
