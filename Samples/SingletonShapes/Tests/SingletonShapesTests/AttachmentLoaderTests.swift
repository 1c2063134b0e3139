import Foundation
import Testing
@testable import SingletonShapes

/// Shape 5, `class func sharedInstance()`, with an `async throws` and a generic member.
@MainActor
struct AttachmentLoaderTests {

    let loader = AttachmentLoader(baseURL: URL(string: "https://files.example.com/attachments")!)

    @Test func loadsText() async throws {
        #expect(try await loader.text(named: "welcome.txt") == "Welcome to the shop!")
    }

    @Test func decodesTheManifest() async throws {
        #expect(try await loader.manifest() == AttachmentLoader.Manifest(version: 3, files: ["welcome.txt"]))
    }

    @Test func aMissingFileThrows() async {
        let missing = URL(string: "https://files.example.com/attachments/missing.txt")!
        await #expect(throws: DownloadManager.DownloadError.notFound(missing)) {
            try await loader.text(named: "missing.txt")
        }
    }
}
