/// A signed-in account.
struct User: Equatable, Sendable {
    let username: String
    let name: String
}
