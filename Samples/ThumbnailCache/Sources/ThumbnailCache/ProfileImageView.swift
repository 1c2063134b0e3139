import UIKit

/// Shows a user's profile picture from the thumbnail cache; shows nothing until it is cached.
final class ProfileImageView: UIImageView {

    let userId: String

    init(userId: String) {
        self.userId = userId
        super.init(image: ThumbnailCache.sharedThumbnailCache.cachedProfileImage(forUserId: userId))
        accessibilityIdentifier = "profileImage.\(userId)"
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    /// Picks up the picture once it has been downloaded.
    func reloadImage() {
        image = ThumbnailCache.sharedThumbnailCache.cachedProfileImage(forUserId: userId)
    }
}
