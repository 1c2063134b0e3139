/// Changes the singleton's value through a member only a setter can reach: `addItem`, a `mutating
/// func` declared where `Depot` is never named (a load of `Depot`'s files alone sees a read).
@MainActor
public final class Checkout {
    public init() {}

    public func buy(_ item: String) {
        Depot.shared.basket.addItem(item)
    }
}

/// A base class and its subclass that both use the singleton: the subclass's own init is
/// re-declared over the base's new one without `override`.
@MainActor
public class Gate {
    public init() {}

    public func enter() {
        Depot.shared.visit()
    }
}

@MainActor
public final class TurnstileGate: Gate {
    public func count() -> Int {
        Depot.shared.visits
    }
}

/// Reads the singleton in `@inlinable` code, which reads only public and `@usableFromInline`
/// declarations: the property `inject` gives it is `@usableFromInline`.
@MainActor
public final class Kiosk {
    public init() {}

    @inlinable public func visitsSoFar() -> Int {
        Depot.shared.visits
    }
}

/// Plain consumers the journey migrates.
@MainActor
public final class Poster {
    public init() {}

    public func text() -> String {
        "Depot: " + Depot.shared.motto
    }
}

@MainActor
public struct Ticket {
    public var number: Int

    public func line() -> String {
        "#\(number) after \(Depot.shared.visits) visits"
    }
}

@MainActor
public enum Counter {
    public static func makeTicket(_ number: Int) -> Ticket {
        Ticket(number: number)
    }
}
