import Testing
@testable import Core

@Suite struct SyncServiceTests {
    /// Uploads whatever settings changed; other tests change them meanwhile.
    @Test func uploadsOnlySettingKeys() {
        let sync = SyncService()
        sync.upload()
        #expect(sync.uploaded.allSatisfy { ["theme", "fontSize"].contains($0) })
    }
}
