import Foundation

/// Loads the files attached to messages.
@MainActor
final class AttachmentLoader {

    /// What the server says is available.
    struct Manifest: Decodable, Equatable {
        let version: Int
        let files: [String]
    }

    private let baseURL: URL

    init(baseURL: URL) {
        self.baseURL = baseURL
    }

    func text(named name: String) async throws -> String {
        let data = try await DownloadManager.sharedInstance().download(baseURL.appendingPathComponent(name))
        return String(decoding: data, as: UTF8.self)
    }

    func manifest() async throws -> Manifest {
        let url = baseURL.appendingPathComponent("manifest.json")
        return try await DownloadManager.sharedInstance().decode(Manifest.self, from: url)
    }
}
