import Foundation
import Testing
@testable import Core

@Suite struct DoubleTests {
    /// The sync service against a stubbed provider: it uploads what is pending and clears it.
    @Test func syncUploadsWhatTheProviderHasPendingAndClearsIt() {
        let provider = PendingUploadProviderMock()
        provider.pendingUpload = ["theme", "fontSize"]
        let sync = SyncService(pendingUploadProvider: provider)

        sync.upload()

        #expect(sync.uploaded == ["theme", "fontSize"])
        #expect(provider.pendingUpload.isEmpty)
        #expect(provider.pendingUploadSetCallCount == 2)
    }

    /// The `Sendable` double counts every call when many tasks call it at once.
    @Test func theSendableDoubleCountsCallsFromManyTasks() async {
        let fontSize = FontSizeProvidingMock(cacheDirectory: URL(fileURLWithPath: "/tmp"))
        let total = ManagedTotal()
        fontSize.increaseFontSizeHandler = { step in total.add(step) }
        let slice: any FontSizeProviding = fontSize

        await withTaskGroup(of: Void.self) { group in
            for task in 0..<200 {
                group.addTask {
                    for _ in 0..<5 { slice.increaseFontSize(by: task % 3) }
                    slice.increaseFontSize()
                }
            }
        }

        #expect(fontSize.increaseFontSizeCallCount == 1200)
        #expect(fontSize.increaseFontSizeArgValues.count == 1200)
        #expect(fontSize.increaseFontSizeArgValues.filter { $0 == 1 }.count == 200 + 5 * 67)
        #expect(total.value == fontSize.increaseFontSizeArgValues.reduce(0, +))
    }
}

/// A sum that many tasks add to.
final class ManagedTotal: @unchecked Sendable {
    private let lock = NSLock()
    private var sum = 0

    func add(_ step: Int) { lock.withLock { sum += step } }
    var value: Int { lock.withLock { sum } }
}
