/// Someone in the user's friend list.
struct Friend: Equatable, Sendable {
    let id: String
    let name: String
}
