import Foundation

/// The items the shopper has picked, in the order they were added.
struct Cart: Equatable, Sendable {

    /// One row of the cart screen: an item and how many of it are in the cart.
    struct Line: Equatable, Sendable {
        let item: Item
        let quantity: Int

        var subtotal: Decimal {
            item.price * Decimal(quantity)
        }
    }

    private(set) var items: [Item] = []

    var isEmpty: Bool {
        items.isEmpty
    }

    var total: Decimal {
        items.reduce(Decimal.zero) { $0 + $1.price }
    }

    /// One line per distinct item, in the order each item was first added.
    var lines: [Line] {
        var order: [Int] = []
        var quantities: [Int: (item: Item, count: Int)] = [:]
        for item in items {
            if let entry = quantities[item.id] {
                quantities[item.id] = (entry.item, entry.count + 1)
            } else {
                order.append(item.id)
                quantities[item.id] = (item, 1)
            }
        }
        return order.compactMap { id in
            quantities[id].map { Line(item: $0.item, quantity: $0.count) }
        }
    }

    mutating func add(_ item: Item) {
        items.append(item)
    }
}
