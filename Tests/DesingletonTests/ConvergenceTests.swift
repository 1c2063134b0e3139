import DesingletonCore
import DesingletonIndex
import DesingletonPlanner
import Foundation
import Testing

/// On every sample, for every singleton: `extract-protocol` with the suggested slices, then
/// `inject --all`, leaves the accessor only in composition roots, types the system creates, static
/// contexts, tests, coder inits and the singleton with what it makes; nothing elsewhere; and never
/// more used outside roots, entry points and tests than before.
@Suite struct ConvergenceTests {
  static let samples = [
    "ShoppingApp", "ProfileApp", "ThumbnailCache", "SingletonShapes", "FrameworkApp", "SwiftUIApp", "GodObject", "SwinjectApp",
    "DependenciesApp",
  ]

  @Test(arguments: samples)
  func injectAllLeavesTheAccessorOnlyWhereNoInitCanTakeIt(_ sample: String) throws {
    var files = try Self.sources(of: sample)
    let singletons = makeProject(files).index.singletons.map(\.typeName)
    #expect(!singletons.isEmpty)
    for name in singletons {
      let sliced = makeProject(files)
      guard let singleton = sliced.index.singletons.first(where: { $0.typeName == name }) else { continue }
      let extraction = try ExtractProtocolPlanner.plan(singleton: singleton, options: ExtractProtocolOptions(), project: sliced)
      files = try apply(extraction, to: sliced, files: files)
      let extracted = makeProject(files)
      let target = try #require(extracted.index.singletons.first { $0.typeName == name })
      let before = try AccessorCensus(singleton: target, project: extracted)
      // A singleton inject refuses as a whole (its instance is replaced at run time) is left as it is.
      let injection: (plan: Plan, report: InjectReport)
      do {
        injection = try InjectPlanner.run(singleton: target, options: InjectOptions(), project: extracted) { plan in
          makeProject(try apply(plan, to: extracted, files: files))
        }
      } catch let refusal as Refusal where refusal.diagnostics.first?.message.contains("given a new instance") == true {
        continue
      }
      let (plan, report) = injection
      files = try apply(plan, to: extracted, files: files)
      let injected = makeProject(files)
      let after = try AccessorCensus(singleton: try #require(injected.index.singletons.first { $0.typeName == name }), project: injected)
      // Never more used outside roots, entry points and tests than before.
      #expect(
        after.spreadRanges.count <= before.spreadRanges.count,
        "\(sample) '\(name)': \(before.spreadRanges.count) → \(after.spreadRanges.count) outside roots and tests")
      #expect(
        after.elsewhere == 0,
        "\(sample) '\(name)': \(before.total) → \(after.total), still used by \(after.elsewhereTypes); skipped: \(report.skipped.map(\.typeName))")
    }
  }

  /// A type only tests create that reads the singleton and creates a consumer is where the instance
  /// comes from: `inject --all` leaves it reading the accessor and handing it down, so that `finish`
  /// proposes it as the root and succeeds (injecting it would leave no root: a dead end).
  @Test func injectAllLeavesAReadingRootForFinish() throws {
    var files = [
      "Sources/App/Store.swift": """
      @MainActor
      public final class Store {
        public static let shared = Store()
        var count = 0
        func bump() { count += 1 }
        func total() -> Int { count }
      }

      """,
      "Sources/App/Root.swift": """
      @MainActor
      final class Root {
        init() {}
        func start() -> Int {
          Store.shared.bump()
          let screen = Screen()
          return screen.show()
        }
      }

      """,
      "Sources/App/Screen.swift": """
      @MainActor
      final class Screen {
        func show() -> Int { Store.shared.total() }
      }

      """,
      "Tests/AppTests/RootTests.swift": """
      @MainActor
      final class RootTests {
        func testStart() { _ = Root().start() }
      }

      """,
    ]
    let original = makeProject(files)
    let store = try #require(original.index.singletons.first)
    files = try apply(
      ExtractProtocolPlanner.plan(singleton: store, options: ExtractProtocolOptions(), project: original), to: original,
      files: files)
    let extracted = makeProject(files)
    let (plan, report) = try InjectPlanner.run(
      singleton: try #require(extracted.index.singletons.first), options: InjectOptions(), project: extracted
    ) { plan in makeProject(try apply(plan, to: extracted, files: files)) }
    #expect(report.consumers.map(\.typeName) == ["Screen"])
    #expect(report.roots.map(\.typeName) == ["Root"])
    files = try apply(plan, to: extracted, files: files)
    #expect(files["Sources/App/Root.swift"]?.contains("Store.shared.bump()") == true)
    #expect(files["Sources/App/Root.swift"]?.contains("Screen(") == true)
    let injectedErrors = try compileErrors(files)
    #expect(injectedErrors == "")

    let injected = makeProject(files)
    let target = try #require(injected.index.singletons.first)
    #expect(try CompositionRoots.proposedRoot(singleton: target, project: injected).root == "Root")
    let finished = try apply(
      FinishPlanner.plan(singleton: target, options: FinishOptions(root: "Root"), project: injected), to: injected,
      files: files)
    #expect(finished["Sources/App/Store.swift"]?.contains("static let shared") == false)
    let finishedErrors = try compileErrors(finished)
    #expect(finishedErrors == "")
  }

  /// Another singleton that reads this one (`Tracker.shared`, made by its own static member) is
  /// no composition root: it is made wherever its accessor is first read. `inject --all` gives it
  /// the slice where its accessor makes it, and `finish` proposes the type that is a root and lists
  /// that static member as what still uses the accessor.
  @Test func anotherSingletonIsAConsumerItsOwnAccessorCreatesNotARoot() throws {
    var files = [
      "Sources/App/Store.swift": Self.bumpingStore,
      "Sources/App/Tracker.swift": """
      @MainActor
      final class Tracker {
        static let shared = Tracker()
        func log() { Store.shared.bump() }
      }

      """,
      "Sources/App/Root.swift": """
      @MainActor
      final class Root {
        init() {}
        func start() {
          Store.shared.bump()
          Screen().tap()
        }
      }

      """,
      "Sources/App/Screen.swift": """
      @MainActor
      final class Screen {
        func tap() {
          Store.shared.bump()
          Tracker.shared.log()
        }
      }

      """,
      "Tests/AppTests/RootTests.swift": """
      @MainActor
      final class RootTests {
        func testStart() { Root().start() }
      }

      """,
    ]
    let original = makeProject(files)
    #expect(try !CompositionRoots.isCompositionRoot("Tracker", project: original))
    #expect(try CompositionRoots.isCompositionRoot("Root", project: original))
    let store = try #require(original.index.singletons.first { $0.typeName == "Store" })
    files = try apply(
      ExtractProtocolPlanner.plan(singleton: store, options: ExtractProtocolOptions(), project: original), to: original,
      files: files)
    let extracted = makeProject(files)
    let (plan, report) = try InjectPlanner.run(
      singleton: try #require(extracted.index.singletons.first { $0.typeName == "Store" }), options: InjectOptions(),
      project: extracted
    ) { plan in makeProject(try apply(plan, to: extracted, files: files)) }
    #expect(report.consumers.map(\.typeName).sorted() == ["Screen", "Tracker"])
    #expect(report.roots.map(\.typeName) == ["Root"])
    files = try apply(plan, to: extracted, files: files)
    #expect(files["Sources/App/Tracker.swift"]?.contains(": Store.shared)") == true)
    #expect(files["Sources/App/Tracker.swift"]?.contains("static let shared = Tracker(") == true)
    #expect(try compileErrors(files) == "")

    let injected = makeProject(files)
    let target = try #require(injected.index.singletons.first { $0.typeName == "Store" })
    let again = try InjectPlanner.plan(singleton: target, options: InjectOptions(), project: injected)
    #expect(again.isEmpty, "a second run plans more: \(again.noteLines)")
    #expect(try CompositionRoots.proposedRoot(singleton: target, project: injected).root == "Root")
    do {
      _ = try FinishPlanner.plan(singleton: target, options: FinishOptions(root: "Root"), project: injected)
      Issue.record("finish went through while a static member still reads the accessor")
    } catch let refusal as Refusal {
      // Another singleton's accessor makes it: the two are finished together.
      #expect(
        refusal.diagnostics.map(\.message).contains {
          // `Screen` still reads `Tracker.shared`: finishing both is no command to print yet.
          $0.contains("is used by 'Tracker', a singleton made with it") && $0.contains("once nothing else blocks either")
        }, "\(refusal.diagnostics)")
    }
  }

  /// A singleton with one member to slice, in an app's module.
  static let bumpingStore = """
    @MainActor
    public final class Store {
      public static let shared = Store()
      var count = 0
      func bump() { count += 1 }
    }

    """

  /// An app that starts in a `@main` type and has an application delegate the framework makes for
  /// it, both reading the singleton (or neither): the `@main` type is the root `finish` proposes.
  @Test func theMainTypeOwnsTheInstanceOverTheDelegateBesideIt() throws {
    let files = [
      "Sources/App/Store.swift": Self.bumpingStore,
      "Sources/App/App.swift": """
      @main
      struct ShopApp {
        init() { Store.shared.bump() }
        static func main() { _ = ShopApp() }
      }

      """,
      "Sources/App/AppDelegate.swift": """
      protocol UIApplicationDelegate {}
      final class AppDelegate: UIApplicationDelegate {
        func launched() { Store.shared.bump() }
      }

      """,
    ]
    let project = makeProject(files)
    let store = try #require(project.index.singletons.first { $0.typeName == "Store" })
    let proposal = try CompositionRoots.proposedRoot(singleton: store, project: project)
    #expect(proposal.root == "ShopApp")
    #expect(proposal.candidates.sorted() == ["AppDelegate", "ShopApp"])

    // Neither reads it: the code's entry points, the `@main` one first.
    var unused = files
    unused["Sources/App/App.swift"] = unused["Sources/App/App.swift"]!.replacingOccurrences(of: "init() { Store.shared.bump() }", with: "init() {}")
      .replacingOccurrences(of: "_ = ShopApp()", with: "_ = ShopApp(); Screen().tap()")
    unused["Sources/App/AppDelegate.swift"] = unused["Sources/App/AppDelegate.swift"]!.replacingOccurrences(of: "Store.shared.bump()", with: "")
    unused["Sources/App/Screen.swift"] = "final class Screen {\n  func tap() { Store.shared.bump() }\n}\n"
    let other = makeProject(unused)
    let fallback = try CompositionRoots.proposedRoot(singleton: try #require(other.index.singletons.first { $0.typeName == "Store" }), project: other)
    #expect(fallback.root == "ShopApp")
  }

  /// Entry points of two programs (two executable targets) are one root each, whether they read
  /// the accessor or not: each program had its own instance. In one program they stay candidates.
  @Test func entryPointsOfTwoProgramsAreOneRootEach() throws {
    var files = [
      "Package.swift": """
      // swift-tools-version:5.9
      import PackageDescription
      let package = Package(
        name: "Two",
        targets: [.target(name: "Core"), .executableTarget(name: "AppA", dependencies: ["Core"]), .executableTarget(name: "AppB", dependencies: ["Core"])]
      )

      """,
      "Sources/Core/Store.swift": "public final class Store {\n  nonisolated(unsafe) public static let shared = Store()\n  public func bump() {}\n}\n",
      "Sources/Core/Screen.swift": "public final class Screen {\n  public init() {}\n  public func tap() { Store.shared.bump() }\n}\n",
    ]
    for program in ["A", "B"] {
      files["Sources/App\(program)/Main\(program).swift"] = "import Core\n\n@main\nstruct Main\(program) {\n  static func main() { Screen().tap() }\n}\n"
    }
    let project = makeProject(files)
    let store = try #require(project.index.singletons.first { $0.typeName == "Store" })
    let proposal = try CompositionRoots.proposedRoot(singleton: store, project: project)
    #expect(proposal.root == nil)
    #expect(proposal.perProgram == ["MainA", "MainB"])

    var one = files
    one["Package.swift"] = one["Package.swift"]!.replacingOccurrences(of: ".executableTarget(name: \"AppB\"", with: ".target(name: \"AppB\"")
    let single = makeProject(one)
    let library = try CompositionRoots.proposedRoot(singleton: try #require(single.index.singletons.first { $0.typeName == "Store" }), project: single)
    #expect(library.root == nil && library.perProgram.isEmpty, "one program has both: they stay candidates")
  }

  /// When no root reads the accessor, the candidates are the code's entry points; one in a
  /// program that cannot import the singleton's module is none (it could not hold the instance).
  @Test func anEntryPointThatCannotNameTheSingletonOwnsNoInstance() throws {
    var files = [
      "Package.swift": """
      // swift-tools-version:5.9
      import PackageDescription
      let package = Package(
        name: "Two",
        targets: [.target(name: "Core"), .executableTarget(name: "App", dependencies: ["Core"]), .executableTarget(name: "Tool")]
      )

      """,
      "Sources/Core/Store.swift": "public final class Store {\n  nonisolated(unsafe) public static let shared = Store()\n  public func bump() {}\n}\n",
      "Sources/Core/Screen.swift": "public final class Screen {\n  public init() {}\n  public func tap() { Store.shared.bump() }\n}\n",
      "Sources/App/Main.swift": "import Core\n\n@main\nstruct Main {\n  static func main() { Screen().tap() }\n}\n",
      "Sources/Tool/Tool.swift": "@main\nstruct Tool {\n  static func main() { print(1) }\n}\n",
    ]
    let store = { (project: Project) in try #require(project.index.singletons.first { $0.typeName == "Store" }) }
    let project = makeProject(files)
    let proposal = try CompositionRoots.proposedRoot(singleton: try store(project), project: project)
    #expect(proposal.root == "Main")
    #expect(proposal.candidates == ["Main"])

    // Once the tool depends on the core module, it can hold the instance: one root per program.
    files["Package.swift"] = files["Package.swift"]!.replacingOccurrences(
      of: ".executableTarget(name: \"Tool\")", with: ".executableTarget(name: \"Tool\", dependencies: [\"Core\"])")
    let both = makeProject(files)
    let again = try CompositionRoots.proposedRoot(singleton: try store(both), project: both)
    #expect(again.root == nil)
    #expect(again.perProgram == ["Main", "Tool"])
  }

  /// A consumer left out because injecting it would write the accessor more often than it uses it
  /// (`Favorites`, created twice by a factory enum, one use) is weighed again once the other
  /// consumers are planned: `Renderer`'s injection writes `Store.shared` into `Favorites` where it
  /// creates one, so `Favorites` then uses it as often as it would be written. One run injects both,
  /// and the second plans nothing.
  @Test func aConsumerLeftOutIsWeighedAgainstWhatTheOthersWriteIntoIt() throws {
    let files = [
      "Sources/App/Store.swift": Self.themeAndCountStore,
      "Sources/App/Renderer.swift": """
      @MainActor
      final class Renderer {
        let editing: Bool
        init(editing: Bool) { self.editing = editing }
        func draw() -> String { Store.shared.theme + "\\(Store.shared.count)" }
      }

      """,
      "Sources/App/Favorites.swift": """
      @MainActor
      final class Favorites {
        let title: String
        init(title: String) { self.title = title }
        func render() -> String { Renderer(editing: true).draw() + Store.shared.theme }
      }

      @MainActor
      enum Factory {
        static func first() -> Favorites { Favorites(title: "a") }
        static func second() -> Favorites { Favorites(title: "b") }
      }

      """,
    ]
    let (injected, report) = try extractAndInjectAll(files, slices: [Slice(name: "Theming", members: ["theme", "count"])])
    #expect(report.consumers.map(\.typeName).sorted() == ["Favorites", "Renderer"])
    #expect(report.skipped.isEmpty)
    #expect(report.before?.spreadRanges.count == 3)
    #expect(report.after?.spreadRanges.count == 2)
    let favorites = try #require(injected["Sources/App/Favorites.swift"])
    #expect(favorites.contains("Renderer(theming: theming, editing: true).draw() + theming.theme"))
    #expect(favorites.contains("Favorites(theming: Store.shared, title: \"a\")"))
  }

  /// A base class whose subclasses are made in a global variable's initial value (`var modules:
  /// [Module] = [Battery(), Clock()]`, made when first read): the subclasses are created by code
  /// outside tests, so none is a composition root, and injecting the base class would write the
  /// accessor into every subclass's `super.init` while removing its one use. It is left out with
  /// the reason, and the accessor is used no more than before.
  @Test func aBaseClassWhoseSubclassesAGlobalMakesIsNotSpreadIntoThem() throws {
    let files = [
      "Sources/App/Log.swift": """
      @MainActor
      final class Log {
        static let shared = Log()
        func copy(category: String) -> String { category }
      }

      """,
      "Sources/App/Module.swift": """
      @MainActor
      class Module {
        let log: String
        init(name: String) { self.log = Log.shared.copy(category: name) }
      }

      final class Battery: Module {
        init() { super.init(name: "battery") }
      }

      final class Clock: Module {
        init() { super.init(name: "clock") }
      }

      final class Disk: Module {
        init() { super.init(name: "disk") }
      }

      """,
      "Sources/App/Modules.swift": """
      @MainActor var modules: [Module] = [Battery(), Clock(), Disk()]

      """,
    ]
    let (injected, report) = try extractAndInjectAll(files, slices: [Slice(name: "Copying", members: ["copy"])])
    #expect(report.consumers.isEmpty)
    #expect(report.skipped.map(\.typeName) == ["Module"])
    #expect(report.skipped.first?.reason == .spreads)
    #expect(injected["Sources/App/Module.swift"] == files["Sources/App/Module.swift"])
    #expect(injected["Sources/App/Modules.swift"] == files["Sources/App/Modules.swift"])
    #expect((report.after?.total ?? 0) <= (report.before?.total ?? 0))
  }

  /// What a part left out would write is counted with the others left out at the time: `Row`,
  /// created twice in `Panel`, is left out while `Panel` is (it would write the accessor twice
  /// there); `Panel` is weighed in once `Cell`'s creations write the accessor into it, and `Row`,
  /// weighed afresh with `Panel` in, hands down what `Panel` holds. One run injects all three.
  @Test func aPartLeftOutIsWeighedAfreshOnceWhatItDependedOnIsIn() throws {
    let files = [
      "Sources/App/Store.swift": """
      @MainActor
      final class Store {
        static let shared = Store()
        var theme = "dark"
      }

      """,
      "Sources/App/Panel.swift": """
      @MainActor
      final class Row {
        func draw() -> String { Store.shared.theme }
      }

      @MainActor
      final class Cell {
        func draw() -> String { Store.shared.theme + Store.shared.theme + Store.shared.theme }
      }

      @MainActor
      final class Panel {
        func draw() -> String {
          Row().draw() + Row().draw() + Cell().draw() + Cell().draw() + Store.shared.theme
        }
      }

      @MainActor var panels = [Panel(), Panel()]

      """,
    ]
    let (injected, report) = try extractAndInjectAll(files, slices: [Slice(name: "Theming", members: ["theme"])])
    #expect(report.consumers.map(\.typeName).sorted() == ["Cell", "Panel", "Row"])
    let panel = try #require(injected["Sources/App/Panel.swift"])
    #expect(panel.contains("Row(theming: theming).draw() + Row(theming: theming).draw()"))
    #expect((report.after?.total ?? 0) <= (report.before?.total ?? 0))
  }

  /// Parts left out that weigh in are planned in together; when that plan uses the accessor more
  /// (what one of them writes where it is created grew since it was left out: `Wizard` is made in
  /// `Steps`, left out since, as well as in a global), each is planned in alone, and only those
  /// that keep the count are taken. `Page` alone moves its one use to the global that makes it; had
  /// it been dropped with `Wizard`, the second run would have injected it.
  @Test func partsThatWeighInTogetherButSpreadAreTriedOneByOne() throws {
    let files = [
      "Sources/App/Store.swift": Self.themeAndCountStore,
      "Sources/App/Screens.swift": """
      @MainActor
      final class Form {
        func draw() -> String { Store.shared.theme + Store.shared.theme + "\\(Store.shared.count)" }
      }

      @MainActor
      final class Wizard {
        func draw() -> String { Form().draw() }
      }

      @MainActor
      final class Steps {
        func draw() -> String { Wizard().draw() }
      }

      @MainActor
      final class Label {
        func draw() -> String { Store.shared.theme + Store.shared.theme }
      }

      @MainActor
      final class Page {
        func draw() -> String { Label().draw() }
      }

      @MainActor var wizards = [Wizard()]
      @MainActor var steps = [Steps(), Steps(), Steps()]
      @MainActor var pages = [Page()]

      """,
    ]
    let (injected, report) = try extractAndInjectAll(
      files, slices: [Slice(name: "Theming", members: ["theme"]), Slice(name: "Counting", members: ["count"])])
    #expect(report.consumers.map(\.typeName).sorted() == ["Form", "Label", "Page"])
    #expect(report.skipped.map(\.typeName) == ["Wizard"])
    let screens = try #require(injected["Sources/App/Screens.swift"])
    #expect(screens.contains("@MainActor var pages = [Page(theming: Store.shared)]"))
    #expect((report.after?.spreadRanges.count ?? 0) <= (report.before?.spreadRanges.count ?? 0))
  }

  /// A part still out once nothing else weighs in is planned in alone, as a second run would weigh
  /// it; when that grows the count only because its creator would take a protocol to hand down
  /// (`Main` would take `Deciding` for `Provider`, and pay for it at both places a global makes
  /// it), the creation passes the accessor instead, as it would for a creator that is no
  /// consumer. `Main` and `Provider` both go in; before, the parts that only pay off alone were
  /// all left out.
  @Test func aCreatorPassesTheAccessorForWhatItWouldOnlyHandDown() throws {
    let files = [
      "Sources/App/Store.swift": """
      @MainActor
      final class Store {
        static let shared = Store()
        var decider = true
        var other = 0
        var debug = ""
      }

      """,
      "Sources/App/Screens.swift": """
      @MainActor
      final class Debug {
        let flag: Bool
        init(flag: Bool) { self.flag = flag }
        func show() -> String { Store.shared.debug + Store.shared.debug }
      }

      @MainActor
      final class Provider {
        func make() -> String { Debug(flag: Store.shared.decider).show() }
      }

      @MainActor
      final class Main {
        func run() -> Int { Store.shared.other + Store.shared.other + Store.shared.other }
        func settings() -> String { Provider().make() }
      }

      @MainActor var mains = [Main(), Main()]
      @MainActor var debugs = [Debug(flag: true), Debug(flag: false), Debug(flag: true)]

      """,
    ]
    let slices = [
      Slice(name: "Deciding", members: ["decider"]), Slice(name: "Othering", members: ["other"]),
      Slice(name: "Debugging", members: ["debug"]),
    ]
    let (injected, report) = try extractAndInjectAll(files, slices: slices)
    #expect(report.consumers.map(\.typeName).sorted() == ["Main", "Provider"])
    #expect(report.skipped.map(\.typeName) == ["Debug"])
    let screens = try #require(injected["Sources/App/Screens.swift"])
    #expect(screens.contains("func settings() -> String { Provider(deciding: Store.shared).make() }"))
    #expect(screens.contains("@MainActor var mains = [Main(othering: Store.shared), Main(othering: Store.shared)]"))
    #expect(report.before?.outsideRootsAndTests == 6)
    #expect(report.after?.outsideRootsAndTests == 5)
  }

  /// A part that grows the count alone only because a creator left out writes the accessor where
  /// it makes it (`Legacy` making `Debug()`, while `Debug`'s coder init pays one use) is planned in
  /// together with that creator, which then takes the protocol from `Main` to hand it down, as a
  /// second run would plan them; before, the first run left both out and the second took them in.
  @Test func aPartIsTriedWithTheCreatorsItWroteTheAccessorInto() throws {
    let files = [
      "Sources/App/Store.swift": """
      final class Store {
        nonisolated(unsafe) static let shared = Store()
        var flag = false
        var count = 0
      }

      """,
      "Sources/App/Screens.swift": """
      import Foundation

      class Screen {
        init() {}
        required init?(coder: NSCoder) {}
      }

      final class Debug: Screen {
        override init() { super.init() }
        required init?(coder: NSCoder) { super.init(coder: coder) }
        func decide() -> Bool { Store.shared.flag }
      }

      final class Legacy {
        func debug() -> Debug { Debug() }
      }

      final class Main {
        func number() -> Int { Store.shared.count }
        func decide() -> Bool { Store.shared.flag }
        func settings() -> Legacy { Legacy() }
        func debug() -> Debug { Debug() }
      }

      final class Coordinator {
        func start() -> Main { Main() }
        func again() -> Main { Main() }
        func number() -> Int { Store.shared.count }
      }

      func makeCoordinator() -> Coordinator { Coordinator() }

      """,
    ]
    let slices = [Slice(name: "Deciding", members: ["flag"]), Slice(name: "Othering", members: ["count"])]
    let (injected, report) = try extractAndInjectAll(files, slices: slices)
    #expect(report.consumers.map(\.typeName).sorted() == ["Coordinator", "Debug", "Legacy", "Main"])
    let screens = try #require(injected["Sources/App/Screens.swift"])
    #expect(screens.contains("func debug() -> Debug { Debug(deciding: deciding) }"))
    #expect(report.before?.outsideRootsAndTests == 4)
    #expect(report.after?.outsideRootsAndTests == 3)
  }

  /// A creation that reaches a required init keeping its signature (one its superclass declares)
  /// passes nothing, so its creator needs nothing for it: the creator is injected for its own uses
  /// in the first run. It took what the created type needed, wrote the accessor for each into its
  /// own required init, was left out as growing the count, and the second run injected it.
  /// Found by the generated programs (FuzzGeneratedTests).
  @Test func aCreationThroughAKeptRequiredInitHandsNothingDown() throws {
    let files = [
      "Sources/App/Store.swift": """
      final class Store {
        nonisolated(unsafe) static let shared = Store()
        var flag = false
        var count = 0
        var name = ""
      }

      """,
      "Sources/App/Screens.swift": """
      class Base {
        required init() {}
      }

      final class Outer: Base {
        required init() { super.init() }
        func decide() -> Bool { Store.shared.flag && Inner().number() > 0 }
      }

      final class Inner: Base {
        required init() { super.init() }
        func number() -> Int { Store.shared.count + Store.shared.name.count }
      }

      final class Root {
        func start() -> Bool { Outer().decide() }
      }

      """,
    ]
    let slices = [
      Slice(name: "Deciding", members: ["flag"]), Slice(name: "Counting", members: ["count"]),
      Slice(name: "Naming", members: ["name"]),
    ]
    let (injected, report) = try extractAndInjectAll(files, slices: slices)
    #expect(report.consumers.map(\.typeName).sorted() == ["Inner", "Outer"])
    let screens = try #require(injected["Sources/App/Screens.swift"])
    #expect(screens.contains("private let deciding: Deciding\n\n  required init() {\n    self.deciding = Store.shared\n"))
    #expect(!screens.contains("private let counting: Counting\n\n  required init() { super.init() }\n  func decide"))
  }

  /// A static factory method (`enum Screens { static func list() -> List }`) cannot hold injected
  /// properties: it takes what the consumers it creates need as parameters, first in its list, and
  /// each call passes them, from the caller's own properties (a caller that is no consumer becomes
  /// one, as any creator does), or the accessor where the caller is a composition root or a test.
  /// A method whose name is also used other than by calling it (`let make = Screens.list`) is left
  /// as it is, and its creations keep passing the accessor.
  @Test func aFactoryMethodTakesWhatTheConsumersItCreatesNeed() throws {
    let files = [
      "Sources/App/Store.swift": Self.themeAndCountStore,
      "Sources/App/Screens.swift": """
      @MainActor
      final class List {
        let title: String
        init(title: String) { self.title = title }
        func render() -> String { title + Store.shared.theme }
      }

      @MainActor
      final class Badge {
        func render() -> String { "\\(Store.shared.count)" }
      }

      @MainActor
      enum Screens {
        static func list(_ title: String) -> List { List(title: title) }
        static func pair() -> (List, Badge) { (Self.list("b"), Badge()) }
        static func badge() -> Badge { Badge() }
      }

      @MainActor
      enum Badges {
        static let make = Screens.badge
      }

      """,
      "Sources/App/Coordinator.swift": """
      @MainActor
      final class Coordinator {
        func start() -> String {
          let (list, badge) = Screens.pair()
          return Screens.list("a").render() + list.render() + badge.render()
        }
      }

      @MainActor
      final class AppRoot {
        func run() -> String { Coordinator().start() + Badges.make().render() }
      }

      """,
      "Tests/AppTests/ScreensTests.swift": """
      @MainActor
      func testList() { _ = Screens.list("t").render() }

      """,
    ]
    let (injected, report) = try extractAndInjectAll(files, slices: [Slice(name: "Theming", members: ["theme", "count"])])
    #expect(report.consumers.map(\.typeName).sorted() == ["Badge", "Coordinator", "List"])
    let screens = try #require(injected["Sources/App/Screens.swift"])
    #expect(screens.contains("static func list(theming: Theming, _ title: String) -> List { List(theming: theming, title: title) }"))
    #expect(screens.contains("static func pair(theming: Theming) -> (List, Badge) { (Self.list(theming: theming, \"b\"), Badge(theming: theming)) }"))
    // Its name is used as a value: it keeps passing the accessor.
    #expect(screens.contains("static func badge() -> Badge { Badge(theming: Store.shared) }"))
    let coordinator = try #require(injected["Sources/App/Coordinator.swift"])
    #expect(coordinator.contains("let (list, badge) = Screens.pair(theming: theming)"))
    #expect(coordinator.contains("return Screens.list(theming: theming, \"a\").render()"))
    #expect(coordinator.contains("Coordinator(theming: Store.shared).start()"))
    #expect(try #require(injected["Tests/AppTests/ScreensTests.swift"]).contains("Screens.list(theming: Store.shared, \"t\")"))
    #expect(report.after?.spreadRanges.count == 1)
  }

  /// A factory method's name reached other than as `Type.method()` or bare in the type's static
  /// code leaves the method as it is: a subclass's or a nested type's static code calling it bare,
  /// `type(of: self).make()`, `Factory.self.make()`, or a parameter of that name in the type's
  /// static code (where the bare name is the parameter). Its creations keep passing the accessor.
  @Test func aFactoryMethodReachedOtherwiseIsLeftAsItIs() throws {
    let files = [
      "Sources/App/Store.swift": """
      @MainActor
      final class Store {
        static let shared = Store()
        var theme = "dark"
      }

      @MainActor
      final class List {
        func render() -> String { Store.shared.theme + a() + b() + c() + d() + e() }
        func a() -> String { Store.shared.theme }
        func b() -> String { Store.shared.theme }
        func c() -> String { Store.shared.theme }
        func d() -> String { Store.shared.theme }
        func e() -> String { Store.shared.theme }
      }

      """,
      "Sources/App/Factories.swift": """
      @MainActor
      class BaseFactory {
        static func inherited() -> List { List() }
      }

      @MainActor
      final class SubFactory: BaseFactory {
        static func build() -> List { inherited() }
      }

      @MainActor
      enum Outer {
        static func nested() -> List { List() }
        @MainActor
        enum Inner {
          static func build() -> List { nested() }
        }
      }

      @MainActor
      struct Builder {
        static func dynamic() -> List { List() }
        func build() -> List { type(of: self).dynamic() }
      }

      @MainActor
      enum Other {
        static func dynamic() -> Int { 1 }
        static func viaSelf() -> List { Shadow.viaSelf() }
      }

      @MainActor
      enum Shadow {
        static func viaSelf() -> List { List() }
        static func build(viaSelf: () -> List) -> List { viaSelf() }
      }

      """,
      "Sources/App/Coordinator.swift": """
      @MainActor
      final class Coordinator {
        func start() -> String {
          BaseFactory.inherited().render() + Outer.nested().render() + Builder.dynamic().render()
            + Shadow.viaSelf().render() + "\\(Other.dynamic())"
        }
      }

      @MainActor
      final class AppRoot {
        func run() -> String { Coordinator().start() + SubFactory.build().render() + Outer.Inner.build().render() }
      }

      """,
    ]
    let (injected, _) = try extractAndInjectAll(files, slices: [Slice(name: "Theming", members: ["theme"])])
    let factories = try #require(injected["Sources/App/Factories.swift"])
    for method in ["inherited", "nested", "dynamic", "viaSelf"] {
      #expect(factories.contains("static func \(method)() -> List { List(theming: Store.shared) }"), "\(method)")
    }
  }

  /// A creator that already holds a strict singleton's instance (`let store: Store`, received
  /// through its init) passes what it holds to the consumers it creates, and gains no parameter of
  /// its own; nothing else could hold another instance.
  @Test func aCreatorHoldingTheInstancePassesIt() throws {
    let files = [
      "Sources/App/Store.swift": """
      @MainActor
      final class Store {
        static let shared = Store()
        private init() {}
        var theme = "dark"
      }

      """,
      "Sources/App/Screen.swift": """
      @MainActor
      final class Screen {
        init() {}
        func title() -> String { Store.shared.theme }
      }

      """,
      "Sources/App/Coordinator.swift": """
      @MainActor
      final class Coordinator {
        let store: Store
        init(store: Store) { self.store = store }
        func start() -> String { Screen().title() + store.theme }
      }

      @MainActor
      final class AppRoot {
        func run() -> String { Coordinator(store: .shared).start() }
      }

      """,
    ]
    #expect(try #require(makeProject(files).index.singletons.first).isStrict)
    let (injected, report) = try extractAndInjectAll(files, slices: [Slice(name: "Theming", members: ["theme"])])
    #expect(report.consumers.map(\.typeName) == ["Screen"])
    #expect(report.after?.spreadRanges.count == 0)
    let coordinator = try #require(injected["Sources/App/Coordinator.swift"])
    #expect(coordinator.contains("func start() -> String { Screen(theming: store).title() + store.theme }"))
    #expect(coordinator.contains("init(store: Store) { self.store = store }"))
    #expect(coordinator.contains("Coordinator(store: .shared).start()"))
  }

  /// Extracts `slices` and runs `inject --all` as the command does (planned again without what
  /// would spread the accessor); the files it writes type-check and a second run plans nothing.
  /// A root that only top-level code creates (`main.swift`) and that calls a factory passes the
  /// accessor to the factory's new parameter. The next run reads that argument as it reads one
  /// passed to an init: the root stays a root, not a consumer that "passes the instance itself"
  /// (which `--strict` refuses).
  @Test func aRootCallingAFactoryIsStillARootOnTheNextRun() throws {
    let files = [
      "Sources/App/Store.swift": """
      @MainActor
      final class Store {
        static let shared = Store()
        var count = 0
        func bump() { count += 1 }
      }

      """,
      "Sources/App/Screen.swift": """
      @MainActor
      final class Screen {
        func render() -> String {
          Store.shared.bump()
          return "\\(Store.shared.count)"
        }
      }

      @MainActor
      enum ScreenFactory {
        static func make() -> Screen { Screen() }
      }

      @MainActor
      final class Coordinator {
        func start() -> String { ScreenFactory.make().render() }
      }

      """,
      "Sources/App/main.swift": """
      let coordinator = Coordinator()
      print(coordinator.start())

      """,
    ]
    let (injected, _) = try extractAndInjectAll(files, slices: [Slice(name: "Counting", members: ["count", "bump"])])
    #expect(injected["Sources/App/Screen.swift"]?.contains("ScreenFactory.make(counting: Store.shared).render()") == true)
    let project = makeProject(injected)
    let second = try InjectPlanner.run(
      singleton: try #require(project.index.singletons.first), options: InjectOptions(), project: project)
    #expect(second.plan.isEmpty)
    #expect(second.report.skipped.map(\.typeName) == [])
    #expect(throws: Never.self) {
      _ = try InjectPlanner.run(
        singleton: try #require(project.index.singletons.first), options: InjectOptions(strict: true), project: project)
    }
  }

  /// A consumer created through type aliases (`W()`, `let v: V = .init()`, `V.init()`, an alias of
  /// an alias) is created there: each creation passes the slice (here from the root, `Screen`,
  /// which nothing creates), and the result type-checks.
  @Test func creationsThroughTypeAliasesPassTheSlice() throws {
    let files = [
      "Sources/App/Store.swift": Self.themeAndCountStore,
      "Sources/App/Widget.swift": """
      @MainActor
      final class Widget {
        func paint() -> String { Store.shared.theme }
      }
      typealias W = Widget
      typealias V = W

      """,
      "Sources/App/Screen.swift": """
      @MainActor
      final class Screen {
        let first = W()
        let second: V = .init()
        let third = V.init()
        func title() -> String { first.paint() + second.paint() + third.paint() }
      }

      """,
    ]
    let (injected, report) = try extractAndInjectAll(files, slices: [Slice(name: "Theming", members: ["theme"])])
    #expect(report.consumers.map(\.typeName) == ["Widget"])
    #expect(report.skipped.isEmpty)
    let screen = try #require(injected["Sources/App/Screen.swift"])
    for creation in ["= W(theming: Store.shared)", "V = .init(theming: Store.shared)", "= V.init(theming: Store.shared)"] {
      #expect(screen.contains(creation), "\(creation)")
    }
  }

  /// A singleton with a theme and a count, as several cases here need it.
  static let themeAndCountStore = """
    @MainActor
    final class Store {
      static let shared = Store()
      var theme = "dark"
      var count = 0
    }

    """

  func extractAndInjectAll(
    _ files: [String: String], slices: [Slice], sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> (files: [String: String], report: InjectReport) {
    let original = makeProject(files)
    let store = try #require(original.index.singletons.first, sourceLocation: sourceLocation)
    let extracted = try apply(
      ExtractProtocolPlanner.plan(singleton: store, options: ExtractProtocolOptions(slices: slices), project: original), to: original,
      files: files)
    func injectAll(_ files: [String: String]) throws -> (plan: Plan, report: InjectReport) {
      let project = makeProject(files)
      let (plan, report) = try InjectPlanner.run(
        singleton: try #require(project.index.singletons.first, sourceLocation: sourceLocation), options: InjectOptions(), project: project
      ) { plan in makeProject(try apply(plan, to: project, files: files)) }
      return (plan, report)
    }
    let (plan, report) = try injectAll(extracted)
    let injected = try apply(plan, to: makeProject(extracted), files: extracted)
    let errors = try compileErrors(injected)
    #expect(errors == "", sourceLocation: sourceLocation)
    #expect(try injectAll(injected).plan.isEmpty, "a second run plans more", sourceLocation: sourceLocation)
    return (injected, report)
  }

  /// A type that already takes the instance (`init(store: Store = .shared)`, kept in a stored
  /// property) is half-injected: scan counts the members it uses through the property, `inject
  /// --all` retypes the parameter and the property to the slices it uses (`A & B` when no one slice
  /// covers them), drops the default and has every creation that left it out pass the value; a
  /// creator then holds those slices together. A second run plans nothing, and `finish` succeeds.
  @Test func halfInjectedInitsAreRetypedAndHandedDown() throws {
    var files = [
      "Sources/App/Store.swift": """
      @MainActor
      public final class Store {
        public static let shared = Store()
        var items: [String] = []
        func add(_ s: String) { items.append(s) }
        func count() -> Int { items.count }
        func reset() { items = [] }
      }

      """,
      "Sources/App/Screen.swift": """
      @MainActor
      final class Screen {
        let title: String
        private let store: Store
        let flag: Bool
        init(title: String, store: Store = .shared, flag: Bool = false) {
          self.title = title
          self.store = store
          self.flag = flag
        }
        convenience init() {
          self.init(title: "none")
        }
        func tap() { store.add("x") }
        func total() -> Int { self.store.count() }
        func clear() { Store.shared.reset() }
      }

      @MainActor
      struct Card {
        var store: Store
        init(store: Store = Store.shared) { self.store = store }
        func n() -> Int { store.count() }
      }

      """,
      "Sources/App/Flow.swift": """
      @MainActor
      final class Flow {
        let card = Card()
        func start() -> Int {
          Screen(title: "a").total() + Screen(title: "b", flag: true).total() + Screen().total()
            + Screen(title: "c", store: Store(), flag: true).total()
        }
      }

      @MainActor
      final class AppRoot {
        let flow = Flow()
      }

      """,
    ]
    let original = makeProject(files)
    let store = try #require(original.index.singletons.first)
    let analysis = try SingletonAnalysis(singleton: store, project: original)
    #expect(analysis.consumers.first { $0.typeName == "Screen" }?.members == ["add", "count", "reset"])
    #expect(analysis.consumers.first { $0.typeName == "Card" }?.members == ["count"])
    #expect(analysis.consumers.allSatisfy { $0.instanceUses.isEmpty })
    let slices = [Slice(name: "CurrentItems", members: ["items", "add", "reset"]), Slice(name: "CountService", members: ["count"])]
    files = try apply(
      ExtractProtocolPlanner.plan(singleton: store, options: ExtractProtocolOptions(slices: slices), project: original), to: original,
      files: files)
    let extracted = makeProject(files)
    let (plan, report) = try InjectPlanner.run(
      singleton: try #require(extracted.index.singletons.first), options: InjectOptions(), project: extracted
    ) { plan in makeProject(try apply(plan, to: extracted, files: files)) }
    #expect(report.skipped.isEmpty)
    files = try apply(plan, to: extracted, files: files)
    let screen = try #require(files["Sources/App/Screen.swift"])
    #expect(screen.contains("private let store: CurrentItems & CountService"))
    #expect(screen.contains("init(title: String, store: CurrentItems & CountService, flag: Bool = false)"))
    #expect(screen.contains("convenience init(store: CurrentItems & CountService) {\n    self.init(title: \"none\", store: store)"))
    #expect(screen.contains("func clear() { store.reset() }"))
    #expect(screen.contains("var store: CountService\n  init(store: CountService) { self.store = store }"))
    let flow = try #require(files["Sources/App/Flow.swift"])
    #expect(flow.contains("Screen(title: \"b\", store: store, flag: true)"))
    #expect(flow.contains("Screen(title: \"c\", store: Store(), flag: true)"))
    #expect(flow.contains("Screen(store: store)"))
    #expect(flow.contains("private let store: CurrentItems & CountService"))
    #expect(flow.contains("Flow(store: Store.shared)"))
    let errors = try compileErrors(files)
    #expect(errors == "")

    let injected = makeProject(files)
    let target = try #require(injected.index.singletons.first)
    let (again, _) = try InjectPlanner.run(singleton: target, options: InjectOptions(), project: injected) { plan in
      makeProject(try apply(plan, to: injected, files: files))
    }
    #expect(again.isEmpty)
    let finished = try apply(
      FinishPlanner.plan(singleton: target, options: FinishOptions(root: "AppRoot"), project: injected), to: injected, files: files)
    #expect(finished["Sources/App/Store.swift"]?.contains("static let shared") == false)
    let finishedErrors = try compileErrors(finished)
    #expect(finishedErrors == "")
  }

  /// With `--default-argument` the held parameter keeps its default: only the types change, and
  /// no call site does; a later run without it takes the default away.
  @Test func halfInjectedInitsKeepTheirDefaultWithDefaultArgument() throws {
    var files = [
      "Sources/App/Store.swift": """
      @MainActor
      final class Store {
        static let shared = Store()
        func count() -> Int { 0 }
      }

      """,
      "Sources/App/Screen.swift": """
      @MainActor
      final class Screen {
        let store: Store
        init(store: Store = Store.shared) { self.store = store }
        func total() -> Int { store.count() }
      }

      @MainActor
      final class Flow {
        func start() -> Int { Screen().total() }
      }

      """,
    ]
    let original = makeProject(files)
    let store = try #require(original.index.singletons.first)
    files = try apply(
      ExtractProtocolPlanner.plan(
        singleton: store, options: ExtractProtocolOptions(slices: [Slice(name: "Counting", members: ["count"])]), project: original),
      to: original, files: files)
    let extracted = makeProject(files)
    var options = InjectOptions()
    options.defaultArgument = true
    let (plan, _) = try InjectPlanner.run(
      singleton: try #require(extracted.index.singletons.first), options: options, project: extracted
    ) { plan in makeProject(try apply(plan, to: extracted, files: files)) }
    files = try apply(plan, to: extracted, files: files)
    let screen = try #require(files["Sources/App/Screen.swift"])
    #expect(screen.contains("let store: Counting\n  init(store: Counting = Store.shared) { self.store = store }"))
    #expect(screen.contains("func start() -> Int { Screen().total() }"))
    let errors = try compileErrors(files)
    #expect(errors == "")

    // Without `--default-argument` the default goes, the creation passes the value, and `finish`
    // has nothing left but the root: the way out of a `--default-argument` migration.
    let defaulted = makeProject(files)
    let target = try #require(defaulted.index.singletons.first)
    let (again, _) = try InjectPlanner.run(singleton: target, options: options, project: defaulted) { plan in
      makeProject(try apply(plan, to: defaulted, files: files))
    }
    #expect(again.isEmpty)
    let (plain, _) = try InjectPlanner.run(singleton: target, options: InjectOptions(), project: defaulted) { plan in
      makeProject(try apply(plan, to: defaulted, files: files))
    }
    files = try apply(plain, to: defaulted, files: files)
    let rewritten = try #require(files["Sources/App/Screen.swift"])
    #expect(rewritten.contains("let store: Counting\n  init(store: Counting) { self.store = store }"))
    #expect(rewritten.contains("func start() -> Int { Screen(store: Store.shared).total() }"))
    let plainErrors = try compileErrors(files)
    #expect(plainErrors == "")
    let injected = makeProject(files)
    let (third, _) = try InjectPlanner.run(singleton: try #require(injected.index.singletons.first), options: InjectOptions(), project: injected) { plan in
      makeProject(try apply(plan, to: injected, files: files))
    }
    #expect(third.isEmpty)
  }

  /// Every Swift file of a sample, by its path inside the sample.
  static func sources(of sample: String) throws -> [String: String] {
    let root = packageRoot + "/Samples/" + sample
    var files: [String: String] = [:]
    let enumerator = FileManager.default.enumerator(atPath: root)
    while let path = enumerator?.nextObject() as? String {
      if path.hasPrefix(".build") { enumerator?.skipDescendants(); continue }
      guard path.hasSuffix(".swift") else { continue }
      files[path] = try String(contentsOfFile: root + "/" + path, encoding: .utf8)
    }
    return files
  }
}
