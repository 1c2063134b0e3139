import UIKit

/// The user's friends, each with a profile picture. Pictures that are not cached yet are
/// downloaded and cached.
final class FriendListViewController: UIViewController {

    /// Called when the user taps "Switch account".
    var onSwitchAccount: (() -> Void)?

    private let friends: [Friend]
    private let imageLoader: ProfileImageLoader

    private let friendsStackView = UIStackView()
    private let refreshButton = UIButton(type: .system)
    private let switchAccountButton = UIButton(type: .system)
    private var imageViews: [ProfileImageView] = []

    init(friends: [Friend], imageLoader: ProfileImageLoader) {
        self.friends = friends
        self.imageLoader = imageLoader
        super.init(nibName: nil, bundle: nil)
        title = "Friends"
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    override func viewDidLoad() {
        super.viewDidLoad()

        friendsStackView.accessibilityIdentifier = "friends.list"

        refreshButton.setTitle("Refresh", for: .normal)
        refreshButton.accessibilityIdentifier = "friends.refresh"
        refreshButton.addAction(UIAction { [weak self] _ in
            self?.loadMissingImages()
        }, for: .touchUpInside)

        switchAccountButton.setTitle("Switch account", for: .normal)
        switchAccountButton.accessibilityIdentifier = "friends.switchAccount"
        switchAccountButton.addAction(UIAction { [weak self] _ in
            self?.onSwitchAccount?()
        }, for: .touchUpInside)

        view.addSubview(friendsStackView)
        view.addSubview(refreshButton)
        view.addSubview(switchAccountButton)

        for friend in friends {
            let imageView = ProfileImageView(userId: friend.id)
            imageViews.append(imageView)

            let nameLabel = UILabel()
            nameLabel.text = friend.name
            nameLabel.accessibilityIdentifier = "friends.\(friend.id).name"

            friendsStackView.addArrangedSubview(UIStackView(arrangedSubviews: [imageView, nameLabel]))
        }

        loadMissingImages()
    }

    /// Downloads the pictures that are not in the cache, then shows them.
    private func loadMissingImages() {
        for friend in friends where ThumbnailCache.sharedThumbnailCache.cachedProfileImage(forUserId: friend.id) == nil {
            let image = imageLoader.downloadProfileImage(forUserId: friend.id)
            ThumbnailCache.sharedThumbnailCache.cacheProfileImage(image, forUserId: friend.id)
        }
        imageViews.forEach { $0.reloadImage() }
    }
}
