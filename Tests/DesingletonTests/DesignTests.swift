import DesingletonCore
import Foundation
import DesingletonIndex
@testable import DesingletonPlanner
import SwiftParser
import SwiftSyntax
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

  /// The `--all` retry is `decide(excluding:)` over the same steps: an attempt that meets a consumer
  /// it cannot handle names it, and the next attempt, given it to leave out, skips it with the reason.
  @Test func injectRetriesByDecidingAgainWithoutWhatAnAttemptCouldNotHandle() throws {
    var files = Self.store
    files["App.swift"] = """
    final class App {
      func start() -> Screen { Screen() }
      let make: () -> Badge = Badge.init
    }

    """
    let project = makeProject(files)
    let context = InjectContext(singleton: try Self.singleton(project), options: InjectOptions(), project: project)
    let analysed = try context.analyse()
    #expect(analysed.order == ["Badge", "Screen"])
    guard case .refused(let problems) = try context.decide(analysed, excluding: InjectExclusions()) else {
      Issue.record("the first attempt designed, though 'Badge.init' is passed as a function")
      return
    }
    #expect(problems.keys.sorted() == ["Badge"])
    #expect(problems["Badge"]?.reason == .creationSite)
    let left = InjectExclusions(consumers: [context.skipped("Badge", .creationSite, problems["Badge"]?.diagnostics ?? [])])
    guard case .designed(let design) = try context.decide(analysed, excluding: left) else {
      Issue.record("the second attempt did not design")
      return
    }
    #expect(design.consumers.map(\.typeName) == ["Screen"])
    #expect(design.skipped.map(\.typeName) == ["Badge"])
    // The whole decision is the same: `InjectPlanner.decide` runs these attempts until one designs.
    let whole = try InjectPlanner.decide(singleton: try Self.singleton(project), options: InjectOptions(), project: project)
    #expect(whole.consumers.map(\.typeName) == design.consumers.map(\.typeName))
    #expect(whole.skipped.map(\.reason) == [.creationSite])
    #expect(whole.skipped.map(\.diagnostics) == design.skipped.map(\.diagnostics))
  }

  /// Each step takes what the steps before it decided and returns what it decides, so one step can be
  /// asked on its own: here, the names of the new properties beside a member that takes one.
  @Test func aStepIsAFunctionOfWhatItIsGiven() throws {
    var files = Self.store
    files["Badge.swift"] = """
    final class Badge {
      let counting = 1
      func refresh() -> Int { Store.shared.count + counting }
    }

    """
    let project = makeProject(files)
    let context = InjectContext(singleton: try Self.singleton(project), options: InjectOptions(types: ["Badge"]), project: project)
    let analysed = try context.analyse()
    let badge = try #require(analysed.consumers["Badge"])
    #expect(badge.protocols == ["Counting"])
    #expect(badge.names.isEmpty)
    let named = try context.nameProperties(badge)
    #expect(named.name(of: "Counting") == "counting2")
    #expect(try context.nameProperties(badge).names == named.names)
  }

  @Test func extractCutsTheNamedMembersIntoOneProtocolAndConformsTheSingleton() throws {
    var files = Self.store
    files["Counting.swift"] = nil
    let project = makeProject(files)
    let options = ExtractProtocolOptions(slices: [Slice(name: "Titled", members: ["title"])])
    let context = try ExtractProtocolPlanner.Context(singleton: try Self.singleton(project), options: options, project: project)
    let decided = try #require(try ExtractProtocolPlanner.decide(context))
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
        singleton: try Self.singleton(project), options: FinishOptions(root: "App", nextStep: NextCommand.injectTypes),
        project: project, rewrite: nil)
    } throws: { error in
      let messages = (error as? Refusal)?.diagnostics.map(\.message) ?? []
      return messages.contains {
        $0.contains("'Badge'") && $0.contains("run 'desingleton inject --singleton Store --type Badge'")
      }
    }
  }

  /// `finish` plans no other command: the next step comes from whoever composes the commands
  /// (`FinishOptions.nextStep`), and without one it names the consumer and suggests nothing.
  @Test func finishAsksTheNextStepItIsGivenAndPlansNoOtherCommand() throws {
    let project = makeProject(Self.store.merging(["App.swift": "final class App {}\n"]) { $1 })
    func messages(_ options: FinishOptions) throws -> [String] {
      do {
        _ = try FinishPlanner.decide(singleton: try Self.singleton(project), options: options, project: project, rewrite: nil)
        return []
      } catch let refusal as Refusal {
        return refusal.diagnostics.map(\.message).filter { $0.contains("'Badge'") }
      }
    }
    let asked = AskedSteps()
    let given = try messages(
      FinishOptions(root: "App", nextStep: { consumers, singleton, _, _ in
        asked.append("\(singleton.typeName) \(consumers.joined(separator: ","))")
        return Dictionary(uniqueKeysWithValues: consumers.map { ($0, "; next: \($0)") })
      }))
    #expect(asked.all == ["Store Badge"])
    // The consumer's first use carries the next step, its others do not repeat it.
    let used = "'Store.shared' is still used by a consumer not yet injected 'Badge'"
    #expect(given == [used + "; next: Badge", used])
    #expect(try messages(FinishOptions(root: "App")) == [used, used])
  }

  @Test func mocksShapeFollowsTheProtocol() throws {
    let project = makeProject(Self.store.merging(["Package.swift": "", "Tests/Mocks/.keep.swift": ""]) { $1 })
    let declaration = try #require(project.index.declarations(of: "Counting").first)
    let design = try MocksPlanner.design(declaration, options: MocksOptions(outputDirectory: "Tests/Mocks"), project: project)
    #expect(design.mockName == "CountingMock")
    #expect(design.path == "Tests/Mocks/CountingMock.swift")
    #expect(design.shape == .plain)
  }

  /// The type a stored property's initial value has, written out when it moves into an init.
  @Test(arguments: [
    ("Box(count: 1)", "Box"), ("Box.init(count: 1)", "Box"), ("Pair<Int>(count: 1)", "Pair<Int>"),
    ("Pair(count: 1)", nil), ("try! Box(count: 1)", "Box"), ("try? Box(count: 1)", nil), ("Box(count: 1)!", "Box"),
    ("Outer.Inner(count: 1)", "Outer.Inner"), ("Counting(count: 1)", nil), ("make()", nil),
  ] as [(String, String?)])
  func writtenTypeOfAnInitialValue(value: String, expected: String?) throws {
    let project = makeProject([
      "Types.swift": """
      struct Box { init(count: Int) {} }
      struct Pair<Tag> { init(count: Int) {} }
      enum Outer { struct Inner { init(count: Int) {} } }
      protocol Counting {}

      """
    ])
    let expression = try #require(Parser.parse(source: value).statements.first?.item.as(ExprSyntax.self))
    #expect(InitCallFinder.writtenType(of: expression, index: project.index) == expected)
  }

  /// Which required inits keep their signature (and take the shared instance) and which are an init
  /// like any other, given inline sources: the answer for `required init()` of `Target`.
  @Test(arguments: [
    ("class Target { required init() {} }", false),
    ("final class Target { required init() {} }", false),
    ("class Target { required init() {} }\nfinal class Sub: Target { required init() {} }", true),
    ("class Base { required init() {} }\nfinal class Target: Base { required init() {} }", true),
    ("class Base { init(id: Int) {} }\nfinal class Target: Base { required init() { super.init(id: 1) } }", false),
    ("import Foundation\nclass Target: NSObject { required override init() {} }", true),
    ("protocol Making { init() }\nfinal class Target: Making { required init() {} }", true),
    ("protocol Naming {}\nfinal class Target: Naming { required init() {} }", false),
    ("final class Target: Equatable { required init() {}\nstatic func == (a: Target, b: Target) -> Bool { true } }", false),
    ("final class Target: SomeUnknownProtocol { required init() {} }", true),
    ("final class Target { required init() {} }\nfunc make(_ type: Target.Type) -> Target { type.init() }", true),
    ("final class Target { required init() {}\nfunc copy() -> Self { Self() } }", true),
    ("final class Target { required init() {} }\nfunc make<T: Target>(_ type: T.Type) -> T { T() }", true),
    ("final class Target { required init() {} }\nfunc make<T: Target, U>(_ u: U) -> String { String(describing: u) }", true),
    ("final class Target { required init() {} }\nfunc pair(_ a: Target, _ b: Int) -> Int { b }", false),
    ("final class Target { required init() {} }\nlet kind = Target.self", true),
    ("final class Target { required init() {} }\nfunc make<T>(_ type: T.Type) -> T where T: Target { T() }", true),
    ("final class Target { required init() {} }\nfunc same<T>(_ value: T) where T == Target {}", true),
    ("final class Target { required init() {}\nfunc again() -> Target { type(of: self).init() } }", true),
    // Words in a comment or a string are no metatype.
    ("final class Target { required init() {} }\n// Target.self, Target.Type, <T: Target>\nlet text = \"Target.Type\"", false),
    // Through a type alias, in a file that never spells the type (after `---`: another file).
    ("final class Target { required init() {} }\ntypealias Made = Target\nlet kind = Made.self", true),
    ("final class Target { required init() {} }\ntypealias Made = Target\n---\nfunc make(_ type: Made.Type) -> Made { type.init() }", true),
    ("final class Target { required init() {} }\ntypealias Made = Target\n---\nfunc make<T: Made>(_ type: T.Type) -> T { T() }", true),
    ("final class Target { required init() {} }\ntypealias Made = Target\n---\nfunc make() -> Made { Made() }", false),
  ])
  func aRequiredInitKeepsItsSignatureOnlyWhereSomethingNeedsIt(source: String, keeps: Bool) throws {
    let parts = source.components(separatedBy: "\n---\n")
    var files = ["Target.swift": parts[0] + "\n"]
    if parts.count > 1 { files["Other.swift"] = parts[1] + "\n" }
    let project = makeProject(files)
    let member = try #require(project.index.members(of: "Target").first { $0.kind == .initializer })
    #expect(project.requiredInitKeepsItsSignature(member, of: "Target") == keeps, "\(source)")
  }
}

/// What a `nextStep` was asked, from any thread.
private final class AskedSteps: @unchecked Sendable {
  private let lock = NSLock()
  private var asked: [String] = []

  func append(_ step: String) {
    lock.lock()
    asked.append(step)
    lock.unlock()
  }

  var all: [String] {
    lock.lock()
    defer { lock.unlock() }
    return asked
  }
}
