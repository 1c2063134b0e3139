import Dependencies
import Testing
@testable import DependenciesApp

/// Doubles set with `withDependencies` replace the slices the composition root hands out.
struct DependencyDoubleTests {

    @Test func theGreeterGreetsTheNameOfTheDouble() {
        let names = UserNameStoreMock()
        names.userName = "Grace"                                                // stub a value
        let greeter = withDependencies {
            $0.userNameStore = names
        } operation: {
            AppEnvironment().makeGreeter()
        }

        greeter.rename(to: "Ada")

        #expect(greeter.greeting() == "Hello, Grace!")
        #expect(names.renameArgValues == ["Ada"])                               // spy on the call
    }

    @Test func theFormatterFollowsTheUnitsOfTheDouble() {
        let units = UnitsSettingMock()
        units.usesMetricUnits = false
        let formatter = withDependencies {
            $0.unitsSetting = units
        } operation: {
            AppEnvironment().makeFormatter()
        }

        #expect(formatter.format(celsius: 100) == "212 °F")
    }

    @Test func theDoubleCountsCallsFromManyTasks() async {
        let names = UserNameStoreMock()
        let greeter = withDependencies {
            $0.userNameStore = names
        } operation: {
            AppEnvironment().makeGreeter()
        }

        await withTaskGroup(of: Void.self) { group in
            for task in 0..<200 {
                group.addTask { greeter.rename(to: "user \(task)") }
            }
        }

        #expect(names.renameCallCount == 200)
    }

    @Test func withoutDoublesBothProtocolsAreTheOneInstance() {
        let environment = AppEnvironment()
        @Dependency(\.userNameStore) var names
        @Dependency(\.unitsSetting) var units
        #expect(names === units)
        _ = environment
    }
}
