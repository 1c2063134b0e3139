/// An account that can be used on this device.
struct User: Equatable, Sendable {
    let id: String
    let name: String
    let friends: [Friend]
}
