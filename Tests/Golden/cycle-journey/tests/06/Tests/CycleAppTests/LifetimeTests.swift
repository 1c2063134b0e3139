import Testing
@testable import CycleApp

/// After `finish`, the root owns the player and the sync service: they live as long as it does, and
/// the back edge between them (the player's `weak` property) keeps them from holding each other.
@MainActor
struct LifetimeTests {
    @Test func theInstancesGoWithTheRoot() {
        weak var player: AnyObject?
        weak var syncService: AnyObject?
        do {
            let root = AppRoot()
            root.makeNowPlaying().tapPlay("ep-3")
            #expect(root.makeProgress().resume == "ep-3")
            for child in Mirror(reflecting: root).children {
                if child.label == "player" { player = child.value as AnyObject }
                if child.label == "syncService" { syncService = child.value as AnyObject }
            }
            #expect(player != nil)
            #expect(syncService != nil)
        }
        #expect(player == nil)
        #expect(syncService == nil)
    }

    @Test func eachRootHasItsOwn() {
        let first = AppRoot()
        let second = AppRoot()
        first.makeNowPlaying().tapPlay("ep-4")
        #expect(first.makeProgress().resume == "ep-4")
        #expect(second.makeProgress().resume == "-")
    }
}
