import DesingletonCore
import DesingletonIndex
import DesingletonPlanner
import Foundation
import Testing

/// References the index once misread or missed, run through the planners: the rewritten code must
/// compile, or the planner must refuse where it cannot be sure.
@Suite struct ReferenceShapeTests {
  static let cart = """
    struct Cart: Sendable {
      var items: [String] = []
      mutating func addItem(_ item: String) { items.append(item) }
    }

    """

  // MARK: Writes through a struct-typed property

  @Test func aProjectMutatingMethodThroughAPropertyMakesItSettable() throws {
    try expectShapeExtraction(
      [
        "Cart.swift": Self.cart,
        "Store.swift": """
        @MainActor
        final class Store {
          static let shared = Store()
          var cart = Cart()
        }

        """,
        "Checkout.swift": """
        @MainActor
        final class Checkout {
          func add() {
            Store.shared.cart.addItem("x")
          }
        }

        """,
      ],
      slices: [Slice(name: "CartHolder", members: ["cart"])],
      produces: [
        "Store.swift": """
        @MainActor
        final class Store {
          static let shared = Store()
          var cart = Cart()
        }

        extension Store: CartHolder {}

        """,
        "CartHolder.swift": """
        @MainActor
        protocol CartHolder: AnyObject, Sendable {
          var cart: Cart { get set }
        }

        """,
      ],
      compilingWith: ["Use.swift": "@MainActor func use(_ holder: any CartHolder) { holder.cart.addItem(\"x\") }\n"])
  }

  /// The consumer gets the protocol that can set the property, not the one that only reads it.
  @Test func aMutatingMethodThroughAPropertyInjects() throws {
    try expectShapeInjection(
      [
        "Cart.swift": Self.cart,
        "Store.swift": """
        @MainActor
        final class Store {
          static let shared = Store()
          var cart = Cart()
        }

        extension Store: CartReading, CartHolder {}

        """,
        "CartHolder.swift": """
        @MainActor
        protocol CartReading: AnyObject, Sendable {
          var cart: Cart { get }
        }

        @MainActor
        protocol CartHolder: AnyObject, Sendable {
          var cart: Cart { get set }
        }

        """,
        "Checkout.swift": """
        @MainActor
        final class Checkout {
          func add() {
            Store.shared.cart.addItem("x")
          }
        }

        """,
      ],
      types: ["Checkout"],
      produces: [
        "Checkout.swift": """
        @MainActor
        final class Checkout {
          private let cartHolder: CartHolder

          init(cartHolder: CartHolder) {
            self.cartHolder = cartHolder
          }

          func add() {
            cartHolder.cart.addItem("x")
          }
        }

        """
      ])
  }

  @Test func aMutatingMethodThroughAnOptionalChainInjects() throws {
    try expectShapeInjection(
      [
        "Cart.swift": Self.cart,
        "Store.swift": """
        @MainActor
        final class Store {
          static let shared = Store()
          var cart: Cart? = Cart()
        }

        extension Store: CartReading, CartHolder {}

        """,
        "CartHolder.swift": """
        @MainActor
        protocol CartReading: AnyObject, Sendable {
          var cart: Cart? { get }
        }

        @MainActor
        protocol CartHolder: AnyObject, Sendable {
          var cart: Cart? { get set }
        }

        """,
        "Checkout.swift": """
        @MainActor
        final class Checkout {
          func add() {
            Store.shared.cart?.addItem("x")
          }
        }

        """,
      ],
      types: ["Checkout"],
      produces: [
        "Checkout.swift": """
        @MainActor
        final class Checkout {
          private let cartHolder: CartHolder

          init(cartHolder: CartHolder) {
            self.cartHolder = cartHolder
          }

          func add() {
            cartHolder.cart?.addItem("x")
          }
        }

        """
      ])
  }

  // MARK: References not spelled with the type's name

  @Test func aReferenceThroughATypeAliasIsInjected() throws {
    try expectShapeInjection(
      [
        "Store.swift": """
        @MainActor
        final class Store {
          static let shared = Store()
          var count = 0
        }

        extension Store: Counting {}

        typealias AppStore = Store

        """,
        "Counting.swift": """
        @MainActor
        protocol Counting: AnyObject, Sendable {
          var count: Int { get }
        }

        """,
        "Badge.swift": """
        @MainActor
        final class Badge {
          func text() -> String {
            "\\(AppStore.shared.count)"
          }
        }

        """,
      ],
      types: ["Badge"],
      produces: [
        "Badge.swift": """
        @MainActor
        final class Badge {
          private let counting: Counting

          init(counting: Counting) {
            self.counting = counting
          }

          func text() -> String {
            "\\(counting.count)"
          }
        }

        """
      ])
  }

  @Test func finishRefusesWhileATypeAliasStillReachesTheAccessor() throws {
    try expectShapeFinishRefusal(
      [
        "Store.swift": """
        @MainActor
        final class Store {
          static let shared = Store()
          var count = 0
        }

        """,
        "App.swift": """
        typealias AppStore = Store

        @MainActor
        final class App {
          func start() -> Int { Store.shared.count }
        }

        @MainActor
        final class Badge {
          func text() -> Int { AppStore.shared.count }
        }

        """,
      ],
      root: "App",
      """
      App.swift:10:24: error: 'Store.shared' is still used by a consumer not yet injected 'Badge'; 'inject --type Badge' cannot take it yet: 'Store' conforms to no protocol declared in this code; run 'desingleton extract-protocol --singleton Store' first
      App.swift:5:25: note: 'Store.shared' is used by the composition root 'App'
      """)
  }

  /// One `show` takes a generic value, so `.shared` may be any type's. (With only `show(_ store:
  /// Store)` it is the singleton's instance: `FinishPlannerTests.anImplicitMemberPassedAsTheSingletonIsTheInstance`.)
  @Test func finishRefusesAnImplicitMemberWhoseTypeCannotBeTold() throws {
    try expectShapeFinishRefusal(
      [
        "Store.swift": """
        @MainActor
        final class Store {
          static let shared = Store()
          var count = 0
        }

        """,
        "App.swift": """
        @MainActor
        func show(_ store: Store) -> Int { store.count }

        func show<T>(_ value: T) -> Int { 0 }

        @MainActor
        final class App {
          func start() -> Int { show(.shared) }
        }

        """,
      ],
      root: "App",
      """
      App.swift:8:30: error: '.shared' may be 'Store.shared', and which type it belongs to cannot be told; write the type out
      """)
  }

  /// A standard library callee that takes any type (`list.append(.shared)`, `.some(.shared)`,
  /// `Optional(.shared)`) looks `.shared` up in the type the context gives it, which may be the
  /// singleton: it is no framework parameter that rules the singleton out.
  @Test func finishRefusesAnImplicitMemberPassedToAGenericStandardCallee() throws {
    try expectShapeFinishRefusal(
      [
        "Store.swift": """
        @MainActor
        final class Store {
          static let shared = Store()
          var count = 0
        }

        """,
        "App.swift": """
        @MainActor
        final class App {
          func start() -> Int {
            var list: [Store] = []
            list.append(.shared)
            let maybe: Store? = .some(.shared)
            let other: Store? = Optional(.shared)
            return list.count + (maybe?.count ?? 0) + (other?.count ?? 0)
          }
        }

        """,
      ],
      root: "App",
      """
      App.swift:5:17: error: '.shared' may be 'Store.shared', and which type it belongs to cannot be told; write the type out
      App.swift:6:31: error: '.shared' may be 'Store.shared', and which type it belongs to cannot be told; write the type out
      App.swift:7:34: error: '.shared' may be 'Store.shared', and which type it belongs to cannot be told; write the type out
      """)
  }

  @Test func finishRefusesAnImplicitMemberInAnAnnotatedProperty() throws {
    try expectShapeFinishRefusal(
      [
        "Store.swift": """
        @MainActor
        final class Store {
          static let shared = Store()
          var count = 0
        }

        """,
        "App.swift": """
        @MainActor
        final class App {
          func start() -> Int { Store.shared.count }
        }

        @MainActor
        final class Badge {
          let store: Store = .shared
        }

        """,
      ],
      root: "App",
      """
      App.swift:8:22: error: 'Store.shared' is still used by a consumer not yet injected 'Badge'; 'inject --type Badge' cannot take it yet: 'Store' conforms to no protocol declared in this code; run 'desingleton extract-protocol --singleton Store' first
      App.swift:3:25: note: 'Store.shared' is used by the composition root 'App'
      """)
  }

  static let counting = [
    "Store.swift": """
    @MainActor
    final class Store {
      static let shared = Store()
      var count = 0
    }

    extension Store: Counting {}

    """,
    "Counting.swift": """
    @MainActor
    protocol Counting: AnyObject, Sendable {
      var count: Int { get }
    }

    """,
  ]

  @Test func anImplicitMemberInAnAnnotatedPropertyIsInjected() throws {
    try expectShapeInjection(
      Self.counting.merging([
        "Badge.swift": """
        @MainActor
        final class Badge {
          let store: Store = .shared

          func text() -> Int {
            store.count
          }
        }

        """
      ]) { $1 },
      types: ["Badge"],
      produces: [
        "Badge.swift": """
        @MainActor
        final class Badge {
          init(store: Counting) {
            self.store = store
          }

          let store: Counting

          func text() -> Int {
            store.count
          }
        }

        """
      ])
  }

  /// `let s: Store = counting` would not compile: a local declared with the type is refused.
  @Test func aLocalDeclaredWithTheSingletonsTypeIsRefused() throws {
    let files = Self.counting.merging([
      "Badge.swift": """
      @MainActor
      final class Badge {
        func text() -> Int {
          let s: Store = .shared
          return s.count
        }
      }

      """
    ]) { $1 }
    #expect(try compileErrors(files) == "")
    let project = makeProject(files)
    let store = try #require(project.index.singletons.first)
    do {
      let plan = try InjectPlanner.plan(singleton: store, options: InjectOptions(types: ["Badge"]), project: project)
      Issue.record("expected a refusal, got a plan for \(plan.edits.keys.sorted())")
    } catch let refusal as Refusal {
      #expect(refusal.diagnostics.map(\.description) == [
        "Badge.swift:4:20: error: 'Badge' passes the instance 'Store.shared' itself, so it cannot be told which protocol it needs"
      ])
    }
  }

  // MARK: Subscripts and key paths

  static let bus = """
    @MainActor
    final class Bus {
      static let shared = Bus()
      var events: [String] = []
      subscript(key: String) -> Int {
        get { events.count }
        set { events.append(key) }
      }
    }

    """

  @Test func aSubscriptThroughTheAccessorBecomesARequirement() throws {
    try expectShapeExtraction(
      [
        "Bus.swift": Self.bus,
        "Panel.swift": """
        @MainActor
        final class Panel {
          func bump() {
            Bus.shared["x"] = Bus.shared["y"] + 1
          }
        }

        """,
      ],
      singleton: "Bus", slices: [Slice(name: "Keyed", members: ["subscript"])],
      produces: [
        "Bus.swift": Self.bus + "\nextension Bus: Keyed {}\n",
        "Keyed.swift": """
        @MainActor
        protocol Keyed: AnyObject, Sendable {
          subscript(key: String) -> Int { get set }
        }

        """,
      ],
      compilingWith: ["Use.swift": "@MainActor func use(_ bus: any Keyed) { bus[\"x\"] = bus[\"y\"] + 1 }\n"])
  }

  @Test func aSubscriptThroughTheAccessorIsInjected() throws {
    try expectShapeInjection(
      [
        "Bus.swift": Self.bus + "\nextension Bus: Keyed {}\n",
        "Keyed.swift": """
        @MainActor
        protocol Keyed: AnyObject, Sendable {
          subscript(key: String) -> Int { get set }
        }

        """,
        "Panel.swift": """
        @MainActor
        final class Panel {
          func bump() {
            Bus.shared["x"] = Bus.shared["y"] + 1
          }
        }

        """,
      ],
      singleton: "Bus", types: ["Panel"],
      produces: [
        "Panel.swift": """
        @MainActor
        final class Panel {
          private let keyed: Keyed

          init(keyed: Keyed) {
            self.keyed = keyed
          }

          func bump() {
            keyed["x"] = keyed["y"] + 1
          }
        }

        """
      ])
  }

  @Test func aKeyPathThroughTheAccessorIsRefusedWithItsOwnReason() throws {
    let files = [
      "Bus.swift": Self.bus + "\nextension Bus: Eventing {}\n",
      "Eventing.swift": """
        @MainActor
        protocol Eventing: AnyObject, Sendable {
          var events: [String] { get }
        }

        """,
      "Panel.swift": """
        @MainActor
        final class Panel {
          func count() -> Int {
            Bus.shared[keyPath: \\.events].count
          }
        }

        """,
    ]
    #expect(try compileErrors(files) == "")
    let project = makeProject(files)
    let bus = try #require(project.index.singletons.first)
    #expect(throws: Refusal.self) {
      try InjectPlanner.plan(singleton: bus, options: InjectOptions(types: ["Panel"]), project: project)
    }
    do {
      _ = try InjectPlanner.plan(singleton: bus, options: InjectOptions(types: ["Panel"]), project: project)
    } catch let refusal as Refusal {
      #expect(refusal.diagnostics.map(\.description) == [
        "Panel.swift:4:5: error: 'Panel' applies a key path to 'Bus.shared', so which member it needs cannot be told; use the member by name"
      ])
    }
  }
}

private func expectShapeExtraction(
  _ files: [String: String], singleton name: String = "Store", slices: [Slice]?, produces expected: [String: String],
  compilingWith extra: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation
) throws {
  #expect(try compileErrors(files) == "", "the input does not compile", sourceLocation: sourceLocation)
  let options = ExtractProtocolOptions(slices: slices)
  try expectPlan(
    files, singleton: name, produces: expected, notes: nil, compilingWith: extra, sourceLocation: sourceLocation
  ) { try ExtractProtocolPlanner.plan(singleton: $0, options: options, project: $1) }
}

private func expectShapeInjection(
  _ files: [String: String], singleton name: String = "Store", types: [String], produces expected: [String: String],
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  #expect(try compileErrors(files) == "", "the input does not compile", sourceLocation: sourceLocation)
  let options = InjectOptions(types: types)
  try expectPlan(files, singleton: name, produces: expected, notes: nil, sourceLocation: sourceLocation) {
    try InjectPlanner.plan(singleton: $0, options: options, project: $1)
  }
}

/// Expects `finish` to refuse with exactly `diagnostics`, one a line.
private func expectShapeFinishRefusal(
  _ files: [String: String], singleton name: String = "Store", root: String, _ diagnostics: String,
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  #expect(try compileErrors(files) == "", "the input does not compile", sourceLocation: sourceLocation)
  let project = makeProject(files)
  let singleton = try #require(project.index.singletons.first { $0.typeName == name }, sourceLocation: sourceLocation)
  do {
    let plan = try FinishPlanner.plan(
      singleton: singleton, options: FinishOptions(root: root, nextStep: NextCommand.injectTypes), project: project)
    Issue.record("expected a refusal, got a plan for \(plan.edits.keys.sorted())", sourceLocation: sourceLocation)
  } catch let refusal as Refusal {
    expectText(refusal.diagnostics.map(\.description).joined(separator: "\n"), diagnostics, sourceLocation: sourceLocation)
  }
}
