import Testing
@testable import SingletonShapes

/// Shape 6, `static var shared` set up by a closure, with `#fileID` as a default argument.
@MainActor
struct SyncEngineTests {

    @Test func syncingLogsFromTheCallersFile() {
        let engine = SyncEngine()
        let items = ["note-\(Int.random(in: 1000...9999))", "photo"]

        #expect(engine.sync(items) == 2)

        #expect(engine.syncedCount == 2)
        #expect(engine.diagnostics().contains("[SingletonShapes/SyncEngine.swift] Syncing 2 items"))
    }

    @Test func anExplicitFileIsKept() {
        let engine = SyncEngine()
        engine.sync([])
        #expect(engine.syncedCount == 0)
        #expect(engine.diagnostics().contains("[SyncEngine] Nothing to sync"))
    }

    @Test func anInstanceDropsMessagesBelowItsLevel() {
        let logger = Logger()
        logger.log("details", level: .debug)
        logger.log("hello")
        logger.minimumLevel = .error
        logger.log("ignored")

        #expect(logger.entries == ["[SingletonShapesTests/SyncEngineTests.swift] hello"])
    }
}
