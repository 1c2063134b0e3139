import Testing
import UIKit
@testable import ThumbnailCache

/// The avatar provider and the image view against the generated double of the cache reader.
@MainActor
struct DoubleTests {

    @Test func theAvatarIsTheStubbedPictureForTheUserAsked() throws {
        let picture = try #require(UIImage(named: "ada"))
        let placeholder = try #require(UIImage(named: "placeholder"))
        let cache = ProfileImageCachingMock()
        cache.cachedProfileImageHandler = { userId in userId == "42" ? picture : nil }
        let provider = AvatarProvider(profileImageCaching: cache, placeholder: placeholder)

        #expect(provider.avatar(forUserId: "42") === picture)
        #expect(provider.avatar(forUserId: "7") === placeholder)
        #expect(cache.cachedProfileImageArgValues == ["42", "7"])
    }

    @Test func withoutAHandlerTheCacheHasNothing() {
        let cache = ProfileImageCachingMock()
        let imageView = ProfileImageView(profileImageCaching: cache, userId: "42")

        #expect(imageView.image == nil)
        #expect(cache.cachedProfileImageCallCount == 1)
    }
}
