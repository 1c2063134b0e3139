/// Owns the signed-in user and logs users in and out.
@MainActor
final class UserManager {

    static let shared = UserManager()

    private(set) var currentUser: User?

    /// Known accounts by username. The app checks credentials locally for now.
    private let accounts: [String: (password: String, user: User)] = [
        "ada": ("lovelace", User(username: "ada", name: "Ada Lovelace")),
        "grace": ("hopper", User(username: "grace", name: "Grace Hopper")),
    ]

    /// Checks the credentials and calls `completion` with the signed-in user or the reason it failed.
    /// On success the user becomes `currentUser`.
    func logIn(
        username: String,
        password: String,
        completion: @escaping @MainActor (Result<User, LoginError>) -> Void
    ) {
        let username = username.lowercased()
        guard !username.isEmpty else {
            completion(.failure(.missingUsername))
            return
        }
        guard let account = accounts[username], account.password == password else {
            completion(.failure(.invalidCredentials))
            return
        }
        currentUser = account.user
        completion(.success(account.user))
    }

    func logOut() {
        currentUser = nil
    }
}
