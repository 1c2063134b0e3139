import Testing
import UIKit
@testable import ProfileApp

/// The profile screen on its own, created the way the navigator creates it.
@MainActor
struct ProfileViewControllerTests {

    private let user = User(username: "ada", name: "Ada Lovelace")

    @Test func showsTheUserItWasGiven() {
        let profile = ProfileViewController(user: user)
        profile.loadViewIfNeeded()

        #expect(profile.title == "Ada Lovelace")
        #expect(profile.label("profile.name")?.text == "Ada Lovelace")
        #expect(profile.label("profile.username")?.text == "@ada")
    }

    @Test func tappingLogOutTellsTheNavigator() throws {
        let profile = ProfileViewController(user: user)
        var logouts = 0
        profile.onLogout = { logouts += 1 }
        profile.loadViewIfNeeded()

        try #require(profile.button("profile.logOut")).tap()

        #expect(logouts == 1)
    }

    @Test func theLogOutActionDoesNotKeepTheScreenAlive() throws {
        weak var weakProfile: ProfileViewController?
        var logOutButton: UIButton?
        do {
            let profile = ProfileViewController(user: user)
            profile.loadViewIfNeeded()
            weakProfile = profile
            logOutButton = profile.button("profile.logOut")
        }

        #expect(weakProfile == nil)
        try #require(logOutButton).tap()
    }
}
