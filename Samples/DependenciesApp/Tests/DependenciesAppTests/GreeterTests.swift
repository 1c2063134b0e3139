import Testing
@testable import DependenciesApp

/// One at a time: the tests share the app's preferences.
@Suite(.serialized)
struct GreeterTests {

    @Test func greetsByTheChosenName() {
        let greeter = Greeter()
        greeter.rename(to: "Ada")
        #expect(greeter.greeting() == "Hello, Ada!")
    }

    @Test func formatsInCelsiusByDefault() {
        let formatter = TemperatureFormatter()
        #expect(formatter.format(celsius: 21.4) == "21 °C")
    }

    @Test func theEnvironmentsGreetersShareTheName() {
        let environment = AppEnvironment()
        environment.makeGreeter().rename(to: "Lin")
        #expect(environment.makeGreeter().greeting() == "Hello, Lin!")
    }
}
