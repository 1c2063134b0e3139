import Foundation
@testable import ThumbnailCache

/// Accounts with IDs no other test uses, so tests never see each other's cached pictures.
struct TestAccounts {
    let alice: User
    let bob: User
    let carol: Friend

    init() {
        let suffix = UUID().uuidString
        let bobAsFriend = Friend(id: "bob-\(suffix)", name: "Bob")
        carol = Friend(id: "carol-\(suffix)", name: "Carol")
        alice = User(id: "alice-\(suffix)", name: "Alice", friends: [bobAsFriend, carol])
        bob = User(id: bobAsFriend.id, name: "Bob", friends: [carol])
    }

    var all: [User] {
        [alice, bob]
    }
}

/// The picture `ProfileImageLoader` makes for `userId`.
func downloadedPicture(forUserId userId: String) -> Data {
    Data("profile-photo:\(userId)".utf8)
}
