import DesingletonCore
import DesingletonIndex
import DesingletonPlanner
import Foundation
import Testing

/// Shapes that cross SwiftPM modules: the module map read from `Package.swift`, and what a rewrite
/// must add so that each module still builds on its own (an `import`, a `public` init). Every result
/// is compiled module by module, each against the ones before it.
@Suite struct ModuleTests {
  @Test func theManifestSaysWhichModuleEachFileIsIn() {
    let map = ModuleMap(manifests: [SourceText(path: "Pkg/Package.swift", text: Self.manifest)])
    #expect(map.module(of: "Pkg/Sources/Core/Store.swift") == "Core")
    #expect(map.module(of: "Pkg/Sources/Feature/Badge.swift") == "Feature")
    #expect(map.module(of: "Pkg/App/Main/AppRoot.swift") == "App")
    #expect(map.module(of: "Pkg/Tests/CoreTests/StoreTests.swift") == "CoreTests")
    #expect(map.module(of: "Pkg/Scripts/tool.swift") == nil)
  }

  /// Whether code in a file can name a type (`Project.file(_:canName:)`): its module can import the
  /// type's, and from another module the type and every type it is nested in are `public` or
  /// `open`, or `package` within one package whose tools version has it; a `private` or
  /// `fileprivate` type only in its own file.
  @Test func aFileCanNameATypeItsModuleSeesAndItsAccessAllows() {
    let manifest = """
      // swift-tools-version:5.9
      let package = Package(
        name: "Pkg",
        targets: [.target(name: "Core"), .target(name: "Feature", dependencies: ["Core"]), .executableTarget(name: "Tool")]
      )
      """
    let project = makeProject([
      "Package.swift": manifest,
      "Sources/Core/Types.swift": """
        public final class Open { public final class Inner {}; final class Hidden {} }
        final class Internal {}
        package final class Shared {}
        private final class Secret {}

        """,
      "Sources/Core/Other.swift": "func use() {}\n",
      "Sources/Feature/Screen.swift": "import Core\n",
      "Sources/Tool/main.swift": "print(1)\n",
      "Scripts/loose.swift": "print(2)\n",
    ])
    let cases: [(path: String, type: String, expected: Bool)] = [
      ("Sources/Core/Other.swift", "Internal", true),
      ("Sources/Core/Other.swift", "Secret", false),
      ("Sources/Core/Types.swift", "Secret", true),
      ("Sources/Feature/Screen.swift", "Open", true),
      ("Sources/Feature/Screen.swift", "Open.Inner", true),
      ("Sources/Feature/Screen.swift", "Open.Hidden", false),
      ("Sources/Feature/Screen.swift", "Internal", false),
      ("Sources/Feature/Screen.swift", "Shared", true),
      ("Sources/Tool/main.swift", "Open", false),
      ("Scripts/loose.swift", "Internal", true),
      ("Sources/Tool/main.swift", "NotDeclared", true),
    ]
    for (path, type, expected) in cases {
      #expect(project.file(path, canName: type) == expected, "\(path) naming \(type)")
    }
    // Before tools version 5.9 there is no `package` access to share.
    let older = makeProject([
      "Package.swift": manifest.replacingOccurrences(of: "5.9", with: "5.8"),
      "Sources/Core/Types.swift": "package final class Shared {}\n",
      "Sources/Feature/Screen.swift": "import Core\n",
    ])
    #expect(!older.file("Sources/Feature/Screen.swift", canName: "Shared"))
  }

  @Test func theManifestSaysWhatEachTargetDependsOnAndLeavesOut() {
    let manifest = """
      let package = Package(
        name: "Pkg",
        dependencies: [.package(url: "https://github.com/apple/swift-system", from: "1.0.0")],
        targets: [
          .target(name: "Core", dependencies: [.product(name: "SystemPackage", package: "swift-system")], exclude: ["Old", "Legacy.swift"]),
          .target(name: "Feature", dependencies: [.target(name: "Core"), .byName(name: "Util")], sources: ["Live"]),
          .target(name: "Util", path: "."),
        ]
      )
      """
    let map = ModuleMap(manifests: [SourceText(path: "Pkg/Package.swift", text: manifest)])
    #expect(map.targets(named: "Core").first?.dependencies == ["SystemPackage"])
    #expect(map.targets(named: "Feature").first?.dependencies == ["Core", "Util"])
    #expect(map.module(of: "Pkg/Sources/Core/Store.swift") == "Core")
    #expect(map.module(of: "Pkg/Sources/Core/Legacy.swift") == "Util")
    #expect(map.module(of: "Pkg/Sources/Core/Old/A.swift") == "Util")
    #expect(map.module(of: "Pkg/Sources/Feature/Live/A.swift") == "Feature")
    #expect(map.module(of: "Pkg/Sources/Feature/Mock/A.swift") == "Util")
    #expect(map.module("Feature", canSee: "Core"))
    #expect(map.module("Feature", canSee: "SystemPackage"))
    #expect(!map.module("Core", canSee: "Feature"))
    #expect(map.module("Unknown", canSee: "Feature"))
  }

  /// Products and dependency lists kept in the manifest's variables: an app that links a
  /// package's dynamic library product sees the targets it is made of, and a target whose
  /// dependencies are a variable (or a sum of them) depends on what they name.
  @Test func productsAndVariablesOfTheManifestAreFollowed() {
    let manifest = """
      let kitTargets = ["Core", "UI"]
      let shared: [Target.Dependency] = ["Core", .product(name: "Swinject", package: "Swinject")]
      let package = Package(
        name: "Kit",
        products: [
          .library(name: "Kit", type: .dynamic, targets: kitTargets),
          .library(name: "Extras", targets: ["Extra"]),
        ],
        targets: [
          .target(name: "Core"),
          .target(name: "UI", dependencies: shared + [.target(name: "Extra")]),
          .target(name: "Extra"),
          .target(name: "Feature", dependencies: shared),
        ]
      )
      """
    var map = ModuleMap(manifests: [SourceText(path: "Kit/Package.swift", text: manifest)])
    #expect(map.products == ["Kit": ["Core", "UI"], "Extras": ["Extra"]])
    #expect(map.targets(named: "UI").first?.dependencies == ["Core", "Swinject", "Extra"])
    #expect(map.targets(named: "Feature").first?.dependencies == ["Core", "Swinject"])
    // An Xcode app linking the `Kit` product.
    map.targets.append(ModuleMap.Target(name: "App", directory: "App", isTest: false, dependencies: ["Kit"], kind: .xcode))
    #expect(map.module("App", canSee: "Core"))
    #expect(map.module("App", canSee: "Extra"))
    #expect(!map.module("Core", canSee: "App"))
    #expect(map.file("App/Screen.swift", canSee: "Kit/Sources/Core/Store.swift"))
    #expect(!map.file("Kit/Sources/Core/Store.swift", canSee: "App/Screen.swift"))
  }

  /// A slice a consumer in another module uses is public; a member that is not public cannot be in
  /// it and stays on the singleton, instead of making every protocol internal.
  @Test func aSliceUsedFromAnotherModuleIsPublicAndAnInternalMemberStays() throws {
    var files = Self.package
    files["Pkg/Sources/Core/Store.swift"] = """
      @MainActor
      public final class Store {
        public static let shared = Store()
        public var count = 0
        var pending: [Int] = []

        private init() {}

        public func bump() {
          count += 1
          pending.append(count)
        }
      }

      """
    files["Pkg/Sources/Core/Uploader.swift"] = """
      @MainActor
      final class Uploader {
        func upload() -> [Int] {
          defer { Store.shared.pending.removeAll() }
          return Store.shared.pending
        }
      }

      """
    files["Pkg/Sources/Core/Counting.swift"] = nil
    let project = makeProject(files)
    let store = try #require(project.index.singletons.first)
    // Suggested: the slice Feature uses is public, the one only Core uses is internal.
    let plan = try ExtractProtocolPlanner.plan(singleton: store, options: ExtractProtocolOptions(), project: project)
    let result = try apply(plan, to: project, files: files)
    let created = plan.newFiles.keys.sorted()
    #expect(created.count == 2)
    let texts = created.compactMap { result[$0] }
    #expect(texts.contains { $0.contains("public protocol") && $0.contains("func bump()") && !$0.contains("pending") })
    #expect(texts.contains { !$0.contains("public") && $0.contains("var pending: [Int] { get set }") })
    #expect(try moduleErrors(result) == "")

    // Named together, the internal member cannot be in the public slice: refused with the reason.
    let named = ExtractProtocolOptions(slices: [Slice(name: "Counting", members: ["bump", "pending"])])
    #expect {
      try ExtractProtocolPlanner.plan(singleton: store, options: named, project: project)
    } throws: { error in
      "\(error)".contains(
        "'pending' cannot be in slice 'Counting': it is internal, and 'Counting' must be package: 'Badge' in module 'Feature' uses it")
    }
  }

  /// A member no consumer uses stays on the singleton; the slice a consumer in another module uses
  /// is package, and an internal overload of a name it takes stays on the singleton, so that the
  /// command scan prints, run as written, is not refused.
  @Test func theSuggestionLeavesOutWhatItsSliceCannotHave() throws {
    var files = Self.package
    files["Pkg/Sources/Core/Store.swift"] = """
      @MainActor
      public final class Store {
        public static let shared = Store()
        public var count = 0
        var history: [Int] = []

        private init() {}

        public func bump() {
          count += 1
          history.append(count)
        }

        func bump(by step: Int) { count += step }
      }

      """
    files["Pkg/Sources/Core/Counting.swift"] = nil
    let project = makeProject(files)
    let store = try #require(project.index.singletons.first)
    let suggestion = SliceSuggester.suggestion(try SingletonAnalysis(singleton: store, project: project), project: project)
    #expect(suggestion.slices.flatMap(\.members).sorted() == ["bump"])
    #expect(suggestion.kept.isEmpty)
    #expect(suggestion.unsliced == ["count", "history"])
    // The printed command names the slices: planned as named, it is not refused, and builds.
    let plan = try ExtractProtocolPlanner.plan(singleton: store, options: ExtractProtocolOptions(slices: suggestion.slices), project: project)
    let result = try apply(plan, to: project, files: files)
    #expect(try moduleErrors(result) == "")
    // The internal overload stays on the singleton, the public one is required.
    let created = try #require(plan.newFiles.keys.first.flatMap { result[$0] })
    #expect(created.contains("func bump()") && !created.contains("bump(by"))
  }

  /// Two targets that each declare `Preferences` are two singletons: scan lists each with its
  /// module and members, and its command names the module, which extract-protocol then slices alone.
  @Test func twinTypesInTwoTargetsAreReportedAndSlicedApart() throws {
    let files = [
      "Pkg/Package.swift": """
        // swift-tools-version:6.0
        import PackageDescription
        let package = Package(name: "Pkg", targets: [.target(name: "Phone"), .target(name: "Desk")])
        """,
      "Pkg/Sources/Phone/Preferences.swift": """
        @MainActor
        final class Preferences {
          static let shared = Preferences()
          var vibrates = true
        }
        @MainActor
        final class Ringer {
          func ring() -> Bool { Preferences.shared.vibrates }
        }
        """,
      "Pkg/Sources/Desk/Preferences.swift": """
        @MainActor
        final class Preferences {
          static let shared = Preferences()
          var width = 800
        }
        @MainActor
        final class Window {
          func layout() -> Int { Preferences.shared.width }
        }
        """,
    ]
    let project = makeProject(files)
    #expect(project.twinModules(of: "Preferences") == ["Desk", "Phone"])
    let report = try ScanReport(project: project)
    #expect(report.singletons.map(\.module) == ["Desk", "Phone"])
    #expect(report.singletons.map { $0.members.map(\.name) } == [["width"], ["vibrates"]])
    #expect(report.text().contains("desingleton extract-protocol --singleton Preferences --module Phone --slice"))
    let phone = try ModuleUnits.plan(typeName: "Preferences", project: project, only: "Phone") { unit in
      let twin = try #require(unit.index.singleton(typeName: "Preferences"))
      return try ExtractProtocolPlanner.plan(singleton: twin, options: ExtractProtocolOptions(), project: unit)
    }
    #expect(phone.newFiles.keys.allSatisfy { $0.hasPrefix("Pkg/Sources/Phone/") })
    #expect(phone.edits.keys.sorted() == ["Pkg/Sources/Phone/Preferences.swift"])
    // A command a refusal suggests for one twin names its module: without it, the other twin is planned.
    let refusal = try #require(throws: Refusal.self) {
      try ModuleUnits.plan(typeName: "Preferences", project: project, only: "Desk") { unit in
        let twin = try #require(unit.index.singleton(typeName: "Preferences"))
        return try InjectPlanner.plan(singleton: twin, options: InjectOptions(), project: unit)
      }
    }
    #expect(refusal.diagnostics.map(\.message) == [
      "'Preferences' conforms to no protocol declared in this code; run 'desingleton extract-protocol --singleton Preferences --module Desk' first"
    ])
  }

  @Test func aFileSharedByTwoProjectTargetsIsInBoth() {
    let map = ModuleMap(targets: [
      .init(name: "iOSApp", directory: "App", isTest: false, files: ["App/Shared.swift", "App/Phone.swift"], kind: .xcode),
      .init(name: "MacApp", directory: "App", isTest: false, files: ["App/Shared.swift", "App/Mac.swift"], kind: .xcode),
    ])
    #expect(map.modules(of: "App/Shared.swift") == ["MacApp", "iOSApp"])
    #expect(map.modules(of: "App/Mac.swift") == ["MacApp"])
    #expect(map.modules(of: "App/Other.swift") == [])
  }

  /// A file that spells its imports' access level gets `internal import` for the singleton's module.
  @Test func aFileWithAccessLevelImportsGetsAnInternalImport() throws {
    var files = Self.package
    files["Pkg/App/Main/AppRoot.swift"] = """
      public import Feature

      @MainActor
      public final class AppRoot {
        public init() {}

        public func start() -> Badge {
          Badge(title: "x")
        }
      }

      """
    let result = try injectBadge(files)
    #expect(result["Pkg/App/Main/AppRoot.swift"]?.hasPrefix("public import Feature\ninternal import Core\n") == true)
    #expect(try moduleErrors(result) == "", "the result does not compile")
  }

  /// A member an extension in another module adds cannot be required by a protocol beside the
  /// singleton (its module cannot see it): a consumer using it is skipped with that reason, and no
  /// `extract-protocol` command that would do nothing is suggested.
  @Test func aMemberAnotherModuleAddsIsNoSliceToSuggest() throws {
    var files = Self.package
    files["Pkg/Sources/Feature/Fetching.swift"] = """
      import Core

      extension Store {
        func fetch() -> Int { count }
      }

      """
    files["Pkg/Sources/Feature/Badge.swift"] = files["Pkg/Sources/Feature/Badge.swift"]!.replacingOccurrences(
      of: "Store.shared.bump()", with: "Store.shared.bump()\n    _ = Store.shared.fetch()")
    #expect(try moduleErrors(files) == "", "the input does not compile")
    #expect(
      try injectRefusal(makeProject(files), type: "Badge").map(\.description) == [
        "Pkg/Sources/Feature/Badge.swift:13:9: error: 'Badge' uses 'fetch', which no protocol of 'Store' covers; it is declared in module 'Feature', which the module of 'Store' cannot see, so no protocol beside 'Store' can require it; move it into the module of 'Store', or keep the accessor here"
      ])
  }

  /// A member that could not be in a protocol of its own (internal, used from another module that
  /// sees it through `@testable import`) is not advised as a slice to cut: extract-protocol would
  /// refuse the command. The reason says why instead.
  @Test func aMemberNoSliceCanHaveIsNotAdvisedAsOne() throws {
    var files = Self.package
    files["Pkg/Sources/Core/Store.swift"] = files["Pkg/Sources/Core/Store.swift"]!.replacingOccurrences(
      of: "  public var count = 0\n", with: "  public var count = 0\n  var history: [Int] = []\n")
    files["Pkg/Sources/Feature/Badge.swift"] = files["Pkg/Sources/Feature/Badge.swift"]!
      .replacingOccurrences(of: "import Core\n", with: "@testable import Core\n")
      .replacingOccurrences(of: "Store.shared.bump()", with: "Store.shared.bump()\n    _ = Store.shared.history.count")
    #expect(
      try injectRefusal(makeProject(files), type: "Badge").map(\.description) == [
        "Pkg/Sources/Feature/Badge.swift:13:9: error: 'Badge' uses 'history', which no protocol of 'Store' covers; it cannot be in a protocol of its own: it is internal, and that protocol must be package: 'Badge' in module 'Feature' uses it"
      ])
  }

  /// A property wrapper's projection (`Store.shared.$phase`) is no member a slice can name: the
  /// reason says so, and no `--slice NAME=$phase` (which a shell would expand) is suggested.
  @Test func aProjectionIsNotAdvisedAsASlice() throws {
    let project = makeProject([
      "Sources/Store.swift": """
      @propertyWrapper struct Tracked<Value> {
        var wrappedValue: Value
        var projectedValue: Int { 0 }
      }

      @MainActor
      protocol OtherProviding: AnyObject {
        var other: Int { get }
      }

      @MainActor
      final class Store: OtherProviding {
        static let shared = Store()
        @Tracked var phase = 1
        var other = 2
      }

      @MainActor
      final class Splash {
        func show() -> Int { Store.shared.$phase + Store.shared.other }
      }

      """
    ])
    let diagnostics = try injectRefusal(project, type: "Splash")
    #expect(diagnostics.map(\.message).contains {
      $0.hasSuffix("'$phase' is a property wrapper's projection, which no slice can name; keep the accessor here, or write a requirement for it by hand")
    }, "\(diagnostics)")
  }

  /// A public class that inherits a public init, created in another module, gets a public init:
  /// internal, `Badge(counting:)` could not be called from the app.
  @Test func anInheritedPublicInitIsDeclaredPublic() throws {
    var files = Self.package
    files["Pkg/Sources/Feature/Badge.swift"] = """
      import Core

      @MainActor
      open class Base {
        public init() {}
      }

      @MainActor
      public final class Badge: Base {
        public func refresh() {
          Store.shared.bump()
        }
      }

      """
    files["Pkg/App/Main/AppRoot.swift"] = """
      import Feature

      @MainActor
      public final class AppRoot {
        public init() {}

        public func start() -> Badge {
          Badge()
        }
      }

      """
    let result = try injectBadge(files)
    #expect(result["Pkg/Sources/Feature/Badge.swift"]?.contains("  public init(counting: Counting) {\n") == true)
    #expect(result["Pkg/App/Main/AppRoot.swift"]?.contains("Badge(counting: Store.shared)") == true)
    #expect(try moduleErrors(result) == "", "the result does not compile")
  }

  @Test func aCreationSiteInAnotherModuleImportsTheSingletonsModule() throws {
    let files = Self.package
    try expectPlan(
      files, singleton: "Store",
      produces: [
        "Pkg/Sources/Feature/Badge.swift": """
        import Core

        @MainActor
        public final class Badge {
          private let counting: Counting

          public let title: String

          public init(counting: Counting, title: String) {
            self.counting = counting
            self.title = title
          }

          public func refresh() {
            counting.bump()
          }
        }

        """,
        "Pkg/App/Main/AppRoot.swift": """
        import Feature
        import Core

        @MainActor
        public final class AppRoot {
          public init() {}

          public func start() -> Badge {
            Badge(counting: Store.shared, title: "x")
          }
        }

        """,
      ],
      notes: [
        "Badge: counting: Counting; 1 reference rewritten",
        "  Badge: 1 call site updated (Pkg/App/Main/AppRoot.swift:8)",
        "  Pkg/App/Main/AppRoot.swift: imports 'Core', whose 'Store' it now names",
      ],
      compiles: false, sourceLocation: #_sourceLocation
    ) { try InjectPlanner.plan(singleton: $0, options: InjectOptions(types: ["Badge"]), project: $1) }
    let result = try injectBadge(files)
    #expect(try moduleErrors(result) == "", "the result does not compile")

    // Then the root, in another module, owns the instance: the private init becomes public.
    let injected = makeProject(result)
    let singleton = try #require(injected.index.singletons.first { $0.typeName == "Store" })
    let finished = try apply(
      FinishPlanner.plan(singleton: singleton, options: FinishOptions(root: "AppRoot"), project: injected),
      to: injected, files: result)
    expectText(finished["Pkg/Sources/Core/Store.swift"], """
      @MainActor
      public final class Store {
        public var count = 0

        public init() {}

        public func bump() {
          count += 1
        }
      }

      """)
    #expect(try moduleErrors(finished) == "", "the finished result does not compile")
  }

  static let manifest = """
    // swift-tools-version:6.0
    import PackageDescription

    let package = Package(
      name: "Pkg",
      targets: [
        .target(name: "Core"),
        .target(name: "Feature", dependencies: ["Core"]),
        .executableTarget(name: "App", dependencies: ["Core", "Feature"], path: "App/Main"),
        .testTarget(name: "CoreTests", dependencies: ["Core"]),
      ]
    )

    """

  static let package: [String: String] = [
    "Pkg/Package.swift": manifest,
    "Pkg/Sources/Core/Store.swift": """
      @MainActor
      public final class Store {
        public static let shared = Store()
        public var count = 0

        private init() {}

        public func bump() {
          count += 1
        }
      }

      """,
    "Pkg/Sources/Core/Counting.swift": """
      @MainActor
      public protocol Counting: AnyObject, Sendable {
        var count: Int { get }
        func bump()
      }

      extension Store: Counting {}

      """,
    "Pkg/Sources/Feature/Badge.swift": """
      import Core

      @MainActor
      public final class Badge {
        public let title: String

        public init(title: String) {
          self.title = title
        }

        public func refresh() {
          Store.shared.bump()
        }
      }

      """,
    "Pkg/App/Main/AppRoot.swift": """
      import Feature

      @MainActor
      public final class AppRoot {
        public init() {}

        public func start() -> Badge {
          Badge(title: "x")
        }
      }

      """,
  ]
}

/// `inject --type Badge` for `Store` on a package whose modules compile, its files after the plan.
private func injectBadge(_ files: [String: String], sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: String] {
  #expect(try moduleErrors(files) == "", "the input does not compile", sourceLocation: sourceLocation)
  let project = makeProject(files)
  let store = try #require(project.index.singletons.first { $0.typeName == "Store" }, sourceLocation: sourceLocation)
  return try apply(
    InjectPlanner.plan(singleton: store, options: InjectOptions(types: ["Badge"]), project: project), to: project, files: files)
}

/// Compiles the package's modules in order (`Core`, `Feature`, `App`), each against the ones before
/// it; "" when all of them type-check.
private func moduleErrors(_ files: [String: String]) throws -> String {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("desingleton-modules-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  let map = ModuleMap(manifests: files.filter { $0.key.hasSuffix("Package.swift") }.map { SourceText(path: $0.key, text: $0.value) })
  for module in ["Core", "Feature", "App"] {
    var paths: [String] = []
    for (path, text) in files.sorted(by: { $0.key < $1.key }) where path.hasSuffix(".swift") && map.module(of: path) == module {
      let url = directory.appendingPathComponent(module + "-" + (path as NSString).lastPathComponent)
      try Data(text.utf8).write(to: url)
      paths.append(url.path)
    }
    let result = try run(
      ["swiftc", "-swift-version", "6", "-parse-as-library", "-module-name", module, "-I", directory.path,
       "-emit-module", "-emit-module-path", directory.appendingPathComponent("\(module).swiftmodule").path,
       "-emit-sil", "-wmo", "-o", directory.appendingPathComponent("\(module).sil").path] + paths)
    if result.status != 0 { return result.standardError + result.output }
  }
  return ""
}

/// The diagnostics of the refusal `inject --type` gives for `type` on the project's `Store`.
private func injectRefusal(_ project: Project, type: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [Diagnostic] {
  let store = try #require(project.index.singletons.first { $0.typeName == "Store" }, sourceLocation: sourceLocation)
  let refusal = try #require(throws: Refusal.self, sourceLocation: sourceLocation) {
    try InjectPlanner.run(singleton: store, options: InjectOptions(types: [type]), project: project)
  }
  return refusal.diagnostics
}
