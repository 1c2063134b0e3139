import Foundation

/// Everything about the shopping session: who is signed in, what is in the cart and what
/// the shop has for sale.
///
/// It started as the place to keep the signed-in user and grew from there. Screens reach it
/// through `sharedController`.
@MainActor
final class SessionController {

    static let sharedController = SessionController()

    init() {
        currentUser = nil
        cart = Cart()
        fetchedItems = []
    }

    var currentUser: User?

    var cart: Cart

    func addItemToCart(item: Item) {
        cart.add(item)
    }

    var fetchedItems: [Item]

    var availableItems: [Item] {
        fetchedItems.filter { $0.status == .available }
    }

    /// Loads the catalogue into `fetchedItems`.
    ///
    /// The shop's catalogue is fixed for now, so this is synchronous; it replaces whatever was
    /// fetched before, so calling it again is harmless.
    func fetchAvailableItems() {
        fetchedItems = [
            Item(id: 1, name: "Coffee Beans", price: Decimal(string: "12.50")!, status: .available),
            Item(id: 2, name: "Grinder", price: Decimal(string: "49.99")!, status: .soldOut),
            Item(id: 3, name: "Mug", price: Decimal(string: "8.00")!, status: .available),
            Item(id: 4, name: "Kettle", price: Decimal(string: "35.00")!, status: .soldOut),
            Item(id: 5, name: "Filter Papers", price: Decimal(string: "3.25")!, status: .available),
        ]
    }
}
