/// What the app and the widget both show.
enum Greeting {
    static func text(for name: String) -> String {
        "Hello, \(name)"
    }
}
