import Testing
import UIKit
@testable import ThumbnailCache

/// The friend list on its own, created the way the coordinator creates it.
@MainActor
struct FriendListViewControllerTests {

    let accounts = TestAccounts()
    let imageLoader = ProfileImageLoader()

    @Test func downloadsNothingUntilItsViewLoads() {
        let friendList = FriendListViewController(friends: accounts.alice.friends, imageLoader: imageLoader)
        #expect(friendList.title == "Friends")
        #expect(imageLoader.downloadCount == 0)
    }

    @Test func showsEveryFriendWithTheirDownloadedPicture() {
        let friendList = FriendListViewController(friends: accounts.alice.friends, imageLoader: imageLoader)
        friendList.loadViewIfNeeded()

        #expect(friendList.label("friends.\(accounts.bob.id).name")?.text == "Bob")
        #expect(friendList.label("friends.\(accounts.carol.id).name")?.text == "Carol")
        #expect(imageLoader.downloadCount == 2)
        let pictures = friendList.view.descendants(ProfileImageView.self, identifierPrefix: "profileImage.")
        #expect(pictures.map(\.userId) == [accounts.bob.id, accounts.carol.id])
        #expect(pictures.map(\.image?.data) == [
            downloadedPicture(forUserId: accounts.bob.id),
            downloadedPicture(forUserId: accounts.carol.id),
        ])
    }

    @Test func refreshDownloadsOnlyWhatIsMissing() throws {
        let friendList = FriendListViewController(friends: accounts.alice.friends, imageLoader: imageLoader)
        friendList.loadViewIfNeeded()

        try #require(friendList.button("friends.refresh")).tap()
        try #require(friendList.button("friends.refresh")).tap()

        #expect(imageLoader.downloadCount == 2)
    }

    @Test func switchAccountCallsBack() throws {
        let friendList = FriendListViewController(friends: [], imageLoader: imageLoader)
        var switches = 0
        friendList.onSwitchAccount = { switches += 1 }
        friendList.loadViewIfNeeded()

        try #require(friendList.button("friends.switchAccount")).tap()

        #expect(switches == 1)
    }

    @Test func theRefreshActionDoesNotKeepTheScreenAlive() throws {
        weak var weakFriendList: FriendListViewController?
        var refreshButton: UIButton?
        do {
            let friendList = FriendListViewController(friends: accounts.alice.friends, imageLoader: imageLoader)
            friendList.loadViewIfNeeded()
            weakFriendList = friendList
            refreshButton = friendList.button("friends.refresh")
        }

        #expect(weakFriendList == nil)
        try #require(refreshButton).tap()
        #expect(imageLoader.downloadCount == 2)
    }
}
