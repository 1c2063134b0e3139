import DesingletonCore
import DesingletonIndex
@testable import DesingletonPlanner
import Testing

/// What each command decides, asserted on its design before any text is written: which consumer
/// gets which protocols under which names, which protocols a slice becomes, who owns the instance.
/// The whole-text planner tests stay the net; these say the decision in a few lines.
@Suite struct DesignTests {
  static let store: [String: String] = [
    "Store.swift": """
    final class Store {
      static let shared = Store()
      var count = 0
      var title = ""
      func bump() { count += 1 }
    }

    """,
    "Counting.swift": """
    protocol Counting: AnyObject {
      var count: Int { get }
      func bump()
    }

    extension Store: Counting {}

    """,
    "Badge.swift": """
    final class Badge {
      func refresh() -> Int {
        Store.shared.bump()
        return Store.shared.count
      }
    }

    final class Screen {
      let badge = Badge()
    }

    """,
    "App.swift": """
    final class App {
      func start() -> Screen { Screen() }
    }

    """,
  ]

  static func singleton(_ project: Project) throws -> Singleton {
    try #require(project.index.singletons.first { $0.typeName == "Store" })
  }

  @Test func injectGivesTheConsumerTheProtocolsItUsesAndItsCreatorThemToo() throws {
    let project = makeProject(Self.store)
    let design = try InjectPlanner.decide(singleton: try Self.singleton(project), options: InjectOptions(), project: project)
    let badge = try #require(design.consumer("Badge"))
    #expect(badge.protocols == ["Counting"])
    #expect(badge.name(of: "Counting") == "counting")
    // A class with no superclass and no init: one init taking the protocol, no `super.init` to call.
    guard case .classInit(superCall: nil, coderInit: false, inherited: [], required: []) = badge.generatedInit else {
      Issue.record("Badge gets \(String(describing: badge.generatedInit))")
      return
    }
    // Screen creates Badge in a stored property's initial value: it receives Counting and hands it
    // on; App, which nothing creates, is the root and passes the accessor.
    let screen = try #require(design.consumer("Screen"))
    #expect(screen.protocols == ["Counting"])
    #expect(design.consumer("App") == nil)
    let passed = design.callSites.map { "\($0.call.typeName)(\($0.arguments.joined(separator: ", ")))" }
    #expect(passed == ["Screen(counting: Store.shared)", "Badge(counting: counting)"])
    #expect(design.skipped.isEmpty)
  }

  @Test func injectWithOneTypeNamedDecidesForThatTypeAlone() throws {
    let project = makeProject(Self.store)
    let design = try InjectPlanner.decide(
      singleton: try Self.singleton(project), options: InjectOptions(types: ["Badge"]), project: project)
    #expect(design.consumers.map(\.typeName) == ["Badge"])
    #expect(design.callSites.map(\.arguments) == [["counting: Store.shared"]])
    #expect(design.callSites.map(\.call.context.typeName) == ["Screen"])
  }

  @Test func extractCutsTheNamedMembersIntoOneProtocolAndConformsTheSingleton() throws {
    var files = Self.store
    files["Counting.swift"] = nil
    let project = makeProject(files)
    let options = ExtractProtocolOptions(slices: [Slice(name: "Titled", members: ["title"])])
    let decided = try #require(try ExtractProtocolPlanner.decide(singleton: try Self.singleton(project), options: options, project: project))
    #expect(decided.design.protocols.map(\.name) == ["Titled"])
    #expect(decided.design.protocols.map(\.path) == ["Titled.swift"])
    #expect(decided.design.protocols.first?.required == ["title"])
    #expect(decided.design.conformances == ["Titled"])
    #expect(decided.design.leftOnSingleton == ["count", "bump"])
  }

  @Test func finishGivesTheRootTheInstanceUnderTheSingletonsName() throws {
    let project = makeProject([
      "Store.swift": Self.store["Store.swift"]!,
      "App.swift": """
      final class App {
        func start() -> Int { Store.shared.count }
      }

      """,
    ])
    let design = try FinishPlanner.decide(
      singleton: try Self.singleton(project), options: FinishOptions(root: "App"), project: project, rewrite: nil)
    #expect(design.root == "App")
    #expect(design.name == "store")
    #expect(design.creation.expression == "Store()")
    #expect(design.initAccess == "internal")
    #expect(design.remaining.map(\.kind) == [.root])
  }

  @Test func finishRefusesWhileAConsumerReadsTheAccessorAndSaysWhatToRun() throws {
    let project = makeProject(Self.store.merging(["App.swift": "final class App {}\n"]) { $1 })
    // Badge reads the accessor, and Screen creates it passing nothing yet.
    #expect {
      _ = try FinishPlanner.decide(
        singleton: try Self.singleton(project), options: FinishOptions(root: "App"), project: project, rewrite: nil)
    } throws: { error in
      let messages = (error as? Refusal)?.diagnostics.map(\.message) ?? []
      return messages.contains {
        $0.contains("'Badge'") && $0.contains("run 'desingleton inject --singleton Store --type Badge'")
      }
    }
  }

  @Test func mocksShapeFollowsTheProtocol() throws {
    let project = makeProject(Self.store.merging(["Package.swift": "", "Tests/Mocks/.keep.swift": ""]) { $1 })
    let declaration = try #require(project.index.declarations(of: "Counting").first)
    let design = try MocksPlanner.design(declaration, options: MocksOptions(outputDirectory: "Tests/Mocks"), project: project)
    #expect(design.mockName == "CountingMock")
    #expect(design.path == "Tests/Mocks/CountingMock.swift")
    #expect(design.shape == .plain)
  }
}
