/// A value the app's store holds and consumers change in place (this file never names the store).
public struct Basket: Sendable {
    public private(set) var items: [String] = []

    public mutating func addItem(_ item: String) {
        items.append(item)
    }
}
