import Foundation
import Testing

/// A migration never makes the accessor more used: `inject --all` leaves out a consumer whose
/// creators would write the accessor more often than the consumer used it, `finish` finds the root
/// that is left, and `check --baseline` stops new uses while a team migrates. Each write is type-checked
/// by the compiler in the loop (`--verify`).
@Suite(.serialized) struct RatchetTests {
  static let binary = packageRoot + "/.build/debug/desingleton"
  static let typeCheck = "swiftc -typecheck Sources/App/*.swift"

  static let store = """
    final class Store {
      static let shared = Store()
      private(set) var saved: [Int] = []
      func load() -> Int { saved.count }
      func save(_ value: Int) { saved.append(value) }
    }

    """

  /// `Widget` uses the accessor twice and an enum, which cannot take init parameters, creates it in
  /// three places: injecting it would write the accessor six times. `Panel` uses it twice and is
  /// created once: injecting it moves both uses up to the enum.
  static let widgets = """
    final class Widget {
      func refresh() -> Int { Store.shared.load() }
      func keep() { Store.shared.save(2) }
    }

    final class Panel {
      func show() { Store.shared.save(Store.shared.load()) }
    }

    enum Factory {
      case small, large
      func make() -> Widget {
        switch self {
        case .small: return Widget()
        case .large: return Widget()
        }
      }
      func another() -> Widget { Widget() }
      func panel() -> Panel { Panel() }
    }

    """

  func project(_ files: [String: String]) throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("desingleton-ratchet-\(UUID().uuidString)").path
    for (name, text) in files {
      let path = directory + "/" + name
      try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }
    try run(["git", "init", "-q"], in: directory)
    commit(directory)
    return directory
  }

  func commit(_ directory: String) {
    _ = try? run(["git", "add", "-A"], in: directory)
    _ = try? run(["git", "-c", "user.name=t", "-c", "user.email=t@localhost", "commit", "-qm", "step"], in: directory)
  }

  func desingleton(_ arguments: [String], in directory: String, verify: Bool = false) throws -> ProcessResult {
    try run([Self.binary] + arguments + (verify ? ["--verify", Self.typeCheck] : []), in: directory, verifying: verify)
  }

  func count(_ needle: String, in directory: String) throws -> Int {
    var total = 0
    for name in try FileManager.default.contentsOfDirectory(atPath: directory + "/Sources/App") {
      let text = try String(contentsOfFile: directory + "/Sources/App/" + name, encoding: .utf8)
      total += text.components(separatedBy: needle).count - 1
    }
    return total
  }

  @Test func injectAllLeavesOutAConsumerWhoseCreatorsWouldWriteTheAccessorMoreOften() throws {
    let directory = try project(["Sources/App/Store.swift": Self.store, "Sources/App/Widgets.swift": Self.widgets])
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let extract = try desingleton(
      ["extract-protocol", "--singleton", "Store", "--slice", "Loading=load", "--slice", "Saving=save"], in: directory, verify: true)
    #expect(extract.status == 0, "\(extract.standardError)")
    commit(directory)
    let before = try count("Store.shared", in: directory)

    let inject = try desingleton(["inject", "--all", "--singleton", "Store"], in: directory, verify: true)
    #expect(inject.status == 0, "\(inject.standardError)")
    #expect(inject.standardError.contains("verified: '\(Self.typeCheck)' succeeded"), "\(inject.standardError)")
    #expect(inject.standardError.contains("injecting it would use the accessor more, not less (1): Widget"), "\(inject.standardError)")
    #expect(
      inject.standardError.contains(
        "Sources/App/Widgets.swift:14:32: note: 'Widget': injecting it would write 'Store.shared' 6 times where it is created and remove 2 uses"),
      "\(inject.standardError)")
    let widgets = try String(contentsOfFile: directory + "/Sources/App/Widgets.swift", encoding: .utf8)
    #expect(widgets.contains("func refresh() -> Int { Store.shared.load() }"), "Widget is left as it was")
    #expect(widgets.contains("func panel() -> Panel { Panel(loading: Store.shared, saving: Store.shared) }"))
    #expect(try count("Store.shared", in: directory) <= before, "the accessor is never used more than before")
    commit(directory)

    let again = try desingleton(["inject", "--all", "--singleton", "Store", "--dry-run"], in: directory)
    #expect(again.status == 0 && again.output.isEmpty, "a second run plans nothing:\n\(again.output)\(again.standardError)")
  }

  @Test func finishWithoutARootTakesTheOneRootThatStillUsesTheAccessor() throws {
    let screen = """
      final class Screen {
        func tap() { Store.shared.save(Store.shared.load() + 1) }
      }

      final class AppCoordinator {
        let screen = Screen()
        func start() { screen.tap() }
      }

      """
    let directory = try project(["Sources/App/Store.swift": Self.store, "Sources/App/Screen.swift": screen])
    defer { try? FileManager.default.removeItem(atPath: directory) }
    for step in [["extract-protocol", "--singleton", "Store"], ["inject", "--all", "--singleton", "Store"]] {
      let result = try desingleton(step, in: directory, verify: true)
      #expect(result.status == 0, "\(step): \(result.standardError)")
      commit(directory)
    }
    let finish = try desingleton(["finish", "--singleton", "Store"], in: directory, verify: true)
    #expect(finish.status == 0, "\(finish.standardError)")
    #expect(finish.standardError.contains("verified: '\(Self.typeCheck)' succeeded"), "\(finish.standardError)")
    #expect(finish.standardError.contains("note: the composition root is 'AppCoordinator'; name another with --root"), "\(finish.standardError)")
    #expect(try count("Store.shared", in: directory) == 0, "the accessor is gone")
  }

  /// Two programs (two executable targets) each have a root that uses the accessor: `static let`
  /// gave each process its own instance, so `finish` without `--root` gives each root its own, the
  /// accessor goes, and the singleton gains the public init the other modules need.
  @Test func finishGivesEachProgramItsOwnRoot() throws {
    var files = [
      "Package.swift": """
      // swift-tools-version:5.9
      import PackageDescription

      let package = Package(
        name: "Two",
        targets: [
          .target(name: "Core"),
          .executableTarget(name: "AppA", dependencies: ["Core"]),
          .executableTarget(name: "AppB", dependencies: ["Core"]),
        ]
      )

      """,
      "Sources/Core/Store.swift": """
      public final class Store {
        nonisolated(unsafe) public static let shared = Store()
        public private(set) var count = 0
        public func bump() { count += 1 }
      }

      public final class Counter {
        public init() {}
        public func tap() -> Int {
          Store.shared.bump()
          return Store.shared.count
        }
      }

      """,
    ]
    for program in ["A", "B"] {
      files["Sources/App\(program)/Main\(program).swift"] =
        "import Core\n\nfinal class Main\(program) {\n  func run() -> Int { Counter().tap() + Store.shared.count }\n}\n"
      files["Sources/App\(program)/main.swift"] = "print(Main\(program)().run())\n"
    }
    let directory = try project(files)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let typeCheck = "d=$(mktemp -d) && swiftc -parse-as-library -emit-module -module-name Core -emit-module-path $d/Core.swiftmodule "
      + "Sources/Core/*.swift && swiftc -typecheck -I $d Sources/AppA/*.swift && swiftc -typecheck -I $d Sources/AppB/*.swift"
    for step in [["extract-protocol", "--singleton", "Store"], ["inject", "--all", "--singleton", "Store"]] {
      let result = try run([Self.binary] + step + ["--verify", typeCheck], in: directory, verifying: true)
      #expect(result.status == 0, "\(step): \(result.standardError)")
      commit(directory)
    }
    let finish = try run([Self.binary, "finish", "--singleton", "Store", "--verify", typeCheck], in: directory, verifying: true)
    #expect(finish.status == 0, "\(finish.standardError)")
    #expect(finish.standardError.contains("note: the composition roots are 'MainA', 'MainB', one per program"), "\(finish.standardError)")
    #expect(finish.standardError.contains("verified: "), "\(finish.standardError)")
    for program in ["A", "B"] {
      let main = try String(contentsOfFile: directory + "/Sources/App\(program)/Main\(program).swift", encoding: .utf8)
      #expect(main.contains("  private let store = Store()\n"), "\(main)")
      #expect(!main.contains("Store.shared"), "\(main)")
    }
    let store = try String(contentsOfFile: directory + "/Sources/Core/Store.swift", encoding: .utf8)
    #expect(!store.contains("static let shared"))
    #expect(store.contains("public final class Store {\n  public init() {}\n"), "\(store)")
    commit(directory)
    let again = try run([Self.binary, "finish", "--singleton", "Store"], in: directory)
    #expect(again.standardError.contains("nothing to do"), "\(again.standardError)")
  }

  /// `finish` names `inject --all` for each consumer one run of it injects (planned once for all of
  /// them), and for one that `--all` leaves (`Widget`: it would spread the accessor) what
  /// `inject --type` says; the suggested command takes the consumer.
  @Test func finishSuggestsInjectAllForTheConsumersItTakesAndTheTypeCommandsReasonForTheOthers() throws {
    let root = "final class AppRoot {\n  func start() -> Int { Store.shared.load() + Factory.small.make().refresh() }\n}\n"
    let directory = try project([
      "Sources/App/Store.swift": Self.store, "Sources/App/Widgets.swift": Self.widgets, "Sources/App/AppRoot.swift": root,
    ])
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let extract = try desingleton(["extract-protocol", "--singleton", "Store", "--slice", "Loading=load", "--slice", "Saving=save"], in: directory)
    #expect(extract.status == 0, "\(extract.standardError)")
    commit(directory)
    let finish = try desingleton(["finish", "--singleton", "Store", "--no-verify"], in: directory)
    #expect(finish.status == 1)
    #expect(
      finish.standardError
        == """
        note: the composition root is 'AppRoot'; name another with --root
        Sources/App/Widgets.swift:2:27: error: 'Store.shared' is still used by a consumer not yet injected 'Widget'; 'inject --type Widget' cannot take it yet: 'Widget': injecting it would write 'Store.shared' 6 times where it is created and remove 2 uses, so the accessor would be used more than before; inject the types that create it first, or pass the slices to them by hand
        Sources/App/Widgets.swift:3:17: error: 'Store.shared' is still used by a consumer not yet injected 'Widget'
        Sources/App/Widgets.swift:7:17: error: 'Store.shared' is still used by a consumer not yet injected 'Panel'; run 'desingleton inject --singleton Store --all'
        Sources/App/Widgets.swift:7:35: error: 'Store.shared' is still used by a consumer not yet injected 'Panel'
        Sources/App/AppRoot.swift:2:25: note: 'Store.shared' is used by the composition root 'AppRoot'

        """,
      "\(finish.standardError)")
    #expect(try run(["git", "status", "--porcelain"], in: directory).output.isEmpty, "nothing was written")
    let inject = try desingleton(["inject", "--singleton", "Store", "--all"], in: directory, verify: true)
    #expect(inject.status == 0, "\(inject.standardError)")
    let widgets = try String(contentsOfFile: directory + "/Sources/App/Widgets.swift", encoding: .utf8)
    #expect(widgets.contains("func show() { saving.save(loading.load()) }"), "the suggested command takes Panel:\n\(widgets)")
  }

  /// A consumer an earlier `inject --all` took whose required init must keep its parameters (a
  /// subclass inherits it) still reads the accessor through that init's default value; planned
  /// again, `inject --all` lists it with its references "rewritten" and writes nothing there. `finish`
  /// tells it what `inject --type` says (nothing to change), not to run `inject --all`: the shape of
  /// a real app's view controller (`favicons: Favicons = Favicons.shared` in `required init?(coder:…)`).
  @Test func finishSuggestsNoCommandThatWouldChangeNothingForAConsumer() throws {
    let favicons = """
      final class Favicons {
        static let shared = Favicons()
        private(set) var removed: [String] = []
        func removeBookmarkFavicon(forDomain domain: String) { removed.append(domain) }
        func clearCache() { removed = [] }
      }

      """
    let screens = """
      class Screen {
        required init?(coder: Int) {}
      }

      class Bookmarks: Screen {
        private let favicons: Favicons
        let parent: Int

        required init?(coder: Int, parent: Int = 0, favicons: Favicons = Favicons.shared) {
          self.favicons = favicons
          self.parent = parent
          super.init(coder: coder)
        }

        required init?(coder: Int) {
          fatalError("Not implemented")
        }

        func remove() { favicons.removeBookmarkFavicon(forDomain: "a") }

        func drill() -> Bookmarks? { Bookmarks(coder: 1, parent: parent + 1) }
      }

      final class Cleaner {
        func clean() { Favicons.shared.clearCache() }
      }

      final class AppRoot {
        let cleaner = Cleaner()
        func start() { _ = Bookmarks(coder: 1)?.remove(); _ = PinnedBookmarks(coder: 2) }
      }

      final class PinnedBookmarks: Bookmarks {}

      """
    let directory = try project(["Sources/App/Favicons.swift": favicons, "Sources/App/Screens.swift": screens])
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let extract = try desingleton(
      ["extract-protocol", "--singleton", "Favicons", "--slice", "CacheClearing=clearCache", "--slice",
       "BookmarkFaviconRemoving=removeBookmarkFavicon"], in: directory, verify: true)
    #expect(extract.status == 0, "\(extract.standardError)")
    let inject = try desingleton(["inject", "--all", "--singleton", "Favicons"], in: directory, verify: true)
    #expect(inject.status == 0, "\(inject.standardError)")
    #expect(inject.standardError.contains("required init?(coder:parent:favicons:) takes 'Favicons.shared'"), "\(inject.standardError)")
    // A new consumer, so that several block and `inject --all` is planned for them.
    try Data("final class Badge {\n  func clear() { Favicons.shared.clearCache() }\n}\n".utf8)
      .write(to: URL(fileURLWithPath: directory + "/Sources/App/Badge.swift"))
    commit(directory)
    let finish = try desingleton(["finish", "--singleton", "Favicons", "--root", "AppRoot", "--no-verify"], in: directory)
    #expect(finish.status == 1)
    let lines = finish.standardError.split(separator: "\n").map(String.init)
    #expect(
      lines.contains(
        "Sources/App/Badge.swift:2:18: error: 'Favicons.shared' is still used by a consumer not yet injected 'Badge'; run 'desingleton inject --singleton Favicons --all'"),
      "\(finish.standardError)")
    #expect(
      lines.contains(
        "Sources/App/Screens.swift:19:19: error: 'Favicons.shared' is still used by a consumer not yet injected 'Bookmarks'; 'inject --type Bookmarks' cannot take it yet: it would change nothing"),
      "\(finish.standardError)")
  }

  @Test func finishWithoutARootNamesTheCandidatesWhenThereAreSeveral() throws {
    let screens = """
      final class First {
        func tap() { Store.shared.save(1) }
      }

      final class Second {
        func tap() { Store.shared.save(2) }
      }

      """
    let directory = try project(["Sources/App/Store.swift": Self.store, "Sources/App/Screens.swift": screens])
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let finish = try desingleton(["finish", "--singleton", "Store", "--no-verify"], in: directory)
    #expect(finish.status == 1)
    #expect(
      finish.standardError
        == """
        Sources/App/Store.swift:2:3: note: several types could own the instance of 'Store' (First, Second); what still blocks with 'First' as the root is listed; name another with --root
        Sources/App/Screens.swift:6:16: error: 'Store.shared' is still used by a consumer not yet injected 'Second'; 'inject --type Second' cannot take it yet: 'Store' conforms to no protocol declared in this code; run 'desingleton extract-protocol --singleton Store' first
        Sources/App/Screens.swift:2:16: note: 'Store.shared' is used by the composition root 'First'

        """,
      "\(finish.standardError)")
    #expect(try run(["git", "status", "--porcelain"], in: directory).output.isEmpty, "nothing was written")
  }

  @Test func checkFailsOnANewUseWithItsPlaceAndPassesWhenOneIsRemoved() throws {
    let directory = try project(["Sources/App/Store.swift": Self.store, "Sources/App/Widgets.swift": Self.widgets])
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let baseline = directory + "/accessor-baseline.json"

    // No baseline yet: it is written, listing each use's line.
    let first = try desingleton(["check", "--baseline", "accessor-baseline.json"], in: directory)
    #expect(first.status == 0, "\(first.standardError)")
    #expect(first.standardError == "wrote the baseline 'accessor-baseline.json': 4 uses of 1 singleton\n")
    let written = try String(contentsOfFile: baseline, encoding: .utf8)
    #expect(
      written == """
        {
          "version": 1,
          "uses": {
            "Store": {
              "Sources/App/Widgets.swift": [
                "func refresh() -> Int { Store.shared.load() }",
                "func keep() { Store.shared.save(2) }",
                "func show() { Store.shared.save(Store.shared.load()) }",
                "func show() { Store.shared.save(Store.shared.load()) }"
              ]
            }
          }
        }

        """)
    commit(directory)

    // A new use fails with its place; code moving down the file does not.
    let widgets = directory + "/Sources/App/Widgets.swift"
    let original = try String(contentsOfFile: widgets, encoding: .utf8)
    try ("// Widgets.\n\n" + original.replacingOccurrences(
      of: "  func keep() { Store.shared.save(2) }\n", with: "  func keep() { Store.shared.save(2) }\n  func drop() { Store.shared.save(0) }\n"))
      .write(toFile: widgets, atomically: true, encoding: .utf8)
    let added = try desingleton(["check", "--baseline", "accessor-baseline.json"], in: directory)
    #expect(added.status == 1)
    #expect(
      added.output
        == "Sources/App/Widgets.swift:6:17: error: new use of 'Store.shared': the baseline lists 4 in this file; pass the slice it needs instead\n")
    let github = try desingleton(["check", "--baseline", "accessor-baseline.json", "--format", "github"], in: directory)
    #expect(github.status == 1)
    #expect(github.output.hasPrefix("::error file=Sources/App/Widgets.swift,line=6,col=17::new use of 'Store.shared'"), "\(github.output)")
    #expect(try String(contentsOfFile: baseline, encoding: .utf8) == written, "a failing check leaves the baseline alone")

    // One use removed: it passes, says so, and --update-baseline records the lower count.
    try original.replacingOccurrences(of: "  func keep() { Store.shared.save(2) }\n", with: "")
      .write(toFile: widgets, atomically: true, encoding: .utf8)
    let removed = try desingleton(["check", "--baseline", "accessor-baseline.json"], in: directory)
    #expect(removed.status == 0)
    #expect(removed.standardError == "check: no new use; 1 fewer than the baseline lists (record it with --update-baseline)\n")
    #expect(try String(contentsOfFile: baseline, encoding: .utf8) == written)
    let updated = try desingleton(["check", "--baseline", "accessor-baseline.json", "--update-baseline"], in: directory)
    #expect(updated.status == 0)
    #expect(updated.standardError == "check: 1 use fewer; the baseline now lists 3\n")
    #expect(try String(contentsOfFile: baseline, encoding: .utf8) == written.replacingOccurrences(of: "        \"func keep() { Store.shared.save(2) }\",\n", with: ""))
  }

  @Test func checkRefusesABrokenBaselineAndOneOutsideTheProject() throws {
    let directory = try project(["Sources/App/Store.swift": Self.store, "Sources/App/Widgets.swift": Self.widgets, "base.json": "[1, 2]\n"])
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let broken = try desingleton(["check", "--baseline", "base.json"], in: directory)
    #expect(broken.status == 1)
    #expect(broken.standardError.hasPrefix("base.json:1:1: error: the baseline is not a JSON object"), "\(broken.standardError)")
    let outside = try desingleton(["check", "--baseline", "../outside-\(UUID().uuidString).json"], in: directory)
    #expect(outside.status == 1)
    #expect(outside.standardError.contains("lies outside the project"), "\(outside.standardError)")
    #expect(try run(["git", "status", "--porcelain"], in: directory).output.isEmpty, "nothing was written")
  }
}
