import DesingletonCore
import DesingletonIndex
import DesingletonPlanner
import Foundation
import Testing

/// One test per point of `finish`: the planner runs on inline sources whose consumers `inject`
/// already rewrote, the whole text of every changed file is compared, everything is type-checked
/// together in Swift 6 mode, and a second run has nothing left to do.
@Suite struct FinishPlannerTests {
  /// A main-actor singleton with one counter, as most refusals here use it.
  static let countingStore = """
    @MainActor
    final class Store {
      static let shared = Store()
      var count = 0
    }

    """

  /// `@objc` does not compile on Linux, so this input is not type-checked first.
  /// The accessor read through the type's metatype (`Store.self.shared`) is a use like any other:
  /// the root's is replaced by its property. Through a value's dynamic type (`type(of:
  /// value).shared`) it may be any type's, and blocks.
  /// A subclass's instance is its superclass's: a base class whose subclasses are created in two
  /// places is made twice, and each instance would own its own singleton (the two screens counted
  /// apart).
  /// The entry point's `static func main()` creating the root twice makes two instances, each
  /// owning its own singleton: refused as any other two creations (a preview's are not counted).
  /// An accessor declared once per build configuration with a different value each is finished
  /// by hand: the root would make the debug value in release builds too.
  /// A root property declared under `#if` whose initial value uses the accessor is assigned by
  /// hand: moved into the init, outside the `#if`, each clause's would be assigned in every
  /// configuration.
  @Test func aRootPropertyUnderIfConfigUsingTheAccessorIsRefused() throws {
    try expectFinishRefusal(
      [
        "Store.swift": """
        @MainActor
        final class Store {
          static let shared = Store()
          var count = 0
        }

        @MainActor
        final class Reader {
          let store: Store
          init(store: Store) { self.store = store }
        }

        """,
        "AppRoot.swift": """
        @MainActor
        final class AppRoot {
          #if DEBUG
          let reader = Reader(store: Store.shared)
          #else
          let reader = Reader(store: Store.shared)
          #endif
        }

        """,
      ],
      root: "AppRoot",
      """
      AppRoot.swift:4:30: error: 'reader' is declared under '#if' and uses 'Store.shared' in its initial value, which moves into the root's inits, outside that '#if'; assign 'reader' in the root's init by hand
      """)
  }

  @Test func anAccessorWithAValuePerBuildConfigurationIsRefused() throws {
    try expectFinishRefusal(
      [
        "Store.swift": """
        @MainActor
        final class Store {
          #if DEBUG
          static let shared = Store(tag: "debug")
          #else
          static let shared = Store(tag: "release")
          #endif
          let tag: String
          init(tag: String) { self.tag = tag }
        }

        """,
        "AppRoot.swift": """
        @MainActor
        final class AppRoot {
          func run() -> String { Store.shared.tag }
        }

        """,
      ],
      root: "AppRoot",
      """
      Store.swift:6:3: error: 'Store.shared' is declared 2 times, with a different value under each '#if' clause: the root would make one of them in every build configuration; finish it by hand
      """)
  }

  @Test func aRootCreatedTwiceInStaticMainIsMadeTwice() throws {
    try expectFinishRefusal(
      [
        "Store.swift": Self.countingStore,
        "App.swift": """
        @MainActor
        @main
        final class App {
          func run() -> Int {
            Store.shared.count += 1
            return Store.shared.count
          }

          static func main() {
            print(App().run(), App().run())
          }
        }

        @MainActor
        enum Previews {
          static let preview = App()
        }

        """,
      ],
      root: "App",
      """
      App.swift:10:11: error: 'App' is created in 2 places: each would own its own 'Store' where all of them shared one; create it once and pass it on, or name the type that creates them as --root
      App.swift:10:24: note: 'App' is created here too
      """)
  }

  /// One creation that runs more than once (a factory called twice, a loop, a closure, a local
  /// function) makes as many roots, each owning its own singleton: refused as two creations are.
  @Test(arguments: [
    (
      "static func make() -> Session { Session() }", "print(Session.make().tap(), Session.make().tap())",
      "Session.swift:8:35: error: 'Session' is created in 'make()', which may run more than once: each 'Session' would own its own 'Store' where all of them shared one; create it once and pass it on, or name the type that creates it as --root"
    ),
    (
      "", "for _ in 0..<2 { print(Session().tap()) }",
      "main.swift:1:24: error: 'Session' is created in a loop, which may run more than once: each 'Session' would own its own 'Store' where all of them shared one; create it once and pass it on, or name the type that creates it as --root"
    ),
    (
      "", "let make = { Session() }\nprint(make().tap(), make().tap())",
      "main.swift:1:14: error: 'Session' is created in a closure, which may run more than once: each 'Session' would own its own 'Store' where all of them shared one; create it once and pass it on, or name the type that creates it as --root"
    ),
    (
      "", "do {\n  func make() -> Session { Session() }\n  print(make().tap(), make().tap())\n}",
      "main.swift:2:28: error: 'Session' is created in 'make()', which may run more than once: each 'Session' would own its own 'Store' where all of them shared one; create it once and pass it on, or name the type that creates it as --root"
    ),
  ])
  func aRootCreatedWhereCodeRunsMoreThanOnceIsMadeMoreThanOnce(factory: String, main: String, error: String) throws {
    try expectFinishRefusal(
      [
        "Store.swift": Self.countingStore,
        "Session.swift": """
        @MainActor
        final class Session {
          func tap() -> Int {
            Store.shared.count += 1
            return Store.shared.count
          }

          \(factory)
        }

        """,
        "main.swift": main + "\n",
      ],
      root: "Session", error)
  }

  /// A root no code creates but the system does, as often as it needs one (a scene delegate per
  /// window, a cell per row, a decoded value per decoding): each would own its own singleton. An
  /// application delegate or a `@main` type is made once.
  @Test(arguments: [
    (
      "protocol UIWindowSceneDelegate: AnyObject {}", "final class SceneDelegate: UIWindowSceneDelegate",
      "Root.swift:2:1: error: 'SceneDelegate' is created by no code: the system creates it (it conforms to 'UIWindowSceneDelegate'), as often as it needs one, and each would own its own 'Store' where all of them shared one; name as --root a type created once, such as the application delegate or the '@main' type"
    ),
    (
      "", "final class SceneDelegate: Decodable",
      "Root.swift:2:1: error: 'SceneDelegate' is created by no code: a decoder creates it through 'init(from:)' (it conforms to 'Decodable'), as often as it needs one, and each would own its own 'Store' where all of them shared one; name as --root a type created once, such as the application delegate or the '@main' type"
    ),
  ])
  func aRootTheSystemCreatesMayBeMadeMoreThanOnce(declarations: String, root: String, error: String) throws {
    try expectFinishRefusal(
      [
        "Store.swift": Self.countingStore,
        "Root.swift": """
        \(declarations)
        \(root) {
          @MainActor func tap() -> Int {
            Store.shared.count += 1
            return Store.shared.count
          }
        }

        """,
      ],
      root: "SceneDelegate", error)
  }

  /// A view controller or view no code creates is loaded from a storyboard or nib, once each time
  /// one is loaded (a screen pushed twice, a window per scene): each would own its own singleton.
  /// UIKit is the stand-in's module, as in an app: the index does not see its declarations.
  @Test(arguments: [
    ("final class HomeViewController: UIViewController", "UIViewController"),
    ("final class BadgeView: UIView", "UIView"),
  ])
  func aRootAStoryboardOrNibCreatesMayBeMadeMoreThanOnce(root: String, framework: String) throws {
    let type = String(root.split(separator: " ")[2].dropLast())
    let uiKit = try #require(FuzzTypeChecker.uiKitModule.directory, "\(FuzzTypeChecker.uiKitModule.errors)")
    try expectFinishRefusal(
      [
        "Store.swift": Self.countingStore,
        "Root.swift": """
        import UIKit

        \(root) {
          func tap() -> Int {
            Store.shared.count += 1
            return Store.shared.count
          }
        }

        """,
      ],
      root: type, compilerFlags: ["-I", uiKit],
      "Root.swift:3:1: error: '\(type)' is created by no code: a storyboard or nib creates it (a '\(framework)'), as often as it needs one, and each would own its own 'Store' where all of them shared one; name as --root a type created once, such as the application delegate or the '@main' type"
    )
  }

  /// A root declared twice (each app target's `AppDelegate` in a project whose build files do not
  /// tell the targets apart, or one per `#if` branch) is two roots: the property went into the first
  /// declaration only, and the other's uses read a name it does not declare.
  /// What still blocks comes first: a root declared twice is asked last, as whether a root is made
  /// once is.
  @Test(arguments: [false, true])
  func aRootDeclaredTwiceIsRefused(consumerLeft: Bool) throws {
    let delegate = """
      final class AppDelegate: @unchecked Sendable {
        func launch() {
          Store.shared.count += 1
        }
      }
      """
    try expectFinishRefusal(
      [
        "Store.swift": """
        final class Store: @unchecked Sendable {
          static let shared = Store()
          var count = 0
        }

        """,
        "MacAppDelegate.swift": "#if os(macOS)\n" + delegate + "\n#endif\n",
        "PhoneAppDelegate.swift": "#if !os(macOS)\n" + delegate + "\n\nlet delegate = AppDelegate()\n#endif\n",
        "Screen.swift": consumerLeft ? "final class Screen {\n  func tap() {\n    Store.shared.count += 1\n  }\n}\n" : "",
      ],
      root: "AppDelegate",
      consumerLeft
        ? "Screen.swift:3:5: error: 'Store.shared' is still used by a consumer not yet injected 'Screen'; 'inject --type Screen' cannot take it yet: 'Store' conforms to no protocol declared in this code; run 'desingleton extract-protocol --singleton Store' first\n"
          + "MacAppDelegate.swift:4:5: note: 'Store.shared' is used by the composition root 'AppDelegate'\n"
          + "PhoneAppDelegate.swift:4:5: note: 'Store.shared' is used by the composition root 'AppDelegate'"
        : "MacAppDelegate.swift:2:1: error: 'AppDelegate' is declared more than once (here and at PhoneAppDelegate.swift:2:1): each declaration is a root of its own (a type of each app target, or of each '#if' branch), which one property cannot serve; give each its own instance by hand, or name another root with --root")
  }

  /// An extension of the root in another file reads the instance too: a `private` property in the
  /// root's declaration is out of its reach, so it is internal.
  @Test func aRootExtendedInAnotherFileHoldsAnInternalProperty() throws {
    try expectFinish(
      [
        "Store.swift": """
        final class Store: @unchecked Sendable {
          static let shared = Store()
          var count = 0
        }

        """,
        "Root.swift": """
        final class Root: @unchecked Sendable {
          func run() -> Int {
            Store.shared.count += 1
            return Store.shared.count
          }
        }

        let root = Root()

        """,
        "Root+More.swift": """
        extension Root {
          func more() -> Int {
            Store.shared.count + 1
          }
        }

        """,
      ],
      root: "Root",
      produces: [
        "Store.swift": """
        final class Store: @unchecked Sendable {
          var count = 0
        }

        """,
        "Root.swift": """
        final class Root: @unchecked Sendable {
          let store = Store()

          func run() -> Int {
            store.count += 1
            return store.count
          }
        }

        let root = Root()

        """,
        "Root+More.swift": """
        extension Root {
          func more() -> Int {
            store.count + 1
          }
        }

        """,
      ])
  }

  /// Code other modules inline (`@inlinable`) reads only public and `@usableFromInline`
  /// declarations: the root's new property that code reads is `@usableFromInline` (a `private` one
  /// does not compile there). The singleton's type is one such code can name already.
  @Test(arguments: ["public ", "@usableFromInline "])
  func inlinableCodeOfTheRootReadsAUsableFromInlineProperty(access: String) throws {
    try expectFinish(
      [
        "Store.swift": """
        \(access)final class Store: @unchecked Sendable {
          \(access)static let shared = Store()
          \(access)var count = 0
        }

        """,
        "Root.swift": """
        public final class Root: @unchecked Sendable {
          public init() {}

          @inlinable
          public func run() -> Int {
            Store.shared.count += 1
            return Store.shared.count
          }
        }

        let root = Root()

        """,
      ],
      root: "Root",
      produces: [
        "Store.swift": """
        \(access)final class Store: @unchecked Sendable {
          \(access)var count = 0
        }

        """,
        "Root.swift": """
        public final class Root: @unchecked Sendable {
          @usableFromInline let store = Store()

          public init() {}

          @inlinable
          public func run() -> Int {
            store.count += 1
            return store.count
          }
        }

        let root = Root()

        """,
      ])
  }

  @Test func aBaseClassWhoseSubclassesAreCreatedTwiceIsMadeTwice() throws {
    try expectFinishRefusal(
      [
        "Store.swift": Self.countingStore,
        "Screen.swift": """
        @MainActor
        class Screen {
          func tap() -> Int {
            Store.shared.count += 1
            return Store.shared.count
          }
        }

        @MainActor
        final class Home: Screen {}

        @MainActor
        final class Settings: Screen {}

        """,
        "main.swift": """
        let home = Home()
        let settings = Settings()
        _ = home.tap()
        print(settings.tap())

        """,
      ],
      root: "Screen",
      """
      main.swift:1:12: error: 'Screen' is created in 2 places, as itself or a subclass: each would own its own 'Store' where all of them shared one; create it once and pass it on, or name the type that creates them as --root
      main.swift:2:16: note: 'Settings', a subclass of 'Screen', is created here too
      """)
  }

  /// A class whose subclass another type creates is created there: no composition root, so the
  /// census counts its uses as a consumer's.
  @Test func aClassWhoseSubclassATypeCreatesIsNoRoot() throws {
    let project = makeProject([
      "Screen.swift": """
        class Screen {}
        final class Home: Screen {}
        final class Router { let home = Home() }
        final class Alone {}
        class Base {}
        final class Leaf: Base {}

        """
    ])
    #expect(try !CompositionRoots.isCompositionRoot("Screen", project: project))
    #expect(try !CompositionRoots.isCompositionRoot("Home", project: project))
    #expect(try CompositionRoots.isCompositionRoot("Router", project: project))
    #expect(try CompositionRoots.isCompositionRoot("Alone", project: project))
    #expect(try CompositionRoots.isCompositionRoot("Base", project: project))
  }

  @Test func aMetatypeBaseIsAUseOfTheAccessor() throws {
    let store = """
      @MainActor
      final class Store {
        static let shared = Store()
        var count = 0
      }

      """
    try expectFinish(
      [
        "Store.swift": store,
        "AppRoot.swift": """
        @MainActor
        final class AppRoot {
          func run() -> Int {
            Store.self.shared.count += 1
            return Store.shared.count
          }
        }

        """,
      ],
      root: "AppRoot",
      produces: [
        "Store.swift": store.replacingOccurrences(of: "  static let shared = Store()\n", with: ""),
        "AppRoot.swift": """
        @MainActor
        final class AppRoot {
          private let store = Store()

          func run() -> Int {
            store.count += 1
            return store.count
          }
        }

        """,
      ])
    try expectFinishRefusal(
      [
        "Store.swift": store,
        "AppRoot.swift": """
        @MainActor
        final class AppRoot {
          func run(_ value: Store) -> Int {
            type(of: value).shared.count += 1
            return Store.shared.count
          }
        }

        """,
      ],
      root: "AppRoot",
      """
      AppRoot.swift:4:5: error: '.shared' may be 'Store.shared', and which type it belongs to cannot be told; write the type out
      AppRoot.swift:5:12: note: 'Store.shared' is used by the composition root 'AppRoot'
      """)
  }

  @Test func objectiveCCodeSendingTheAccessorMessageBlocksFinish() throws {
    let project = makeProject(
      [
        "Options.swift": """
        import Foundation

        @MainActor
        final class Options: NSObject {
          @objc static let shared = Options()
          var theme = "light"
        }

        """,
        "AppRoot.swift": """
        import Foundation

        @MainActor
        final class AppRoot {
          func theme() -> String {
            Options.shared.theme
          }
        }

        """,
        "SPAppDelegate.m": """
        #import "Simplenote-Swift.h"

        @implementation SPAppDelegate
        - (void)setup {
            NSLog(@"%@", [Options shared]);
            id theme = [Options  shared ].theme;
            id other = Options.shared;
            id unrelated = [OptionsPanel shared];
        }
        @end

        """,
      ],
    )
    let singleton = try #require(project.index.singletons.first { $0.typeName == "Options" })
    #expect(throws: Refusal.self) { try FinishPlanner.plan(singleton: singleton, options: FinishOptions(root: "AppRoot"), project: project) }
    do {
      _ = try FinishPlanner.plan(singleton: singleton, options: FinishOptions(root: "AppRoot"), project: project)
    } catch let refusal as Refusal {
      #expect(
        refusal.description == """
      SPAppDelegate.m:5:19: error: Objective-C code uses 'Options.shared' here, and desingleton does not rewrite Objective-C; pass the instance to it from Swift first
      SPAppDelegate.m:6:17: error: Objective-C code uses 'Options.shared' here, and desingleton does not rewrite Objective-C; pass the instance to it from Swift first
      SPAppDelegate.m:7:16: error: Objective-C code uses 'Options.shared' here, and desingleton does not rewrite Objective-C; pass the instance to it from Swift first
      AppRoot.swift:6:5: note: 'Options.shared' is used by the composition root 'AppRoot'
      """)
    }
  }

  @Test func theRootOwnsTheInstanceAndAStrictInitBecomesInternal() throws {
    try expectFinish(
      Self.injected.merging([
        "Coordinator.swift": """
        @MainActor
        final class Coordinator {
          func start() -> Badge {
            Badge(counting: Store.shared)
          }

          func later() {
            Task { [weak self] in
              _ = self?.start()
              _ = Badge(counting: Store.shared)
            }
          }
        }

        """
      ]) { $1 },
      root: "Coordinator",
      produces: [
        "Store.swift": Self.finishedStore,
        "Coordinator.swift": """
        @MainActor
        final class Coordinator {
          private let store = Store()

          func start() -> Badge {
            Badge(counting: store)
          }

          func later() {
            Task { [weak self, store] in
              _ = self?.start()
              _ = Badge(counting: store)
            }
          }
        }

        """,
      ],
      notes: [
        "Coordinator.swift:4: the composition root 'Coordinator'",
        "Coordinator.swift:10: the composition root 'Coordinator'",
        "Store.swift:4: init is now internal so the root can create the instance",
        "'Store.shared' removed; 'Coordinator' owns the instance as 'store'",
      ])
  }

  /// A root that keeps the shared instance in a stored property (`@State var store = Store.shared`
  /// in a SwiftUI app) holds it there already: that initial value creates the instance, and what
  /// reads the property, the root's other uses and the properties made from it keep working.
  @Test func aRootPropertyHoldingTheSharedInstanceBecomesTheOwner() throws {
    try expectFinish(
      Self.injected.merging([
        "ShopApp.swift": """
        @MainActor
        final class ShopApp {
          var store = Store.shared
          let badge = Badge(counting: Store.shared)

          func start() -> Int {
            store.bump()
            Store.shared.bump()
            return badge.refresh() + store.count
          }
        }

        """
      ]) { $1 },
      root: "ShopApp",
      produces: [
        "Store.swift": Self.finishedStore,
        "ShopApp.swift": """
        @MainActor
        final class ShopApp {
          var store = Store()
          let badge: Badge

          init() {
            self.badge = Badge(counting: store)
          }

          func start() -> Int {
            store.bump()
            store.bump()
            return badge.refresh() + store.count
          }
        }

        """,
      ])
  }

  /// `.shared` passed where every declaration of the parameter says the singleton's type is its
  /// instance: in the root, the root's property. (mastodon's `ReportReasonViewModel(context: .shared)`,
  /// home-assistant's `LaunchSplashOverlayView(state: .shared)`.)
  @Test func anImplicitMemberPassedAsTheSingletonIsTheInstance() throws {
    try expectFinish(
      [
        "Store.swift": Self.countingStore,
        "App.swift": """
        @MainActor
        func show(_ store: Store) -> Int { store.count }

        @MainActor
        final class App {
          func start() -> Int { show(.shared) }
        }

        """,
      ],
      root: "App",
      produces: [
        "Store.swift": """
        @MainActor
        final class Store {
          var count = 0
        }

        """,
        "App.swift": """
        @MainActor
        func show(_ store: Store) -> Int { store.count }

        @MainActor
        final class App {
          private let store = Store()

          func start() -> Int { show(store) }
        }

        """,
      ])
  }

  /// An enum case named like the accessor, assigned to or compared with a property of the enum's
  /// type, is not the singleton's: `finish` deletes the accessor under it (UTM's `mode = .shared`
  /// in `UTMAppleConfigurationNetwork`'s inits and `networks[i].mode == .shared`, which it refused
  /// as "may be 'UTMRegistry.shared'").
  @Test func anEnumCaseNamedLikeTheAccessorInAPropertysAssignmentOrComparisonBlocksNothing() throws {
    let network = """
      enum NetworkMode { case shared, bridged }

      struct Network {
        var mode: NetworkMode = .bridged

        init() {
          mode = .shared
        }

        init(bridged: Bool) {
          self.mode = .bridged
          if !bridged { self.mode = .shared }
        }
      }

      final class Configuration {
        var networks: [Network] = [Network()]

        func isShared(_ i: Int) -> Bool {
          networks[i].mode == .shared && !networks.isEmpty
        }
      }

      """
    // Network.swift is left as it is.
    try expectFinish(
      [
        "Store.swift": Self.countingStore,
        "Network.swift": network,
        "App.swift": """
        @MainActor
        final class App {
          func start() -> Int { Store.shared.count }
        }

        """,
      ],
      root: "App",
      produces: [
        "Store.swift": """
        @MainActor
        final class Store {
          var count = 0
        }

        """,
        "App.swift": """
        @MainActor
        final class App {
          private let store = Store()

          func start() -> Int { store.count }
        }

        """,
      ])
  }

  /// The singleton's own instance code reading its accessor reads the one instance: `self`, once
  /// the root owns it, also in a closure that captures `self` weakly after `guard let self` or in
  /// `if let self` (as stats' `SystemStats` does). A static member's use still blocks.
  @Test func theSingletonsOwnInstanceCodeReadsSelf() throws {
    var files = Self.injected
    files["Store.swift"] = """
      @MainActor
      final class Store {
        static let shared = Store()
        private init() {}

        var count = 0

        func bump() {
          count += 1
        }

        func bumpTwice() {
          Store.shared.bump()
          Store.shared.bump()
        }

        func later() {
          Task { [weak self] in self?.bump() }
          Task { Store.shared.bump() }
          Task { [weak self] in
            guard let self else { return }
            Store.shared.bump()
          }
          Task { [weak self] in
            if let self { Store.shared.bump() }
          }
        }
      }

      extension Store: Counting {}

      """
    files["Coordinator.swift"] = """
      @MainActor
      final class Coordinator {
        func start() -> Badge {
          Store.shared.bumpTwice()
          return Badge(counting: Store.shared)
        }
      }

      """
    try expectFinish(
      files, root: "Coordinator",
      produces: [
        "Store.swift": """
        @MainActor
        final class Store {
          init() {}

          var count = 0

          func bump() {
            count += 1
          }

          func bumpTwice() {
            self.bump()
            self.bump()
          }

          func later() {
            Task { [weak self] in self?.bump() }
            Task { self.bump() }
            Task { [weak self] in
              guard let self else { return }
              self.bump()
            }
            Task { [weak self] in
              if let self { self.bump() }
            }
          }
        }

        extension Store: Counting {}

        """,
        "Coordinator.swift": """
        @MainActor
        final class Coordinator {
          private let store = Store()

          func start() -> Badge {
            store.bumpTwice()
            return Badge(counting: store)
          }
        }

        """,
      ])

    // A static member's use (a static context, like any other type's), or one in a closure that
    // captures `self` weakly and has not unwrapped it, still blocks.
    for (blocker, kind) in [
      ("  static func reset() {\n    Store.shared.count = 0\n  }\n\n  func later() {", "a static context 'Store'"),
      (
        "  func weakly() {\n    Task { [weak self] in\n      _ = self\n      Store.shared.bump()\n    }\n  }\n\n  func later() {",
        "the singleton itself 'Store'"
      ),
    ] {
      var blocked = files
      blocked["Store.swift"] = files["Store.swift"]!.replacingOccurrences(of: "  func later() {", with: blocker)
      let project = makeProject(blocked)
      #expect(try compileErrors(blocked) == "")
      let singleton = try #require(project.index.singletons.first { $0.typeName == "Store" })
      do {
        _ = try FinishPlanner.plan(singleton: singleton, options: FinishOptions(root: "Coordinator"), project: project)
        Issue.record("finish went through with \(kind)")
      } catch let refusal as Refusal {
        #expect(refusal.diagnostics.filter { $0.severity == .error }.map(\.message) == ["'Store.shared' is still used by \(kind); it cannot receive an injected value, change it by hand"])
      }
    }
  }

  /// Two properties holding the shared instance: neither is the owner, and what reads them blocks.
  /// A root that names the instance in a local (`let store = Store.shared`) keeps the local: only
  /// the accessor becomes the root's property (`self.store` where the local has its name), and what
  /// goes through the local stays as it is. Found by the generated programs (FuzzGeneratedTests).
  @Test func aRootsLocalAliasKeepsReadingTheInstance() throws {
    try expectFinish(
      Self.injected.merging([
        "ShopApp.swift": """
        @MainActor
        final class ShopApp {
          func start() -> Int {
            Store.shared.bump()
            let store = Store.shared
            store.bump()
            let work = {
              let counter = Store.shared
              counter.bump()
            }
            work()
            return store.count + Badge(counting: store).refresh()
          }
        }

        """
      ]) { $1 },
      root: "ShopApp",
      produces: [
        "Store.swift": Self.finishedStore,
        "ShopApp.swift": """
        @MainActor
        final class ShopApp {
          private let store = Store()

          func start() -> Int {
            store.bump()
            let store = self.store
            store.bump()
            let work = { [store] in
              let counter = store
              counter.bump()
            }
            work()
            return store.count + Badge(counting: store).refresh()
          }
        }

        """,
      ])
  }

  /// A root property created with the accessor moves into the root's init and keeps its type with
  /// the generic arguments written (`Box<Int>`); one whose arguments are inferred cannot be written
  /// and is refused. Found by the generated programs (FuzzGeneratedTests): it was `let boxed: Box`.
  @Test func aMovedRootPropertyKeepsItsGenericArguments() throws {
    let box = """
      @MainActor
      final class Box<Tag> {
        private let counting: Counting
        var tags: [Tag] = []

        init(counting: Counting) {
          self.counting = counting
        }

        func count() -> Int { counting.count }
      }

      """
    try expectFinish(
      Self.injected.merging([
        "Box.swift": box,
        "ShopApp.swift": """
        @MainActor
        final class ShopApp {
          let boxed = Box<Int>(counting: Store.shared)

          func start() -> Int {
            boxed.count()
          }
        }

        """,
      ]) { $1 },
      root: "ShopApp",
      produces: [
        "Store.swift": Self.finishedStore,
        "ShopApp.swift": """
        @MainActor
        final class ShopApp {
          private let store = Store()

          let boxed: Box<Int>

          init() {
            self.boxed = Box<Int>(counting: store)
          }

          func start() -> Int {
            boxed.count()
          }
        }

        """,
      ])
    try expectFinishRefusal(
      Self.injected.merging([
        "Box.swift": box.replacingOccurrences(of: "var tags: [Tag] = []", with: "var tags: [Tag]")
          .replacingOccurrences(of: "init(counting: Counting) {", with: "init(counting: Counting, tags: [Tag]) {\n    self.tags = tags"),
        "ShopApp.swift": """
        @MainActor
        final class ShopApp {
          let boxed = Box(counting: Store.shared, tags: [1])

          func start() -> Int {
            boxed.count()
          }
        }

        """,
      ]) { $1 },
      root: "ShopApp",
      """
      ShopApp.swift:3:29: error: 'boxed' uses 'Store.shared' in its initial value, where the root's own instance cannot be used, and its type is not written; give 'boxed' a type annotation and run again
      """)
  }

  /// A required init that must keep its parameters (a subclass overrides it) took the shared
  /// instance from `inject`: `finish` says so, instead of suggesting an `inject --type` that would
  /// change nothing. Found by the generated programs (FuzzGeneratedTests).
  @Test func aKeptRequiredInitIsNamedAsWhyTheAccessorStays() throws {
    try expectFinishRefusal(
      Self.injected.merging([
        "Sheet.swift": """
        @MainActor
        class Sheet {
          private let counting: Counting

          required init() {
            self.counting = Store.shared
          }

          func show() -> Int { counting.count }
        }

        @MainActor
        final class Drawer: Sheet {
          required init() {}
        }

        @MainActor
        final class ShopApp {
          func start() -> Int { Sheet().show() + Drawer().show() }
        }

        """
      ]) { $1 },
      root: "ShopApp",
      """
      Sheet.swift:6:21: error: 'Store.shared' is still used by a required init that must keep its parameters, in 'Sheet'; a superclass, a subclass, a protocol or a creation through the type needs that init as it is, so it takes the shared instance: pass the instance where the type is created that way, or change it by hand
      """)
  }

  /// An accessor that is a static requirement of a protocol the singleton conforms to (through an
  /// extension or a refined protocol too) stays: deleting it would break the
  /// conformance and leave what reads `Self.shared` through the protocol without an instance. Each
  /// row: Protocols.swift.
  @Test(arguments: [
    "@MainActor protocol HasShared { static var shared: Store { get } }\nextension Store: HasShared {}\n",
    "@MainActor protocol HasShared { static var shared: Self { get } }\nextension HasShared { static func poke() -> Self { Self.shared } }\nextension Store: HasShared {}\n",
    "@MainActor protocol HasShared { static var shared: Store { get } }\n@MainActor protocol Refined: HasShared {}\nextension Store: Refined {}\n",
  ])
  func anAccessorThatIsAProtocolRequirementStays(protocols: String) throws {
    try expectFinishRefusal(
      [
        "Store.swift": """
        @MainActor
        final class Store {
          static let shared = Store()
          private(set) var count = 0
          func bump() { count += 1 }
        }

        """,
        "Protocols.swift": protocols,
        "ShopApp.swift": """
        @MainActor
        final class ShopApp {
          func start() { Store.shared.bump() }
        }

        """,
      ],
      root: "ShopApp",
      """
      Protocols.swift:1:33: error: 'Store.shared' is the requirement 'shared' of the protocol 'HasShared', which 'Store' conforms to: deleting it would break the conformance; remove the requirement and the code that reads it through the protocol first, by hand
      """)
  }

  @Test func twoRootPropertiesHoldingTheSharedInstanceStillBlock() throws {
    let project = makeProject(
      Self.injected.merging([
        "ShopApp.swift": """
        @MainActor
        final class ShopApp {
          let store = Store.shared
          let other = Store.shared
          func start() { store.bump(); other.bump() }
        }

        """
      ]) { $1 })
    let singleton = try #require(project.index.singletons.first { $0.typeName == "Store" })
    #expect(throws: Refusal.self) { try FinishPlanner.plan(singleton: singleton, options: FinishOptions(root: "ShopApp"), project: project) }
  }

  @Test func copyAndMutableCopyReturningSelfAreRemoved() throws {
    try expectFinish(
      [
        "Settings.swift": """
        import Foundation

        final class Settings: NSObject, @unchecked Sendable {
          static let shared = Settings()
          var theme = "light"

          private override init() {
            super.init()
          }

          override func copy() -> Any {
            self
          }

          override func mutableCopy() -> Any {
            return self
          }
        }

        extension Settings: Theming {}

        """,
        "Theming.swift": """
        protocol Theming: AnyObject, Sendable {
          var theme: String { get }
        }

        """,
        "AppRoot.swift": """
        final class AppRoot {
          func theme() -> String {
            Settings.shared.theme
          }
        }

        """,
      ],
      singleton: "Settings", root: "AppRoot",
      produces: [
        "Settings.swift": """
        import Foundation

        final class Settings: NSObject, @unchecked Sendable {
          var theme = "light"

          override init() {
            super.init()
          }
        }

        extension Settings: Theming {}

        """,
        "AppRoot.swift": """
        final class AppRoot {
          private let settings = Settings()

          func theme() -> String {
            settings.theme
          }
        }

        """,
      ])
  }

  @Test func aBackingVariableStillUsedByResetIsKeptAndReported() throws {
    try expectFinish(
      [
        "Store.swift": """
        @MainActor
        final class Store {
          private static var _shared = Store()
          static var shared: Store { _shared }

          static func reset() {
            _shared = Store()
          }

          var count = 0
        }

        """,
        "Coordinator.swift": Self.coordinator,
      ],
      root: "Coordinator",
      produces: [
        "Store.swift": """
        @MainActor
        final class Store {
          private static var _shared = Store()

          static func reset() {
            _shared = Store()
          }

          var count = 0
        }

        """,
        "Coordinator.swift": Self.coordinatorAfter,
      ],
      notes: [
        "Coordinator.swift:3: the composition root 'Coordinator'",
        "kept '_shared': reset() still uses it; nothing can reach that instance any more, so delete it by hand",
        "'Store.shared' removed; 'Coordinator' owns the instance as 'store'",
      ])
  }

  @Test func aBackingVariableNothingElseUsesIsRemoved() throws {
    try expectFinish(
      [
        "Store.swift": """
        @MainActor
        final class Store {
          private static let _shared = Store()
          static var shared: Store { _shared }

          var count = 0
        }

        """,
        "Coordinator.swift": Self.coordinator,
      ],
      root: "Coordinator",
      produces: [
        "Store.swift": """
        @MainActor
        final class Store {
          var count = 0
        }

        """,
        "Coordinator.swift": Self.coordinatorAfter,
      ])
  }

  /// The root's new property and a test's new local take a name nothing there declares or refers
  /// to: `store` in a root whose method has a parameter `store` would make `Store.shared.bump()`
  /// bump the argument, and a test's `let store` would be declared twice.
  @Test func theNewPropertyAndTestLocalsTakeNamesNothingThereHas() throws {
    try expectFinish(
      Self.injected.merging([
        "Coordinator.swift": """
        @MainActor
        final class Coordinator {
          func merge(from store: Store) -> Int {
            Store.shared.bump()
            return store.count
          }
        }

        """,
        "Tests/BadgeTests.swift": """
        import Testing

        @MainActor
        struct BadgeTests {
          @Test func counts() {
            let store = Badge(counting: Store.shared)
            #expect(store.refresh() == 0)
          }
        }

        """,
      ]) { $1 },
      root: "Coordinator", includeTests: true,
      produces: [
        "Store.swift": Self.finishedStore,
        "Coordinator.swift": """
        @MainActor
        final class Coordinator {
          private let sharedStore = Store()

          func merge(from store: Store) -> Int {
            sharedStore.bump()
            return store.count
          }
        }

        """,
        "Tests/BadgeTests.swift": """
        import Testing

        @MainActor
        struct BadgeTests {
          @Test func counts() {
            let sharedStore = Store()
            let store = Badge(counting: sharedStore)
            #expect(store.refresh() == 0)
          }
        }

        """,
      ])
  }

  /// A root property holding the shared instance is not its owner when a parameter or local of
  /// its name would take the uses it replaces: the instance gets a property of its own.
  @Test func aRootPropertyNamedLikeAParameterIsNotTheOwner() throws {
    try expectFinish(
      Self.injected.merging([
        "Coordinator.swift": """
        @MainActor
        final class Coordinator {
          let store: Store = Store.shared

          func merge(from store: Store) -> Int {
            Store.shared.bump()
            return store.count + self.store.count
          }
        }

        """
      ]) { $1 },
      root: "Coordinator",
      produces: [
        "Store.swift": Self.finishedStore,
        "Coordinator.swift": """
        @MainActor
        final class Coordinator {
          private let sharedStore = Store()

          let store: Store

          init() {
            self.store = sharedStore
          }

          func merge(from store: Store) -> Int {
            sharedStore.bump()
            return store.count + self.store.count
          }
        }

        """,
      ])
  }

  /// The root creates the instance with the accessor's initial value, in which the type's own
  /// static members and nested types are written after its name: unqualified, the root would read
  /// its own `defaultStart` (or fail to find `Mode`).
  @Test func theRootsCreationQualifiesTheTypesOwnNames() throws {
    let finished = """
      @MainActor
      final class Store {
        static let defaultStart = 1
        struct Mode {}

        var count: Int

        init(start: Int, mode: Mode) {
          count = start
        }

        func bump() {
          count += 1
        }
      }

      extension Store: Counting {}

      """
    try expectFinish(
      Self.injected.merging([
        "Store.swift": finished.replacingOccurrences(
          of: "final class Store {\n", with: "final class Store {\n  static let shared = Store(start: defaultStart, mode: Mode())\n"),
        "Coordinator.swift": """
        @MainActor
        final class Coordinator {
          static let defaultStart = 5

          func start() -> Badge {
            Badge(counting: Store.shared)
          }
        }

        """,
      ]) { $1 },
      root: "Coordinator",
      produces: [
        "Store.swift": finished,
        "Coordinator.swift": """
        @MainActor
        final class Coordinator {
          private let store = Store(start: Store.defaultStart, mode: Store.Mode())

          static let defaultStart = 5

          func start() -> Badge {
            Badge(counting: store)
          }
        }

        """,
      ])
  }

  /// A root created in two places of one program would make two instances where there was one.
  @Test func aRootCreatedTwiceIsRefused() throws {
    try expectFinishRefusal(
      Self.injected.merging([
        "ShopApp.swift": """
        @MainActor
        final class ShopApp {
          func start() -> Int {
            Badge(counting: Store.shared).refresh()
          }
        }

        """,
        "main.swift": """
        let first = ShopApp()
        let second = ShopApp()
        print(first.start() + second.start())

        """,
      ]) { $1 },
      root: "ShopApp",
      """
      main.swift:1:13: error: 'ShopApp' is created in 2 places: each would own its own 'Store' where all of them shared one; create it once and pass it on, or name the type that creates them as --root
      main.swift:2:14: note: 'ShopApp' is created here too
      """)
  }

  /// A test that creates the root and hands the accessor to something else beside it relies on the
  /// two sharing the instance: a fresh one in the test would not be the root's.
  @Test func aTestThatAlsoCreatesTheRootKeepsTheAccessor() throws {
    try expectFinishRefusal(
      Self.injected.merging([
        "Coordinator.swift": """
        @MainActor
        final class Coordinator {
          func bump() {
            Store.shared.bump()
          }
        }

        """,
        "Tests/BadgeTests.swift": """
        import Testing

        @MainActor
        struct BadgeTests {
          @Test func seesTheRootsBumps() {
            let badge = Badge(counting: Store.shared)
            Coordinator().bump()
            #expect(badge.refresh() == 1)
          }
        }

        """,
      ]) { $1 },
      root: "Coordinator", includeTests: true,
      """
      Tests/BadgeTests.swift:6:33: error: 'Store.shared' is used by a test 'BadgeTests' in 'seesTheRootsBumps()' that also creates 'Coordinator', which will own another instance: a fresh one here would not be the one 'Coordinator' uses; change the test by hand
      Coordinator.swift:4:5: note: 'Store.shared' is used by the composition root 'Coordinator'
      """)
  }

  @Test func testsCreateTheirOwnInstanceWithIncludeTests() throws {
    try expectFinish(
      Self.injected.merging([
        "Coordinator.swift": """
        @MainActor
        final class Coordinator {
          func start() -> Badge {
            Badge(counting: Store.shared)
          }
        }

        """,
        "Tests/BadgeTests.swift": """
        import Testing

        @MainActor
        struct BadgeTests {
          @Test func counts() {
            let badge = Badge(counting: Store.shared)
            let same = Badge(counting: Store.shared)
            #expect(badge.refresh() == same.refresh())
          }

          @Test func startsAtZero() {
            #expect(Badge(counting: Store.shared).refresh() == 0)
          }
        }

        """,
      ]) { $1 },
      root: "Coordinator", includeTests: true,
      produces: [
        "Store.swift": Self.finishedStore,
        "Coordinator.swift": """
        @MainActor
        final class Coordinator {
          private let store = Store()

          func start() -> Badge {
            Badge(counting: store)
          }
        }

        """,
        "Tests/BadgeTests.swift": """
        import Testing

        @MainActor
        struct BadgeTests {
          @Test func counts() {
            let store = Store()
            let badge = Badge(counting: store)
            let same = Badge(counting: store)
            #expect(badge.refresh() == same.refresh())
          }

          @Test func startsAtZero() {
            let store = Store()
            #expect(Badge(counting: store).refresh() == 0)
          }
        }

        """,
      ])
  }

  @Test func testsUsingTheAccessorAreRefusedWithoutIncludeTests() throws {
    try expectFinishRefusal(
      Self.injected.merging([
        "Coordinator.swift": Self.coordinator,
        "Tests/BadgeTests.swift": """
        import Testing

        @MainActor
        struct BadgeTests {
          @Test func startsAtZero() {
            #expect(Store.shared.count == 0)
          }
        }

        """,
      ]) { $1 },
      root: "Coordinator",
      """
      Tests/BadgeTests.swift:6:13: error: 'Store.shared' is still used by a test 'BadgeTests'; pass --include-tests to let tests create their own instance
      Coordinator.swift:3:25: note: 'Store.shared' is used by the composition root 'Coordinator'
      """)
  }

  @Test func aConsumerNotYetInjectedIsRefusedWithTheInjectCommand() throws {
    try expectFinishRefusal(
      Self.injected.merging([
        "Coordinator.swift": Self.coordinator,
        "Meter.swift": """
        @MainActor
        final class Meter {
          func read() -> Int {
            Store.shared.count + Store.shared.count
          }
        }

        """,
      ]) { $1 },
      root: "Coordinator",
      """
      Meter.swift:4:5: error: 'Store.shared' is still used by a consumer not yet injected 'Meter'; run 'desingleton inject --singleton Store --type Meter'
      Meter.swift:4:26: error: 'Store.shared' is still used by a consumer not yet injected 'Meter'
      Coordinator.swift:3:25: note: 'Store.shared' is used by the composition root 'Coordinator'
      """)
  }

  @Test func aCoderInitThatTookTheSharedInstanceNowReturnsNil() throws {
    try expectFinish(
      Self.injected.merging([
        "UIKit.swift": """
        import Foundation

        @MainActor
        open class UIViewController {
          public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {}

          public required init?(coder: NSCoder) {}
        }

        """,
        "CounterViewController.swift": """
        import Foundation

        final class CounterViewController: UIViewController {
          private let counting: Counting

          init(counting: Counting) {
            self.counting = counting
            super.init(nibName: nil, bundle: nil)
          }

          required init?(coder: NSCoder) {
            self.counting = Store.shared
            super.init(coder: coder)
          }

          func tap() {
            counting.bump()
          }
        }

        """,
        "Coordinator.swift": """
        @MainActor
        final class Coordinator {
          func start() -> UIViewController {
            CounterViewController(counting: Store.shared)
          }
        }

        """,
      ]) { $1 },
      root: "Coordinator",
      produces: [
        "Store.swift": Self.finishedStore,
        "CounterViewController.swift": """
        import Foundation

        final class CounterViewController: UIViewController {
          private let counting: Counting

          init(counting: Counting) {
            self.counting = counting
            super.init(nibName: nil, bundle: nil)
          }

          required init?(coder: NSCoder) {
            return nil
          }

          func tap() {
            counting.bump()
          }
        }

        """,
        "Coordinator.swift": """
        @MainActor
        final class Coordinator {
          private let store = Store()

          func start() -> UIViewController {
            CounterViewController(counting: store)
          }
        }

        """,
      ],
      notes: [
        "Coordinator.swift:4: the composition root 'Coordinator'",
        "CounterViewController.swift:12: a required init?(coder:) 'CounterViewController'",
        "CounterViewController.swift:12: 'CounterViewController' init(coder:) now returns nil: there is no shared instance to decode with",
        "Store.swift:4: init is now internal so the root can create the instance",
        "'Store.shared' removed; 'Coordinator' owns the instance as 'store'",
      ])
  }

  // MARK: The root's stored properties

  @Test func aRootPropertyCreatingAConsumerIsAssignedInANewInit() throws {
    try expectFinish(
      Self.injected.merging([
        "AppRoot.swift": """
        @MainActor
        final class AppRoot {
          let badge = Badge(counting: Store.shared)
          let title = "Count"

          func total() -> Int { badge.refresh() }
        }

        """
      ]) { $1 },
      root: "AppRoot",
      produces: [
        "Store.swift": Self.storeAfter,
        "AppRoot.swift": """
        @MainActor
        final class AppRoot {
          private let store = Store()

          let badge: Badge
          let title = "Count"

          init() {
            self.badge = Badge(counting: store)
          }

          func total() -> Int { badge.refresh() }
        }

        """,
      ],
      notes: [
        "AppRoot.swift:3: the composition root 'AppRoot'",
        "AppRoot.swift:3: 'badge' is now assigned in init(): its initial value uses 'store'",
        "Store.swift:4: init is now internal so the root can create the instance",
        "'Store.shared' removed; 'AppRoot' owns the instance as 'store'",
      ])
  }

  @Test func aRootPropertyCreatingAConsumerIsAssignedInEveryDesignatedInit() throws {
    try expectFinish(
      Self.injected.merging([
        "AppRoot.swift": """
        @MainActor
        class Base {
          init() {}
        }

        @MainActor
        final class AppRoot: Base {
          let title: String
          var badge = Badge(counting: Store.shared)
          lazy var spare = Badge(counting: Store.shared)

          init(title: String) {
            self.title = title
            super.init()
          }

          override convenience init() {
            self.init(title: "")
          }
        }

        """
      ]) { $1 },
      root: "AppRoot",
      produces: [
        "Store.swift": Self.storeAfter,
        "AppRoot.swift": """
        @MainActor
        class Base {
          init() {}
        }

        @MainActor
        final class AppRoot: Base {
          private let store = Store()

          let title: String
          var badge: Badge
          lazy var spare = Badge(counting: store)

          init(title: String) {
            self.badge = Badge(counting: store)
            self.title = title
            super.init()
          }

          override convenience init() {
            self.init(title: "")
          }
        }

        """,
      ])
  }

  @Test func aRootPropertyCreatingAConsumerWithNoInitToMoveItIntoIsRefused() throws {
    try expectFinishRefusal(
      Self.injected.merging([
        "AppRoot.swift": """
        @MainActor
        class Base {
          init() {}
          init(name: String) {}
        }

        @MainActor
        final class AppRoot: Base {
          let badge = Badge(counting: Store.shared)
        }

        """
      ]) { $1 },
      root: "AppRoot",
      """
      AppRoot.swift:9:31: error: 'badge' passes 'Store.shared' in its initial value, where the root's own instance cannot be used, and 'AppRoot' has no init to assign it in; declare the inits 'AppRoot' inherits from 'Base' and run again
      """)
  }

  // MARK: A root that is created by another type

  @Test func aRootThatReceivesTheInstanceIsRefusedNamingItsCreator() throws {
    try expectFinishRefusal(
      Self.injected.merging([
        "AppRoot.swift": """
        @MainActor
        final class AppRoot {
          private let counting: Counting

          init(counting: Counting) {
            self.counting = counting
          }

          func badge() -> Badge { Badge(counting: counting) }

          func total() -> Int { Store.shared.count }
        }

        """,
        "Tests/AppRootTests.swift": """
        import Testing

        @MainActor
        struct AppRootTests {
          @Test func startsAtZero() {
            let root = AppRoot(counting: Store.shared)
            #expect(root.badge().refresh() == 0)
          }
        }

        """,
        "Launcher.swift": """
        @MainActor
        final class Launcher {
          func launch() -> AppRoot {
            AppRoot(counting: Store.shared)
          }
        }

        """,
      ]) { $1 },
      root: "AppRoot", includeTests: true,
      """
      AppRoot.swift:5:8: error: 'AppRoot' receives the instance through 'init(counting:)', so it is not the composition root: a second instance would change behaviour; run 'desingleton finish --singleton Store --root Launcher', the type that creates it
      """)
  }

  @Test func aRootThatOnlyTestsCreateWithTheInstanceIsRefused() throws {
    try expectFinishRefusal(
      Self.injected.merging([
        "AppRoot.swift": """
        @MainActor
        final class AppRoot {
          private let counting: any Counting

          init(title: String, counting: (any Counting)?) {
            self.counting = counting ?? Store.shared
          }

          func total() -> Int { Store.shared.count }
        }

        """,
        "Tests/AppRootTests.swift": """
        import Testing

        @MainActor
        struct AppRootTests {
          @Test func startsAtZero() {
            let root = AppRoot(title: "", counting: Store.shared)
            #expect(root.total() == 0)
          }
        }

        """,
      ]) { $1 },
      root: "AppRoot", includeTests: true,
      """
      AppRoot.swift:5:23: error: 'AppRoot' receives the instance through 'init(title:counting:)', so it is not the composition root: a second instance would change behaviour; name the type that creates it as --root
      """)
  }

  // MARK: Nested singletons

  @Test func aNestedSingletonIsCreatedByItsQualifiedName() throws {
    try expectFinish(
      [
        "Services.swift": """
        enum Services {
          @MainActor
          final class Store {
            static let shared = Store()
            private init() {}

            var count = 0
          }
        }

        """,
        "Coordinator.swift": """
        @MainActor
        final class Coordinator {
          func total() -> Int { Services.Store.shared.count }
        }

        """,
      ],
      singleton: "Services.Store", root: "Coordinator",
      produces: [
        "Services.swift": """
        enum Services {
          @MainActor
          final class Store {
            init() {}

            var count = 0
          }
        }

        """,
        "Coordinator.swift": """
        @MainActor
        final class Coordinator {
          private let store = Services.Store()

          func total() -> Int { store.count }
        }

        """,
      ])
  }

  /// `static let shared = Self()` is only possible in a value type, whose `static let` is a constant
  /// nobody can change: not a singleton, so there is nothing to finish.
  @Test func anAccessorMadeWithSelfInAStructIsAConstant() throws {
    let project = makeProject([
      "Meter.swift": """
      struct Meter: Sendable {
        static let shared = Self()
        init() {}

        var reading = 0
      }

      """,
      "Coordinator.swift": """
      @MainActor
      final class Coordinator {
        func gauge() -> Int { Meter.shared.reading }
      }

      """,
    ])
    #expect(project.index.singletons.isEmpty)
    #expect(project.index.references.isEmpty)
  }

  @Test func aNestedAccessorMadeWithInitIsCreatedByTheQualifiedName() throws {
    try expectFinish(
      [
        "Services.swift": """
        enum Services {
          @MainActor
          final class Store {
            static let shared: Store = .init(limit: 3)
            private init(limit: Int) {}
          }
        }

        """,
        "Coordinator.swift": """
        @MainActor
        final class Coordinator {
          func store() -> Services.Store { Services.Store.shared }
        }

        """,
      ],
      singleton: "Services.Store", root: "Coordinator",
      produces: [
        "Services.swift": """
        enum Services {
          @MainActor
          final class Store {
            init(limit: Int) {}
          }
        }

        """,
        "Coordinator.swift": """
        @MainActor
        final class Coordinator {
          private let sharedStore = Services.Store(limit: 3)

          func store() -> Services.Store { sharedStore }
        }

        """,
      ])
  }

  // MARK: Tests with --include-tests

  @Test func aTestInspectingTheSharedInstanceIsRefused() throws {
    try expectFinishRefusal(
      Self.injected.merging([
        "Coordinator.swift": """
        @MainActor
        final class Coordinator {
          func tap() {
            Store.shared.bump()
          }
        }

        """,
        "Tests/CoordinatorTests.swift": """
        import Testing

        @MainActor
        struct CoordinatorTests {
          @Test func tapCounts() {
            Coordinator().tap()
            #expect(Store.shared.count == 1)
          }

          @Test func badgesShareTheCount() {
            let badge = Badge(counting: Store.shared)
            let other = Badge(counting: Store.shared)
            #expect(badge.refresh() == other.refresh())
          }
        }

        """,
      ]) { $1 },
      root: "Coordinator", includeTests: true,
      """
      Tests/CoordinatorTests.swift:7:13: error: 'Store.shared' is used by a test 'CoordinatorTests' in 'tapCounts()' other than as an argument of an initializer: a fresh instance there would not be the one the code under test uses; change the test by hand
      Coordinator.swift:4:5: note: 'Store.shared' is used by the composition root 'Coordinator'
      Tests/CoordinatorTests.swift:11:33: note: 'Store.shared' is used by a test 'CoordinatorTests'
      Tests/CoordinatorTests.swift:12:33: note: 'Store.shared' is used by a test 'CoordinatorTests'
      """)
  }

  // MARK: Strict inits

  @Test func aFileprivateInitBecomesInternal() throws {
    try expectFinish(
      [
        "Store.swift": """
        @MainActor
        final class Store {
          static let shared = Store()
          fileprivate init() {}

          var count = 0
        }

        """,
        "Coordinator.swift": Self.coordinator,
      ],
      root: "Coordinator",
      produces: [
        "Store.swift": """
        @MainActor
        final class Store {
          init() {}

          var count = 0
        }

        """,
        "Coordinator.swift": Self.coordinatorAfter,
      ])
  }

  @Test func anInitInAPrivateExtensionInAnotherFileBecomesInternal() throws {
    // A class: a struct's `static let` is a constant, not a singleton.
    try expectFinish(
      [
        "Settings.swift": """
        final class Settings: Sendable {
          let theme: String

          init(theme: String) {
            self.theme = theme
          }
        }

        """,
        "Settings+Init.swift": """
        extension Settings {
          static let shared = Settings()
        }

        private extension Settings {
          convenience init() {
            self.init(theme: "light")
          }

          var isDark: Bool { theme == "dark" }
        }

        fileprivate extension Settings {
          convenience init(dark: Bool) {
            self.init(theme: dark ? "dark" : "light")
          }
        }

        extension Settings {
          private convenience init(light: Bool) {
            self.init(dark: !light)
          }
        }

        """,
        "Coordinator.swift": """
        @MainActor
        final class Coordinator {
          func theme() -> String { Settings.shared.theme }
        }

        """,
      ],
      singleton: "Settings", root: "Coordinator",
      produces: [
        "Settings+Init.swift": """
        extension Settings {
        }

        private extension Settings {
          var isDark: Bool { theme == "dark" }
        }

        extension Settings {
          convenience init() {
            self.init(theme: "light")
          }
        }

        extension Settings {
          convenience init(dark: Bool) {
            self.init(theme: dark ? "dark" : "light")
          }
        }

        extension Settings {
          convenience init(light: Bool) {
            self.init(dark: !light)
          }
        }

        """,
        "Coordinator.swift": """
        @MainActor
        final class Coordinator {
          private let settings = Settings()

          func theme() -> String { settings.theme }
        }

        """,
      ])
  }

  // MARK: Inputs

  /// A strict main-actor singleton whose one consumer, `Badge`, `inject` already rewrote.
  /// `injected`'s Store once `finish` has run: no accessor, an internal init.
  static let finishedStore = """
    @MainActor
    final class Store {
      init() {}

      var count = 0

      func bump() {
        count += 1
      }
    }

    extension Store: Counting {}

    """

  static let injected: [String: String] = [
    "Store.swift": """
    @MainActor
    final class Store {
      static let shared = Store()
      private init() {}

      var count = 0

      func bump() {
        count += 1
      }
    }

    extension Store: Counting {}

    """,
    "Counting.swift": """
    @MainActor
    protocol Counting: AnyObject, Sendable {
      var count: Int { get }
      func bump()
    }

    """,
    "Badge.swift": """
    @MainActor
    final class Badge {
      private let counting: Counting

      init(counting: Counting) {
        self.counting = counting
      }

      func refresh() -> Int {
        counting.count
      }
    }

    """,
  ]

  static let storeAfter = """
    @MainActor
    final class Store {
      init() {}

      var count = 0

      func bump() {
        count += 1
      }
    }

    extension Store: Counting {}

    """

  static let coordinator = """
    @MainActor
    final class Coordinator {
      func total() -> Int { Store.shared.count }
    }

    """

  static let coordinatorAfter = """
    @MainActor
    final class Coordinator {
      private let store = Store()

      func total() -> Int { store.count }
    }

    """
}

// MARK: - Helpers

/// Plans `finish`, applies the plan and checks the whole text of every changed file; then type-checks
/// the result in Swift 6 mode, and checks that a second run has nothing to do: the singleton has no
/// accessor left, or, if one is still found, its plan is empty.
private func expectFinish(
  _ files: [String: String], singleton name: String = "Store", root: String, includeTests: Bool = false,
  produces expected: [String: String], notes: [String]? = nil, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let inputErrors = try compileErrors(files)
  #expect(inputErrors == "", "the input does not compile", sourceLocation: sourceLocation)
  let options = FinishOptions(root: root, includeTests: includeTests)
  try expectPlan(
    files, singleton: name, produces: expected, notes: notes, mayDisappear: true, sourceLocation: sourceLocation
  ) { try FinishPlanner.plan(singleton: $0, options: options, project: $1) }
}

/// Expects `finish` to refuse with exactly `diagnostics`, errors first, then notes for the places that
/// would not block it.
private func expectFinishRefusal(
  _ files: [String: String], singleton name: String = "Store", root: String, includeTests: Bool = false,
  compilerFlags: [String] = [], _ diagnostics: String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let inputErrors = try compileErrors(files, flags: compilerFlags)
  #expect(inputErrors == "", "the input does not compile", sourceLocation: sourceLocation)
  let project = makeProject(files)
  let singleton = try #require(project.index.singletons.first { $0.typeName == name }, sourceLocation: sourceLocation)
  do {
    let plan = try FinishPlanner.plan(
      singleton: singleton,
      options: FinishOptions(root: root, includeTests: includeTests, nextStep: NextCommand.injectTypes), project: project)
    Issue.record(
      "expected a refusal, got a plan for \((Array(plan.edits.keys) + Array(plan.newFiles.keys)).sorted())",
      sourceLocation: sourceLocation)
  } catch let refusal as Refusal {
    #expect(refusal.description == diagnostics, sourceLocation: sourceLocation)
  }
}

