/// The singleton: a depot everything in the app reaches through `Depot.shared`.
@MainActor
public final class Depot {
    public static let shared = Depot()

    public var basket = Basket()
    public private(set) var visits = 0
    public var motto = "open all night"

    public func visit() {
        visits += 1
    }
}
