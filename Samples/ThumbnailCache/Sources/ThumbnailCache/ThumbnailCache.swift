import UIKit

/// Keeps downloaded profile pictures in memory, by user ID.
///
/// Thread-safe: images may be cached from any thread.
final class ThumbnailCache: @unchecked Sendable {

    static let sharedThumbnailCache = ThumbnailCache()

    private let lock = NSLock()
    private var imagesByUserId: [String: UIImage] = [:]

    func cacheProfileImage(_ image: UIImage, forUserId userId: String) {
        lock.lock()
        defer { lock.unlock() }
        imagesByUserId[userId] = image
    }

    func cachedProfileImage(forUserId userId: String) -> UIImage? {
        lock.lock()
        defer { lock.unlock() }
        return imagesByUserId[userId]
    }

    /// Forgets every cached image. Called when the user logs out, so the next account
    /// does not see this one's pictures.
    func tearDown() {
        lock.lock()
        defer { lock.unlock() }
        imagesByUserId.removeAll()
    }
}
