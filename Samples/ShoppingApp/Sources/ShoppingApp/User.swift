/// The person using the app.
struct User: Equatable, Sendable {
    let name: String
}
