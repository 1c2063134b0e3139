import Foundation

/// Something the shop sells.
struct Item: Hashable, Identifiable, Sendable {

    /// Whether the item can be bought right now.
    enum Status: Hashable, Sendable {
        case available
        case soldOut
    }

    let id: Int
    let name: String
    let price: Decimal
    var status: Status
}
