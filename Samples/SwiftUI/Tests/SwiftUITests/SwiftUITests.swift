import SwiftUI
import Testing

private struct GreetingKey: EnvironmentKey {
    static var defaultValue: String { "Hello" }
}

extension EnvironmentValues {
    fileprivate var greeting: String {
        get { self[GreetingKey.self] }
        set { self[GreetingKey.self] = newValue }
    }
}

private struct Greeting: View {
    @Environment(\.greeting) var greeting
    let name: String

    var body: some View {
        Text("\(greeting), \(name)")
    }
}

private struct Counter: View {
    @State private var count = 0

    var body: some View {
        VStack {
            Text("Count \(count)")
            Button("Add") { count += 1 }
            Stepper(value: $count)
        }
    }
}

/// Writes through the binding it is given.
private struct Stepper: View {
    @Binding var value: Int

    var body: some View {
        Button("Step") { value += 10 }
    }
}

@MainActor
private final class Model: ObservableObject {
    @Published var name = "Ada"
    var changes = 0
}

private struct ModelView: View {
    @StateObject var model = Model()
    @EnvironmentObject var shared: Model

    var body: some View {
        HStack {
            Text(model.name)
            Text(shared.name)
            TextField("Name", text: $model.name)
        }
    }
}

private struct Picker: View {
    @FocusState private var focused: Bool
    @Namespace private var namespace
    @State private var isOn = false
    let items: [String]

    var body: some View {
        List {
            ForEach(items, id: \.self) { item in
                Text(item)
            }
            if isOn {
                Text("on")
            } else {
                Text("off")
            }
            Toggle("Switch", isOn: $isOn)
        }
    }
}

private struct Greeter: App {
    var body: some Scene {
        WindowGroup {
            Greeting(name: "app").environment(\.greeting, "Welcome")
        }
    }
}

@Suite("SwiftUI stand-in")
struct SwiftUITests {
    @Test @MainActor func environmentValuesReachViewsInsideTheModifier() {
        #expect(render(Greeting(name: "you")).texts == ["Hello, you"])
        #expect(render(VStack { Greeting(name: "you") }.environment(\.greeting, "Hi")).texts == ["Hi, you"])
        var environment = EnvironmentValues()
        environment.greeting = "Hey"
        #expect(render(Greeting(name: "you"), in: environment).texts == ["Hey, you"])
    }

    @Test @MainActor func stateChangesThroughActionsAndBindings() {
        let counter = Counter()
        let shown = render(counter)
        #expect(shown.texts == ["Count 0", "Add", "Step"])
        shown.tap("Add")
        shown.tap("Step")
        #expect(render(counter).texts.first == "Count 11")
    }

    @Test @MainActor func stateObjectIsMadeOnceAndEnvironmentObjectsAreFound() {
        let shared = Model()
        shared.name = "Grace"
        var changes = 0
        shared.objectWillChange.sink { changes += 1 }
        let view = ModelView()
        let shown = render(view.environmentObject(shared))
        #expect(shown.texts == ["Ada", "Grace", "Ada"])
        shown.type("Lin", into: "Name")
        #expect(view.model.name == "Lin")
        shared.name = "Hopper"
        #expect(changes == 1)
    }

    @Test @MainActor func builderConditionsListsAndToggles() {
        let picker = Picker(items: ["a", "b"])
        let shown = render(picker)
        #expect(shown.texts == ["a", "b", "off", "Switch: off"])
        shown.toggle("Switch")
        #expect(render(picker).texts == ["a", "b", "on", "Switch: on"])
    }

    @Test @MainActor func appShowsItsWindowGroup() {
        #expect(render(Greeter()).texts == ["Welcome, app"])
    }

    @Test @MainActor func bindingsReadAndWriteTheirSource() {
        var stored = 1
        let binding = Binding(get: { stored }, set: { stored = $0 })
        binding.wrappedValue = 5
        #expect(stored == 5)
        #expect(Binding.constant(3).wrappedValue == 3)
    }
}
