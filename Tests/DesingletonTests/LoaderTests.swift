import DesingletonCore
import DesingletonIndex
import DesingletonPlanner
import DesingletonPrinter
import Foundation
import Testing

/// The one loader: a command about one singleton parses the files naming it, then what its
/// questions need, and plans what the whole tree plans. Each test writes its files to a folder,
/// plans through `ProjectLoader` both ways (from the singleton's name, and with every file parsed),
/// requires the two plans to be equal, and type-checks the result.
@Suite struct LoaderTests {
  /// The files after `planner`'s plan, planned from the files naming `singleton`; the plan with every
  /// file parsed must write the same.
  func planned(
    _ files: [String: String], singleton name: String, targets: [ModuleMap.Target]? = nil,
    sourceLocation: SourceLocation = #_sourceLocation, _ planner: (Singleton, Project) throws -> Plan
  ) throws -> (files: [String: String], plan: Plan, parsed: Int) {
    let directory = try PrinterTestSupport.makeTemporaryDirectory()
    defer { PrinterTestSupport.removeDirectory(directory) }
    for (path, text) in files {
      let url = URL(fileURLWithPath: directory + "/" + path)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try text.write(to: url, atomically: true, encoding: .utf8)
    }
    let paths = files.keys.sorted().map { directory + "/" + $0 }
    let manifests = paths.filter { $0.hasSuffix("/Package.swift") }.compactMap { try? FileLoader.read($0) }
    func outputs(full: Bool) throws -> (texts: [String: String], plan: Plan, parsed: Int) {
      let loader = ProjectLoader(
        paths: paths, builder: IndexBuilder(threads: 2), mentioning: [name], full: full, objectiveCPaths: [],
        modules: targets.map { targets in
          // The targets' files as the loader's paths spell them.
          ModuleMap(targets: targets.map { target in
            var target = target
            target.files = target.files.map { Set($0.map { directory + "/" + $0 }) }
            return target
          })
        } ?? ModuleMap(manifests: manifests),
        // Unbounded: what is parsed depends only on the code, never on how long runs took.
        bounded: false,
        // As `inject` and `finish` load: the first phase's trees are the planners'.
        readsNamingFiles: !full)
      let plan = try loader.run { project in
        let singleton = try #require(project.index.singletons.first { $0.simpleTypeName == name }, sourceLocation: sourceLocation)
        return try planner(singleton, project)
      }
      let project = loader.project
      let rendered = try Printer(root: directory).render(
        plan, sources: project.sources(of: Array(plan.edits.keys) + Array(plan.newFiles.keys)))
      // Every import the plan adds names a module the project or the toolchain has.
      let imports = WrittenImports.problems(
        rendered.map { WrittenImports.File(path: $0.path, original: $0.original?.text, new: String(decoding: $0.new, as: UTF8.self)) },
        companions: plan.companions, project: project)
      #expect(imports.isEmpty, "\(imports)", sourceLocation: sourceLocation)
      var texts = files
      for output in rendered {
        texts[String(output.path.dropFirst(directory.count + 1))] = String(decoding: output.new, as: UTF8.self)
      }
      return (texts, plan, loader.parsedFiles)
    }
    let phased = try outputs(full: false)
    let whole = try outputs(full: true)
    #expect(phased.texts == whole.texts, "the plan from the singleton's files and the whole tree's", sourceLocation: sourceLocation)
    #expect(phased.plan.notes == whole.plan.notes, sourceLocation: sourceLocation)
    return (phased.texts, phased.plan, phased.parsed)
  }

  func extract(_ slices: [Slice]? = nil) -> (Singleton, Project) throws -> Plan {
    { try ExtractProtocolPlanner.run(singleton: $0, options: ExtractProtocolOptions(slices: slices), project: $1).plan }
  }

  func injectAll(_ singleton: Singleton, _ project: Project) throws -> Plan {
    try InjectPlanner.run(singleton: singleton, options: InjectOptions(), project: project).plan
  }

  /// A write seen only in a file that never names the singleton: `addItem` is a `mutating func` of
  /// `Cart`, declared where `Store` is not written. The property's requirement must be settable.
  @Test func aMutatingMethodDeclaredInAFileNotNamingTheSingleton() throws {
    let files = [
      "Cart.swift": """
        struct Cart {
          private(set) var items: [String] = []
          mutating func addItem(_ s: String) { items.append(s) }
        }
        """,
      "Store.swift": """
        final class Store {
          nonisolated(unsafe) static let shared = Store()
          var cart = Cart()
        }
        """,
      "Shop.swift": """
        final class Shop {
          func buy() { Store.shared.cart.addItem("apple") }
        }
        """,
    ]
    let extracted = try planned(files, singleton: "Store", extract([Slice(name: "CartHolder", members: ["cart"])]))
    #expect(extracted.files["CartHolder.swift"]?.contains("var cart: Cart { get set }") == true)
    let injected = try planned(extracted.files, singleton: "Store", injectAll)
    #expect(injected.files["Shop.swift"] != files["Shop.swift"])
    let errors = try compileErrors(injected.files)
    #expect(errors == "")
  }

  /// A slice's name that string literals say (`return "Refreshing"`, a state's title in many
  /// files): the question of which types hold a slice parses the files whose code names it, not
  /// every file whose text has the word (on a generated 1M-line app, 1,674 files and the members
  /// of each of their types).
  @Test func aSliceNameOnlyStringsSayParsesNoFile() throws {
    var files = [
      "Store.swift": """
        final class Store {
          nonisolated(unsafe) static let shared = Store()
          func refresh() {}
        }
        """,
      "Feed.swift": """
        final class Feed {
          func reload() { Store.shared.refresh() }
        }
        """,
    ]
    for number in 1...5 {
      files["State\(number).swift"] = """
        enum State\(number) {
          case idle, busy
          var title: String {
            switch self {
            case .idle: return "Idle"
            case .busy: return "Refreshing"
            }
          }
        }
        """
    }
    let extracted = try planned(files, singleton: "Store", extract([Slice(name: "Refreshing", members: ["refresh"])]))
    let injected = try planned(extracted.files, singleton: "Store", injectAll)
    #expect(injected.files["Feed.swift"] != extracted.files["Feed.swift"], "\(injected.files["Feed.swift"] ?? "")")
    #expect(injected.parsed <= extracted.files.count - 5, "parsed \(injected.parsed) of \(extracted.files.count) files")
    #expect(try compileErrors(injected.files) == "")
  }

  /// The files that can reference an accessor without naming its type: an implicit member, where
  /// no expression stands before the dot. Each answer is "maybe" for every such file.
  @Test(arguments: [
    ("show(.shared)", true), ("let s: Store = .shared", true), ("return .shared", true), ("case .shared: break", true),
    ("x == .shared", true), ("find() ?? .shared", true), ("a! .shared", true), ("[.shared]", true), ("show(\n  // the one instance\n  .shared)", true), ("show(/* it */ .shared)", true),
    ("// see Store.shared", false),
    ("Store.shared", false), ("make().shared", false), ("store?.shared", false), ("list[0].shared", false),
    ("Store\n  .shared", false), ("isShared", false), ("static let shared = Store()", false),
  ])
  func implicitMemberSites(_ text: String, _ expected: Bool) {
    #expect(BytePrefilter.canReferenceImplicitly([Array("shared".utf8)], in: Array(text.utf8)) == expected, "\(text)")
  }

  /// An implicit `.shared` in a file that never names the singleton is one of its references: the
  /// loader parses the files that can hold one, and the two loads count the same references.
  @Test func anImplicitMemberInAFileNotNamingTheSingleton() throws {
    let directory = try PrinterTestSupport.makeTemporaryDirectory()
    defer { PrinterTestSupport.removeDirectory(directory) }
    let files = [
      "Store.swift": "final class Store {\n  nonisolated(unsafe) static let shared = Store()\n  var count = 0\n}\nfunc show(_ store: Store) -> Int { store.count }\n",
      "Screen.swift": "struct Screen {\n  func body() -> Int { show(.shared) }\n}\n",
      "Other.swift": "struct Other {\n  let name = \"shared\"\n}\n",
    ]
    for (name, text) in files { try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8) }
    let paths = files.keys.sorted().map { directory + "/" + $0 }
    func references(full: Bool) throws -> (count: Int, parsed: Int) {
      let loader = storeLoader(paths, full: full)
      let count = try loader.run { project in
        let store = try #require(project.index.singletons.first)
        return project.index.references(to: store).count
      }
      return (count, loader.parsedFiles)
    }
    let phased = try references(full: false)
    let whole = try references(full: true)
    #expect(phased.count == whole.count)
    #expect(phased.count == 1)
    // Other.swift holds the letters, never an implicit member: it is not parsed.
    #expect(phased.parsed == 2 && whole.parsed == 3, "\(phased) \(whole)")
  }

  /// A generic parameter named like a private class of another file is the parameter: that class
  /// is out of sight of the singleton's file, and the method can be a requirement (Quick's
  /// `itBehavesLike<C>` beside a test's `private class C`, read now that the whole tree answers).
  @Test func aGenericParameterIsNoPrivateTypeOfAnotherFile() throws {
    let files = [
      "World.swift": """
        final class World {
          nonisolated(unsafe) static let shared = World()
          var count = 0
          func run<C>(_ make: () -> C) -> C { count += 1; return make() }
        }
        """,
      "Spec.swift": """
        final class Spec {
          func check() -> Int { World.shared.run { 1 } + World.shared.count }
        }
        """,
      "Classes.swift": """
        private class B {}
        private class C: B {}
        """,
    ]
    let extracted = try planned(files, singleton: "World", extract([Slice(name: "Running", members: ["run", "count"])]))
    #expect(extracted.files["Running.swift"]?.contains("func run<C>(_ make: () -> C) -> C") == true)
    let errors = try compileErrors(extracted.files)
    #expect(errors == "")
  }

  /// A new protocol file imports the project module whose type it names, although that type's file
  /// never names the singleton (`Set<Article>`, with `Article` in module `Articles`); each module
  /// is then type-checked on its own, `Articles` first.
  @Test func aNewFileImportsTheProjectModuleWhoseTypeItNames() throws {
    let files = [
      "Package.swift": """
        // swift-tools-version:5.9
        import PackageDescription
        let package = Package(name: "Shelf", targets: [
          .target(name: "Articles"),
          .target(name: "App", dependencies: ["Articles"]),
        ])
        """,
      "Sources/Articles/Article.swift": """
        public struct Article: Hashable, Sendable {
          public let title: String
          public init(title: String) { self.title = title }
        }
        """,
      "Sources/App/Library.swift": """
        import Articles

        final class Library {
          nonisolated(unsafe) static let shared = Library()
          var saved: Set<Article> = []
        }
        """,
      "Sources/App/Shelf.swift": """
        final class Shelf {
          func count() -> Int { Library.shared.saved.count }
        }
        """,
    ]
    let extracted = try planned(files, singleton: "Library", extract([Slice(name: "SavedArticles", members: ["saved"])]))
    let created = try #require(extracted.files["Sources/App/SavedArticles.swift"])
    #expect(created.hasPrefix("import Articles\n"))
    let errors = try moduleErrors(
      [("Articles", ["Sources/Articles/Article.swift"]), ("App", ["Sources/App/Library.swift", "Sources/App/Shelf.swift", "Sources/App/SavedArticles.swift"])],
      files: extracted.files)
    #expect(errors == "")
  }

  /// Imports in the singleton file's top-level `#if` clauses go to the new file under the same
  /// condition, each clause's exactly (`#else` says `!PREVIEW`); each module then type-checks
  /// with and without the condition.
  @Test(arguments: [
    (
      "#if PREVIEW\nimport ArticlesPreview\n#else\nimport Articles\n#endif\n",
      "#if PREVIEW\nimport ArticlesPreview\n#endif\n#if !PREVIEW\nimport Articles\n#endif\n"
    ),
    (
      "import Foundation\n#if canImport(Articles)\nimport Articles\n#endif\n",
      "#if canImport(Articles)\nimport Articles\n#endif\n"
    ),
  ])
  func importsUnderIfConfigKeepTheirCondition(imports: String, expected: String) throws {
    let article = """
      public struct Article: Hashable, Sendable {
        public init() {}
      }
      """
    let files = [
      "Package.swift": """
        // swift-tools-version:5.9
        import PackageDescription
        let package = Package(name: "Shelf", targets: [
          .target(name: "Articles"),
          .target(name: "ArticlesPreview"),
          .target(name: "App", dependencies: ["Articles", "ArticlesPreview"]),
        ])
        """,
      "Sources/Articles/Article.swift": article,
      "Sources/ArticlesPreview/Article.swift": article,
      "Sources/App/Library.swift": imports + """

        final class Library {
          nonisolated(unsafe) static let shared = Library()
          var saved: Set<Article> = []
        }
        """,
      "Sources/App/Shelf.swift": """
        final class Shelf {
          func count() -> Int { Library.shared.saved.count }
        }
        """,
    ]
    let extracted = try planned(files, singleton: "Library", extract([Slice(name: "SavedArticles", members: ["saved"])]))
    let created = try #require(extracted.files["Sources/App/SavedArticles.swift"])
    #expect(created.hasPrefix(expected + "\n"), "\(created)")
    for flags in [[], ["-D", "PREVIEW"]] {
      let errors = try moduleErrors(
        [
          ("Articles", ["Sources/Articles/Article.swift"]), ("ArticlesPreview", ["Sources/ArticlesPreview/Article.swift"]),
          ("App", ["Sources/App/Library.swift", "Sources/App/Shelf.swift", "Sources/App/SavedArticles.swift"]),
        ],
        files: extracted.files, flags: flags)
      #expect(errors == "", "\(flags)")
    }
  }

  /// Two app targets compile the singleton's file and depend on neither: a consumer compiled only
  /// into the second sees the singleton there, so it is injected, not skipped as a module cycle;
  /// each target then type-checks with the new protocol file.
  @Test func twoAppTargetsSharingTheSingletonsFile() throws {
    let files = [
      "Store.swift": """
        final class Store {
          nonisolated(unsafe) static let shared = Store()
          func load() -> Int { 1 }
        }
        """,
      "Phone.swift": """
        final class PhoneScreen {
          func show() -> Int { Store.shared.load() }
        }
        """,
      "Watch.swift": """
        final class WatchScreen {
          func show() -> Int { Store.shared.load() }
        }
        final class WatchRoot {
          let screen = WatchScreen()
        }
        """,
    ]
    let targets = [
      ModuleMap.Target(name: "Phone", directory: "", isTest: false, files: ["Store.swift", "Phone.swift"], kind: .xcode),
      ModuleMap.Target(
        name: "My_App_Watch", directory: "", isTest: false, files: ["Store.swift", "Watch.swift"], kind: .xcode),
    ]
    let extracted = try planned(files, singleton: "Store", targets: targets, extract())
    let created = try #require(extracted.files.keys.first { !files.keys.contains($0) })
    let injected = try planned(extracted.files, singleton: "Store", targets: targets, injectAll)
    #expect(!injected.plan.noteLines.joined().contains("module"), "\(injected.plan.notes)")
    #expect(injected.files["Watch.swift"]?.contains("func show() -> Int { Store.shared") == false)
    let errors = try moduleErrors(
      [("Phone", ["Store.swift", created, "Phone.swift"]), ("My_App_Watch", ["Store.swift", created, "Watch.swift"])],
      files: injected.files)
    #expect(errors == "")
  }

  /// An extension in a test target's file adds members only the tests see: no protocol of the
  /// singleton's module can require them (swift-subprocess's `extension AsyncIO { func read(from:
  /// upTo:) }` beside its tests). Extraction and injection leave them out; both modules type-check.
  @Test func membersATestTargetAddsAreNoRequirements() throws {
    let files = [
      "Package.swift": """
        // swift-tools-version:5.9
        import PackageDescription
        let package = Package(name: "Core", targets: [
          .target(name: "Core"),
          .testTarget(name: "CoreTests", dependencies: ["Core"]),
        ])
        """,
      "Sources/Core/Store.swift": """
        public final class Store: @unchecked Sendable {
          public static let shared = Store()
          public func load() -> Int { 1 }
        }
        public final class Screen {
          public init() {}
          public func show() -> Int { Store.shared.load() }
        }
        """,
      "Tests/CoreTests/StoreHelpers.swift": """
        import Core

        extension Store {
          func doubled() -> Int { load() * 2 }
        }
        final class Probe {
          func run() -> Int { Store.shared.doubled() + Store.shared.load() }
        }
        """,
    ]
    let extracted = try planned(files, singleton: "Store", extract())
    let created = try #require(extracted.files.keys.first { !files.keys.contains($0) && $0.hasPrefix("Sources/Core/") })
    #expect(extracted.files[created]?.contains("doubled") == false, "\(extracted.files[created] ?? "")")
    // The tests' `import Core` is no import of the new file, which is in Core.
    #expect(extracted.files[created]?.contains("import Core") == false)
    let injected = try planned(extracted.files, singleton: "Store", injectAll)
    let errors = try moduleErrors(
      [
        ("Core", ["Sources/Core/Store.swift", created]),
        ("CoreTests", ["Tests/CoreTests/StoreHelpers.swift"]),
      ],
      files: injected.files)
    #expect(errors == "")
  }

  /// The compiler's errors when each module, in order, type-checks against the ones before it.
  func moduleErrors(
    _ modules: [(name: String, paths: [String])], files: [String: String], flags: [String] = []
  ) throws -> String {
    let directory = try PrinterTestSupport.makeTemporaryDirectory()
    defer { PrinterTestSupport.removeDirectory(directory) }
    var output = ""
    for (name, paths) in modules {
      var sources: [String] = []
      for path in paths {
        let file = directory + "/" + name + "-" + (path as NSString).lastPathComponent
        try (files[path] ?? "").write(toFile: file, atomically: true, encoding: .utf8)
        sources.append(file)
      }
      let result = try run(
        ["swiftc", "-swift-version", "6", "-emit-module", "-module-name", name, "-I", directory, "-o", directory + "/" + name + ".swiftmodule"]
          + flags + sources)
      if result.status != 0 { output += result.standardError + result.output }
    }
    return output
  }

  /// A property typed through a type alias is the aliased class: a call on it changes the object,
  /// never the singleton's property, whatever the method is called.
  @Test func aPropertyTypedThroughATypeAliasIsAReferenceToItsClass() throws {
    let files = [
      "Connection.swift": """
        final class Connection {
          var sent: [String] = []
          func removeAll() { sent = [] }
        }
        typealias Link = Connection
        """,
      "Store.swift": """
        final class Store {
          nonisolated(unsafe) static let shared = Store()
          let link: Link = Connection()
          let direct: Connection = Connection()
        }
        """,
      "Shop.swift": """
        final class Shop {
          func reset() {
            Store.shared.link.removeAll()
            Store.shared.direct.removeAll()
          }
        }
        """,
    ]
    let project = makeProject(files)
    let store = try #require(project.index.singletons.first)
    let uses = project.index.references(to: store).map(\.use)
    #expect(uses == [.member("link", .read), .member("direct", .read)])
    let extracted = try planned(files, singleton: "Store", extract([Slice(name: "Linking", members: ["link", "direct"])]))
    #expect(extracted.files["Linking.swift"]?.contains("var link: Link { get }") == true)
    let injected = try planned(extracted.files, singleton: "Store", injectAll)
    let errors = try compileErrors(injected.files)
    #expect(errors == "")
  }

  /// The members left on the singleton are told by name, not by the text of another note: `count`
  /// is left on it although `countdown()` (which cannot be a requirement) starts with its letters.
  @Test func membersLeftOnTheSingletonAreToldByName() throws {
    let files = [
      "Store.swift": """
        final class Store {
          nonisolated(unsafe) static let shared = Store()
          var count = 0
          var title = ""
          func countdown() -> some Sequence<Int> { [3, 2, 1] }
        }
        """,
      "Shop.swift": """
        final class Shop {
          func show() -> String { Store.shared.title + "\\(Array(Store.shared.countdown()))" }
        }
        """,
    ]
    let extracted = try planned(files, singleton: "Store", extract())
    #expect(extracted.plan.noteLines.contains { $0.hasPrefix("  countdown() stays on Store") })
    #expect(extracted.plan.noteLines.contains("left on Store only: count"))
    let errors = try compileErrors(extracted.files)
    #expect(errors == "")
  }

  /// `finish` removes the accessor's backing storage when no other static member uses it; a member
  /// using `Self._sharedDefaults` does not use `_shared`.
  @Test func finishTellsTheBackingStorageFromALongerName() throws {
    let files = [
      "Store.swift": """
        final class Store {
          nonisolated(unsafe) private static let _shared = Store()
          static var shared: Store { _shared }
          private static let _sharedDefaults = ["a": 1]
          static var defaultsCount: Int { Self._sharedDefaults.count }
          var title = ""
        }
        """,
      "AppRoot.swift": """
        final class AppRoot {
          func run() {
            print(Store.shared.title, Store.defaultsCount)
          }
        }
        """,
    ]
    let finished = try planned(files, singleton: "Store") { singleton, project in
      try FinishPlanner.run(singleton: singleton, options: FinishOptions(root: "AppRoot"), project: project).plan
    }
    let store = try #require(finished.files["Store.swift"])
    #expect(!store.contains("_shared = Store()"))
    #expect(store.contains("_sharedDefaults"))
    let errors = try compileErrors(finished.files)
    #expect(errors == "")
  }

  /// `Fetcher(session: .shared)`, `fetcher.configure(session: .shared)`, `.make(session: .shared)`:
  /// the project declares the callees, and each gives `session` the type `URLSession`, so `.shared`
  /// is URLSession's, never the singleton's: no reference, no blocker, and `finish` at the one
  /// consumer deletes the accessor.
  @Test func anImplicitMemberPassedToAFrameworkTypedParameterIsNotTheSingletons() throws {
    let files = [
      "Store.swift": """
        final class Store {
          nonisolated(unsafe) static let shared = Store()
          func load() -> Int { 1 }
        }
        """,
      "Fetcher.swift": """
        final class Fetcher {
          let session: URLSession
          init(session: URLSession) { self.session = session }
          func configure(session: URLSession, count: Int) {}
          static func make(session: URLSession) -> Fetcher { Fetcher(session: session) }
        }
        final class Screen {
          func go() -> Int {
            let fetcher = Fetcher(session: .shared)
            fetcher.configure(session: .shared, count: 1)
            let made: Fetcher = .make(session: .shared)
            _ = made
            return Store.shared.load()
          }
        }
        """,
    ]
    // Linux has no `URLSession` without FoundationNetworking: the type-check declares one.
    let framework = ["Framework.swift": "final class URLSession: Sendable {\n  static let shared = URLSession()\n}\n"]
    let extracted = try planned(files, singleton: "Store", extract())
    let finished = try planned(extracted.files, singleton: "Store") { singleton, project in
      try FinishPlanner.run(singleton: singleton, options: FinishOptions(root: "Screen"), project: project).plan
    }
    #expect(finished.files["Store.swift"]?.contains("static let shared") == false)
    #expect(finished.files["Fetcher.swift"]?.contains("Fetcher(session: .shared)") == true)
    #expect(finished.files["Fetcher.swift"]?.contains(".make(session: .shared)") == true)
    let errors = try compileErrors(finished.files.merging(framework) { $1 })
    #expect(errors == "")
  }

  /// An implicit member passed with a label (`write(1, sink: .shared)`) is looked up in the
  /// parameter's type, asked of the functions of that name with a parameter of that label only: the
  /// file declaring `write(_:sink:)` is parsed (its `some Sink` can be the singleton's type, through
  /// `extension Sink where Self == Store`), the one declaring only `write(to:)` is not, and the
  /// references are the whole tree's.
  @Test func anImplicitMemberPassedWithALabelAsksOnlyTheFunctionsWithThatLabel() throws {
    let files = [
      "Store.swift": """
        protocol Sink {}
        final class Store: Sink {
          nonisolated(unsafe) static let shared = Store()
          func load() -> Int { 1 }
        }
        extension Sink where Self == Store {
          static var shared: Store { Store.shared }
        }
        """,
      "Net.swift": "func write(_ value: Int, sink: some Sink) {}\n",
      "Disk.swift": "func write(to value: Int) {}\n",
      "Screen.swift": """
        final class Screen {
          func go() -> Int {
            write(1, sink: .shared)
            write(to: 2)
            return Store.shared.load()
          }
        }
        """,
    ]
    let (directory, paths) = try written(files)
    defer { PrinterTestSupport.removeDirectory(directory) }
    func uses(_ index: Index) -> [String] {
      guard let store = index.singleton(typeName: "Store") else { return [] }
      return index.references(to: store).map { "\($0.range.start)" }.sorted()
    }
    let scan = PhasedScan(paths: paths, builder: IndexBuilder(threads: 2), mentioning: ["Store"])
    let phased = try scan.run { uses($0) }
    let whole = uses(IndexBuilder(threads: 2).build(paths: paths))
    #expect(phased == whole)
    #expect(whole.contains { $0.contains("Screen.swift:3:") }, "the implicit member is a possible use: \(whole)")
    #expect(scan.parsedPaths.contains { $0.hasSuffix("/Net.swift") })
    #expect(!scan.parsedPaths.contains { $0.hasSuffix("/Disk.swift") })
    #expect(try compileErrors(files) == "")
  }

  /// A main-actor singleton and a consumer that uses it, for the tests of where code runs on the
  /// main actor.
  static let mainActorBadge = [
      "Store.swift": """
        @MainActor final class Store {
          static let shared = Store()
          func load() -> Int { 1 }
        }
        """,
      "Badge.swift": """
        @MainActor final class Badge {
          func count() -> Int { Store.shared.load() }
        }
        """,
  ]

  /// Where a creation runs on the main actor without the enclosing type saying so: a member of an
  /// extension of a main-actor framework protocol (`extension View`), of a `@MainActor extension`,
  /// a non-`Sendable` closure in such a member, and a `PreviewProvider`. Each can pass the
  /// main-actor singleton to the consumer it creates.
  @Test func creationsOnTheMainActorByTheirExtensionOrProtocol() throws {
    let files = Self.mainActorBadge.merging([
      "Views.swift": """
        extension View {
          func badge() -> Badge { Badge() }
          func later() -> () -> Badge { { Badge() } }
        }
        struct Helper {}
        @MainActor extension Helper {
          func badge() -> Badge { Badge() }
        }
        struct Previews: PreviewProvider {
          static var previews: Badge { Badge() }
        }
        """
    ]) { $1 }
    let framework = [
      "Framework.swift": "@MainActor protocol View {}\n@MainActor protocol PreviewProvider {}\n"
    ]
    let extracted = try planned(files, singleton: "Store", extract())
    let injected = try planned(extracted.files, singleton: "Store", injectAll)
    #expect(!injected.plan.noteLines.joined().contains("isolation"), "\(injected.plan.notes)")
    #expect(injected.files["Badge.swift"]?.contains("Store.shared") == false)
    #expect(injected.files["Views.swift"]?.contains("Badge(store") == true)
    let errors = try compileErrors(injected.files.merging(framework) { $1 })
    #expect(errors == "")
  }

  /// `#Preview { ... }`: the macro's body runs on the main actor, so a creation there can pass a
  /// main-actor singleton. (Linux has no `#Preview` to type-check: the plan is read.)
  @Test func aPreviewBodyRunsOnTheMainActor() throws {
    var files = Self.mainActorBadge
    files["Badge.swift", default: ""] += "\n#Preview {\n  Badge()\n}\n"
    let extracted = try planned(files, singleton: "Store", extract())
    let injected = try planned(extracted.files, singleton: "Store", injectAll)
    #expect(!injected.plan.noteLines.joined().contains("isolation"), "\(injected.plan.notes)")
    #expect(injected.files["Badge.swift"]?.contains("  Badge(storeProtocol: Store.shared)\n") == true, "\(injected.files["Badge.swift"] ?? "")")
  }

  /// `.init()` whose type the code says is never an unknown creation of a consumer: an argument of
  /// a framework call (`listRowInsets(.init())`), the parts of `??` in one (`Image(uiImage: .init(named:
  /// "x") ?? .init())`), an argument of a project init whose parameter has a framework type
  /// (`Model(data: .init())`), and `Self` in an extension of a protocol `where Self == Circle`.
  @Test func implicitInitsOfOtherTypesDoNotBlockAConsumer() throws {
    let files = [
      "Store.swift": """
        final class Store {
          nonisolated(unsafe) static let shared = Store()
          func load() -> Int { 1 }
        }
        """,
      "Badge.swift": """
        import Foundation
        final class Badge {
          init() {}
          func count() -> Int { Store.shared.load() }
        }
        struct Model {
          var data: Data
        }
        protocol Shape {}
        struct Circle: Shape {
          init() {}
        }
        extension Shape where Self == Circle {
          static var none: Self { .init() }
        }
        """,
      "Screen.swift": """
        import Foundation
        final class Screen {
          let badge = Badge()
          func layout() {
            listRowInsets(.init())
            _ = Image(uiImage: .init(named: "x") ?? .init())
            _ = Model(data: .init())
          }
        }
        """,
    ]
    let framework = [
      "Framework.swift": """
        import Foundation
        struct EdgeInsets { init() {} }
        func listRowInsets(_ insets: EdgeInsets) {}
        final class UIImage {
          init() {}
          init?(named: String) {}
        }
        struct Image { init(uiImage: UIImage) {} }
        """
    ]
    let extracted = try planned(files, singleton: "Store", extract())
    let injected = try planned(extracted.files, singleton: "Store", injectAll)
    #expect(!injected.plan.noteLines.joined().contains("may create"), "\(injected.plan.notes)")
    #expect(injected.files["Badge.swift"]?.contains("Store.shared.load()") == false)
    let errors = try compileErrors(injected.files.merging(framework) { $1 })
    #expect(errors == "")
  }

  /// A singleton alone in its file.
  static let store = "final class Store {\n  nonisolated(unsafe) static let shared = Store()\n}\n"

  /// The files written to a new folder (removed by the caller), and their paths in name order.
  func written(_ files: [String: String]) throws -> (directory: String, paths: [String]) {
    let directory = try PrinterTestSupport.makeTemporaryDirectory()
    for (path, text) in files { try text.write(toFile: directory + "/" + path, atomically: true, encoding: .utf8) }
    return (directory, files.keys.sorted().map { directory + "/" + $0 })
  }

  /// A run that stops where it asked about a name no file left can declare goes on instead: the
  /// answer it got is the whole code base's. It stops only for what a file can answer, which is
  /// parsed before it runs again.
  @Test func aRunGoesOnPastAQuestionNoFileLeftCanAnswer() throws {
    let files = [
      "Store.swift": Self.store,
      "Cart.swift": "final class Cart {}\n",
      "Note.swift": "// Nowhere is declared in no file.\n",
    ]
    let (directory, paths) = try written(files)
    defer { PrinterTestSupport.removeDirectory(directory) }
    let scan = PhasedScan(paths: paths, builder: IndexBuilder(threads: 1), mentioning: ["Store"])
    var runs: [String] = []
    let answers = try scan.run { index -> [Bool] in
      runs.append("run")
      let nowhere = index.hasType("Nowhere")
      try index.requireCoverage()
      runs.append("past Nowhere")
      let cart = index.hasType("Cart")
      try index.requireCoverage()
      runs.append("past Cart")
      return [nowhere, cart]
    }
    #expect(answers == [false, true])
    #expect(runs == ["run", "past Nowhere", "run", "past Nowhere", "past Cart"])
    #expect(scan.parsedPaths.map { ($0 as NSString).lastPathComponent }.sorted() == ["Cart.swift", "Store.swift"])
  }

  /// A chain of creators one link a file, from the file that uses the singleton: a loader about
  /// `Store` parses one more link each run.
  static let chain = [
    "Store.swift": Self.store,
    "Alpha.swift": "final class Alpha {\n  let store = Store.shared\n}\n",
    "Bravo.swift": "final class Bravo {\n  let alpha = Alpha()\n}\n",
    "Charlie.swift": "final class Charlie {\n  let bravo = Bravo()\n}\n",
  ]

  /// A loader about `Store`, unbounded: what it parses must not depend on how long a run took on a
  /// loaded machine.
  func storeLoader(_ paths: [String], full: Bool) -> ProjectLoader {
    ProjectLoader(
      paths: paths, builder: IndexBuilder(threads: 1), mentioning: ["Store"], full: full, objectiveCPaths: [],
      modules: ModuleMap(), bounded: false)
  }

  /// `inject` and `finish` plan on the trees their first phase made of the files naming the
  /// singleton; a file among them with a syntax error is not handed over, and a planner reading it
  /// is refused as when it parses the file itself.
  @Test func theFirstPhasesTreesAreThePlannersButOneWithASyntaxError() throws {
    let (directory, paths) = try written([
      "Store.swift": Self.store,
      "Alpha.swift": "final class Alpha {\n  func f() { Store.shared.count += 1 }\n}\n",
      "Broken.swift": "final class Broken {\n  func f() { Store.shared.count += }\n}\n",
      "Other.swift": "final class Other {}\n",
    ])
    defer { PrinterTestSupport.removeDirectory(directory) }
    let scan = PhasedScan(paths: paths, builder: IndexBuilder(threads: 1), mentioning: ["Store"], keepingTrees: true)
    let trees = scan.takeFirstTrees()
    #expect(trees.map { String($0.path.dropFirst(directory.count + 1)) }.sorted() == ["Alpha.swift", "Store.swift"])
    for file in trees { #expect(file.tree.description == String(decoding: file.source.bytes, as: UTF8.self)) }
    #expect(scan.takeFirstTrees().isEmpty)
    #expect(PhasedScan(paths: paths, builder: IndexBuilder(threads: 1), mentioning: ["Store"]).takeFirstTrees().isEmpty)

    let loader = ProjectLoader(
      paths: paths, builder: IndexBuilder(threads: 1), mentioning: ["Store"], full: false, objectiveCPaths: [],
      modules: ModuleMap(), bounded: false, readsNamingFiles: true)
    let project = loader.project
    let alpha = try project.file(directory + "/Alpha.swift")
    #expect(try project.file(directory + "/Alpha.swift").tree.id == alpha.tree.id)
    #expect(throws: Refusal.self) { try project.file(directory + "/Broken.swift") }
  }

  /// A step that follows a chain one link a run picks up, in the next run, where the last stopped
  /// on complete answers (`Project.resumePoint`), not from its start; for another input it starts
  /// over. Its answer is the one a run from the start gives.
  @Test func aLaterRunPicksUpAStepWhereTheLastStoppedOnCompleteAnswers() throws {
    let (directory, paths) = try written(Self.chain)
    defer { PrinterTestSupport.removeDirectory(directory) }
    func follow(resuming: Bool) throws -> (chain: [String], starts: [[String]]) {
      let loader = storeLoader(paths, full: false)
      var starts: [[String]] = []
      let chain = try loader.run { project -> [String] in
        let input = resuming ? "Store" : "Store \(starts.count)"
        #expect((project.resumePoint("chain", from: "another input") as [String]?) == nil)
        var chain: [String] = project.resumePoint("chain", from: input) ?? ["Alpha"]
        starts.append(chain)
        while true {
          try project.index.requireCoverage()
          project.keepResumePoint("chain", from: input, chain)
          let next = project.typeNames(inFilesMentioning: [chain[chain.count - 1]]).filter { !chain.contains($0) }
          guard let link = next.first else { return chain }
          chain.append(link)
        }
      }
      return (chain, starts)
    }
    let resumed = try follow(resuming: true)
    #expect(resumed.chain == ["Alpha", "Bravo", "Charlie"])
    #expect(resumed.starts == [["Alpha"], ["Alpha"], ["Alpha", "Bravo"]])
    let fromTheStart = try follow(resuming: false)
    #expect(fromTheStart.chain == resumed.chain)
    #expect(fromTheStart.starts == [["Alpha"], ["Alpha"], ["Alpha"]])
  }

  /// An answer worked out before a check found nothing asked missing (`Index.requireCoverage`) is
  /// the whole code base's: the loader's later runs keep it (`Project.answer(_:_:)`), and work out
  /// again one that asked what was missing, and an object (which may be filled in later). The
  /// answers are those of every file parsed.
  @Test func aLaterRunKeepsTheAnswersWorkedOutBeforeACheckPassed() throws {
    let (directory, paths) = try written(Self.chain)
    defer { PrinterTestSupport.removeDirectory(directory) }
    func answers(full: Bool) throws -> (first: [String], second: [String], counts: [String: Int]) {
      let loader = storeLoader(paths, full: full)
      var counts: [String: Int] = [:]
      let (first, second) = try loader.run { project -> ([String], [String]) in
        let first = project.answer("first") {
          counts["first", default: 0] += 1
          return project.typeNames(inFilesMentioning: ["Alpha"])
        }
        let plain = project.answer("plain") {
          counts["plain", default: 0] += 1
          return NSMutableArray(array: first)
        }
        try project.index.requireCoverage()
        let second = project.answer("second") {
          counts["second", default: 0] += 1
          return project.typeNames(inFilesMentioning: ["Bravo"])
        }
        try project.index.requireCoverage()
        return (plain.compactMap { $0 as? String }, second)
      }
      return (first, second, counts)
    }
    let phased = try answers(full: false)
    // Run 1 lacks Bravo.swift, run 2 Charlie.swift; run 3 keeps `first` from run 2, whose check passed.
    #expect(phased.counts == ["first": 2, "plain": 3, "second": 2])
    let whole = try answers(full: true)
    #expect(whole.counts == ["first": 1, "plain": 1, "second": 1])
    #expect(phased.first == whole.first && phased.second == whole.second)
    #expect(phased.first == ["Alpha", "Bravo"] && phased.second == ["Bravo", "Charlie"])
  }

  /// A widening asked for the files mentioning a word takes the files the loader's planners found
  /// for it (`PhasedScan.mentioning`, the same byte search) instead of reading every file again.
  @Test func aWideningForAWordTakesTheFilesThePlannersSearchFound() throws {
    let files = [
      "Store.swift": Self.store,
      "Alpha.swift": "final class Alpha {}\n",
      "Other.swift": "final class Other {}\n",
    ]
    let (directory, paths) = try written(files)
    defer { PrinterTestSupport.removeDirectory(directory) }
    func parsed(found: Set<String>?) throws -> [String] {
      let scan = PhasedScan(paths: paths, builder: IndexBuilder(threads: 1), mentioning: ["Store"])
      if let found { scan.mentioning = { words in words == ["Alpha"] ? found : nil } }
      _ = try scan.run { index in Project(index: index).typeNames(inFilesMentioning: ["Alpha"]) }
      return scan.parsedPaths.map { ($0 as NSString).lastPathComponent }.sorted()
    }
    #expect(try parsed(found: nil) == ["Alpha.swift", "Store.swift"])
    // What the search says is what is parsed (here a made-up answer, to tell it from the bytes').
    #expect(try parsed(found: [directory + "/Other.swift"]) == ["Other.swift", "Store.swift"])
  }

  /// A chain of creators in files that never name the singleton: the loader runs once per link.
  /// In the first run `Flow`'s members are not parsed, so what `pane = .init()` creates is unknown
  /// there (it may be a `Screen`); a plan that kept that answer would refuse `Screen`. The plan is
  /// the whole tree's, and compiles.
  @Test func aChainOfCreatorsWhoseFirstRunCannotTellWhatInitCreates() throws {
    let files = [
      "Store.swift": """
        final class Store {
          nonisolated(unsafe) static let shared = Store()
          func load() -> Int { 1 }
        }
        """,
      "Screen.swift": """
        final class Screen {
          init() {}
          func count() -> Int { Store.shared.load() }
        }
        """,
      "Flow.swift": """
        final class Flow {
          let screen: Screen
          var pane: Pane
          init() {
            screen = Screen()
            pane = .init()
          }
        }
        """,
      "Pane.swift": """
        final class Pane {
          init() {}
        }
        """,
      "Coordinator.swift": """
        final class Coordinator {
          let flow: Flow
          init() { flow = Flow() }
        }
        """,
      "Main.swift": """
        final class Main {
          let coordinator = Coordinator()
        }
        """,
    ]
    let extracted = try planned(files, singleton: "Store", extract())
    let injected = try planned(extracted.files, singleton: "Store", injectAll)
    #expect(injected.files["Screen.swift"]?.contains("Store.shared") == false)
    #expect(injected.files["Coordinator.swift"]?.contains("Flow(") == true)
    #expect(injected.files["Flow.swift"] != files["Flow.swift"], "the creator hands the slice down")
    #expect(try compileErrors(injected.files) == "")
  }

  /// The check over every write: an added import of a name no module has (a target's display name)
  /// is an error at its line; imports the file had, the module map's modules, their dependencies,
  /// a module another file of the project imports (`import os`) and the toolchain's pass.
  @Test func addedImportsNameKnownModules() throws {
    let sources = [
      SourceText(path: "Store.swift", text: "final class Store {}\n"), SourceText(path: "Log.swift", text: "import os\n\nlet log = 1\n"),
    ]
    let modules = ModuleMap(targets: [
      ModuleMap.Target(name: "My_App_Watch", directory: "", isTest: false, dependencies: ["Swinject"])
    ])
    let known = Project(
      index: IndexBuilder(threads: 1).build(sources: sources),
      sources: Dictionary(uniqueKeysWithValues: sources.map { ($0.path, $0) }), modules: modules)
    let files = [
      WrittenImports.File(path: "A.swift", original: "import Legacy\n", new: "import Legacy\nimport My_App_Watch\n"),
      WrittenImports.File(
        path: "B.swift", original: nil, new: "import Foundation\n@testable import Swinject\nimport My App Watch\nimport os\n"),
      WrittenImports.File(path: "C.swift", original: "", new: "import Shared-watchOS\npublic import struct Legacy.Thing\n"),
    ]
    let problems = WrittenImports.problems(files, companions: [:], project: known)
    #expect(problems.map { $0.location?.description } == ["B.swift:3:1", "C.swift:1:1"])
  }

  /// A question is worked out once per project, a nil answer too.
  /// A project made by replacing some files answers which files contain a word as a byte search
  /// of its own texts: the earlier project's answer for the files kept, the new texts for the others.
  @Test func aRewrittenProjectFindsWordsInItsNewTexts() throws {
    let project = makeProject([
      "A.swift": "let a = Store.shared",
      "B.swift": "let b = 1",
      "C.swift": "let c = Store.shared",
    ])
    #expect(project.paths(naming: ["Store"]) == ["A.swift", "C.swift"])
    let rewritten = try project.replacing([
      SourceText(path: "A.swift", text: "let a = 0"), SourceText(path: "B.swift", text: "let b = Store.shared"),
    ])
    #expect(rewritten.paths(naming: ["Store"]) == ["B.swift", "C.swift"])
    #expect(rewritten.paths(naming: ["Store", "let"]) == ["A.swift", "B.swift", "C.swift"])
    #expect(project.paths(naming: ["Store"]) == ["A.swift", "C.swift"])
  }

  /// Past the third name asked, a rewritten project looks names up in the words of the files it
  /// replaced instead of searching their bytes again: each answer is still a byte search of every
  /// file's text as it is now (part of a word, a name with other bytes, names asked together).
  @Test func aRewrittenProjectAskedManyNamesAnswersAsAByteSearch() throws {
    let before = [
      "A.swift": "let a = Store.shared\n@main struct Main {}", "B.swift": "let b = 1", "C.swift": "let c = Store.shared",
      "D.swift": "final class Restored {}", "E.swift": "struct Cart { var items: [Item] }",
    ]
    let after = [
      "A.swift": "let a = 0", "B.swift": "@main struct App { let store: Storing }", "D.swift": "final class Cart {}",
    ]
    let project = makeProject(before)
    let rewritten = try project.replacing(after.map { SourceText(path: $0.key, text: $0.value) })
    let texts = before.merging(after) { _, new in new }
    let questions = [["Store"], ["tore"], ["Cart"], ["@main"], ["Item", "App"], ["Restored"], ["shared"], ["Storing", "Main"], ["let"]]
    for names in questions {
      let expected = texts.keys.sorted().filter { path in names.contains { texts[path]!.contains($0) } }
      #expect(rewritten.paths(naming: names) == expected, "\(names)")
    }
  }

  /// Each replaced file is parsed once, and its tree handed to the caller before it is indexed.
  @Test func aRewrittenProjectHandsOutEachNewTreeOnce() throws {
    let project = makeProject(["A.swift": "let a = Store.shared", "B.swift": "let b = 1"])
    final class Seen: @unchecked Sendable {
      let lock = NSLock()
      var trees: [String] = []
    }
    let seen = Seen()
    let rewritten = try project.replacing(
      [SourceText(path: "B.swift", text: "let b = Store.shared"), SourceText(path: "C.swift", text: "struct C {}")],
      parsed: { source, tree in seen.lock.withLock { seen.trees.append("\(source.path): \(tree.description)") } })
    #expect(seen.trees.sorted() == ["B.swift: let b = Store.shared", "C.swift: struct C {}"])
    #expect(rewritten.index.hasType("C"))
  }

  /// A plan that changes nothing leaves the project it was planned on: nothing is read or indexed
  /// again to check it.
  @Test func aProjectWithNothingReplacedIsTheSameProject() throws {
    let project = makeProject(["A.swift": "let a = Store.shared", "B.swift": "let b = 1"])
    #expect(try project.replacing([]) === project)
    #expect(try project.replacing([SourceText(path: "B.swift", text: "let b = 2")]) !== project)
  }

  @Test func anAnswerIsWorkedOutOnceEvenWhenItIsNil() {
    let project = makeProject(["A.swift": "struct A {}\n"])
    var runs = 0
    let first: String? = project.answer("q") {
      runs += 1
      return nil
    }
    let second: String? = project.answer("q") {
      runs += 1
      return "x"
    }
    #expect(first == nil)
    #expect(second == nil)
    #expect(runs == 1)
  }
}
