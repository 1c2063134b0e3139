import Testing
import UIKit
@testable import ThumbnailCache

/// Logging in, seeing friends' pictures, switching accounts and logging out, driven through
/// the coordinator and the screens it creates.
@MainActor
struct AppCoordinatorTests {

    let window = UIWindow(frame: .zero)
    let accounts = TestAccounts()
    let imageLoader = ProfileImageLoader()
    let coordinator: AppCoordinator

    init() {
        coordinator = AppCoordinator(window: window, accounts: accounts.all, imageLoader: imageLoader)
    }

    private var navigationController: UINavigationController {
        coordinator.navigationController
    }

    private func pick(_ user: User, on login: UIViewController) throws {
        try #require(login.button("login.account.\(user.id)")).tap()
    }

    @Test func startsOnTheAccountList() throws {
        coordinator.start()

        let login = try #require(navigationController.topViewController as? LoginViewController)
        #expect(window.rootViewController === navigationController)
        #expect(login.button("login.account.\(accounts.alice.id)")?.title(for: .normal) == "Log in as Alice")
        #expect(login.button("login.account.\(accounts.bob.id)")?.title(for: .normal) == "Log in as Bob")
        // Nothing is cached yet: placeholders only.
        let avatar = login.view.descendant(UIImageView.self, identifier: "login.account.\(accounts.bob.id).avatar")
        #expect(avatar?.image?.name == "person.crop.circle")
    }

    @Test func loggingInShowsFriendsWithTheirPictures() throws {
        coordinator.start()
        try pick(accounts.alice, on: #require(navigationController.topViewController))

        let friendList = try #require(navigationController.topViewController as? FriendListViewController)
        #expect(coordinator.currentUser == accounts.alice)
        #expect(navigationController.viewControllers.count == 1)
        #expect(friendList.label("friends.\(accounts.carol.id).name")?.text == "Carol")
        #expect(imageLoader.downloadCount == 2)
        for friend in accounts.alice.friends {
            let imageView = friendList.view.descendant(ProfileImageView.self, identifier: "profileImage.\(friend.id)")
            #expect(imageView?.image?.data == downloadedPicture(forUserId: friend.id))
        }
    }

    @Test func refreshingDoesNotDownloadCachedPicturesAgain() throws {
        coordinator.start()
        try pick(accounts.alice, on: #require(navigationController.topViewController))
        let friendList = try #require(navigationController.topViewController as? FriendListViewController)

        try #require(friendList.button("friends.refresh")).tap()

        #expect(imageLoader.downloadCount == 2)
    }

    @Test func theAccountSwitcherShowsPicturesCachedInThisSession() throws {
        coordinator.start()
        try pick(accounts.alice, on: #require(navigationController.topViewController))
        let friendList = try #require(navigationController.topViewController as? FriendListViewController)

        try #require(friendList.button("friends.switchAccount")).tap()

        let switcher = try #require(navigationController.presentedViewController as? LoginViewController)
        // Bob is Alice's friend, so his picture was downloaded; Alice's own was not.
        let bobAvatar = switcher.view.descendant(UIImageView.self, identifier: "login.account.\(accounts.bob.id).avatar")
        let aliceAvatar = switcher.view.descendant(UIImageView.self, identifier: "login.account.\(accounts.alice.id).avatar")
        #expect(bobAvatar?.image?.data == downloadedPicture(forUserId: accounts.bob.id))
        #expect(aliceAvatar?.image?.name == "person.crop.circle")
    }

    @Test func switchingAccountsStartsWithAnEmptyCache() throws {
        coordinator.start()
        try pick(accounts.alice, on: #require(navigationController.topViewController))
        try #require(navigationController.topViewController?.button("friends.switchAccount")).tap()
        let switcher = try #require(navigationController.presentedViewController)

        try pick(accounts.bob, on: switcher)

        #expect(navigationController.presentedViewController == nil)
        #expect(coordinator.currentUser == accounts.bob)
        let friendList = try #require(navigationController.topViewController as? FriendListViewController)
        // Carol was cached during Alice's session; Bob's session downloads her again.
        #expect(imageLoader.downloadCount == 3)
        let carol = friendList.view.descendant(ProfileImageView.self, identifier: "profileImage.\(accounts.carol.id)")
        #expect(carol?.image?.data == downloadedPicture(forUserId: accounts.carol.id))
    }

    @Test func loggingOutForgetsThePictures() throws {
        coordinator.start()
        try pick(accounts.alice, on: #require(navigationController.topViewController))

        coordinator.logOut()

        #expect(coordinator.currentUser == nil)
        let login = try #require(navigationController.topViewController as? LoginViewController)
        let bobAvatar = login.view.descendant(UIImageView.self, identifier: "login.account.\(accounts.bob.id).avatar")
        #expect(bobAvatar?.image?.name == "person.crop.circle")

        try pick(accounts.alice, on: login)
        #expect(imageLoader.downloadCount == 4)
    }
}
