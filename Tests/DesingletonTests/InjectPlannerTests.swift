import DesingletonCore
import DesingletonIndex
import DesingletonPlanner
import Foundation
import Testing

/// One test per point of `inject`: the planner runs on inline sources that already hold the
/// protocols `extract-protocol` would have written, the whole text of every changed file is compared,
/// everything is type-checked together in Swift 6 mode, and a second run plans nothing.
@Suite struct InjectPlannerTests {
  // MARK: Inits

  @Test func aClassWithoutAnInitGetsOneAndItsCreatorPassesTheAccessor() throws {
    try expectInjection(
      Self.store.merging([
        "Badge.swift": """
        @MainActor
        final class Badge {
          func refresh() -> String {
            Store.shared.bump()
            return "\\(Store.shared.count)"
          }
        }

        @MainActor
        func makeBadge() -> Badge {
          Badge()
        }

        """
      ]) { $1 },
      types: ["Badge"],
      produces: [
        "Badge.swift": """
        @MainActor
        final class Badge {
          private let counting: Counting

          init(counting: Counting) {
            self.counting = counting
          }

          func refresh() -> String {
            counting.bump()
            return "\\(counting.count)"
          }
        }

        @MainActor
        func makeBadge() -> Badge {
          Badge(counting: Store.shared)
        }

        """
      ],
      notes: [
        "Badge: counting: Counting; 2 references rewritten",
        "  Badge: 1 call site updated (Badge.swift:11)",
      ])
  }

  /// An init a protocol of the project declares (`protocol Page { init() }`) keeps its signature
  /// in a final class or a value type as a required one does: it takes the shared instance.
  @Test(arguments: ["final class", "struct"])
  func anInitAProtocolDeclaresKeepsItsSignature(kind: String) throws {
    let page = """
      @MainActor
      protocol Page {
        init()
      }

      @MainActor
      func makePage() -> any Page {
        Profile()
      }

      """
    try expectInjection(
      Self.store.merging([
        "Profile.swift": page + """
        @MainActor
        \(kind) Profile: Page {
          init() {}

          func show() -> Int {
            Store.shared.count
          }
        }

        """
      ]) { $1 },
      types: ["Profile"],
      produces: [
        "Profile.swift": page + """
        @MainActor
        \(kind) Profile: Page {
          private let counting: Counting

          init() {
            self.counting = Store.shared
          }

          func show() -> Int {
            counting.count
          }
        }

        """
      ],
      notes: [
        "Profile: counting: Counting; 1 reference rewritten",
        "  Profile.swift:12: init() takes 'Store.shared'",
      ])
  }

  /// A consumer created in a parameter's default value (`logout: LogoutButton = LogoutButton()`)
  /// is passed the accessor there, and it stays: a default value cannot read the creator's
  /// property, so a second run does not take it for a use to inject.
  @Test func aCreationInADefaultValueKeepsTheAccessor() throws {
    let store = """
      @MainActor
      final class Store {
        static let shared = Store()
        var loggedIn = true
        func logout() { loggedIn = false }
      }

      @MainActor
      protocol Sessioning: AnyObject {
        var loggedIn: Bool { get }
        func logout()
      }

      extension Store: Sessioning {}

      """
    let root = """
      @MainActor
      final class AppRoot {
        let settings = Settings()
        func run() -> Bool { settings.logout.tap(); return settings.show() }
      }

      """
    try expectInjection(
      [
        "Store.swift": store,
        "LogoutButton.swift": """
        @MainActor
        final class LogoutButton {
          func tap() { Store.shared.logout() }
        }

        """,
        "Settings.swift": """
        @MainActor
        final class Settings {
          let logout: LogoutButton
          init(logout: LogoutButton = LogoutButton()) {
            self.logout = logout
          }
          func show() -> Bool { Store.shared.loggedIn }
        }

        """,
        "AppRoot.swift": root,
      ],
      types: nil,
      produces: [
        "LogoutButton.swift": """
        @MainActor
        final class LogoutButton {
          private let sessioning: Sessioning

          init(sessioning: Sessioning) {
            self.sessioning = sessioning
          }

          func tap() { sessioning.logout() }
        }

        """,
        "Settings.swift": """
        @MainActor
        final class Settings {
          private let sessioning: Sessioning

          let logout: LogoutButton
          init(sessioning: Sessioning, logout: LogoutButton = LogoutButton(sessioning: Store.shared)) {
            self.sessioning = sessioning
            self.logout = logout
          }
          func show() -> Bool { sessioning.loggedIn }
        }

        """,
        "AppRoot.swift": root.replacingOccurrences(of: "Settings()", with: "Settings(sessioning: Store.shared)"),
      ])
  }

  /// A subclass's `override init()` that calls the injected superclass's `init()` overrides
  /// nothing once that init takes the slices: it loses `override` and passes the accessor.
  @Test func anOverrideOfAnInjectedSuperclassInitIsNoOverrideAnyMore() throws {
    let kid = """
      @MainActor
      final class Kid: Parent {
        override init() { super.init() }
      }

      """
    try expectInjection(
      Self.store.merging([
        "Parent.swift": """
        @MainActor
        class Parent {
          init() {}
          func show() -> Int { Store.shared.count }
        }

        """,
        "Kid.swift": kid,
      ]) { $1 },
      types: nil,
      produces: [
        "Parent.swift": """
        @MainActor
        class Parent {
          private let counting: Counting

          init(counting: Counting) {
            self.counting = counting
          }
          func show() -> Int { counting.count }
        }

        """,
        "Kid.swift": kid.replacingOccurrences(of: "override init() { super.init() }", with: "init() { super.init(counting: Store.shared) }"),
      ],
      compilingWith: ["UseKid.swift": "@MainActor func useKid() -> Int { Kid().show() }\n"])
  }

  /// A superclass's new property is named like none of its subclasses' members: `Kid`'s
  /// `var counting: Int` would override it.
  @Test func aNewPropertyIsNamedLikeNoSubclassMember() throws {
    let kid = """
      @MainActor
      final class Kid: Parent {
        var counting: Int { 42 }
      }

      """
    let screen = """
      @MainActor
      final class Screen {
        func go() -> Int { Kid().show() + Kid().counting }
      }

      """
    try expectInjection(
      Self.store.merging(Self.parentShowing) { $1 }.merging(["Kid.swift": kid, "Screen.swift": screen]) { $1 },
      types: nil,
      produces: [
        "Screen.swift": screen.replacingOccurrences(of: "Kid()", with: "Kid(counting2: Store.shared)"),
        "Parent.swift": """
        @MainActor
        class Parent {
          let counting2: Counting

          init(counting2: Counting) {
            self.counting2 = counting2
          }
        }

        """,
        "Parent+Show.swift": """
        extension Parent {
          func show() -> Int { counting2.count }
        }

        """,
      ])
  }

  /// An init inherited from a generic superclass (`Box<Int>`'s `init(value: T)`) is declared
  /// again with the superclass's arguments for its parameters: `T` means nothing in `IntBox`.
  @Test func anInitInheritedFromAGenericSuperclassTakesItsArguments() throws {
    let box = """
      @MainActor
      class Box<T> {
        let value: T
        init(value: T, extra: [T] = []) { self.value = value }
      }

      """
    try expectInjection(
      Self.store.merging([
        "Box.swift": box,
        "IntBox.swift": """
        @MainActor
        final class IntBox: Box<Int> {
          func show() -> Int { Store.shared.count + value }
        }

        @MainActor
        func makeBox() -> IntBox { IntBox(value: 3) }

        """,
      ]) { $1 },
      types: nil,
      produces: [
        "IntBox.swift": """
        @MainActor
        final class IntBox: Box<Int> {
          private let counting: Counting

          init(counting: Counting, value: Int, extra: [Int] = []) {
            self.counting = counting
            super.init(value: value, extra: extra)
          }

          func show() -> Int { counting.count + value }
        }

        @MainActor
        func makeBox() -> IntBox { IntBox(counting: Store.shared, value: 3) }

        """
      ])
  }

  /// A consumer declared once per build configuration is left as it is: only one of its
  /// declarations would get the new property, and the other configuration would not build.
  @Test func aConsumerDeclaredOncePerBuildConfigurationIsSkipped() throws {
    let env = """
      #if DEBUG
      @MainActor
      final class Env {
        func show() -> Int { Store.shared.count }
      }
      #else
      @MainActor
      final class Env {
        func show() -> Int { Store.shared.count + 1 }
      }
      #endif

      """
    try expectInjection(
      Self.store.merging(["Env.swift": env]) { $1 },
      types: nil,
      produces: [:],
      notes: [
        "skipped 1 consumer:",
        "  its declaration cannot be rewritten (1): Env",
        "    Env.swift:7:1: error: 'Env' is declared 2 times, once per '#if' clause, and each would need the same new properties and init; inject it by hand",
      ])
  }

  @Test func aDesignatedInitTakesTheParameterFirstAndAssignsItBeforeSuperInit() throws {
    try expectInjection(
      Self.store.merging(["Screen.swift": Self.screen]) { $1 }.merging([
        "Profile.swift": """
        import Foundation

        final class Profile: Screen {
          let title: String

          init(title: String) {
            self.title = title
            super.init(nibName: nil, bundle: nil)
          }

          required init?(coder: NSCoder) {
            self.title = ""
            super.init(coder: coder)
          }

          func show() -> Int {
            Store.shared.count
          }
        }

        @MainActor
        func makeProfiles() -> [Profile] {
          [Profile(title: "Me")]
        }

        """
      ]) { $1 },
      types: ["Profile"],
      produces: [
        "Profile.swift": """
        import Foundation

        final class Profile: Screen {
          private let counting: Counting

          let title: String

          init(counting: Counting, title: String) {
            self.counting = counting
            self.title = title
            super.init(nibName: nil, bundle: nil)
          }

          required init?(coder: NSCoder) {
            self.counting = Store.shared
            self.title = ""
            super.init(coder: coder)
          }

          func show() -> Int {
            counting.count
          }
        }

        @MainActor
        func makeProfiles() -> [Profile] {
          [Profile(counting: Store.shared, title: "Me")]
        }

        """
      ])
  }

  /// `required init?(coder:) { fatalError(…) }` compiles without setting the stored properties: the
  /// new one gets no value there, and the accessor is not written into it.
  @Test func aCoderInitThatStopsTakesNoAccessor() throws {
    try expectInjection(
      Self.store.merging(["Screen.swift": Self.screen]) { $1 }.merging([
        "Profile.swift": """
        import Foundation

        final class Profile: Screen {
          let title: String

          init(title: String) {
            self.title = title
            super.init(nibName: nil, bundle: nil)
          }

          required init?(coder: NSCoder) {
            fatalError("init(coder:) has not been implemented")
          }

          func show() -> Int {
            Store.shared.count
          }
        }

        @MainActor
        func makeProfiles() -> [Profile] {
          [Profile(title: "Me")]
        }

        """
      ]) { $1 },
      types: ["Profile"],
      produces: [
        "Profile.swift": """
        import Foundation

        final class Profile: Screen {
          private let counting: Counting

          let title: String

          init(counting: Counting, title: String) {
            self.counting = counting
            self.title = title
            super.init(nibName: nil, bundle: nil)
          }

          required init?(coder: NSCoder) {
            fatalError("init(coder:) has not been implemented")
          }

          func show() -> Int {
            counting.count
          }
        }

        @MainActor
        func makeProfiles() -> [Profile] {
          [Profile(counting: Store.shared, title: "Me")]
        }

        """
      ],
      notes: [
        "Profile: counting: Counting; 1 reference rewritten",
        "  Profile: 1 call site updated (Profile.swift:22)",
      ])
  }

  /// A class's own `required init()` (no superclass, no subclass, no protocol asks for it) is an
  /// init like any other: it takes the parameters and its creations pass them. It was kept for
  /// creations through the type, took the accessor, and `finish` then had nothing to suggest.
  /// A required init that a subclass overrides keeps its signature and takes the accessor.
  /// Found by the generated programs (FuzzGeneratedTests).
  @Test func aClassesOwnRequiredInitTakesTheParameters() throws {
    try expectInjection(
      Self.store.merging([
        "Panel.swift": """
        @MainActor
        class Panel {
          let title: String

          required init() {
            title = "panel"
          }

          func show() -> Int {
            Store.shared.count
          }
        }

        @MainActor
        class Sheet {
          required init() {}

          func show() -> Int {
            Store.shared.count
          }
        }

        @MainActor
        final class Drawer: Sheet {
          required init() {}
        }

        @MainActor
        func makePanels() -> Int {
          Panel().show() + Sheet().show()
        }

        """
      ]) { $1 },
      types: ["Panel", "Sheet"],
      produces: [
        "Panel.swift": """
        @MainActor
        class Panel {
          private let counting: Counting

          let title: String

          required init(counting: Counting) {
            self.counting = counting
            title = "panel"
          }

          func show() -> Int {
            counting.count
          }
        }

        @MainActor
        class Sheet {
          private let counting: Counting

          required init() {
            self.counting = Store.shared
          }

          func show() -> Int {
            counting.count
          }
        }

        @MainActor
        final class Drawer: Sheet {
          required init() {}
        }

        @MainActor
        func makePanels() -> Int {
          Panel(counting: Store.shared).show() + Sheet().show()
        }

        """
      ])
  }

  /// Two creators whose stored properties start at the same byte of their files each move their
  /// creation into their init, with its own argument once: a place in the code is a file and an
  /// offset, never an offset alone (the two were taken for one, and one file got both arguments).
  @Test func creationsMovedFromTwoFilesAtTheSameOffsetStayApart() throws {
    try expectInjection(
      Self.store.merging([
        "Wrapper.swift": """
        @MainActor
        final class Wrapper {
          func mode() -> Int { Store.shared.count }
        }

        @MainActor
        final class Intents {
          func first() -> First { First() }
          func later() -> Later { Later() }
        }

        """,
        "First.swift": """
        @MainActor
        final class First {
          let wrapper = Wrapper()
          func run() -> Int { wrapper.mode() }
        }

        """,
        "Later.swift": """
        @MainActor
        final class Later {
          let wrapper = Wrapper()
          func run() -> Int { wrapper.mode() + 1 }
        }

        """,
      ]) { $1 },
      types: nil,
      produces: [
        "Wrapper.swift": """
        @MainActor
        final class Wrapper {
          private let counting: Counting

          init(counting: Counting) {
            self.counting = counting
          }

          func mode() -> Int { counting.count }
        }

        @MainActor
        final class Intents {
          func first() -> First { First(counting: Store.shared) }
          func later() -> Later { Later(counting: Store.shared) }
        }

        """,
        "First.swift": """
        @MainActor
        final class First {
          private let counting: Counting

          init(counting: Counting) {
            self.counting = counting
            self.wrapper = Wrapper(counting: counting)
          }

          let wrapper: Wrapper
          func run() -> Int { wrapper.mode() }
        }

        """,
        "Later.swift": """
        @MainActor
        final class Later {
          private let counting: Counting

          init(counting: Counting) {
            self.counting = counting
            self.wrapper = Wrapper(counting: counting)
          }

          let wrapper: Wrapper
          func run() -> Int { wrapper.mode() + 1 }
        }

        """,
      ])
  }

  @Test func convenienceInitsForwardTheParameterIncludingOneInAnExtension() throws {
    try expectInjection(
      Self.store.merging([
        "Profile.swift": """
        @MainActor
        final class Profile {
          let title: String

          init(title: String) {
            self.title = title
          }

          convenience init() {
            self.init(title: "Profile")
          }

          func show() -> Int {
            Store.shared.count
          }
        }

        @MainActor
        func makeProfiles() -> [Profile] {
          [Profile(title: "Me"), Profile(), Profile(short: "P")]
        }

        """,
        "Profile+Short.swift": """
        extension Profile {
          convenience init(short: String) {
            self.init(title: short + ".")
          }
        }

        """,
      ]) { $1 },
      types: ["Profile"],
      produces: [
        "Profile.swift": """
        @MainActor
        final class Profile {
          private let counting: Counting

          let title: String

          init(counting: Counting, title: String) {
            self.counting = counting
            self.title = title
          }

          convenience init(counting: Counting) {
            self.init(counting: counting, title: "Profile")
          }

          func show() -> Int {
            counting.count
          }
        }

        @MainActor
        func makeProfiles() -> [Profile] {
          [Profile(counting: Store.shared, title: "Me"), Profile(counting: Store.shared), Profile(counting: Store.shared, short: "P")]
        }

        """,
        "Profile+Short.swift": """
        extension Profile {
          convenience init(counting: Counting, short: String) {
            self.init(counting: counting, title: short + ".")
          }
        }

        """,
      ])
  }

  @Test func aViewControllerWithoutAnInitGetsNibInitAndACoderInitTakingTheSharedInstance() throws {
    // UIKit is another module, as in an app: the planner does not see its declarations.
    try expectInjection(
      Self.store.merging([
        "CounterViewController.swift": """
        import Foundation

        final class CounterViewController: UIViewController {
          func tap() {
            Store.shared.bump()
          }
        }

        """,
        "Coordinator.swift": """
        @MainActor
        final class Coordinator {
          func start() -> UIViewController {
            CounterViewController()
          }
        }

        """,
      ]) { $1 },
      types: ["CounterViewController"],
      produces: [
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
      ],
      notes: [
        "CounterViewController: counting: Counting; 1 reference rewritten",
        "  CounterViewController.swift:3: required init?(coder:) takes 'Store.shared'",
        "  CounterViewController: 1 call site updated (Coordinator.swift:4)",
      ],
      compilingWith: ["UIKit.swift": Self.uiKit])
  }

  @Test func aUIViewControllerStandInDeclaredInTheSourcesIsStillAViewController() throws {
    // The same, with the stand-in among the sources the planner reads.
    try expectInjection(
      Self.store.merging([
        "UIKit.swift": Self.uiKit,
        "CounterViewController.swift": """
        import Foundation

        final class CounterViewController: UIViewController {
          func tap() {
            Store.shared.bump()
          }
        }

        @MainActor
        func makeCounter() -> CounterViewController {
          CounterViewController()
        }

        """,
      ]) { $1 },
      types: ["CounterViewController"],
      produces: [
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

        @MainActor
        func makeCounter() -> CounterViewController {
          CounterViewController(counting: Store.shared)
        }

        """
      ])
  }

  @Test func anOverrideInitLosesOverride() throws {
    try expectInjection(
      Self.store.merging([
        "Panel.swift": """
        @MainActor
        class Base {
          init() {}
        }

        final class Panel: Base {
          override init() {
            super.init()
          }

          func show() -> Int {
            Store.shared.count
          }
        }

        @MainActor
        func makePanel() -> Panel {
          Panel()
        }

        """
      ]) { $1 },
      types: ["Panel"],
      produces: [
        "Panel.swift": """
        @MainActor
        class Base {
          init() {}
        }

        final class Panel: Base {
          private let counting: Counting

          init(counting: Counting) {
            self.counting = counting
            super.init()
          }

          func show() -> Int {
            counting.count
          }
        }

        @MainActor
        func makePanel() -> Panel {
          Panel(counting: Store.shared)
        }

        """
      ])
  }

  @Test func aStructGetsAnExplicitInitWithItsMemberwiseParameters() throws {
    try expectInjection(
      Self.store.merging([
        "Summary.swift": """
        @MainActor
        struct Summary {
          var title: String
          let limit: Int
          var suffix = "!"

          func text() -> String {
            "\\(title) \\(Store.shared.count)/\\(limit)\\(suffix)"
          }
        }

        @MainActor
        func makeSummaries() -> [Summary] {
          [Summary(title: "a", limit: 3), Summary(title: "b", limit: 1, suffix: "?")]
        }

        """
      ]) { $1 },
      types: ["Summary"],
      produces: [
        "Summary.swift": """
        @MainActor
        struct Summary {
          private let counting: Counting

          init(counting: Counting, title: String, limit: Int, suffix: String = "!") {
            self.counting = counting
            self.title = title
            self.limit = limit
            self.suffix = suffix
          }

          var title: String
          let limit: Int
          var suffix = "!"

          func text() -> String {
            "\\(title) \\(counting.count)/\\(limit)\\(suffix)"
          }
        }

        @MainActor
        func makeSummaries() -> [Summary] {
          [Summary(counting: Store.shared, title: "a", limit: 3), Summary(counting: Store.shared, title: "b", limit: 1, suffix: "?")]
        }

        """
      ])
  }

  @Test func aStructsLetWithAnInitialValueIsNotAMemberwiseParameter() throws {
    // The memberwise init has no parameter for it, and assigning it again does not compile.
    try expectInjection(
      Self.store.merging([
        "Label.swift": """
        @MainActor
        struct Label {
          var title: String
          let kind = "label"

          func text() -> String {
            "\\(kind): \\(title) \\(Store.shared.count)"
          }
        }

        @MainActor
        func makeLabel() -> Label {
          Label(title: "a")
        }

        """
      ]) { $1 },
      types: ["Label"],
      produces: [
        "Label.swift": """
        @MainActor
        struct Label {
          private let counting: Counting

          init(counting: Counting, title: String) {
            self.counting = counting
            self.title = title
          }

          var title: String
          let kind = "label"

          func text() -> String {
            "\\(kind): \\(title) \\(counting.count)"
          }
        }

        @MainActor
        func makeLabel() -> Label {
          Label(counting: Store.shared, title: "a")
        }

        """
      ])
  }

  // MARK: Subclasses

  @Test func aSubclassPassesTheAccessorToSuperInitAndAnInheritingSubclassIsCreatedWithIt() throws {
    try expectInjection(
      Self.store.merging([
        "Panel.swift": """
        @MainActor
        class Panel {
          let title: String

          init(title: String) {
            self.title = title
          }

          func show() -> Int {
            Store.shared.count
          }
        }

        final class DetailPanel: Panel {
          init() {
            super.init(title: "Detail")
          }
        }

        final class PlainPanel: Panel {}

        @MainActor
        func makePanels() -> [Panel] {
          [Panel(title: "a"), DetailPanel(), PlainPanel(title: "b")]
        }

        """
      ]) { $1 },
      types: ["Panel"],
      produces: [
        "Panel.swift": """
        @MainActor
        class Panel {
          private let counting: Counting

          let title: String

          init(counting: Counting, title: String) {
            self.counting = counting
            self.title = title
          }

          func show() -> Int {
            counting.count
          }
        }

        final class DetailPanel: Panel {
          init() {
            super.init(counting: Store.shared, title: "Detail")
          }
        }

        final class PlainPanel: Panel {}

        @MainActor
        func makePanels() -> [Panel] {
          [Panel(counting: Store.shared, title: "a"), DetailPanel(), PlainPanel(counting: Store.shared, title: "b")]
        }

        """
      ])
  }

  // MARK: Call sites

  @Test func aCreatorHoldingTheProtocolPassesItsOwnPropertyAndOneWithoutPassesTheAccessor() throws {
    let holders = """
      @MainActor
      final class Header {
        let counting: Counting

        init(counting: Counting) {
          self.counting = counting
        }

        func makeBadge() -> Badge {
          Badge()
        }

        func later() -> () -> Badge {
          { [weak self] in
            _ = self
            return Badge()
          }
        }
      }

      @MainActor
      final class Footer {
        func makeBadge() -> Badge {
          Badge()
        }
      }

      """
    try expectInjection(
      Self.store.merging([
        "Badge.swift": """
        @MainActor
        final class Badge {
          func refresh() -> Int {
            Store.shared.count
          }
        }

        """,
        "Holders.swift": holders,
      ]) { $1 },
      types: ["Badge"],
      produces: [
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
        "Holders.swift": """
        @MainActor
        final class Header {
          let counting: Counting

          init(counting: Counting) {
            self.counting = counting
          }

          func makeBadge() -> Badge {
            Badge(counting: counting)
          }

          func later() -> () -> Badge {
            { [weak self, counting] in
              _ = self
              return Badge(counting: counting)
            }
          }
        }

        @MainActor
        final class Footer {
          func makeBadge() -> Badge {
            Badge(counting: Store.shared)
          }
        }

        """,
      ])
  }

  @Test func testsThatCreateTheConsumerPassTheAccessor() throws {
    try expectInjection(
      Self.store.merging([
        "Sources/Badge.swift": """
        @MainActor
        final class Badge {
          func refresh() -> Int {
            Store.shared.count
          }
        }

        """,
        "Tests/BadgeTests.swift": """
        import Testing

        @MainActor
        struct BadgeTests {
          @Test func refreshes() {
            let badge = Badge()
            #expect(badge.refresh() >= 0)
          }
        }

        """,
      ]) { $1 },
      types: ["Badge"],
      produces: [
        "Sources/Badge.swift": """
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
        "Tests/BadgeTests.swift": """
        import Testing

        @MainActor
        struct BadgeTests {
          @Test func refreshes() {
            let badge = Badge(counting: Store.shared)
            #expect(badge.refresh() >= 0)
          }
        }

        """,
      ],
      notes: [
        "Badge: counting: Counting; 1 reference rewritten",
        "  Badge: 1 call site updated (Tests/BadgeTests.swift:6)",
      ])
  }

  @Test func allPropagatesAConsumersNeedsToTheConsumerThatCreatesIt() throws {
    // `Toolbar` only loads, but it creates a `Badge`, which counts: it receives both and hands
    // `counting` down. `Badge` is created by `Toolbar` after `Toolbar` is rewritten.
    try expectInjection(
      Self.loadingStore.merging([
        "Badge.swift": """
        @MainActor
        final class Badge {
          func refresh() -> Int {
            Store.shared.count
          }
        }

        """,
        "Toolbar.swift": """
        @MainActor
        final class Toolbar {
          func reload() async -> [Int] {
            await Store.shared.load()
          }

          func makeBadge() -> Badge {
            Badge()
          }
        }

        @MainActor
        func makeToolbar() -> Toolbar {
          Toolbar()
        }

        """,
      ]) { $1 },
      types: nil,
      produces: [
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
        "Toolbar.swift": """
        @MainActor
        final class Toolbar {
          private let counting: Counting
          private let loading: Loading

          init(counting: Counting, loading: Loading) {
            self.counting = counting
            self.loading = loading
          }

          func reload() async -> [Int] {
            await loading.load()
          }

          func makeBadge() -> Badge {
            Badge(counting: counting)
          }
        }

        @MainActor
        func makeToolbar() -> Toolbar {
          Toolbar(counting: Store.shared, loading: Store.shared)
        }

        """,
      ])
  }

  // MARK: Closures

  @Test func escapingClosuresCaptureTheDependencyInsteadOfSelf() throws {
    try expectInjection(
      Self.loadingStore.merging([
        "Ticker.swift": """
        @MainActor
        final class Ticker {
          var handlers: [() -> Void] = []
          var label = ""

          func start() {
            handlers.append { [weak self] in
              Store.shared.bump()
              self?.label = "\\(Store.shared.count)"
            }
            handlers.append {
              Store.shared.bump()
            }
            handlers.append {
              let inner = {
                Store.shared.bump()
              }
              inner()
            }
            Task { [weak self] in
              let loaded = await Store.shared.load()
              self?.label = "\\(loaded)"
            }
          }
        }

        """
      ]) { $1 },
      types: ["Ticker"],
      produces: [
        "Ticker.swift": """
        @MainActor
        final class Ticker {
          private let counting: Counting
          private let loading: Loading

          init(counting: Counting, loading: Loading) {
            self.counting = counting
            self.loading = loading
          }

          var handlers: [() -> Void] = []
          var label = ""

          func start() {
            handlers.append { [weak self, counting] in
              counting.bump()
              self?.label = "\\(counting.count)"
            }
            handlers.append { [counting] in
              counting.bump()
            }
            handlers.append { [counting] in
              let inner = { [counting] in
                counting.bump()
              }
              inner()
            }
            Task { [weak self, loading] in
              let loaded = await loading.load()
              self?.label = "\\(loaded)"
            }
          }
        }

        """
      ])
  }

  // MARK: Protocol choice

  @Test func aWriteChoosesTheProtocolThatDeclaresTheSetter() throws {
    try expectInjection(
      [
        "Store.swift": """
        @MainActor
        final class Store {
          static let shared = Store()
          var count = 0

          func bump() {
            count += 1
          }
        }

        extension Store: Counting, CountSetting {}

        """,
        "Counting.swift": Self.counting,
        "CountSetting.swift": """
        @MainActor
        protocol CountSetting: AnyObject, Sendable {
          var count: Int { get set }
        }

        """,
        "Resetter.swift": """
        @MainActor
        final class Resetter {
          func reset() {
            Store.shared.count = 0
          }
        }

        """,
      ],
      types: ["Resetter"],
      produces: [
        "Resetter.swift": """
        @MainActor
        final class Resetter {
          private let countSetting: CountSetting

          init(countSetting: CountSetting) {
            self.countSetting = countSetting
          }

          func reset() {
            countSetting.count = 0
          }
        }

        """
      ])
  }

  @Test func aNameTakenByAMemberGetsANumber() throws {
    try expectInjection(
      Self.store.merging([
        "Meter.swift": """
        @MainActor
        final class Meter {
          var counting = "label"

          func read() -> Int {
            Store.shared.count
          }
        }

        @MainActor
        func makeMeter() -> Meter {
          Meter()
        }

        """
      ]) { $1 },
      types: ["Meter"],
      produces: [
        "Meter.swift": """
        @MainActor
        final class Meter {
          private let counting2: Counting

          init(counting2: Counting) {
            self.counting2 = counting2
          }

          var counting = "label"

          func read() -> Int {
            counting2.count
          }
        }

        @MainActor
        func makeMeter() -> Meter {
          Meter(counting2: Store.shared)
        }

        """
      ])
  }

  // MARK: Aliases

  @Test func aLocalAliasAndAStoredAliasProperty() throws {
    try expectInjection(
      Self.store.merging([
        "Summary.swift": """
        @MainActor
        final class Summary {
          func total() -> Int {
            let s = Store.shared
            s.bump()
            return s.count
          }
        }

        @MainActor
        final class Tally {
          let store = Store.shared

          func total() -> Int {
            store.bump()
            return store.count
          }
        }

        @MainActor
        func make() -> (Summary, Tally) {
          (Summary(), Tally())
        }

        """
      ]) { $1 },
      types: ["Summary", "Tally"],
      produces: [
        "Summary.swift": """
        @MainActor
        final class Summary {
          private let counting: Counting

          init(counting: Counting) {
            self.counting = counting
          }

          func total() -> Int {
            let s = counting
            s.bump()
            return s.count
          }
        }

        @MainActor
        final class Tally {
          init(store: Counting) {
            self.store = store
          }

          let store: Counting

          func total() -> Int {
            store.bump()
            return store.count
          }
        }

        @MainActor
        func make() -> (Summary, Tally) {
          (Summary(counting: Store.shared), Tally(store: Store.shared))
        }

        """
      ])
  }

  // MARK: Extensions and static contexts

  @Test func aUseInAnExtensionInAnotherFileMakesThePropertyNonPrivate() throws {
    try expectInjection(
      Self.store.merging([
        "Badge.swift": """
        @MainActor
        final class Badge {
          func refresh() -> Int {
            Store.shared.count
          }
        }

        """,
        "Badge+Bump.swift": """
        extension Badge {
          func bump() {
            Store.shared.bump()
          }
        }

        """,
      ]) { $1 },
      types: ["Badge"],
      produces: [
        "Badge.swift": """
        @MainActor
        final class Badge {
          let counting: Counting

          init(counting: Counting) {
            self.counting = counting
          }

          func refresh() -> Int {
            counting.count
          }
        }

        """,
        "Badge+Bump.swift": """
        extension Badge {
          func bump() {
            counting.bump()
          }
        }

        """,
      ])
  }

  @Test func staticContextsAreLeftAloneAndListed() throws {
    try expectInjection(
      Self.store.merging([
        "Badge.swift": """
        @MainActor
        final class Badge {
          static func preview() -> Int {
            Store.shared.count
          }

          func refresh() -> Int {
            Store.shared.count
          }
        }

        """
      ]) { $1 },
      types: ["Badge"],
      produces: [
        "Badge.swift": """
        @MainActor
        final class Badge {
          private let counting: Counting

          init(counting: Counting) {
            self.counting = counting
          }

          static func preview() -> Int {
            Store.shared.count
          }

          func refresh() -> Int {
            counting.count
          }
        }

        """
      ],
      notes: [
        "Badge: counting: Counting; 1 reference rewritten",
        "  Badge.swift:4: left alone: static context 'preview()' cannot hold injected values",
      ])
  }

  // MARK: --default-argument

  @Test func defaultArgumentLeavesCallSitesAlone() throws {
    try expectInjection(
      Self.store.merging([
        "Badge.swift": """
        @MainActor
        final class Badge {
          init() {}

          func refresh() -> Int {
            Store.shared.count
          }
        }

        @MainActor
        func makeBadge() -> Badge {
          Badge()
        }

        """
      ]) { $1 },
      types: ["Badge"], defaultArgument: true,
      produces: [
        "Badge.swift": """
        @MainActor
        final class Badge {
          private let counting: Counting

          init(counting: Counting = Store.shared) {
            self.counting = counting
          }

          func refresh() -> Int {
            counting.count
          }
        }

        @MainActor
        func makeBadge() -> Badge {
          Badge()
        }

        """
      ])
  }

  @Test func defaultArgumentIsRefusedForANonisolatedConsumerOfAMainActorSingleton() throws {
    try expectInjectRefusal(
      Self.store.merging([
        "Badge.swift": """
        final class Badge: Sendable {
          func refresh() async -> Int {
            await Store.shared.count
          }
        }

        """
      ]) { $1 },
      types: ["Badge"], defaultArgument: true,
      "Badge.swift:1:1: error: cannot use 'Store.shared' as a default argument of 'Badge's init: 'Store' is @MainActor-isolated and the init is not, so Swift rejects the default value (SE-0411); mark 'Badge' @MainActor or inject without --default-argument"
    )
  }

  // MARK: Shapes the semantic model decides

  @Test func anInitThatMentionsSelfInitInACommentStillAssignsTheProperty() throws {
    try expectInjection(
      Self.store.merging([
        "Badge.swift": """
        @MainActor
        final class Badge {
          let title: String

          init(title: String) {
            // Not a self.init(title:) call: this init assigns every property itself.
            self.title = title
          }

          func refresh() {
            Store.shared.bump()
          }
        }

        @MainActor
        func makeBadge() -> Badge {
          Badge(title: "self.init(")
        }

        """
      ]) { $1 },
      types: ["Badge"],
      produces: [
        "Badge.swift": """
        @MainActor
        final class Badge {
          private let counting: Counting

          let title: String

          init(counting: Counting, title: String) {
            // Not a self.init(title:) call: this init assigns every property itself.
            self.counting = counting
            self.title = title
          }

          func refresh() {
            counting.bump()
          }
        }

        @MainActor
        func makeBadge() -> Badge {
          Badge(counting: Store.shared, title: "self.init(")
        }

        """
      ])
  }

  @Test func aStructsMemberwiseInitKeepsAClosureDefault() throws {
    try expectInjection(
      Self.store.merging([
        "Row.swift": """
        @MainActor
        struct Row {
          var title: String
          var onTap: () -> Void = {}
          var onLongPress: (@MainActor () -> Void)?

          func render() -> String {
            "\\(title) \\(Store.shared.count)"
          }
        }

        @MainActor
        func makeRows() -> [Row] {
          [Row(title: "a"), Row(title: "b", onTap: {})]
        }

        """
      ]) { $1 },
      types: ["Row"],
      produces: [
        "Row.swift": """
        @MainActor
        struct Row {
          private let counting: Counting

          init(counting: Counting, title: String, onTap: @escaping () -> Void = {}, onLongPress: (@MainActor () -> Void)? = nil) {
            self.counting = counting
            self.title = title
            self.onTap = onTap
            self.onLongPress = onLongPress
          }

          var title: String
          var onTap: () -> Void = {}
          var onLongPress: (@MainActor () -> Void)?

          func render() -> String {
            "\\(title) \\(counting.count)"
          }
        }

        @MainActor
        func makeRows() -> [Row] {
          [Row(counting: Store.shared, title: "a"), Row(counting: Store.shared, title: "b", onTap: {})]
        }

        """
      ])
  }

  @Test func aValueTypeSingletonWhoseInstanceChangesIsNotInjectedAsCopies() throws {
    try expectInjectRefusal(
      [
        "Settings.swift": """
        struct Settings: Sendable, Theming {
          nonisolated(unsafe) static var shared = Settings()
          var theme = "light"
        }

        protocol Theming: Sendable {
          var theme: String { get }
        }

        """,
        "Header.swift": """
        struct Header {
          func title() -> String {
            Settings.shared.theme
          }
        }

        """,
        // Code changes the shared value: without it, a struct's static var is no singleton.
        "Toggle.swift": """
        struct Toggle {
          func dark() {
            Settings.shared.theme = "dark"
          }
        }

        """,
      ],
      singleton: "Settings", types: ["Header"],
      "Settings.swift:2:3: error: 'Settings' is a struct whose shared instance is a 'static var': each consumer would hold its own copy, and changes made through one would no longer be seen by the others; make 'Settings' a class or an actor first"
    )
  }

  @Test func aClassInheritingFromATypeNotInTheGivenPathsIsRefusedRatherThanGuessed() throws {
    try expectInjectRefusal(
      Self.store.merging([
        "Badge.swift": """
        @MainActor
        final class Badge: Widget {
          func refresh() {
            Store.shared.bump()
          }
        }

        """
      ]) { $1 },
      types: ["Badge"], compilingWith: ["Widget.swift": "@MainActor open class Widget { public init(size: Int = 0) {} }\n"],
      "Badge.swift:1:1: error: 'Badge' has no init and inherits from 'Widget', which is not declared in the given paths: desingleton cannot tell whether it is a class and which init to call; add an init to 'Badge' first or include the paths that declare 'Widget'"
    )
  }

  @Test func aFrameworkClassFromTheTableGetsItsOwnSuperInit() throws {
    try expectInjection(
      Self.store.merging([
        "AppDelegate.swift": """
        @MainActor
        final class AppDelegate: UIResponder {
          func applicationDidBecomeActive() {
            Store.shared.bump()
          }
        }

        @MainActor
        func launch() -> AppDelegate {
          AppDelegate()
        }

        """
      ]) { $1 },
      types: ["AppDelegate"],
      produces: [
        "AppDelegate.swift": """
        @MainActor
        final class AppDelegate: UIResponder {
          private let counting: Counting

          init(counting: Counting) {
            self.counting = counting
            super.init()
          }

          func applicationDidBecomeActive() {
            counting.bump()
          }
        }

        @MainActor
        func launch() -> AppDelegate {
          AppDelegate(counting: Store.shared)
        }

        """
      ],
      compilingWith: ["UIResponder.swift": "import Foundation\n\n@MainActor\nopen class UIResponder: NSObject {}\n"])
  }

  @Test func theInjectedPropertyIsNotNamedLikeAParameterItWouldShadow() throws {
    try expectInjection(
      Self.store.merging([
        "Badge.swift": """
        @MainActor
        final class Badge {
          let counting: Int

          init(counting: Int) {
            self.counting = counting
          }

          func isCurrent(counting2: Int) -> Bool {
            counting2 == Store.shared.count
          }
        }

        @MainActor
        func makeBadge() -> Badge {
          Badge(counting: 1)
        }

        """
      ]) { $1 },
      types: ["Badge"],
      produces: [
        "Badge.swift": """
        @MainActor
        final class Badge {
          private let counting3: Counting

          let counting: Int

          init(counting3: Counting, counting: Int) {
            self.counting3 = counting3
            self.counting = counting
          }

          func isCurrent(counting2: Int) -> Bool {
            counting2 == counting3.count
          }
        }

        @MainActor
        func makeBadge() -> Badge {
          Badge(counting3: Store.shared, counting: 1)
        }

        """
      ])
  }

  @Test func aParameterOfTheSameNameInAMethodIsNotShadowed() throws {
    try expectInjection(
      Self.store.merging([
        "Badge.swift": """
        @MainActor
        final class Badge {
          func isSame(as counting: Counting) -> Bool {
            counting.count == Store.shared.count
          }
        }

        """
      ]) { $1 },
      types: ["Badge"],
      produces: [
        "Badge.swift": """
        @MainActor
        final class Badge {
          private let counting2: Counting

          init(counting2: Counting) {
            self.counting2 = counting2
          }

          func isSame(as counting: Counting) -> Bool {
            counting.count == counting2.count
          }
        }

        """
      ])
  }

  @Test func aSendableConsumerGetsASendableProtocol() throws {
    try expectInjection(
      [
        "Limits.swift": """
        final class Limits: Sendable {
          static let shared = Limits()
          let maximum = 3
        }

        protocol LimitReading: AnyObject {
          var maximum: Int { get }
        }

        protocol SendableLimitReading: AnyObject, Sendable {
          var maximum: Int { get }
        }

        extension Limits: LimitReading, SendableLimitReading {}

        """,
        "Meter.swift": """
        final class Meter: Sendable {
          func isFull(_ count: Int) -> Bool {
            count >= Limits.shared.maximum
          }
        }

        """,
      ],
      singleton: "Limits", types: ["Meter"],
      produces: [
        "Meter.swift": """
        final class Meter: Sendable {
          private let sendableLimitReading: SendableLimitReading

          init(sendableLimitReading: SendableLimitReading) {
            self.sendableLimitReading = sendableLimitReading
          }

          func isFull(_ count: Int) -> Bool {
            count >= sendableLimitReading.maximum
          }
        }

        """
      ])
  }

  @Test func aCaptureInASendableClosureGetsASendableProtocol() throws {
    try expectInjection(
      Self.limits.merging([
        "Meter.swift": """
        final class Meter {
          func reader() -> @Sendable () -> Int {
            { @Sendable in Limits.shared.maximum }
          }
        }

        """
      ]) { $1 },
      singleton: "Limits", types: ["Meter"],
      produces: [
        "Meter.swift": """
        final class Meter {
          private let sendableLimitReading: SendableLimitReading

          init(sendableLimitReading: SendableLimitReading) {
            self.sendableLimitReading = sendableLimitReading
          }

          func reader() -> @Sendable () -> Int {
            { @Sendable [sendableLimitReading] in sendableLimitReading.maximum }
          }
        }

        """
      ])
  }

  /// A `Sendable` singleton that conforms to an older protocol that is not `Sendable` and to one that is.
  static let limits: [String: String] = [
    "Limits.swift": """
    final class Limits: Sendable {
      static let shared = Limits()
      let maximum = 3
    }

    protocol LimitReading: AnyObject {
      var maximum: Int { get }
    }

    protocol SendableLimitReading: AnyObject, Sendable {
      var maximum: Int { get }
    }

    extension Limits: LimitReading, SendableLimitReading {}

    """
  ]

  @Test func implicitMemberInitsWhoseTypeTheCodeNamesAreUpdated() throws {
    try expectInjection(
      Self.store.merging([
        "Badge.swift": """
        @MainActor
        final class Badge {
          let title: String

          init(title: String) {
            self.title = title
          }

          func refresh() {
            Store.shared.bump()
          }
        }

        @MainActor
        func makeBadge() -> Badge {
          .init(title: "a")
        }

        @MainActor
        func makeOptionalBadge() -> Badge? {
          let badge: Badge = .init(title: "b")
          return badge
        }

        """
      ]) { $1 },
      types: ["Badge"],
      produces: [
        "Badge.swift": """
        @MainActor
        final class Badge {
          private let counting: Counting

          let title: String

          init(counting: Counting, title: String) {
            self.counting = counting
            self.title = title
          }

          func refresh() {
            counting.bump()
          }
        }

        @MainActor
        func makeBadge() -> Badge {
          .init(counting: Store.shared, title: "a")
        }

        @MainActor
        func makeOptionalBadge() -> Badge? {
          let badge: Badge = .init(counting: Store.shared, title: "b")
          return badge
        }

        """
      ])
  }

  @Test func creationsThatCannotTakeAnArgumentRefuseTheConsumer() throws {
    try expectInjectRefusal(
      Self.store.merging([
        "Badge.swift": """
        @MainActor
        final class Badge {
          let title: String

          init(title: String) {
            self.title = title
          }

          func refresh() {
            Store.shared.bump()
          }
        }

        @MainActor
        func show(_ badge: Badge) {}

        @MainActor
        func makeBadges() -> [Badge] {
          show(.init(title: "a"))
          return ["b", "c"].map(Badge.init(title:))
        }

        """
      ]) { $1 },
      types: ["Badge"],
      """
      Badge.swift:19:8: error: '.init(title:)' may create 'Badge', and the code does not say which type it creates; write 'Badge(...)' or annotate the type there first
      Badge.swift:20:25: error: 'Badge.init' is used as a function here, so no argument can be added to it; call it in a closure first
      """
    )
  }

  @Test func allSkipsAConsumerItCannotGiveAnInitAndInjectsTheRest() throws {
    try expectInjection(
      Self.store.merging([
        "Badge.swift": """
        @MainActor
        final class Badge: Widget {
          func refresh() {
            Store.shared.bump()
          }
        }

        """,
        "Panel.swift": """
        @MainActor
        final class Panel {
          func refresh() {
            Store.shared.bump()
          }
        }

        """,
      ]) { $1 },
      types: nil,
      produces: [
        "Panel.swift": """
        @MainActor
        final class Panel {
          private let counting: Counting

          init(counting: Counting) {
            self.counting = counting
          }

          func refresh() {
            counting.bump()
          }
        }

        """
      ],
      notes: [
        "Panel: counting: Counting; 1 reference rewritten",
        "skipped 1 consumer:",
        "  no superclass init to call (1): Badge",
        "    Badge.swift:1:1: error: 'Badge' has no init and inherits from 'Widget', which is not declared in the given paths: desingleton cannot tell whether it is a class and which init to call; add an init to 'Badge' first or include the paths that declare 'Widget'",
      ],
      compilingWith: ["Widget.swift": "@MainActor open class Widget { public init(size: Int = 0) {} }\n"])
  }

  @Test func anImplicitInitAssignedToATypedPropertyIsUpdatedAndOneOfAnotherTypeBlocksNothing() throws {
    try expectInjection(
      Self.store.merging([
        "Badge.swift": """
        @MainActor
        final class Badge {
          let title: String

          init(title: String) {
            self.title = title
          }

          func refresh() {
            Store.shared.bump()
          }
        }

        struct Insets {
          var top: Int
        }

        @MainActor
        struct Row {
          var height: Int

          func render() -> Int {
            Store.shared.count + height
          }
        }

        @MainActor
        final class Holder {
          var badge: Badge?
          var insets = Insets(top: 0)

          func make() {
            self.badge = .init(title: "a")
            insets = .init(top: 2)
          }
        }

        """
      ]) { $1 },
      types: ["Badge", "Row"],
      produces: [
        "Badge.swift": """
        @MainActor
        final class Badge {
          private let counting: Counting

          let title: String

          init(counting: Counting, title: String) {
            self.counting = counting
            self.title = title
          }

          func refresh() {
            counting.bump()
          }
        }

        struct Insets {
          var top: Int
        }

        @MainActor
        struct Row {
          private let counting: Counting

          init(counting: Counting, height: Int) {
            self.counting = counting
            self.height = height
          }

          var height: Int

          func render() -> Int {
            counting.count + height
          }
        }

        @MainActor
        final class Holder {
          var badge: Badge?
          var insets = Insets(top: 0)

          func make() {
            self.badge = .init(counting: Store.shared, title: "a")
            insets = .init(top: 2)
          }
        }

        """
      ])
  }

  @Test func aUseInAPropertyObserverIsNotAnInitialValue() throws {
    try expectInjection(
      Self.store.merging([
        "Slider.swift": """
        @MainActor
        final class Slider {
          var limit = 0 {
            didSet {
              Store.shared.bump()
            }
          }
        }

        """
      ]) { $1 },
      types: ["Slider"],
      produces: [
        "Slider.swift": """
        @MainActor
        final class Slider {
          private let counting: Counting

          init(counting: Counting) {
            self.counting = counting
          }

          var limit = 0 {
            didSet {
              counting.bump()
            }
          }
        }

        """
      ])
  }

  @Test func aConsumerObjectiveCCreatesIsRefused() throws {
    try expectInjectRefusal(
      Self.store.merging([
        "Badge.swift": """
        import Foundation

        @MainActor
        final class Badge: NSObject {
          func refresh() {
            Store.shared.bump()
          }
        }

        """,
        "SPBadgeHost.m": """
        @implementation SPBadgeHost
        - (void)show {
            Badge *badge = [[Badge alloc] init];
        }
        @end

        """,
      ]) { $1 },
      types: ["Badge"],
      "SPBadgeHost.m:3:22: error: Objective-C code creates 'Badge' here, and desingleton does not rewrite Objective-C, so it could not pass the new init arguments"
    )
  }

  @Test func aCallOfAnOverloadNoProtocolDeclaresIsRefused() throws {
    let files = [
      "Store.swift": """
      @MainActor
      final class Store {
        static let shared = Store()

        func load() -> [Int] {
          load(limit: 10)
        }

        func load(limit: Int) -> [Int] {
          Array(0..<limit)
        }
      }

      @MainActor
      protocol Loading: AnyObject, Sendable {
        func load() -> [Int]
      }

      extension Store: Loading {}

      """
    ]
    try expectInjection(
      files.merging(["Feed.swift": "@MainActor\nfinal class Feed {\n  func rows() -> [Int] {\n    Store.shared.load()\n  }\n}\n"]) { $1 },
      types: ["Feed"],
      produces: [
        "Feed.swift": """
        @MainActor
        final class Feed {
          private let loading: Loading

          init(loading: Loading) {
            self.loading = loading
          }

          func rows() -> [Int] {
            loading.load()
          }
        }

        """
      ])
    try expectInjectRefusal(
      files.merging(["Feed.swift": "@MainActor\nfinal class Feed {\n  func rows() -> [Int] {\n    Store.shared.load(limit: 2)\n  }\n}\n"]) { $1 },
      types: ["Feed"],
      "Feed.swift:4:5: error: 'Feed' calls 'load(limit:)', an overload no protocol of 'Store' declares; run 'desingleton extract-protocol --singleton Store --slice LoadService=load' to cut one"
    )
  }

  @Test func aVariadicMethodCalledWithSeveralArgumentsIsTheProtocolsRequirement() throws {
    // `log(_ items: String...)` takes `log()`, `log("a")` and `log("a", "b")`: every call is to
    // the requirement the protocol declares, not to an overload it lacks.
    try expectInjection(
      [
        "Store.swift": """
        @MainActor
        final class Store {
          static let shared = Store()
          var lines: [String] = []

          func log(_ items: String..., tag: String = "") {
            lines.append(tag + items.joined())
          }
        }

        @MainActor
        protocol Logging: AnyObject, Sendable {
          func log(_ items: String..., tag: String)
        }

        extension Store: Logging {}

        """,
        "Feed.swift": """
        @MainActor
        final class Feed {
          func rows() {
            Store.shared.log("a", "b", tag: "t")
            Store.shared.log(tag: "u")
          }
        }

        """,
      ],
      types: ["Feed"],
      produces: [
        "Feed.swift": """
        @MainActor
        final class Feed {
          private let logging: Logging

          init(logging: Logging) {
            self.logging = logging
          }

          func rows() {
            logging.log("a", "b", tag: "t")
            logging.log(tag: "u")
          }
        }

        """
      ])
  }

  /// A store with one sliced method, and a consumer whose init is variadic.
  static let bumpingStore = """
    @MainActor
    final class Store {
      static let shared = Store()
      var count = 0

      func bump() {
        count += 1
      }
    }

    @MainActor
    protocol Bumping: AnyObject, Sendable {
      func bump()
    }

    extension Store: Bumping {}

    """
  static let variadicFeed = """
    @MainActor
    final class Feed {
      let tags: [String]

      init(_ tags: String...) {
        self.tags = tags
      }

      func load() -> Int {
        Store.shared.bump()
        return tags.count
      }
    }

    """

  @Test func aConsumerWithAVariadicInitIsCreatedWithSeveralArguments() throws {
    // `init(_ tags: String...)` takes `Feed()`, `Feed("x")` and `Feed("a", "b")`: each creation
    // reaches it and passes the instance; `.init("c", "d")` where the type is written is one of
    // them too.
    try expectInjection(
      [
        "Store.swift": Self.bumpingStore,
        "Feed.swift": Self.variadicFeed,
        "App.swift": """
        @main
        @MainActor
        enum App {
          static func main() {
            let last: Feed = .init("c", "d")
            let feeds = [Feed("a", "b"), Feed(), Feed("x"), last]
            print(feeds.map { $0.load() }, Store.shared.count)
          }
        }

        """,
      ],
      types: ["Feed"],
      produces: [
        "App.swift": """
        @main
        @MainActor
        enum App {
          static func main() {
            let last: Feed = .init(bumping: Store.shared, "c", "d")
            let feeds = [Feed(bumping: Store.shared, "a", "b"), Feed(bumping: Store.shared), Feed(bumping: Store.shared, "x"), last]
            print(feeds.map { $0.load() }, Store.shared.count)
          }
        }

        """,
        "Feed.swift": """
        @MainActor
        final class Feed {
          private let bumping: Bumping

          let tags: [String]

          init(bumping: Bumping, _ tags: String...) {
            self.bumping = bumping
            self.tags = tags
          }

          func load() -> Int {
            bumping.bump()
            return tags.count
          }
        }

        """,
      ])
  }

  @Test func anImplicitInitWithSeveralVariadicArgumentsMayCreateTheConsumer() throws {
    // `.init("a", "b")` passed to a parameter reaches `init(_ tags: String...)`: no argument can be
    // added there, so the consumer waits (it was injected before, and the call lacked its argument).
    try expectInjectRefusal(
      [
        "Store.swift": Self.bumpingStore,
        "Feed.swift": Self.variadicFeed + """

        @MainActor
        func use(_ feed: Feed) -> Int { feed.load() }

        @MainActor
        final class Screen {
          func show() -> Int { use(.init("a", "b")) }
        }

        """,
      ],
      types: ["Feed"],
      "Feed.swift:20:28: error: '.init(_:_:)' may create 'Feed', and the code does not say which type it creates; write 'Feed(...)' or annotate the type there first")
  }

  /// An init a subclass declares cannot pass variadic arguments on to `super.init` (Swift has no
  /// way to forward them): a consumer created through a variadic init it inherits, with one
  /// argument or several, waits (with one, its new init called `super.init(tags)` before, which
  /// does not compile); so does one that must implement a required variadic init.
  @Test(arguments: [
    (Self.variadicInit, #"Feed("a")"#, "Feed.swift:18:23: error: this call reaches 'Base.init(_:)', \(Self.cannotForward)"),
    (Self.variadicInit, #"Feed("a", "b")"#, "Feed.swift:18:23: error: this call reaches 'Base.init(_:)', \(Self.cannotForward)"),
    (
      "init() {\n    tags = []\n  }\n\n  required " + Self.variadicInit, "Feed()",
      "Feed.swift:9:3: error: 'Feed' must implement the required 'Base.init(_:)', \(Self.cannotForward)"
    ),
  ])
  func aVariadicInitASubclassInheritsCannotBeForwarded(inits: String, creation: String, error: String) throws {
    try expectInjectRefusal(
      [
        "Store.swift": Self.bumpingStore,
        "Feed.swift": """
        @MainActor
        class Base {
          let tags: [String]

          \(inits)
        }

        @MainActor
        final class Feed: Base {
          func load() -> Int {
            Store.shared.bump()
            return tags.count
          }
        }

        @MainActor let feed = \(creation)

        """,
      ],
      types: ["Feed"], error)
  }

  static let variadicInit = "init(_ tags: String...) {\n    self.tags = tags\n  }"
  static let cannotForward = "whose variadic parameter an init of 'Feed' cannot pass on to 'super.init' (Swift cannot forward variadic arguments); give 'Base' an init that takes an array and 'Feed' one that passes it first"

  static let publicBumpingStore = """
    public final class Store: @unchecked Sendable {
      public static let shared = Store()
      public var count = 0

      public func bump() {
        count += 1
      }
    }

    public protocol Bumping: AnyObject, Sendable {
      var count: Int { get }
      func bump()
    }

    extension Store: Bumping {}

    """

  /// Code an `@inlinable` function or property exposes to other modules reads only public and
  /// `@usableFromInline` declarations: the new property it reads is `@usableFromInline` (a `private`
  /// one does not compile there).
  @Test func aPropertyInlinableCodeReadsIsUsableFromInline() throws {
    try expectInjection(
      [
        "Store.swift": Self.publicBumpingStore,
        "Feed.swift": """
        public final class Feed {
          public init() {}

          @inlinable
          public func load() -> Int {
            Store.shared.bump()
            return Store.shared.count
          }
        }

        public final class Screen {
          let feed = Feed()
        }

        """,
      ],
      types: ["Feed"],
      produces: [
        "Feed.swift": """
        public final class Feed {
          @usableFromInline let bumping: Bumping

          public init(bumping: Bumping) {
            self.bumping = bumping
          }

          @inlinable
          public func load() -> Int {
            bumping.bump()
            return bumping.count
          }
        }

        public final class Screen {
          let feed = Feed(bumping: Store.shared)
        }

        """
      ])
  }

  /// A `@usableFromInline` property cannot hold a protocol that is not public.
  @Test func inlinableCodeCannotReadAPropertyOfAnInternalProtocol() throws {
    try expectInjectRefusal(
      [
        "Store.swift": Self.publicBumpingStore.replacingOccurrences(of: "public protocol Bumping", with: "protocol Bumping"),
        "Feed.swift": """
        public final class Feed {
          init() {}

          public var total: Int {
            @inlinable get { 1 }
          }

          @_alwaysEmitIntoClient
          public func load() -> Int {
            Store.shared.bump()
            return Store.shared.count
          }
        }

        final class Screen {
          let feed = Feed()
        }

        """,
      ],
      types: ["Feed"],
      "Feed.swift:10:5: error: 'Feed' uses the instance in code other modules inline (@_alwaysEmitIntoClient), which reads its new property only if it is '@usableFromInline', and such a property cannot hold 'Bumping', not public; make it public first")
  }

  @Test func aKeywordNamedMemberIsCalledAsItIsDeclared() throws {
    try expectInjection(
      [
        "Store.swift": """
        @MainActor
        final class Store {
          static let shared = Store()
          var count = 0

          func `import`(_ value: Int) {
            count = value
          }
        }

        @MainActor
        protocol Importing: AnyObject, Sendable {
          func `import`(_ value: Int)
        }

        extension Store: Importing {}

        """,
        "Feed.swift": "@MainActor\nfinal class Feed {\n  func restore() {\n    Store.shared.import(3)\n  }\n}\n",
      ],
      types: ["Feed"],
      produces: [
        "Feed.swift": """
        @MainActor
        final class Feed {
          private let importing: Importing

          init(importing: Importing) {
            self.importing = importing
          }

          func restore() {
            importing.import(3)
          }
        }

        """
      ])
  }

  @Test func aCreatorAnEarlierRunLeftPassingTheAccessorReceivesItsProtocol() throws {
    try expectInjection(
      Self.store.merging([
        "Reader.swift": """
        @MainActor
        class Reader {
          let counting: Counting
          let name: String

          init(counting: Counting, _ name: String) {
            self.counting = counting
            self.name = name
          }

          func save() {
            counting.bump()
          }
        }

        @MainActor
        final class Module {
          var reader: Reader?

          init() {
            reader = Reader(counting: Store.shared, "cpu")
          }
        }

        @MainActor
        final class App {
          let modules = [Module()]
        }

        """
      ]) { $1 },
      types: nil,
      produces: [
        "Reader.swift": """
        @MainActor
        class Reader {
          let counting: Counting
          let name: String

          init(counting: Counting, _ name: String) {
            self.counting = counting
            self.name = name
          }

          func save() {
            counting.bump()
          }
        }

        @MainActor
        final class Module {
          private let counting: Counting

          var reader: Reader?

          init(counting: Counting) {
            self.counting = counting
            reader = Reader(counting: counting, "cpu")
          }
        }

        @MainActor
        final class App {
          let modules = [Module(counting: Store.shared)]
        }

        """
      ],
      notes: [
        "Module: counting: Counting; 1 reference rewritten",
        "  Module: 1 call site updated (Reader.swift:27)",
      ])
  }

  @Test func aUseInAParameterDefaultRefusesTheConsumer() throws {
    try expectInjectRefusal(
      Self.store.merging([
        "Reader.swift": """
        @MainActor
        final class Reader {
          func read(_ value: Int = Store.shared.count) -> Int {
            value
          }
        }

        """
      ]) { $1 },
      types: ["Reader"],
      "Reader.swift:3:28: error: 'Store.shared' is used in a default argument of 'read(_:)', which cannot read an injected property; pass the value at the call sites instead"
    )
  }

  @Test func anImplicitInitReturnedFromAStaticFactoryIsUpdated() throws {
    try expectInjection(
      Self.store.merging([
        "Part.swift": """
        @MainActor
        struct Part {
          func read() -> Int {
            Store.shared.count
          }
        }

        @MainActor
        enum Factory {
          static func make() -> Part {
            .init()
          }
        }

        """
      ]) { $1 },
      types: ["Part"],
      produces: [
        "Part.swift": """
        @MainActor
        struct Part {
          private let counting: Counting

          init(counting: Counting) {
            self.counting = counting
          }

          func read() -> Int {
            counting.count
          }
        }

        @MainActor
        enum Factory {
          static func make() -> Part {
            .init(counting: Store.shared)
          }
        }

        """
      ])
  }

  /// `.init()` creates a consumer in a file that never spells its name: the property it is
  /// assigned to is declared in another file. The file is walked for creations too.
  @Test func anImplicitInitInAFileThatDoesNotNameTheTypeIsUpdated() throws {
    try expectInjection(
      Self.store.merging([
        "Part.swift": Self.partReading,
        "Holder.swift": """
        @MainActor
        final class Holder {
          var part: Part

          init() {
            part = Part()
          }
        }

        """,
        "Reset.swift": """
        @MainActor
        extension Holder {
          func reset() {
            self.part = .init()
          }
        }

        """,
      ]) { $1 },
      types: ["Part"],
      produces: [
        "Part.swift": """
        @MainActor
        struct Part {
          private let counting: Counting

          init(counting: Counting) {
            self.counting = counting
          }

          func read() -> Int {
            counting.count
          }
        }

        """,
        "Holder.swift": """
        @MainActor
        final class Holder {
          var part: Part

          init() {
            part = Part(counting: Store.shared)
          }
        }

        """,
        "Reset.swift": """
        @MainActor
        extension Holder {
          func reset() {
            self.part = .init(counting: Store.shared)
          }
        }

        """,
      ])
  }

  /// `.init()` passed to parameters declared in another file, with a label and without one, to a
  /// struct's memberwise init, and as the fallback of `??` on a property declared there: the file never spells the consumer, and
  /// what it creates is not told there, so the consumer is refused as where the file names it.
  @Test func anImplicitInitPassedToAParameterDeclaredElsewhereIsRefused() throws {
    try expectInjectRefusal(
      Self.store.merging([
        "Part.swift": Self.partReading,
        "Shelf.swift": """
        @MainActor
        final class Shelf {
          var spare: Part?

          func put(_ part: Part) {}

          func place(part: Part) {}
        }

        @MainActor
        struct Box {
          var part: Part
        }

        """,
        "Fill.swift": """
        @MainActor
        func fill(_ shelf: Shelf) {
          shelf.put(.init())
          shelf.place(part: .init())
          shelf.put(shelf.spare ?? .init())
          _ = Box(part: .init())
        }

        """,
      ]) { $1 },
      types: ["Part"],
      """
      Fill.swift:3:13: error: '.init()' may create 'Part', and the code does not say which type it creates; write 'Part(...)' or annotate the type there first
      Fill.swift:4:21: error: '.init()' may create 'Part', and the code does not say which type it creates; write 'Part(...)' or annotate the type there first
      Fill.swift:5:28: error: '.init()' may create 'Part', and the code does not say which type it creates; write 'Part(...)' or annotate the type there first
      Fill.swift:6:17: error: '.init()' may create 'Part', and the code does not say which type it creates; write 'Part(...)' or annotate the type there first
      """)
  }

  /// A file that names the consumer only through an alias holds its untold `.init()` as one that
  /// names it does: `flag ? Spare() : .init()` makes a `Part` too. Before, only the type's own name
  /// was searched, `Spare()` got the argument and `.init()` did not.
  @Test func anUntoldInitInAFileNamingOnlyAnAliasIsRefused() throws {
    try expectInjectRefusal(
      Self.store.merging([
        "Part.swift": Self.partReading + "\ntypealias Spare = Part\n",
        "Pick.swift": """
        @MainActor
        func pick(_ flag: Bool) -> Int {
          let made = flag ? Spare() : .init()
          return made.read()
        }

        """,
      ]) { $1 },
      types: ["Part"],
      """
      Pick.swift:3:31: error: '.init()' may create 'Part', and the code does not say which type it creates; write 'Part(...)' or annotate the type there first
      """)
  }

  @Test func aConsumerWithoutInitsOverridesTheInheritedInitsItsCallSitesUse() throws {
    try expectInjection(
      Self.store.merging([
        "Screen.swift": """
        import Foundation

        @MainActor
        class Screen {
          let title: String

          init(title: String) {
            self.title = title
          }

          init(title: String, subtitle: String? = nil) throws {
            self.title = title + (subtitle ?? "")
          }

          required init(restoring title: String) {
            self.title = title
          }
        }

        @MainActor
        class ListScreen: Screen {}

        @MainActor
        final class SidebarScreen: ListScreen {
          func refresh() -> Int {
            Store.shared.count
          }
        }

        @MainActor
        final class Catalog: UIViewController {
          func show() {
            Store.shared.bump()
          }
        }

        @MainActor
        func make() throws -> [AnyObject] {
          [SidebarScreen(title: "Feeds"), try SidebarScreen(title: "A", subtitle: "B"), Catalog(nibName: nil, bundle: nil)]
        }

        """
      ]) { $1 },
      types: ["SidebarScreen", "Catalog"],
      produces: [
        "Screen.swift": """
        import Foundation

        @MainActor
        class Screen {
          let title: String

          init(title: String) {
            self.title = title
          }

          init(title: String, subtitle: String? = nil) throws {
            self.title = title + (subtitle ?? "")
          }

          required init(restoring title: String) {
            self.title = title
          }
        }

        @MainActor
        class ListScreen: Screen {}

        @MainActor
        final class SidebarScreen: ListScreen {
          private let counting: Counting

          init(counting: Counting, title: String) {
            self.counting = counting
            super.init(title: title)
          }

          init(counting: Counting, title: String, subtitle: String? = nil) throws {
            self.counting = counting
            try super.init(title: title, subtitle: subtitle)
          }

          required init(restoring title: String) {
            self.counting = Store.shared
            super.init(restoring: title)
          }

          func refresh() -> Int {
            counting.count
          }
        }

        @MainActor
        final class Catalog: UIViewController {
          private let counting: Counting

          init(counting: Counting, nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
            self.counting = counting
            super.init(nibName: nibNameOrNil, bundle: nibBundleOrNil)
          }

          required init?(coder: NSCoder) {
            self.counting = Store.shared
            super.init(coder: coder)
          }

          func show() {
            counting.bump()
          }
        }

        @MainActor
        func make() throws -> [AnyObject] {
          [SidebarScreen(counting: Store.shared, title: "Feeds"), try SidebarScreen(counting: Store.shared, title: "A", subtitle: "B"), Catalog(counting: Store.shared, nibName: nil, bundle: nil)]
        }

        """
      ],
      compilingWith: ["UIKit.swift": Self.uiKit])
  }

  @Test func aCallOfAnInheritedConvenienceInitSkipsTheConsumer() throws {
    let files = Self.store.merging([
      "Screen.swift": """
      @MainActor
      class Screen {
        let title: String

        init(title: String) {
          self.title = title
        }

        convenience init() {
          self.init(title: "Untitled")
        }
      }

      @MainActor
      final class Detail: Screen {
        func refresh() -> Int {
          Store.shared.count
        }
      }

      @MainActor
      func make() -> [Screen] {
        [Detail(title: "A"), Detail()]
      }

      """
    ]) { $1 }
    try expectInjectRefusal(
      files, types: ["Detail"],
      "Screen.swift:23:24: error: this call reaches 'Screen.init()', which 'Detail' would no longer inherit once it declares an init with the injected values; give 'Detail' that init first")
  }

  @Test func aCollaboratorTheSingletonCreatesWhileItIsMadeIsNotInjected() throws {
    let files = [
      "Store.swift": """
      @MainActor
      final class Store {
        static let shared = Store()
        var count = 0
        let journal = Journal()

        func bump() {
          count += 1
        }
      }

      extension Store: Counting {}

      @MainActor
      final class Journal {
        let pages = Pages()
      }

      @MainActor
      final class Pages {
        func last() -> Int {
          Store.shared.count
        }
      }

      """,
      "Counting.swift": Self.counting,
    ]
    try expectInjectRefusal(
      files, types: ["Pages"],
      "Store.swift:19:1: error: 'Pages' cannot be injected: 'Store' creates it while it is being made (Store.swift:16:15), so 'Store.shared' does not exist yet where it would be passed; pass 'self' to it there by hand"
    )
    try expectInjection(
      files, types: nil, produces: [:],
      notes: [
        "skipped 1 consumer:",
        "  created while the singleton is being made (1): Pages",
        "    Store.swift:19:1: error: 'Pages': 'Store' creates it while it is being made (Store.swift:16:15), so 'Store.shared' does not exist yet where it would be passed; pass 'self' to it there by hand",
      ])
  }

  @Test func aCallThatWouldPassAMainActorAccessorFromANonisolatedPlaceSkipsTheConsumer() throws {
    try expectInjection(
      Self.store.merging([
        "Worker.swift": """
        final class Worker: Sendable {
          @MainActor
          func run() {
            Store.shared.bump()
          }
        }

        func makeWorker() -> Worker {
          Worker()
        }

        @MainActor
        final class Badge {
          func refresh() -> Int {
            Store.shared.count
          }
        }

        @MainActor
        func makeBadge() -> Badge {
          Badge()
        }

        """
      ]) { $1 },
      types: nil,
      produces: [
        "Worker.swift": """
        final class Worker: Sendable {
          @MainActor
          func run() {
            Store.shared.bump()
          }
        }

        func makeWorker() -> Worker {
          Worker()
        }

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

        @MainActor
        func makeBadge() -> Badge {
          Badge(counting: Store.shared)
        }

        """
      ],
      notes: [
        "Badge: counting: Counting; 1 reference rewritten",
        "  Badge: 1 call site updated (Worker.swift:21)",
        "skipped 1 consumer:",
        "  uses the accessor in another isolation (1): Worker",
        "    Worker.swift:9:3: error: 'Store.shared' is @MainActor-isolated and this call is not, so it cannot pass it here; make the caller @MainActor first",
      ])
  }

  /// Two singletons that need each other: `SyncService` already takes `Player`'s slice where its
  /// accessor makes it. Given through its init, `Player.shared` would read `SyncService.shared` while
  /// `SyncService.shared` reads `Player.shared` ("circular reference"). So `Player` gets the slice
  /// in a `lazy` property instead: read at its first use, once both exist, and set by the root when
  /// `finish` makes both (`FinishTogether`).
  @Test func aSingletonTheSingletonReadsWhileItIsMadeGetsItAfterCreation() throws {
    try expectInjection(
      Self.playerAndSync(isolation: "@MainActor\n", sendable: ""), singleton: "SyncService", types: nil,
      produces: [
        "Player.swift": """
        @MainActor
        final class Player {
          /// Set after creation by whoever makes both: 'SyncService' needs this 'Player' while it is made.
          lazy var reporting: Reporting = SyncService.shared

          static let shared = Player()
          var current = "none"
          func play(_ song: String) {
            current = song
            reporting.report(song)
          }
        }

        extension Player: CurrentProvider {}

        """
      ],
      notes: [
        "Player: reporting: Reporting, lazy properties set after creation ('SyncService' needs it while it is made; 'finish' with both singletons sets them); 1 reference rewritten"
      ])
  }

  /// `lazy var api: Fetching = APIClient.shared` in a type that does not make its own instance is an
  /// alias of the accessor: it becomes a plain stored property assigned in the init (a lazy property
  /// without an initial value would not compile).
  @Test func aLazyAliasPropertyBecomesAPlainOneTheInitAssigns() throws {
    try expectInjection(
      [
        "APIClient.swift": """
        @MainActor
        protocol Fetching: AnyObject {
          func fetch() -> Int
        }

        @MainActor
        final class APIClient: Fetching {
          static let shared = APIClient()
          func fetch() -> Int { 1 }
        }

        """,
        "Screen.swift": """
        @MainActor
        final class Screen {
          lazy var api: Fetching = APIClient.shared
          func load() -> Int { api.fetch() }
        }

        @MainActor
        final class Root {
          func make() -> Screen { Screen() }
        }

        """,
      ], singleton: "APIClient", types: nil,
      produces: [
        "Screen.swift": """
        @MainActor
        final class Screen {
          init(api: Fetching) {
            self.api = api
          }

          var api: Fetching
          func load() -> Int { api.fetch() }
        }

        @MainActor
        final class Root {
          func make() -> Screen { Screen(api: APIClient.shared) }
        }

        """
      ])
  }

  /// The same cycle between classes isolated to no actor: a lazy property would be a data race, so
  /// `Player` is left out with the reason and nothing that does not compile is written.
  @Test func aSingletonInACycleThatNoActorIsolatesIsNotGivenItBack() throws {
    try expectInjection(
      Self.playerAndSync(isolation: "", sendable: ": @unchecked Sendable"), singleton: "SyncService", types: nil, produces: [:],
      notes: [
        "skipped 1 consumer:",
        "  a singleton the singleton needs while it is made (1): Player",
        "    Player.swift:1:1: error: 'Player': 'SyncService' reads 'Player.shared' while it is made (SyncService.swift:8:52), and 'Player' would read 'SyncService.shared' while it is made: each would need the other first; leave it reading the accessor, or let one root create both and set one on the other after creation",
      ])
  }

  static func playerAndSync(isolation: String, sendable: String) -> [String: String] {
    let protocols = sendable.isEmpty ? "AnyObject" : "AnyObject, Sendable"
    return [
      "Player.swift": """
      \(isolation)final class Player\(sendable) {
        static let shared = Player()
        \(sendable.isEmpty ? "var" : "let") current = "none"
        func play(_ song: String) {
          \(sendable.isEmpty ? "current = song\n    " : "")SyncService.shared.report(song)
        }
      }

      extension Player: CurrentProvider {}

      """,
      "SyncService.swift": """
      \(isolation)final class SyncService\(sendable) {
        private let currentProvider: CurrentProvider

        init(currentProvider: CurrentProvider) {
          self.currentProvider = currentProvider
        }

        static let shared = SyncService(currentProvider: Player.shared)
        \(sendable.isEmpty ? "var reported: [String] = []" : "let reported = 0")
        func report(_ song: String) { \(sendable.isEmpty ? "reported.append(song)" : "_ = song") }
        func nowPlaying() -> String { currentProvider.current }
      }

      extension SyncService: Reporting {}

      """,
      "Protocols.swift": """
      \(isolation)protocol CurrentProvider: \(protocols) {
        var current: String { get }
      }

      \(isolation)protocol Reporting: \(protocols) {
        func report(_ song: String)
      }

      """,
    ]
  }

  @Test func aConsumerInAModuleThatCannotImportTheSingletonsIsSkipped() throws {
    let project = makeProject([
      "Package.swift": """
      // swift-tools-version:5.9
      import PackageDescription
      let package = Package(name: "P", targets: [
        .target(name: "Core", dependencies: ["Model"]),
        .target(name: "Model"),
      ])
      """,
      "Sources/Core/Store.swift": Self.store["Store.swift"] ?? "",
      "Sources/Core/Counting.swift": Self.counting,
      "Sources/Model/Entry.swift": """
      @MainActor
      final class Entry {
        func total() -> Int {
          Store.shared.count
        }
      }

      """,
    ])
    let singleton = try #require(project.index.singletons.first)
    let design = try InjectPlanner.run(singleton: singleton, options: InjectOptions(), project: project)
    #expect(design.plan.isEmpty)
    #expect(design.report.skipped.map(\.reason) == [.moduleCycle])
    #expect(
      design.report.skipped.first?.diagnostics.map(\.description) == [
        "Sources/Model/Entry.swift:1:1: error: 'Entry': its module 'Model' cannot import 'Store's module 'Core' (that module depends on it), so it cannot name the protocols"
      ])
  }

  @Test func aDequeuedCellGetsAPropertyItsConfiguringCodeSetsWithPropertyInjection() throws {
    let files = Self.store.merging([
      "BadgeCell.swift": """
      import Foundation

      @MainActor
      final class BadgeCell: UITableViewCell {
        func configure() -> Int {
          Store.shared.count
        }
      }

      @MainActor
      final class ListController {
        let tableView = UITableView()

        func cell(at indexPath: IndexPath) -> UITableViewCell {
          let cell = tableView.dequeueReusableCell(withIdentifier: "badge", for: indexPath) as! BadgeCell
          _ = cell.configure()
          return cell
        }

        func other(at indexPath: IndexPath) -> UITableViewCell {
          guard let cell = tableView.dequeueReusableCell(withIdentifier: "badge", for: indexPath) as? BadgeCell else {
            return UITableViewCell(style: .default, reuseIdentifier: nil)
          }
          return cell
        }
      }

      """
    ]) { $1 }
    try expectInjection(
      files, types: nil, produces: [:],
      notes: [
        "created by the framework, not injected (1): BadgeCell",
        "  BadgeCell.swift:3:1: note: 'BadgeCell': the system creates it (a 'UITableViewCell'), so it cannot receive init parameters; give it a property that whoever configures it sets, or keep the accessor there until the root passes it on",
      ],
      compilingWith: ["UIKit.swift": Self.uiKitTables])
    try expectInjection(
      files, types: nil, propertyInjection: true,
      produces: [
        "BadgeCell.swift": """
        import Foundation

        @MainActor
        final class BadgeCell: UITableViewCell {
          var counting: Counting!

          func configure() -> Int {
            counting.count
          }
        }

        @MainActor
        final class ListController {
          let tableView = UITableView()

          func cell(at indexPath: IndexPath) -> UITableViewCell {
            let cell = tableView.dequeueReusableCell(withIdentifier: "badge", for: indexPath) as! BadgeCell
            cell.counting = Store.shared
            _ = cell.configure()
            return cell
          }

          func other(at indexPath: IndexPath) -> UITableViewCell {
            guard let cell = tableView.dequeueReusableCell(withIdentifier: "badge", for: indexPath) as? BadgeCell else {
              return UITableViewCell(style: .default, reuseIdentifier: nil)
            }
            cell.counting = Store.shared
            return cell
          }
        }

        """
      ],
      notes: [
        "BadgeCell: counting: Counting; 1 reference rewritten",
        "  BadgeCell: set where it is configured (BadgeCell.swift:15, BadgeCell.swift:21)",
      ],
      compilingWith: ["UIKit.swift": Self.uiKitTables])
  }

  /// A cast through a type alias, in a file that never spells the cell's type, configures it too:
  /// before, only the files naming the type were searched, and the cell's property was set nowhere.
  @Test func aCellCastThroughATypeAliasInAnotherFileIsConfiguredWithPropertyInjection() throws {
    let files = Self.store.merging([
      "BadgeCell.swift": """
      import Foundation

      typealias Badge = BadgeCell

      @MainActor
      final class BadgeCell: UITableViewCell {
        func configure() -> Int {
          Store.shared.count
        }
      }

      """,
      "ListController.swift": """
      import Foundation

      @MainActor
      final class ListController {
        let tableView = UITableView()

        func cell(at indexPath: IndexPath) -> UITableViewCell {
          let cell = tableView.dequeueReusableCell(withIdentifier: "badge", for: indexPath) as! Badge
          _ = cell.configure()
          return cell
        }
      }

      """,
    ]) { $1 }
    try expectInjection(
      files, types: nil, propertyInjection: true,
      produces: [
        "BadgeCell.swift": """
        import Foundation

        typealias Badge = BadgeCell

        @MainActor
        final class BadgeCell: UITableViewCell {
          var counting: Counting!

          func configure() -> Int {
            counting.count
          }
        }

        """,
        "ListController.swift": """
        import Foundation

        @MainActor
        final class ListController {
          let tableView = UITableView()

          func cell(at indexPath: IndexPath) -> UITableViewCell {
            let cell = tableView.dequeueReusableCell(withIdentifier: "badge", for: indexPath) as! Badge
            cell.counting = Store.shared
            _ = cell.configure()
            return cell
          }
        }

        """,
      ],
      notes: [
        "BadgeCell: counting: Counting; 1 reference rewritten",
        "  BadgeCell: set where it is configured (ListController.swift:8)",
      ],
      compilingWith: ["UIKit.swift": Self.uiKitTables])
  }

  @Test func aControllerAStoryboardInstantiatesIsFrameworkCreatedAndConfiguredAfterTheCast() throws {
    let files = Self.store.merging([
      "AboutViewController.swift": """
      import Foundation

      @MainActor
      final class AboutViewController: UIViewController {
        func title() -> String {
          "\\(Store.shared.count)"
        }
      }

      @MainActor
      final class Coordinator {
        let storyboard = UIStoryboard(name: "Main", bundle: nil)

        func showAbout() -> String {
          let about = storyboard.instantiateViewController(withIdentifier: "About") as! AboutViewController
          return about.title()
        }
      }

      """
    ]) { $1 }
    try expectInjection(
      files, types: nil, produces: [:],
      notes: [
        "created by the framework, not injected (1): AboutViewController",
        "  AboutViewController.swift:3:1: note: 'AboutViewController': a storyboard creates it ('instantiateViewController' at AboutViewController.swift:15), so it cannot receive init parameters; give it a property that whoever configures it sets, or keep the accessor there until the root passes it on",
      ],
      compilingWith: ["UIKit.swift": Self.uiKit + Self.uiKitStoryboard])
    try expectInjection(
      files, types: nil, propertyInjection: true,
      produces: [
        "AboutViewController.swift": """
        import Foundation

        @MainActor
        final class AboutViewController: UIViewController {
          var counting: Counting!

          func title() -> String {
            "\\(counting.count)"
          }
        }

        @MainActor
        final class Coordinator {
          let storyboard = UIStoryboard(name: "Main", bundle: nil)

          func showAbout() -> String {
            let about = storyboard.instantiateViewController(withIdentifier: "About") as! AboutViewController
            about.counting = Store.shared
            return about.title()
          }
        }

        """
      ],
      notes: [
        "AboutViewController: counting: Counting; 1 reference rewritten",
        "  AboutViewController: set where it is configured (AboutViewController.swift:15)",
      ],
      compilingWith: ["UIKit.swift": Self.uiKit + Self.uiKitStoryboard])
  }

  @Test func aControllerWithInterfaceBuilderActionsOnlyACoderInitAndNoCreatorIsFrameworkCreated() throws {
    try expectInjection(
      Self.store.merging([
        "SettingsViewController.swift": """
        import Foundation

        @MainActor
        final class SettingsViewController: UIViewController {
          @IBAction func reset(_ sender: Any) {
            Store.shared.bump()
          }
        }

        """
      ]) { $1 },
      types: nil, produces: [:],
      notes: [
        "created by the framework, not injected (1): SettingsViewController",
        "  SettingsViewController.swift:3:1: note: 'SettingsViewController': a storyboard or nib creates it (it has Interface Builder outlets or actions, no init but 'init?(coder:)', and no code creates it), so it cannot receive init parameters; give it a property that whoever configures it sets, or keep the accessor there until the root passes it on",
      ],
      compilingWith: ["UIKit.swift": Self.uiKit])
  }

  @Test func aTypeReceivingMoreThanSixProtocolsIsWarnedAbout() throws {
    let names = ["A", "B", "C", "D", "E", "F", "G"]
    let store = """
      @MainActor
      final class Store {
        static let shared = Store()
      \(names.map { "  var value\($0) = 0" }.joined(separator: "\n"))
      }

      \(names.map { "@MainActor\nprotocol Has\($0): AnyObject, Sendable {\n  var value\($0): Int { get }\n}\n" }.joined(separator: "\n"))
      extension Store: \(names.map { "Has\($0)" }.joined(separator: ", ")) {}

      @MainActor
      final class Dashboard {
        func total() -> Int {
          \(names.map { "Store.shared.value\($0)" }.joined(separator: " + "))
        }
      }

      """
    let project = makeProject(["Store.swift": store])
    let singleton = try #require(project.index.singletons.first)
    let (plan, report) = try InjectPlanner.run(singleton: singleton, options: InjectOptions(), project: project)
    #expect(report.consumers.map(\.typeName) == ["Dashboard"])
    #expect(report.warnings.map(\.description) == [
      "Store.swift:50:1: warning: 'Dashboard' now receives 7 protocols of 'Store'; consider splitting it"
    ])
    #expect(plan.noteLines.last == report.warnings.first?.description)
    #expect(plan.notes.last?.kind == .skipped)
    let result = try apply(plan, to: project, files: ["Store.swift": store])
    #expect(try compileErrors(result) == "")
  }

  @Test func aConsumerCreatedInAStoredInitialValueIsCreatedInTheInitsWithTheCreatorsProperty() throws {
    try expectInjection(
      Self.store.merging([
        "Login.swift": """
        import Foundation

        @MainActor
        final class Avatar {
          let placeholder: String

          init(placeholder: String) {
            self.placeholder = placeholder
          }

          func text() -> String {
            "\\(placeholder) \\(Store.shared.count)"
          }
        }

        @MainActor
        final class Login: UIViewController {
          private let avatar = Avatar(placeholder: "x")
          let heading: String

          init(heading: String) {
            self.heading = heading
            super.init(nibName: nil, bundle: nil)
          }

          required init?(coder: NSCoder) {
            self.heading = ""
            super.init(coder: coder)
          }
        }

        @MainActor
        final class Coordinator {
          func show() -> Login {
            Login(heading: "a")
          }
        }

        """
      ]) { $1 },
      types: nil,
      produces: [
        "Login.swift": """
        import Foundation

        @MainActor
        final class Avatar {
          private let counting: Counting

          let placeholder: String

          init(counting: Counting, placeholder: String) {
            self.counting = counting
            self.placeholder = placeholder
          }

          func text() -> String {
            "\\(placeholder) \\(counting.count)"
          }
        }

        @MainActor
        final class Login: UIViewController {
          private let counting: Counting

          private let avatar: Avatar
          let heading: String

          init(counting: Counting, heading: String) {
            self.counting = counting
            self.avatar = Avatar(counting: counting, placeholder: "x")
            self.heading = heading
            super.init(nibName: nil, bundle: nil)
          }

          required init?(coder: NSCoder) {
            self.counting = Store.shared
            self.avatar = Avatar(counting: counting, placeholder: "x")
            self.heading = ""
            super.init(coder: coder)
          }
        }

        @MainActor
        final class Coordinator {
          func show() -> Login {
            Login(counting: Store.shared, heading: "a")
          }
        }

        """
      ],
      compilingWith: ["UIKit.swift": Self.uiKit])
  }

  @Test func aNonisolatedMethodKeepsWorkingAndDecodablesAndPropertyWrappersAreFrameworkCreated() throws {
    try expectInjection(
      Self.store.merging([
        "Screen.swift": """
        @MainActor
        final class Screen {
          nonisolated func total() async -> Int {
            await Store.shared.count
          }
        }

        @MainActor
        func makeScreen() -> Screen {
          Screen()
        }

        struct Entry: Codable {
          var title: String

          @MainActor
          func label() -> String {
            "\\(title) \\(Store.shared.count)"
          }
        }

        @MainActor
        @propertyWrapper
        struct Counted {
          var wrappedValue: Int {
            Store.shared.count
          }
        }

        """
      ]) { $1 },
      types: nil,
      produces: [
        "Screen.swift": """
        @MainActor
        final class Screen {
          private let counting: Counting

          init(counting: Counting) {
            self.counting = counting
          }

          nonisolated func total() async -> Int {
            await counting.count
          }
        }

        @MainActor
        func makeScreen() -> Screen {
          Screen(counting: Store.shared)
        }

        struct Entry: Codable {
          var title: String

          @MainActor
          func label() -> String {
            "\\(title) \\(Store.shared.count)"
          }
        }

        @MainActor
        @propertyWrapper
        struct Counted {
          var wrappedValue: Int {
            Store.shared.count
          }
        }

        """
      ],
      notes: [
        "Screen: counting: Counting; 1 reference rewritten",
        "  Screen: 1 call site updated (Screen.swift:10)",
        "created by the framework, not injected (2): Counted, Entry",
        "  Screen.swift:22:1: note: 'Counted': the compiler creates it for each property it wraps (@propertyWrapper), so it cannot receive init parameters; give it a property that whoever configures it sets, or keep the accessor there until the root passes it on",
        "  Screen.swift:13:1: note: 'Entry': a decoder creates it through 'init(from:)' (it conforms to 'Codable'), so it cannot receive init parameters; give it a property that whoever configures it sets, or keep the accessor there until the root passes it on",
      ])
  }

  @Test func typesTheSystemCreatesOrWhoseConformanceIsSynthesizedAreSkipped() throws {
    try expectInjection(
      Self.store.merging([
        "App.swift": """
        @main
        @MainActor
        final class App {
          static func main() {
            Store.shared.bump()
          }

          func launch() {
            Store.shared.bump()
          }
        }

        @MainActor
        struct Entry: Equatable {
          let date: Int
          func count() -> Int {
            Store.shared.count + date
          }
        }

        """
      ]) { $1 },
      types: nil, produces: [:],
      notes: [
        "skipped 1 consumer:",
        "  a synthesized conformance would break (1): Entry",
        "    App.swift:13:1: error: 'Entry': its 'Equatable' conformance is synthesized from its stored properties, which a protocol-typed property would break",
        "created by the framework, not injected (1): App",
        "  App.swift:1:1: note: 'App': the system creates it (@main), so it cannot receive init parameters; give it a property that whoever configures it sets, or keep the accessor there until the root passes it on",
      ])
  }

  @Test func selfCallsAndNestedTypesAreResolvedWhereTheyAreWritten() throws {
    try expectInjection(
      Self.store.merging([
        "Box.swift": """
        @MainActor
        struct Box {
          var size = 0

          static func make() -> Self {
            Self(size: 3)
          }

          func total() -> Int {
            Store.shared.count + size
          }
        }

        @MainActor
        struct Outer {
          func makeCoordinator() -> Coordinator {
            Coordinator(id: 1)
          }

          @MainActor
          final class Coordinator {
            let id: Int

            init(id: Int) {
              self.id = id
            }

            func done() {
              Store.shared.bump()
            }
          }
        }

        @MainActor
        struct Other {
          func makeCoordinator() -> Coordinator {
            Coordinator(id: 2)
          }

          @MainActor
          final class Coordinator {
            let id: Int

            init(id: Int) {
              self.id = id
            }
          }
        }

        """
      ]) { $1 },
      types: ["Box", "Outer.Coordinator"],
      produces: [
        "Box.swift": """
        @MainActor
        struct Box {
          private let counting: Counting

          init(counting: Counting, size: Int = 0) {
            self.counting = counting
            self.size = size
          }

          var size = 0

          static func make() -> Self {
            Self(counting: Store.shared, size: 3)
          }

          func total() -> Int {
            counting.count + size
          }
        }

        @MainActor
        struct Outer {
          func makeCoordinator() -> Coordinator {
            Coordinator(counting: Store.shared, id: 1)
          }

          @MainActor
          final class Coordinator {
            private let counting: Counting

            let id: Int

            init(counting: Counting, id: Int) {
              self.counting = counting
              self.id = id
            }

            func done() {
              counting.bump()
            }
          }
        }

        @MainActor
        struct Other {
          func makeCoordinator() -> Coordinator {
            Coordinator(id: 2)
          }

          @MainActor
          final class Coordinator {
            let id: Int

            init(id: Int) {
              self.id = id
            }
          }
        }

        """
      ])
  }

  @Test func allHandsTheProtocolUpToTheRootInOneRun() throws {
    try expectInjection(
      Self.store.merging([
        "Reader.swift": """
        @MainActor
        class Reader {
          let name: String

          init(_ name: String) {
            self.name = name
          }

          func save() {
            Store.shared.bump()
          }
        }

        @MainActor
        final class Module {
          var reader: Reader?

          init() {
            reader = Reader("cpu")
          }
        }

        @MainActor
        final class App {
          let modules = [Module()]
        }

        """
      ]) { $1 },
      types: nil,
      produces: [
        "Reader.swift": """
        @MainActor
        class Reader {
          private let counting: Counting

          let name: String

          init(counting: Counting, _ name: String) {
            self.counting = counting
            self.name = name
          }

          func save() {
            counting.bump()
          }
        }

        @MainActor
        final class Module {
          private let counting: Counting

          var reader: Reader?

          init(counting: Counting) {
            self.counting = counting
            reader = Reader(counting: counting, "cpu")
          }
        }

        @MainActor
        final class App {
          let modules = [Module(counting: Store.shared)]
        }

        """
      ])
  }

  @Test func aCreatorObjectiveCCreatesIsNotHandedTheProtocol() throws {
    try expectInjection(
      Self.store.merging([
        "Badge.swift": """
        import Foundation

        @MainActor
        final class Badge {
          func refresh() {
            Store.shared.bump()
          }
        }

        @MainActor
        final class Host: NSObject {
          func show() -> Badge {
            Badge()
          }
        }

        @MainActor
        final class App {
          let host = Host()
        }

        """,
        "SPHost.m": "@implementation SPApp\n- (void)run { Host *host = [[Host alloc] init]; }\n@end\n",
      ]) { $1 },
      types: nil,
      produces: [
        "Badge.swift": """
        import Foundation

        @MainActor
        final class Badge {
          private let counting: Counting

          init(counting: Counting) {
            self.counting = counting
          }

          func refresh() {
            counting.bump()
          }
        }

        @MainActor
        final class Host: NSObject {
          func show() -> Badge {
            Badge(counting: Store.shared)
          }
        }

        @MainActor
        final class App {
          let host = Host()
        }

        """
      ])
  }

  @Test func aCreationInAParameterDefaultPassesTheAccessor() throws {
    try expectInjection(
      Self.store.merging([
        "Badge.swift": """
        @MainActor
        final class Badge {
          func refresh() {
            Store.shared.bump()
          }
        }

        @MainActor
        final class Shelf {
          func refresh() {
            Store.shared.bump()
          }

          func show(_ badge: Badge = .init(), _ other: Badge = Badge()) {}
        }

        """
      ]) { $1 },
      types: nil,
      produces: [
        "Badge.swift": """
        @MainActor
        final class Badge {
          private let counting: Counting

          init(counting: Counting) {
            self.counting = counting
          }

          func refresh() {
            counting.bump()
          }
        }

        @MainActor
        final class Shelf {
          func refresh() {
            Store.shared.bump()
          }

          func show(_ badge: Badge = .init(counting: Store.shared), _ other: Badge = Badge(counting: Store.shared)) {}
        }

        """
      ])
  }

  // MARK: Refusals

  /// A member no protocol can require (its type cannot be told from its declaration) gets the
  /// reason, not an `extract-protocol` command that would be refused (CodeEdit's `feedbackTypeList`).
  @Test func aMemberNoProtocolCanRequireIsRefusedWithTheReason() throws {
    var files = Self.store
    files["Store.swift"] = files["Store.swift"]!.replacingOccurrences(
      of: "  func reload() {}", with: "  func reload() {}\n\n  var kinds = [Kind(name: \"a\")]")
    files["Kind.swift"] = "struct Kind {\n  var name: String\n}\n"
    try expectInjectRefusal(
      files.merging([
        "Badge.swift": """
        @MainActor
        final class Badge {
          func refresh() -> Int {
            Store.shared.bump()
            return Store.shared.kinds.count
          }
        }

        """
      ]) { $1 },
      types: ["Badge"],
      "Badge.swift:5:12: error: 'Badge' uses 'kinds', which no protocol of 'Store' covers; it cannot be in a protocol: cannot infer the type of 'kinds'; add a type annotation"
    )
  }

  @Test func aMemberNoProtocolCoversIsRefusedWithTheExtractProtocolCall() throws {
    try expectInjectRefusal(
      Self.store.merging([
        "Badge.swift": """
        @MainActor
        final class Badge {
          func refresh() {
            Store.shared.bump()
            Store.shared.reload()
          }
        }

        """
      ]) { $1 },
      types: ["Badge"],
      "Badge.swift:5:5: error: 'Badge' uses 'reload', which no protocol of 'Store' covers; run 'desingleton extract-protocol --singleton Store --slice Reloading=reload' to cut one"
    )
  }

  @Test func aWriteNoProtocolDeclaresSettableIsRefused() throws {
    try expectInjectRefusal(
      Self.store.merging([
        "Badge.swift": """
        @MainActor
        final class Badge {
          func clear() {
            Store.shared.count = 0
          }
        }

        """
      ]) { $1 },
      types: ["Badge"],
      "Badge.swift:4:5: error: 'Badge' sets 'count', but no protocol of 'Store' declares it '{ get set }'; run 'desingleton extract-protocol --singleton Store --slice CountProvider=count' to cut one"
    )
  }

  @Test func passingTheInstanceItselfIsRefused() throws {
    try expectInjectRefusal(
      Self.store.merging([
        "Badge.swift": """
        @MainActor
        final class Badge {
          func refresh() -> Int {
            describe(Store.shared)
          }

          func describe(_ store: Store) -> Int {
            store.count
          }
        }

        """
      ]) { $1 },
      types: ["Badge"],
      "Badge.swift:4:14: error: 'Badge' passes the instance 'Store.shared' itself, so it cannot be told which protocol it needs"
    )
  }

  @Test func aUseInAStoredPropertysInitialValueIsRefused() throws {
    try expectInjectRefusal(
      Self.store.merging([
        "Badge.swift": """
        @MainActor
        final class Badge {
          let initial = Store.shared.count

          func refresh() -> Int {
            Store.shared.count - initial
          }
        }

        """
      ]) { $1 },
      types: ["Badge"],
      "Badge.swift:3:17: error: 'Store.shared' is used in the initial value of stored property 'initial'; make it lazy or set it in an init"
    )
  }

  @Test func anUnknownTypeIsRefused() throws {
    try expectInjectRefusal(
      Self.store, types: ["Nope"], "error: no type named 'Nope'")
  }

  @Test func aReassignedSingletonIsRefused() throws {
    try expectInjectRefusal(
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

          func bump() {
            count += 1
          }
        }

        extension Store: Counting {}

        """,
        "Counting.swift": Self.counting,
        "Badge.swift": """
        @MainActor
        final class Badge {
          func refresh() -> Int {
            Store.shared.count
          }
        }

        """,
      ],
      types: ["Badge"],
      "Store.swift:7:5: error: 'Store.shared' is given a new instance here, so a consumer holding the instance it had would keep the old one; injecting it would change what the code does"
    )
  }

  @Test func anXCTestCaseSubclassIsNotAConsumer() throws {
    try expectInjectRefusal(
      Self.store.merging([
        "BadgeTests.swift": """
        import XCTest

        final class BadgeTests: XCTestCase {
          func testCount() async {
            let count = await MainActor.run { Store.shared.count }
            XCTAssertEqual(count, 0)
          }
        }

        """
      ]) { $1 },
      types: ["BadgeTests"],
      "BadgeTests.swift:3:1: error: 'BadgeTests' cannot be injected: it is a test case")
  }

  @Test func aTypeWithTestFunctionsIsNotAConsumerAndAllSkipsIt() throws {
    let files = Self.store.merging([
      "Badge.swift": """
      @MainActor
      final class Badge {
        func refresh() -> Int {
          Store.shared.count
        }
      }

      """,
      "BadgeTests.swift": """
      import Testing

      @MainActor
      struct BadgeTests {
        @Test func counts() {
          #expect(Store.shared.count >= 0)
        }
      }

      """,
    ]) { $1 }
    try expectInjectRefusal(
      files, types: ["BadgeTests"], "BadgeTests.swift:3:1: error: 'BadgeTests' cannot be injected: it is a test case")
    try expectInjection(
      files, types: nil,
      produces: [
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

        """
      ],
      notes: [
        "Badge: counting: Counting; 1 reference rewritten"
      ])
  }

  // MARK: Inputs

  static let counting = """
    @MainActor
    protocol Counting: AnyObject, Sendable {
      var count: Int { get }
      func bump()
    }

    """

  /// A main-actor singleton with one slice cut; `reload()` is in no protocol.
  /// A struct consumer that reads the store, created by `.init()` where its name is not written.
  static let partReading = """
    @MainActor
    struct Part {
      func read() -> Int {
        Store.shared.count
      }
    }

    """

  static let store: [String: String] = [
    "Store.swift": """
    @MainActor
    final class Store {
      static let shared = Store()
      var count = 0

      func bump() {
        count += 1
      }

      func reload() {}
    }

    extension Store: Counting {}

    """,
    "Counting.swift": counting,
  ]

  /// A base class whose uses of the accessor are in an extension in another file: its new
  /// property is internal, visible to subclasses.
  static let parentShowing: [String: String] = [
    "Parent.swift": """
    @MainActor
    class Parent {
      init() {}
    }

    """,
    "Parent+Show.swift": """
    extension Parent {
      func show() -> Int { Store.shared.count }
    }

    """,
  ]

  /// Two slices, one of them with an `async` member.
  static let loadingStore: [String: String] = [
    "Store.swift": """
    @MainActor
    final class Store {
      static let shared = Store()
      var count = 0

      func bump() {
        count += 1
      }

      func load() async -> [Int] {
        [count]
      }
    }

    extension Store: Counting, Loading {}

    """,
    "Counting.swift": counting,
    "Loading.swift": """
    @MainActor
    protocol Loading: AnyObject, Sendable {
      func load() async -> [Int]
    }

    """,
  ]

  /// A superclass with a nib-style designated init and a coder init, as view controllers have.
  static let screen = """
    import Foundation

    @MainActor
    open class Screen {
      public init(nibName: String?, bundle: Bundle?) {}

      public required init?(coder: NSCoder) {}
    }

    """

  /// Just enough of UIKit's table views, with Apple's names and signatures.
  static let uiKitTables = """
    import Foundation

    @MainActor
    open class UITableViewCell {
      public enum CellStyle { case `default`, subtitle }

      public init(style: UITableViewCell.CellStyle, reuseIdentifier: String?) {}

      public required init?(coder: NSCoder) {}
    }

    @MainActor
    open class UITableView {
      public init() {}

      open func dequeueReusableCell(withIdentifier identifier: String, for indexPath: IndexPath) -> UITableViewCell {
        UITableViewCell(style: .default, reuseIdentifier: identifier)
      }
    }

    """

  /// A storyboard that instantiates view controllers by identifier.
  static let uiKitStoryboard = """

    @MainActor
    open class UIStoryboard {
      public init(name: String, bundle: Bundle?) {}

      open func instantiateViewController(withIdentifier identifier: String) -> UIViewController {
        UIViewController(nibName: identifier, bundle: nil)
      }
    }

    """

  /// Just enough of UIKit's `UIViewController` for the rewritten code to type-check.
  static let uiKit = """
    import Foundation

    @MainActor
    open class UIViewController {
      public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {}

      public required init?(coder: NSCoder) {}

      public convenience init() {
        self.init(nibName: nil, bundle: nil)
      }
    }

    """
}

// MARK: - Helpers

/// Plans `inject`, applies the plan and checks the whole text of every changed file; then type-checks
/// the result (with `extra`, files the planner does not see, like a stand-in for UIKit) in Swift 6 mode
/// and runs the planner again on the result, which must plan nothing. The input must type-check too,
/// so that a failure is the planner's.
private func expectInjection(
  _ files: [String: String], singleton name: String = "Store", types: [String]?, defaultArgument: Bool = false,
  propertyInjection: Bool = false,
  produces expected: [String: String], notes: [String]? = nil, compilingWith extra: [String: String] = [:],
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let inputErrors = try compileErrors(files.merging(extra) { original, _ in original })
  #expect(inputErrors == "", "the input does not compile", sourceLocation: sourceLocation)
  let options = InjectOptions(types: types, defaultArgument: defaultArgument, propertyInjection: propertyInjection)
  try expectPlan(
    files, singleton: name, produces: expected, notes: notes, compilingWith: extra, sourceLocation: sourceLocation
  ) { try InjectPlanner.plan(singleton: $0, options: options, project: $1) }
}

/// Expects `inject` to refuse with exactly `diagnostics` (one `path:line:col: error:` line each).
/// The input must type-check, so the refusal is about the code, not a typo in the test.
private func expectInjectRefusal(
  _ files: [String: String], singleton name: String = "Store", types: [String]?, defaultArgument: Bool = false,
  compilingWith extra: [String: String] = [:], _ diagnostics: String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let inputErrors = try compileErrors(files.merging(extra) { original, _ in original })
  #expect(inputErrors == "", "the input does not compile", sourceLocation: sourceLocation)
  let project = makeProject(files)
  let singleton = try #require(project.index.singletons.first { $0.typeName == name }, sourceLocation: sourceLocation)
  do {
    let plan = try InjectPlanner.plan(
      singleton: singleton, options: InjectOptions(types: types, defaultArgument: defaultArgument), project: project)
    Issue.record(
      "expected a refusal, got a plan for \((Array(plan.edits.keys) + Array(plan.newFiles.keys)).sorted())",
      sourceLocation: sourceLocation)
  } catch let refusal as Refusal {
    #expect(refusal.description == diagnostics, sourceLocation: sourceLocation)
  }
}

