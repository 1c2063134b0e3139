import Foundation

/// Downloads files for the app.
///
/// The server is not wired up yet: downloads come from a fixed set of files in memory.
@MainActor
final class DownloadManager {

    private static let instance = DownloadManager()

    class func sharedInstance() -> DownloadManager {
        return instance
    }

    enum DownloadError: Error, Equatable {
        case notFound(URL)
    }

    /// Downloads in flight.
    private(set) var activeDownloads = 0

    private let files: [String: Data] = [
        "welcome.txt": Data("Welcome to the shop!".utf8),
        "manifest.json": Data(#"{"version": 3, "files": ["welcome.txt"]}"#.utf8),
    ]

    private init() {}

    func download(_ url: URL) async throws -> Data {
        activeDownloads += 1
        defer { activeDownloads -= 1 }

        // Let other work run, as a real download would.
        await Task.yield()
        guard let data = files[url.lastPathComponent] else {
            throw DownloadError.notFound(url)
        }
        return data
    }

    /// Downloads `url` and decodes it as JSON.
    func decode<T>(_ type: T.Type, from url: URL) async throws -> T where T: Decodable {
        let data = try await download(url)
        return try JSONDecoder().decode(type, from: data)
    }
}
