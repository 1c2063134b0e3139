struct Message: Equatable, Sendable {
    var id: Int
    var subject: String
    var isRead = false
    var isArchived = false
}

struct Draft: Equatable, Sendable {
    var id: Int
    var text: String
}
