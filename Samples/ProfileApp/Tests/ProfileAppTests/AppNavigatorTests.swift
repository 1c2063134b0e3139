import Testing
import UIKit
@testable import ProfileApp

/// Logging in and out, driven through the navigator and the screens it creates.
@MainActor
struct AppNavigatorTests {

    let window = UIWindow(frame: .zero)
    let navigator: AppNavigator

    init() {
        navigator = AppNavigator(window: window)
    }

    private var navigationController: UINavigationController {
        navigator.navigationController
    }

    private func logIn(username: String, password: String) throws -> LoginViewController {
        let login = try #require(navigationController.topViewController as? LoginViewController)
        login.textField("login.username")?.text = username
        login.textField("login.password")?.text = password
        try #require(login.button("login.submit")).tap()
        return login
    }

    @Test func startsOnTheLoginScreen() throws {
        navigator.start()

        #expect(window.rootViewController === navigationController)
        #expect(navigationController.viewControllers.count == 1)
        let login = try #require(navigationController.topViewController as? LoginViewController)
        #expect(login.title == "Log in")
        #expect(login.label("login.error")?.isHidden == true)
    }

    @Test func aWrongPasswordShowsAnErrorAndStaysOnTheLoginScreen() throws {
        navigator.start()

        let login = try logIn(username: "ada", password: "babbage")

        #expect(navigationController.topViewController === login)
        #expect(login.label("login.error")?.isHidden == false)
        #expect(login.label("login.error")?.text == "Wrong username or password.")
    }

    @Test func aMissingUsernameShowsAnError() throws {
        navigator.start()

        let login = try logIn(username: "", password: "lovelace")

        #expect(navigationController.topViewController === login)
        #expect(login.label("login.error")?.text == "Please enter your username.")
    }

    @Test func loggingInShowsTheProfile() throws {
        navigator.start()

        _ = try logIn(username: "Ada", password: "lovelace")

        let profile = try #require(navigationController.topViewController as? ProfileViewController)
        #expect(navigationController.viewControllers.count == 2)
        #expect(profile.title == "Ada Lovelace")
        #expect(profile.label("profile.name")?.text == "Ada Lovelace")
        #expect(profile.label("profile.username")?.text == "@ada")
    }

    @Test func loggingOutGoesBackToTheLoginScreen() throws {
        navigator.start()
        let login = try logIn(username: "grace", password: "hopper")
        let profile = try #require(navigationController.topViewController as? ProfileViewController)

        try #require(profile.button("profile.logOut")).tap()

        #expect(navigationController.topViewController === login)
        #expect(navigationController.viewControllers.count == 1)
        // The login screen forgets the password when it comes back.
        #expect(login.textField("login.password")?.text == "")
    }

    @Test func anotherUserCanLogInAfterLoggingOut() throws {
        navigator.start()
        _ = try logIn(username: "grace", password: "hopper")
        let firstProfile = try #require(navigationController.topViewController as? ProfileViewController)
        try #require(firstProfile.button("profile.logOut")).tap()

        _ = try logIn(username: "ada", password: "lovelace")

        let profile = try #require(navigationController.topViewController as? ProfileViewController)
        #expect(profile !== firstProfile)
        #expect(profile.label("profile.name")?.text == "Ada Lovelace")
    }
}
