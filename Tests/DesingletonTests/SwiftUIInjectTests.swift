import DesingletonCore
import DesingletonIndex
import DesingletonPlanner
import Foundation
import Testing

/// `inject` on SwiftUI views: the planner runs on inline sources that import the SwiftUI stand-in
/// (Samples/SwiftUI, compiled once per process), the whole text of every changed file is compared,
/// the result is type-checked in Swift 6 mode against the stand-in, and a second run plans nothing.
@Suite struct SwiftUIInjectTests {
  static let store = """
        import SwiftUI

        @MainActor
        final class Store {
          static let shared = Store()
          private(set) var count = 0
          func bump() { count += 1 }
        }

        @MainActor
        protocol Counting: AnyObject {
          var count: Int { get }
          func bump()
        }

        extension Store: Counting {}

        """

  static let views = """
        import SwiftUI

        @MainActor
        final class CounterModel: ObservableObject {
          func tap() { Store.shared.bump() }
        }

        struct CounterView: View {
          @State var title: String
          @State private var taps = 0
          @Binding var note: String
          @StateObject private var model = CounterModel()
          @Environment(\\.isEnabled) private var isEnabled
          @FocusState private var focused: Bool

          var body: some View {
            VStack {
              Text("\\(title) \\(Store.shared.count) \\(taps) \\(note)")
              Button("Tap") { model.tap() }
            }
          }
        }

        struct RootView: View {
          @State private var note = ""

          var body: some View {
            CounterView(title: "Count", note: $note)
          }
        }

        struct CounterApp: App {
          var body: some Scene {
            WindowGroup {
              RootView()
            }
          }
        }

        """

  static let modelAndCounterAfter = """
        import SwiftUI

        @MainActor
        final class CounterModel: ObservableObject {
          private let counting: Counting

          init(counting: Counting) {
            self.counting = counting
          }

          func tap() { counting.bump() }
        }

        struct CounterView: View {
          private let counting: Counting

          init(counting: Counting, title: String, note: Binding<String>) {
            self.counting = counting
            self._model = StateObject(wrappedValue: CounterModel(counting: counting))
            self._title = State(initialValue: title)
            self._note = note
          }

          @State var title: String
          @State private var taps = 0
          @Binding var note: String
          @StateObject private var model: CounterModel
          @Environment(\\.isEnabled) private var isEnabled
          @FocusState private var focused: Bool

          var body: some View {
            VStack {
              Text("\\(title) \\(counting.count) \\(taps) \\(note)")
              Button("Tap") { model.tap() }
            }
          }
        }

        """

  @Test func aViewsInitSetsWrappedPropertiesThroughTheirStorageAndTheAppPassesTheAccessor() throws {
    try expectSwiftUIInjection(
      ["Store.swift": Self.store, "Views.swift": Self.views], environment: false,
      produces: ["Views.swift": """
        import SwiftUI

        @MainActor
        final class CounterModel: ObservableObject {
          private let counting: Counting

          init(counting: Counting) {
            self.counting = counting
          }

          func tap() { counting.bump() }
        }

        struct CounterView: View {
          private let counting: Counting

          init(counting: Counting, title: String, note: Binding<String>) {
            self.counting = counting
            self._model = StateObject(wrappedValue: CounterModel(counting: counting))
            self._title = State(initialValue: title)
            self._note = note
          }

          @State var title: String
          @State private var taps = 0
          @Binding var note: String
          @StateObject private var model: CounterModel
          @Environment(\\.isEnabled) private var isEnabled
          @FocusState private var focused: Bool

          var body: some View {
            VStack {
              Text("\\(title) \\(counting.count) \\(taps) \\(note)")
              Button("Tap") { model.tap() }
            }
          }
        }

        struct RootView: View {
          private let counting: Counting

          init(counting: Counting) {
            self.counting = counting
          }

          @State private var note = ""

          var body: some View {
            CounterView(counting: counting, title: "Count", note: $note)
          }
        }

        struct CounterApp: App {
          var body: some Scene {
            WindowGroup {
              RootView(counting: Store.shared)
            }
          }
        }

        """])
  }

  @Test func withTheEnvironmentOptionAViewReadsTheSliceAndTheAppSetsIt() throws {
    try expectSwiftUIInjection(
      ["Store.swift": Self.store, "Views.swift": Self.views], environment: true,
      produces: [
        "Views.swift": """
        import SwiftUI

        @MainActor
        final class CounterModel: ObservableObject {
          private let counting: Counting

          init(counting: Counting) {
            self.counting = counting
          }

          func tap() { counting.bump() }
        }

        struct CounterView: View {
          private let counting: Counting

          init(counting: Counting, title: String, note: Binding<String>) {
            self.counting = counting
            self._model = StateObject(wrappedValue: CounterModel(counting: counting))
            self._title = State(initialValue: title)
            self._note = note
          }

          @State var title: String
          @State private var taps = 0
          @Binding var note: String
          @StateObject private var model: CounterModel
          @Environment(\\.isEnabled) private var isEnabled
          @FocusState private var focused: Bool

          var body: some View {
            VStack {
              Text("\\(title) \\(counting.count) \\(taps) \\(note)")
              Button("Tap") { model.tap() }
            }
          }
        }

        struct RootView: View {
          @Environment(\\.counting) private var counting: (any Counting)!

          @State private var note = ""

          var body: some View {
            CounterView(counting: counting, title: "Count", note: $note)
          }
        }

        struct CounterApp: App {
          var body: some Scene {
            WindowGroup {
              RootView().environment(\\.counting, Store.shared)
            }
          }
        }

        """,
        "StoreEnvironment.swift": """
        import SwiftUI

        /// Where views read 'Counting'; nil until '.environment(\\.counting, value)' sets it where the root view is made.
        private struct CountingKey: EnvironmentKey {
          static var defaultValue: (any Counting)? { nil }
        }

        extension EnvironmentValues {
          var counting: (any Counting)! {
            get { self[CountingKey.self] }
            set { self[CountingKey.self] = newValue }
          }
        }

        """,
      ])
  }

  @Test func aClassThatShowsAViewSetsTheEnvironmentWithItsOwnProperty() throws {
    try expectSwiftUIInjection(
      ["Store.swift": Self.store, "Views.swift": """
        import SwiftUI

        struct Badge: View {
          var body: some View {
            Text("\\(Store.shared.count)")
          }
        }

        @MainActor
        final class Host {
          func make() -> some View {
            Badge()
          }
        }

        @MainActor
        final class Launcher {
          let host = Host()
        }

        """], environment: true,
      produces: [
        "Views.swift": """
        import SwiftUI

        struct Badge: View {
          @Environment(\\.counting) private var counting: (any Counting)!

          var body: some View {
            Text("\\(counting.count)")
          }
        }

        @MainActor
        final class Host {
          private let counting: Counting

          init(counting: Counting) {
            self.counting = counting
          }

          func make() -> some View {
            Badge().environment(\\.counting, counting)
          }
        }

        @MainActor
        final class Launcher {
          let host = Host(counting: Store.shared)
        }

        """,
        "StoreEnvironment.swift": """
        import SwiftUI

        /// Where views read 'Counting'; nil until '.environment(\\.counting, value)' sets it where the root view is made.
        private struct CountingKey: EnvironmentKey {
          static var defaultValue: (any Counting)? { nil }
        }

        extension EnvironmentValues {
          var counting: (any Counting)! {
            get { self[CountingKey.self] }
            set { self[CountingKey.self] = newValue }
          }
        }

        """,
      ])
  }

  @Test func objectsAndStateTheCallersPassAreParametersWithTheirDefaultsKept() throws {
    try expectSwiftUIInjection(
      ["Store.swift": Self.store, "Views.swift": """
        import SwiftUI

        @MainActor
        final class Model: ObservableObject {
          @Published var name = "a"
        }

        struct Card: View {
          @StateObject var model: Model
          @StateObject var other = Model()
          @ObservedObject var shared: Model
          @State var count = 0

          var body: some View {
            Text("\\(model.name) \\(other.name) \\(shared.name) \\(count) \\(Store.shared.count)")
          }
        }

        struct Deck: View {
          let shared = Model()

          var body: some View {
            VStack {
              Card(model: Model(), shared: shared)
              Card(model: Model(), other: Model(), shared: shared, count: 2)
            }
          }
        }

        """], environment: false,
      produces: ["Views.swift": """
        import SwiftUI

        @MainActor
        final class Model: ObservableObject {
          @Published var name = "a"
        }

        struct Card: View {
          private let counting: Counting

          init(counting: Counting, model: @autoclosure @escaping () -> Model, other: @autoclosure @escaping () -> Model = Model(), shared: Model, count: Int = 0) {
            self.counting = counting
            self._model = StateObject(wrappedValue: model())
            self._other = StateObject(wrappedValue: other())
            self._shared = ObservedObject(wrappedValue: shared)
            self._count = State(initialValue: count)
          }

          @StateObject var model: Model
          @StateObject var other = Model()
          @ObservedObject var shared: Model
          @State var count = 0

          var body: some View {
            Text("\\(model.name) \\(other.name) \\(shared.name) \\(count) \\(counting.count)")
          }
        }

        struct Deck: View {
          let shared = Model()

          var body: some View {
            VStack {
              Card(counting: Store.shared, model: Model(), shared: shared)
              Card(counting: Store.shared, model: Model(), other: Model(), shared: shared, count: 2)
            }
          }
        }

        """])
  }

  /// `@State var x: T?` with no initial value starts as nil: it is a parameter (defaulting to nil)
  /// only when a caller passes it, as in Swift's memberwise init.
  @Test func anOptionalStateWithoutAValueStartsAsNil() throws {
    try expectSwiftUIInjection(
      ["Store.swift": Self.store, "Views.swift": """
        import SwiftUI

        struct Detail: View {
          @State private var selection: String?
          @State var picked: String?

          var body: some View {
            Text("\\(selection ?? "") \\(picked ?? "") \\(Store.shared.count)")
          }
        }

        struct Screen: View {
          var body: some View {
            VStack {
              Detail()
              Detail(picked: "a")
            }
          }
        }

        """], environment: false,
      produces: ["Views.swift": """
        import SwiftUI

        struct Detail: View {
          private let counting: Counting

          init(counting: Counting, picked: String? = nil) {
            self.counting = counting
            self._picked = State(initialValue: picked)
          }

          @State private var selection: String?
          @State var picked: String?

          var body: some View {
            Text("\\(selection ?? "") \\(picked ?? "") \\(counting.count)")
          }
        }

        struct Screen: View {
          var body: some View {
            VStack {
              Detail(counting: Store.shared)
              Detail(counting: Store.shared, picked: "a")
            }
          }
        }

        """])
  }

  /// A view that reads a strict singleton from the environment (`@Environment(Store.self)`) holds
  /// the one instance: the views it creates get it from there, and it takes no parameter.
  @Test func aViewReadingTheInstanceFromTheEnvironmentPassesIt() throws {
    try expectSwiftUIInjection(
      ["Store.swift": Self.store.replacingOccurrences(of: "static let shared = Store()", with: "static let shared = Store()\n          private init() {}"),
       "Views.swift": """
        import SwiftUI

        struct Badge: View {
          var body: some View {
            Text("\\(Store.shared.count)")
          }
        }

        struct Items: View {
          @Environment(Store.self) private var store

          var body: some View {
            VStack {
              Text("\\(store.count)")
              Badge()
            }
          }
        }

        """], environment: false,
      produces: ["Views.swift": """
        import SwiftUI

        struct Badge: View {
          private let counting: Counting

          init(counting: Counting) {
            self.counting = counting
          }

          var body: some View {
            Text("\\(counting.count)")
          }
        }

        struct Items: View {
          @Environment(Store.self) private var store

          var body: some View {
            VStack {
              Text("\\(store.count)")
              Badge(counting: store)
            }
          }
        }

        """])
  }

  @Test func aCollaboratorTheSingletonMakesInAStoredPropertyIsHandedSelfThroughALazyProperty() throws {
    try expectSwiftUIInjection(
      ["Store.swift": """
        @MainActor
        final class Store {
          static let shared = Store()
          private(set) var count = 0
          /// Made with the store, so it cannot be given 'Store.shared'.
          let log = Log()

          func bump() {
            count += 1
            log.record()
          }
        }

        @MainActor
        protocol Counting: AnyObject {
          var count: Int { get }
          func bump()
        }

        extension Store: Counting {}

        @MainActor
        final class Log {
          private(set) var lines: [String] = []

          func record() {
            lines.append("\\(Store.shared.count)")
          }
        }

        """], environment: false,
      produces: ["Store.swift": """
        @MainActor
        final class Store {
          static let shared = Store()
          private(set) var count = 0
          /// Made with the store, so it cannot be given 'Store.shared'.
          private(set) lazy var log = Log(counting: self)

          func bump() {
            count += 1
            log.record()
          }
        }

        @MainActor
        protocol Counting: AnyObject {
          var count: Int { get }
          func bump()
        }

        extension Store: Counting {}

        @MainActor
        final class Log {
          private let counting: Counting

          init(counting: Counting) {
            self.counting = counting
          }

          private(set) var lines: [String] = []

          func record() {
            lines.append("\\(counting.count)")
          }
        }

        """])
  }

  @Test func aViewWhoseCallersPassAnUntypedWrappedPropertyIsRefusedWithTheReason() throws {
    let files = ["Store.swift": Self.store, "Badge.swift": """
        import SwiftUI

        enum Defaults {
          static let start = 3
        }

        struct Badge: View {
          @State var start = Defaults.start

          var body: some View {
            Text("\\(start) \\(Store.shared.count)")
          }
        }

        struct Shelf: View {
          var body: some View {
            Badge(start: 4)
          }
        }

        """]
    #expect(try compileErrors(files, flags: try Self.swiftUIFlags()) == "", "the input does not compile")
    let project = makeProject(files)
    let singleton = try #require(project.index.singletons.first { $0.typeName == "Store" })
    #expect(throws: Refusal.self) {
      try InjectPlanner.plan(singleton: singleton, options: InjectOptions(types: ["Badge"]), project: project)
    }
    do {
      _ = try InjectPlanner.plan(singleton: singleton, options: InjectOptions(types: ["Badge"]), project: project)
    } catch let refusal as Refusal {
      #expect(
        refusal.description
          == "Badge.swift:8:3: error: cannot tell the type of wrapped property 'start' from its initial value to write 'Badge's init; add a type annotation"
      )
    }
  }

  /// `@ObservedObject var model: Store = .shared` needs a concrete `ObservableObject`: an existential
  /// of the slice cannot be observed, so the view keeps the accessor and is skipped with the reason;
  /// the other views are injected and the result compiles.
  @Test func aViewThatObservesTheSingletonIsSkippedWithTheReason() throws {
    let files = ["Store.swift": """
        import SwiftUI

        @MainActor
        final class Store: ObservableObject {
          static let shared = Store()
          @Published var patterns: [String] = []
          func add(_ pattern: String) { patterns.append(pattern) }
        }

        @MainActor
        protocol PatternProviding: AnyObject {
          var patterns: [String] { get set }
          func add(_ pattern: String)
        }

        extension Store: PatternProviding {}

        """, "Views.swift": """
        import SwiftUI

        struct PatternList: View {
          @ObservedObject private var model: Store = .shared

          var body: some View {
            Button("Add") { model.add("*.o") }
          }
        }

        struct PatternCount: View {
          var body: some View {
            Text("\\(Store.shared.patterns.count)")
          }
        }

        struct Page: View {
          var body: some View {
            VStack {
              PatternList()
              PatternCount()
            }
          }
        }

        """]
    let flags = try Self.swiftUIFlags()
    #expect(try compileErrors(files, flags: flags) == "", "the input does not compile")
    let project = makeProject(files)
    let singleton = try #require(project.index.singletons.first { $0.typeName == "Store" })
    let (_, report) = try InjectPlanner.run(singleton: singleton, options: InjectOptions(), project: project)
    #expect(report.skipped.map(\.typeName) == ["PatternList"])
    #expect(report.skipped.first?.reason == .observedObject)
    #expect(
      report.skipped.first?.diagnostics.map(\.description) == [
        "Views.swift:4:3: error: 'PatternList' observes the singleton with '@ObservedObject var model', which needs a concrete ObservableObject type: a protocol type cannot be observed; it keeps the accessor"
      ])
    try expectPlan(
      files, singleton: "Store",
      produces: [
        "Views.swift": """
          import SwiftUI

          struct PatternList: View {
            @ObservedObject private var model: Store = .shared

            var body: some View {
              Button("Add") { model.add("*.o") }
            }
          }

          struct PatternCount: View {
            private let patternProviding: PatternProviding

            init(patternProviding: PatternProviding) {
              self.patternProviding = patternProviding
            }

            var body: some View {
              Text("\\(patternProviding.patterns.count)")
            }
          }

          struct Page: View {
            var body: some View {
              VStack {
                PatternList()
                PatternCount(patternProviding: Store.shared)
              }
            }
          }

          """
      ], notes: nil, compilerFlags: flags, sourceLocation: #_sourceLocation
    ) { try InjectPlanner.plan(singleton: $0, options: InjectOptions(), project: $1) }
  }

  // MARK: Helpers

  /// `-I` flags that find the SwiftUI stand-in's module, built once per process.
  static func swiftUIFlags() throws -> [String] {
    guard let directory = swiftUIModule.directory else {
      Issue.record("the SwiftUI stand-in does not build: \(swiftUIModule.error)")
      return []
    }
    return ["-I", directory]
  }

  private static let swiftUIModule: (directory: String?, error: String) = {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("desingleton-swiftui-\(UUID().uuidString)")
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      let sources = packageRoot + "/Samples/SwiftUI/Sources/SwiftUI"
      let files = try FileManager.default.contentsOfDirectory(atPath: sources).filter { $0.hasSuffix(".swift") }.sorted()
        .map { sources + "/" + $0 }
      let result = try run(
        ["swiftc", "-swift-version", "6", "-parse-as-library", "-module-name", "SwiftUI", "-emit-module",
         "-emit-module-path", directory.appendingPathComponent("SwiftUI.swiftmodule").path] + files)
      guard result.status == 0 else { return (nil, result.standardError + result.output) }
      return (directory.path, "")
    } catch {
      return (nil, "\(error)")
    }
  }()
}

/// Plans `inject --all` (with `--swiftui-environment` when `environment`), compares the changed files
/// and type-checks the result against the SwiftUI stand-in; a second run plans nothing.
private func expectSwiftUIInjection(
  _ files: [String: String], environment: Bool, produces expected: [String: String],
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let flags = try SwiftUIInjectTests.swiftUIFlags()
  #expect(try compileErrors(files, flags: flags) == "", "the input does not compile", sourceLocation: sourceLocation)
  let options = InjectOptions(swiftUIEnvironment: environment)
  try expectPlan(files, singleton: "Store", produces: expected, notes: nil, compilerFlags: flags, sourceLocation: sourceLocation) {
    try InjectPlanner.plan(singleton: $0, options: options, project: $1)
  }
}
