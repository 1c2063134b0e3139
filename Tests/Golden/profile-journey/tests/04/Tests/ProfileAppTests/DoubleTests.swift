import Testing
import UIKit
@testable import ProfileApp

/// The login and profile screens against the generated doubles: no user database.
@MainActor
struct DoubleTests {

    @Test func theLoginScreenPassesWhatWasTypedAndReportsTheStubbedUser() throws {
        let service = LogInServiceMock()
        let ada = User(username: "ada", name: "Ada Lovelace")
        service.logInHandler = { _, _, completion in completion(.success(ada)) }
        let login = LoginViewController(logInService: service)
        var loggedIn: [User] = []
        login.onLogin = { loggedIn.append($0) }
        login.loadViewIfNeeded()

        login.textField("login.username")?.text = "ada"
        login.textField("login.password")?.text = "engine"
        try #require(login.button("login.submit")).tap()

        #expect(service.logInCallCount == 1)
        #expect(service.logInArgValues.map(\.username) == ["ada"])
        #expect(service.logInArgValues.map(\.password) == ["engine"])
        #expect(loggedIn == [ada])
    }

    @Test func aStubbedFailureShowsTheError() throws {
        let service = LogInServiceMock()
        service.logInHandler = { _, _, completion in completion(.failure(.invalidCredentials)) }
        let login = LoginViewController(logInService: service)
        login.loadViewIfNeeded()

        try #require(login.button("login.submit")).tap()

        #expect(login.label("login.error")?.text == "Wrong username or password.")
    }

    @Test func theProfileScreenLogsOutThroughTheService() throws {
        let service = LogOutServiceMock()
        let profile = ProfileViewController(logOutService: service, user: User(username: "ada", name: "Ada Lovelace"))
        profile.loadViewIfNeeded()

        try #require(profile.button("profile.logOut")).tap()

        #expect(service.logOutCallCount == 1)
    }
}
