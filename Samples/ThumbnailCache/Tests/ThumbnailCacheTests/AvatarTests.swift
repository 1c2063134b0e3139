import Testing
import UIKit
@testable import ThumbnailCache

/// The two small cache readers: the image view and the avatar provider.
@MainActor
struct AvatarTests {

    let accounts = TestAccounts()

    @Test func aProfileImageViewIsEmptyUntilThePictureIsCached() {
        let imageView = ProfileImageView(userId: accounts.carol.id)

        #expect(imageView.image == nil)
        #expect(imageView.accessibilityIdentifier == "profileImage.\(accounts.carol.id)")
        imageView.reloadImage()
        #expect(imageView.image == nil)
    }

    @Test func theAvatarProviderFallsBackToThePlaceholder() throws {
        let placeholder = try #require(UIImage(named: "placeholder"))
        let provider = AvatarProvider(placeholder: placeholder)

        #expect(provider.avatar(forUserId: accounts.alice.id) === placeholder)
    }
}
