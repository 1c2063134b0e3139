/// Greets the user by the name they chose.
struct Greeter {
    func greeting() -> String {
        "Hello, \(Preferences.shared.userName)!"
    }

    func rename(to name: String) {
        Preferences.shared.rename(to: name)
    }
}
