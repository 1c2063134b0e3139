import UIKit

/// The picture to show for an account: its cached profile picture, or a placeholder.
/// Never downloads anything.
struct AvatarProvider {

    let placeholder: UIImage

    func avatar(forUserId userId: String) -> UIImage {
        ThumbnailCache.sharedThumbnailCache.cachedProfileImage(forUserId: userId) ?? placeholder
    }
}
