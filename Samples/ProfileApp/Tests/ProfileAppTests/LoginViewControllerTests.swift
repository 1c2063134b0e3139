import Testing
import UIKit
@testable import ProfileApp

/// The login screen on its own, created the way the navigator creates it.
@MainActor
struct LoginViewControllerTests {

    @Test func reportsTheUserWhoLoggedIn() throws {
        let login = LoginViewController()
        var loggedIn: [User] = []
        login.onLogin = { loggedIn.append($0) }
        login.loadViewIfNeeded()

        login.textField("login.username")?.text = "grace"
        login.textField("login.password")?.text = "hopper"
        try #require(login.button("login.submit")).tap()

        #expect(loggedIn == [User(username: "grace", name: "Grace Hopper")])
        #expect(login.label("login.error")?.isHidden == true)
    }

    @Test func doesNotReportAFailedLogin() throws {
        let login = LoginViewController()
        var loggedIn: [User] = []
        login.onLogin = { loggedIn.append($0) }
        login.loadViewIfNeeded()

        login.textField("login.username")?.text = "grace"
        login.textField("login.password")?.text = "wrong"
        try #require(login.button("login.submit")).tap()

        #expect(loggedIn.isEmpty)
        #expect(login.label("login.error")?.isHidden == false)
    }

    @Test func thePasswordFieldIsSecure() {
        let login = LoginViewController()
        login.loadViewIfNeeded()
        #expect(login.textField("login.password")?.isSecureTextEntry == true)
        #expect(login.textField("login.username")?.isSecureTextEntry == false)
    }
}
