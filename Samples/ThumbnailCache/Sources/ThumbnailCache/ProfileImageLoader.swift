import UIKit

/// Downloads profile pictures.
///
/// The image API is not ready yet, so this makes a stand-in picture for each user and
/// returns it at once. It counts its downloads so the cache's effect can be measured.
@MainActor
final class ProfileImageLoader {

    private(set) var downloadCount = 0

    func downloadProfileImage(forUserId userId: String) -> UIImage {
        downloadCount += 1
        return UIImage(data: Data("profile-photo:\(userId)".utf8))!
    }
}
