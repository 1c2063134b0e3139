/// Creates the app's parts; its composition root.
struct AppEnvironment {
    func makeGreeter() -> Greeter {
        Greeter()
    }

    func makeFormatter() -> TemperatureFormatter {
        TemperatureFormatter()
    }
}
