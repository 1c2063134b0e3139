import SwiftUI

/// The books and how they are shown: the singleton every view reaches for.
@MainActor
public final class Library {
    public static let shared = Library()

    public private(set) var titles: [String] = ["Dune", "Emma", "Ulysses"]
    public private(set) var fontSize = 14

    init() {}

    public func add(_ title: String) {
        titles.append(title)
    }

    public func enlarge() {
        fontSize += 2
    }
}
