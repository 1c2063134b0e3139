import Testing
@testable import ProfileApp

/// The account logic on its own; each test makes its own instance.
@MainActor
struct UserManagerTests {

    @Test func startsSignedOut() {
        #expect(UserManager().currentUser == nil)
    }

    @Test func validCredentialsSignTheUserIn() {
        let manager = UserManager()
        var results: [Result<User, LoginError>] = []

        manager.logIn(username: "Ada", password: "lovelace") { results.append($0) }

        let ada = User(username: "ada", name: "Ada Lovelace")
        #expect(results == [.success(ada)])
        #expect(manager.currentUser == ada)
    }

    @Test func invalidCredentialsAreRejected() {
        let manager = UserManager()
        var results: [Result<User, LoginError>] = []

        manager.logIn(username: "ada", password: "LOVELACE") { results.append($0) }
        manager.logIn(username: "nobody", password: "lovelace") { results.append($0) }
        manager.logIn(username: "", password: "") { results.append($0) }

        #expect(results == [.failure(.invalidCredentials), .failure(.invalidCredentials), .failure(.missingUsername)])
        #expect(manager.currentUser == nil)
    }

    @Test func loggingOutForgetsTheUser() {
        let manager = UserManager()
        manager.logIn(username: "grace", password: "hopper") { _ in }
        #expect(manager.currentUser != nil)

        manager.logOut()

        #expect(manager.currentUser == nil)
    }
}
