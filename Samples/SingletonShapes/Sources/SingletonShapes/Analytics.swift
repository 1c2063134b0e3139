/// Records what the user does, for the product team.
///
/// Not a strict singleton: the initializer is internal, so tests and previews can make their own.
@MainActor
final class Analytics {

    static let shared = Analytics()

    /// Something that happened, with details.
    struct Event: Equatable, Sendable {
        let name: String
        var properties: [String: String] = [:]
    }

    private(set) var events: [Event] = []

    /// How many times the app became active since launch.
    var sessionCount = 0

    init() {}

    func track(_ name: String, properties: [String: String] = [:]) {
        log(Event(name: name, properties: properties))
    }

    func log(_ event: Event) {
        events.append(event)
    }

    func events(named name: String) -> [Event] {
        events.filter { $0.name == name }
    }
}
