import DesingletonCore
import DesingletonIndex
import DesingletonPlanner
import Foundation
import Testing

/// `finish --container`: the planner runs on inline sources that `extract-protocol` and `inject`
/// already rewrote; the whole text of every changed and new file is compared, the result is
/// type-checked in Swift 6 mode against stand-ins of Swinject's and swift-dependencies' API (the
/// signatures and isolation the generated code uses; the golden journeys build against the real
/// packages), and a second run has nothing left to do.
@Suite struct ContainerPlannerTests {
  @Test func swinjectRegistersTheInstanceUnderEachProtocolAndTheConsumersResolvingThem() throws {
    try expectContainer(
      .swinject,
      Self.mainActorStore.merging([
        "Coordinator.swift": Self.coordinator,
        "Panel.swift": """
        /// Holds a badge of its own: registered in `.graph` scope.
        @MainActor
        final class Panel {
          let badge: Badge

          init(counting: Counting) {
            self.badge = Badge(counting: counting)
          }
        }

        """,
        "Unregistered.swift": """
        /// Generic: the container would need its argument.
        final class Box<Value> {
          init(counting: Counting) {}
        }

        /// Private: the assembly cannot name it.
        private final class Hidden {
          init(counting: Counting) {}
        }

        """,
      ]) { $1 },
      root: "Coordinator",
      produces: [
        "Coordinator.swift": """
        import Swinject

        /// Shows the badges.
        @MainActor
        final class Coordinator {
          private let assembler = Assembler([StoreAssembly()])
          private var store: Store { assembler.resolver.resolve(Store.self)! }

          let first: Badge

          init() {
            self.first = Badge(counting: assembler.resolver.resolve(Store.self)!)
          }

          func badge() -> Badge {
            Badge(counting: store)
          }

          func later(_ schedule: (@escaping @MainActor () -> Void) -> Void) {
            schedule { [store] in
              _ = Badge(counting: store)
            }
          }
        }

        """,
        "StoreAssembly.swift": """
        import Swinject

        /// Registers the one 'Store' once (`.container` scope) under each of its protocols, and the
        /// types that receive them, each resolving its protocols: a double registered for a protocol after
        /// this assembly replaces it.
        /// 'Badge', 'Reporter': made per use in the code, so `.transient`, a new one each time.
        /// 'Panel' holds a 'Badge', so `.graph`: what one resolution makes, it shares.
        struct StoreAssembly: Assembly {
          func assemble(container: Container) {
            container.register(Store.self) { _ in
              MainActor.assumeIsolated { Store() }
            }
            .implements(Counting.self, Resetting.self)
            .inObjectScope(.container)
            container.register(Badge.self) { resolver in
              let counting = resolver.resolve(Counting.self)!
              return MainActor.assumeIsolated { Badge(counting: counting) }
            }
            .inObjectScope(.transient)
            container.register(Panel.self) { resolver in
              let counting = resolver.resolve(Counting.self)!
              return MainActor.assumeIsolated { Panel(counting: counting) }
            }
            .inObjectScope(.graph)
            container.register(Reporter.self) { resolver in
              let counting = resolver.resolve(Counting.self)!
              let resetting = resolver.resolve(Resetting.self)!
              return Reporter(counting: counting, resetting: resetting)
            }
            .inObjectScope(.transient)
          }
        }

        """,
        "Store.swift": Self.mainActorStoreAfter,
      ],
      notes: [
        "Coordinator.swift:4: the composition root 'Coordinator'",
        "Coordinator.swift:7: the composition root 'Coordinator'",
        "Coordinator.swift:12: the composition root 'Coordinator'",
        "Coordinator.swift:4: 'first' is now assigned in init(): its initial value uses 'store'",
        "'Store.shared' removed; 'StoreAssembly.swift' registers the one instance under 'Counting', 'Resetting' and creates 'Badge', 'Panel', 'Reporter' from them; 'Coordinator' resolves it from 'assembler'",
      ]
    )
  }

  @Test func dependenciesMakesTheInstanceTheLiveValueOfAKeyPerProtocol() throws {
    try expectContainer(
      .dependencies,
      Self.sendableStore.merging(["Coordinator.swift": Self.coordinator]) { $1 },
      root: "Coordinator",
      produces: [
        "Coordinator.swift": Self.coordinatorReading(access: "private "),
        "StoreDependencies.swift": Self.sendableStoreKeys,
        "Store.swift": Self.sendableStoreAfter,
      ],
      notes: [
        "Coordinator.swift:4: the composition root 'Coordinator'",
        "Coordinator.swift:7: the composition root 'Coordinator'",
        "Coordinator.swift:12: the composition root 'Coordinator'",
        "Coordinator.swift:4: 'first' is now assigned in init(): its initial value uses 'store'",
        "'Store.shared' removed; 'StoreDependencies.swift' makes the one instance the live value of '\\.counting', '\\.resetting'; 'Coordinator' reads 'counting' with @Dependency",
      ]
    )
  }

  /// An extension of the root in another file reads the instance too: the root's property is
  /// internal, which it can see (a private one it cannot).
  @Test func aRootExtendedInAnotherFileReadsAnInternalProperty() throws {
    let extensionFile = """
      extension Coordinator {
        func other() -> Badge {
          Badge(counting: Store.shared)
        }
      }

      """
    try expectContainer(
      .dependencies,
      Self.sendableStore.merging(["Coordinator.swift": Self.coordinator, "Coordinator+Other.swift": extensionFile]) { $1 },
      root: "Coordinator",
      produces: [
        "Coordinator.swift": Self.coordinatorReading(access: ""),
        "Coordinator+Other.swift": """
        extension Coordinator {
          func other() -> Badge {
            Badge(counting: counting)
          }
        }

        """,
        "StoreDependencies.swift": Self.sendableStoreKeys,
        "Store.swift": Self.sendableStoreAfter,
      ])
  }

  @Test func aMainActorSingletonIsTheLiveValueMadeOnTheMainActor() throws {
    let project = makeProject(Self.mainActorStore.merging(["Coordinator.swift": Self.coordinator]) { $1 })
    let singleton = try #require(project.index.singletons.first { $0.typeName == "Store" })
    let plan = try FinishPlanner.plan(
      singleton: singleton,
      options: FinishOptions(root: "Coordinator", container: .dependencies),
      project: project
    )
    let file = try #require(plan.newFiles["StoreDependencies.swift"])
    #expect(file.contains("private let liveStore = MainActor.assumeIsolated { Store() }\n"))
  }

  @Test func dependenciesRefusesProtocolsThatAreNotSendable() throws {
    try expectContainerRefusal(
      .dependencies,
      [
        "Store.swift": """
        final class Store {
          nonisolated(unsafe) static let shared = Store()
          var count = 0
        }

        extension Store: Counting {}

        """,
        "Counting.swift": """
        protocol Counting: AnyObject {
          var count: Int { get }
        }

        """,
        "Coordinator.swift": """
        final class Coordinator {
          func count() -> Counting { Store.shared }
        }

        """,
      ],
      root: "Coordinator",
      """
      Counting.swift:1:1: error: swift-dependencies keeps values that are 'Sendable', and the protocol 'Counting' is not; make 'Store' Sendable (or an actor, or isolated to a global actor) and extract its protocols again, or use --container swinject
      """
    )
  }

  @Test func dependenciesRefusesARootUseThatIsNoProtocolArgument() throws {
    try expectContainerRefusal(
      .dependencies,
      Self.sendableStore.merging([
        "Coordinator.swift": """
        @MainActor
        final class Coordinator {
          func badge() -> Badge {
            Badge(counting: Store.shared)
          }

          func total() -> Int {
            Store.shared.count
          }
        }

        """
      ]) { $1 },
      root: "Coordinator",
      """
      Coordinator.swift:8:5: error: 'Store.shared' is not passed here to a parameter typed as one of its protocols, and with swift-dependencies the root reads each protocol on its own; pass it to an init that takes a protocol, or use --container swinject
      """
    )
  }

  @Test func theDependencyWrapperMovesAConsumersProtocolsIntoDependencyProperties() throws {
    let files = Self.sendableStore.merging([
      "Coordinator.swift": """
      @MainActor
      final class Coordinator {
        func badge() -> Badge {
          Badge(counting: Store.shared)
        }

        func panel() -> Panel {
          Panel(title: "Totals", counting: Store.shared)
        }
      }

      """,
      "Panel.swift": Self.panel,
      "PanelTests.swift": """
      import XCTest

      final class PanelTests: XCTestCase {
        @MainActor func testTitle() {
          let panel = Panel(title: "T", counting: Store.shared)
          XCTAssertEqual(panel.title, "T")
        }
      }

      """,
    ]) { $1 }
    try expectContainer(
      .dependencies,
      files,
      root: "Coordinator",
      includeTests: true,
      dependencyWrapper: true,
      produces: [
        "Badge.swift": """
        import Dependencies

        @MainActor
        final class Badge {
          @Dependency(\\.counting) private var counting

          init() {}
        }

        """,
        "Coordinator.swift": """
        @MainActor
        final class Coordinator {
          func badge() -> Badge {
            Badge()
          }

          func panel() -> Panel {
            Panel(title: "Totals")
          }
        }

        """,
        "Panel.swift": """
        import Dependencies

        @MainActor
        final class Panel {
          let title: String
          @Dependency(\\.counting) private var counting

          init(title: String) {
            self.title = title
          }

          func total() -> Int { counting.count }
        }

        """,
        "PanelTests.swift": """
        import XCTest
        import Dependencies

        final class PanelTests: XCTestCase {
          @MainActor func testTitle() {
            let store = Store()
            let panel = withDependencies { $0.counting = store } operation: { Panel(title: "T") }
            XCTAssertEqual(panel.title, "T")
          }
        }

        """,
        "StoreDependencies.swift": Self.sendableStoreKeys,
        "Store.swift": Self.sendableStoreAfter,
      ],
      notes: [
        "Coordinator.swift:4: the composition root 'Coordinator'",
        "Coordinator.swift:8: the composition root 'Coordinator'",
        "PanelTests.swift:5: a test 'PanelTests'",
        "'Badge' reads '\\.counting' with @Dependency instead of taking it in its init",
        "'Panel' reads '\\.counting' with @Dependency instead of taking it in its init",
        "'Later' keeps its init parameters: its init does not only assign 'counting' to a stored 'let'",
        "'Reporter' keeps its init parameters: a convenience init forwards them",
        "'Store.shared' removed; 'StoreDependencies.swift' makes the one instance the live value of '\\.counting', '\\.resetting'; 'Coordinator' reads none of them itself",
      ]
    )
  }

  /// A creation in a file that never spells the consumer (`show(.init(...))`, the parameter's type
  /// declared elsewhere) keeps its init: dropping the parameter would leave that call an argument
  /// too many. Before, only the files naming the consumer were searched, and the plan did not build.
  @Test func theDependencyWrapperKeepsAConsumerCreatedWhereItsTypeIsNotWritten() throws {
    let store = """
      import Foundation

      final class Store: @unchecked Sendable {
        static let shared = Store()

        private let lock = NSLock()
        private var value = 0

        var count: Int { lock.withLock { value } }
      }

      extension Store: Counting {}

      """
    let files = [
      "Store.swift": store,
      "Counting.swift": """
      protocol Counting: AnyObject, Sendable {
        var count: Int { get }
      }

      """,
      "Panel.swift": Self.panel,
      "Coordinator.swift": """
      @MainActor
      final class Coordinator {
        func refresh() {
          show(Panel(title: "Totals", counting: Store.shared))
        }
      }

      """,
      "Shows.swift": """
      extension Coordinator {
        func show(_ panel: Panel) { print(panel.total()) }
      }

      """,
      "Preview.swift": """
      final class FakeCounting: Counting {
        let count = 3
      }

      extension Coordinator {
        func preview() {
          show(.init(title: "Preview", counting: FakeCounting()))
        }
      }

      """,
    ]
    try expectContainer(
      .dependencies,
      files,
      root: "Coordinator",
      dependencyWrapper: true,
      produces: [
        "Coordinator.swift": """
        import Dependencies

        @MainActor
        final class Coordinator {
          @Dependency(\\.counting) private var counting

          func refresh() {
            show(Panel(title: "Totals", counting: counting))
          }
        }

        """,
        "Store.swift": store.replacingOccurrences(of: "  static let shared = Store()\n\n", with: ""),
        "StoreDependencies.swift": """
        import Dependencies

        /// The one 'Store', made on first use: the live value of each of its protocols.
        private let liveStore = Store()

        /// 'Counting' in `DependencyValues`. Tests get the live instance, as they got the accessor's;
        /// a test substitutes a double with `withDependencies { $0.counting = ... }`.
        enum CountingKey: DependencyKey {
          static let liveValue: any Counting = liveStore
          static var testValue: any Counting { liveValue }
        }

        extension DependencyValues {
          var counting: any Counting {
            get { self[CountingKey.self] }
            set { self[CountingKey.self] = newValue }
          }
        }

        """,
      ],
      notes: [
        "Coordinator.swift:4: the composition root 'Coordinator'",
        "'Panel' keeps its init parameters: it is created where its type is not written (Preview.swift)",
        "'Store.shared' removed; 'StoreDependencies.swift' makes the one instance the live value of '\\.counting'; 'Coordinator' reads 'counting' with @Dependency",
      ]
    )
  }

  @Test func aSingletonOfAnotherGlobalActorIsRefused() throws {
    try expectContainerRefusal(
      .swinject,
      [
        "Store.swift": """
        @globalActor
        actor Worker {
          static let shared = Worker()
        }

        @Worker
        final class Store {
          static let shared = Store()
          var count = 0
        }

        extension Store: Counting {}

        """,
        "Counting.swift": """
        @Worker
        protocol Counting: AnyObject, Sendable {
          var count: Int { get }
        }

        """,
        "Coordinator.swift": """
        @Worker
        final class Coordinator {
          func counting() -> Counting { Store.shared }
        }

        """,
      ],
      root: "Coordinator",
      """
      Store.swift:6:1: error: 'Store' is isolated to '@Worker', and the container creates it outside any actor, where only the main actor can be assumed; make it '@MainActor' or 'Sendable'
      """
    )
  }

  // MARK: - Inputs

  /// `coordinator` after `finish --container dependencies`: it reads `counting` with `@Dependency`.
  static func coordinatorReading(access: String) -> String {
    """
    import Dependencies

    /// Shows the badges.
    @MainActor
    final class Coordinator {
      @Dependency(\\.counting) \(access)var counting

      let first: Badge

      init() {
        self.first = Badge(counting: Dependency(\\.counting).wrappedValue)
      }

      func badge() -> Badge {
        Badge(counting: counting)
      }

      func later(_ schedule: (@escaping @MainActor () -> Void) -> Void) {
        schedule { [counting] in
          _ = Badge(counting: counting)
        }
      }
    }

    """
  }

  static let coordinator = """
    /// Shows the badges.
    @MainActor
    final class Coordinator {
      let first = Badge(counting: Store.shared)

      func badge() -> Badge {
        Badge(counting: Store.shared)
      }

      func later(_ schedule: (@escaping @MainActor () -> Void) -> Void) {
        schedule {
          _ = Badge(counting: Store.shared)
        }
      }
    }

    """

  static let protocols: [String: String] = [
    "Badge.swift": """
    @MainActor
    final class Badge {
      private let counting: Counting

      init(counting: Counting) {
        self.counting = counting
      }
    }

    """,
    "Reporter.swift": """
    final class Reporter {
      private let counting: Counting
      private let resetting: Resetting

      init(counting: Counting, resetting: Resetting) {
        self.counting = counting
        self.resetting = resetting
      }

      convenience init(counting: Counting, resetting: Resetting, verbose: Bool) {
        self.init(counting: counting, resetting: resetting)
      }
    }

    """,
    "Later.swift": """
    /// Takes a protocol and something else: not one the container can create alone.
    final class Later {
      init(counting: Counting, delay: Int) {}
    }

    """,
  ]

  static let mainActorStore: [String: String] = protocols.merging([
    "Store.swift": """
    @MainActor
    final class Store {
      static let shared = Store()

      var count = 0

      func reset() {
        count = 0
      }
    }

    extension Store: Counting, Resetting {}

    """,
    "Counting.swift": """
    @MainActor
    protocol Counting: AnyObject, Sendable {
      var count: Int { get }
    }

    """,
    "Resetting.swift": """
    @MainActor
    protocol Resetting: AnyObject, Sendable {
      func reset()
    }

    """,
  ]) { $1 }

  static let mainActorStoreAfter = """
    @MainActor
    final class Store {
      var count = 0

      func reset() {
        count = 0
      }
    }

    extension Store: Counting, Resetting {}

    """

  /// A consumer whose init takes `Counting` and only assigns it to a stored `let`.
  static let panel = """
    @MainActor
    final class Panel {
      let title: String
      private let counting: Counting

      init(title: String, counting: Counting) {
        self.title = title
        self.counting = counting
      }

      func total() -> Int { counting.count }
    }

    """

  static let sendableStore: [String: String] = protocols.merging([
    "Store.swift": """
    import Foundation

    final class Store: @unchecked Sendable {
      static let shared = Store()

      private let lock = NSLock()
      private var value = 0

      var count: Int { lock.withLock { value } }

      func reset() {
        lock.withLock { value = 0 }
      }
    }

    extension Store: Counting, Resetting {}

    """,
    "Counting.swift": """
    protocol Counting: AnyObject, Sendable {
      var count: Int { get }
    }

    """,
    "Resetting.swift": """
    protocol Resetting: AnyObject, Sendable {
      func reset()
    }

    """,
  ]) { $1 }

  static let sendableStoreKeys = """
    import Dependencies

    /// The one 'Store', made on first use: the live value of each of its protocols.
    private let liveStore = Store()

    /// 'Counting' in `DependencyValues`. Tests get the live instance, as they got the accessor's;
    /// a test substitutes a double with `withDependencies { $0.counting = ... }`.
    enum CountingKey: DependencyKey {
      static let liveValue: any Counting = liveStore
      static var testValue: any Counting { liveValue }
    }

    /// 'Resetting' in `DependencyValues`. Tests get the live instance, as they got the accessor's;
    /// a test substitutes a double with `withDependencies { $0.resetting = ... }`.
    enum ResettingKey: DependencyKey {
      static let liveValue: any Resetting = liveStore
      static var testValue: any Resetting { liveValue }
    }

    extension DependencyValues {
      var counting: any Counting {
        get { self[CountingKey.self] }
        set { self[CountingKey.self] = newValue }
      }

      var resetting: any Resetting {
        get { self[ResettingKey.self] }
        set { self[ResettingKey.self] = newValue }
      }
    }

    """

  static let sendableStoreAfter = """
    import Foundation

    final class Store: @unchecked Sendable {
      private let lock = NSLock()
      private var value = 0

      var count: Int { lock.withLock { value } }

      func reset() {
        lock.withLock { value = 0 }
      }
    }

    extension Store: Counting, Resetting {}

    """
}

// MARK: - Helpers

/// Stand-ins for the API the generated code calls, with the real signatures and isolation
/// (Swinject 2.10.0, swift-dependencies 1.17.1), compiled once into modules of those names.
enum ContainerStandIns {
  static let swinject = """
    public protocol Resolver {
      func resolve<Service>(_ serviceType: Service.Type) -> Service?
    }
    public final class ServiceEntry<Service> {
      init() {}
      @discardableResult public func implements<T1, T2>(_ type1: T1.Type, _ type2: T2.Type) -> ServiceEntry<Service> { self }
      @discardableResult public func inObjectScope(_ objectScope: ObjectScope) -> Self { self }
    }
    public final class ObjectScope: Sendable {
      public static let container = ObjectScope()
      public static let graph = ObjectScope()
      public static let transient = ObjectScope()
    }
    public final class Container: Resolver {
      public init() {}
      @discardableResult
      public func register<Service>(_ serviceType: Service.Type, name: String? = nil, factory: @escaping (Resolver) -> Service) -> ServiceEntry<Service> {
        ServiceEntry()
      }
      public func resolve<Service>(_ serviceType: Service.Type) -> Service? { nil }
    }
    public protocol Assembly {
      func assemble(container: Container)
    }
    public final class Assembler {
      public init(_ assemblies: [Assembly], container: Container = Container()) { resolver = container }
      public var resolver: Resolver
    }

    """

  static let dependencies = """
    public protocol TestDependencyKey {
      associatedtype Value: Sendable
      static var testValue: Value { get }
    }
    public protocol DependencyKey: TestDependencyKey {
      static var liveValue: Value { get }
    }
    public struct DependencyValues: Sendable {
      public init() {}
      public subscript<Key: TestDependencyKey>(key: Key.Type) -> Key.Value where Key.Value: Sendable {
        get { Key.testValue }
        set {}
      }
    }
    public func withDependencies<R>(_ updateValues: (inout DependencyValues) throws -> Void, operation: () throws -> R) rethrows -> R {
      var values = DependencyValues()
      try updateValues(&values)
      return try operation()
    }
    @propertyWrapper
    public struct Dependency<Value>: Sendable {
      public init(_ keyPath: KeyPath<DependencyValues, Value> & Sendable) {}
      public var wrappedValue: Value { fatalError() }
    }

    """

  /// `-I` flags naming a folder that holds both modules.
  static let flags: [String] = {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "desingleton-containers-\(UUID().uuidString)"
    )
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    for (module, text) in [("Swinject", swinject), ("Dependencies", dependencies)] {
      let source = directory.appendingPathComponent(module + ".swift")
      try? Data(text.utf8).write(to: source)
      _ = try? run(
        [
          "swiftc", "-swift-version", "6", "-parse-as-library", "-emit-module", "-module-name", module,
          "-emit-module-path", directory.appendingPathComponent(module + ".swiftmodule").path, source.path,
        ])
    }
    return ["-I", directory.path]
  }()
}

private func expectContainer(
  _ kind: ContainerKind,
  _ files: [String: String],
  singleton name: String = "Store",
  root: String,
  includeTests: Bool = false,
  dependencyWrapper: Bool = false,
  produces expected: [String: String],
  notes: [String]? = nil,
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let inputErrors = try compileErrors(files)
  #expect(inputErrors == "", "the input does not compile", sourceLocation: sourceLocation)
  let options = FinishOptions(
    root: root,
    includeTests: includeTests,
    container: kind,
    dependencyWrapper: dependencyWrapper
  )
  try expectPlan(
    files,
    singleton: name,
    produces: expected,
    notes: notes,
    compilerFlags: ContainerStandIns.flags,
    mayDisappear: true,
    sourceLocation: sourceLocation
  ) { try FinishPlanner.plan(singleton: $0, options: options, project: $1) }
}

private func expectContainerRefusal(
  _ kind: ContainerKind,
  _ files: [String: String],
  singleton name: String = "Store",
  root: String,
  _ diagnostics: String,
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let inputErrors = try compileErrors(files)
  #expect(inputErrors == "", "the input does not compile", sourceLocation: sourceLocation)
  let project = makeProject(files)
  let singleton = try #require(project.index.singletons.first { $0.typeName == name }, sourceLocation: sourceLocation)
  do {
    let plan = try FinishPlanner.plan(
      singleton: singleton,
      options: FinishOptions(root: root, container: kind),
      project: project
    )
    Issue.record(
      "expected a refusal, got a plan for \((Array(plan.edits.keys) + Array(plan.newFiles.keys)).sorted())",
      sourceLocation: sourceLocation
    )
  } catch let refusal as Refusal {
    #expect(refusal.description == diagnostics, sourceLocation: sourceLocation)
  }
}
