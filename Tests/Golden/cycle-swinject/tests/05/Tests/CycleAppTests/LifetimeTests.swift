import Swinject
import Testing
@testable import CycleApp

/// After `finish --container swinject`, the root's assembler owns the player and the sync service:
/// one of each, made once, living as long as the root; the player's `weak` property keeps the two
/// from holding each other.
@MainActor
struct LifetimeTests {
    @Test func theInstancesGoWithTheRoot() throws {
        weak var player: Player?
        weak var syncService: SyncService?
        do {
            let root = AppRoot()
            root.makeNowPlaying().tapPlay("ep-3")
            #expect(root.makeProgress().resume == "ep-3")
            let assembler = try #require(Mirror(reflecting: root).children.first { $0.label == "assembler" }?.value as? Assembler)
            player = assembler.resolver.resolve(Player.self)
            syncService = assembler.resolver.resolve(SyncService.self)
            #expect(player != nil)
            #expect(syncService != nil)
            #expect(player?.reporting === syncService)
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
