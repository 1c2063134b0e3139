import Foundation
import Testing
import UIKit
@testable import ThumbnailCache

/// The cache on its own; each test makes its own instance.
struct ThumbnailCacheTests {

    private let picture = UIImage(data: Data("picture".utf8))!

    @Test func returnsWhatWasCached() {
        let cache = ThumbnailCache()
        cache.cacheProfileImage(picture, forUserId: "ada")

        #expect(cache.cachedProfileImage(forUserId: "ada") === picture)
        #expect(cache.cachedProfileImage(forUserId: "grace") == nil)
    }

    @Test func tearDownForgetsEverything() {
        let cache = ThumbnailCache()
        cache.cacheProfileImage(picture, forUserId: "ada")
        cache.cacheProfileImage(picture, forUserId: "grace")

        cache.tearDown()

        #expect(cache.cachedProfileImage(forUserId: "ada") == nil)
        #expect(cache.cachedProfileImage(forUserId: "grace") == nil)
    }

    @Test func canBeUsedFromManyTasksAtOnce() async {
        let cache = ThumbnailCache()
        let picture = picture
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<100 {
                group.addTask {
                    cache.cacheProfileImage(picture, forUserId: "user-\(index)")
                    _ = cache.cachedProfileImage(forUserId: "user-\(index / 2)")
                }
            }
        }
        #expect((0..<100).allSatisfy { cache.cachedProfileImage(forUserId: "user-\($0)") != nil })
    }
}
