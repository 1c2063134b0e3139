import Foundation
import Testing

/// Runs the real binary: exit codes, error format, safety guarantees.
@Suite(.serialized) struct CommandLineTests {
  static let binary = packageRoot + "/.build/debug/desingleton"

  static let store = """
    @MainActor
    final class Store {
    \tstatic let shared = Store()
    \tvar count = 0
    \tfunc bump() { count += 1 }
    }

    """

  static let consumer = """
    @MainActor
    final class Counter {
    \tfunc tap() {
    \t\tStore.shared.bump()
    \t}
    }

    """

  /// A scratch directory with the given files, optionally under git with everything committed.
  func project(_ files: [String: String], git: Bool = false) throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("desingleton-cli-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    for (name, text) in files {
      let path = directory + "/" + name
      try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }
    if git {
      try run(["git", "init", "-q"], in: directory)
      try run(["git", "add", "-A"], in: directory)
      try run(["git", "-c", "user.name=t", "-c", "user.email=t@localhost", "commit", "-qm", "base"], in: directory)
    }
    return directory
  }

  func desingleton(_ arguments: [String], in directory: String) throws -> ProcessResult {
    try run([Self.binary] + arguments, in: directory)
  }

  /// Every file's bytes, to prove nothing changed.
  func snapshot(_ directory: String) throws -> [String: Data] {
    var result: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(atPath: directory)
    while let name = enumerator?.nextObject() as? String {
      if name.hasPrefix(".git") { continue }
      var isDirectory: ObjCBool = false
      let path = directory + "/" + name
      if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
        result[name] = FileManager.default.contents(atPath: path)
      }
    }
    return result
  }

  func bytes(_ path: String) -> [UInt8] {
    FileManager.default.contents(atPath: path).map { [UInt8]($0) } ?? []
  }

  @Test func missingPathIsAnErrorWithExitOne() throws {
    let directory = try project([:])
    let result = try desingleton(["scan", "nowhere"], in: directory)
    #expect(result.status == 1)
    #expect(result.standardError == "error: no such file or directory: 'nowhere'\n")
  }

  @Test func configurationFileIsFoundUpToTheGitRootAndNoFurther() throws {
    let outer = try project([
      ".desingleton.json": "{\"version\": 1, \"excludes\": [\"Store.swift\"]}",
      "repo/.desingleton.json": "{\"version\": 1, \"accessors\": [\"current\"], \"colour\": 1}",
      "repo/Sources/Env.swift": "final class Env: Sendable {\n  static let current = Env()\n  func f() {}\n}\n",
      "repo/Sources/Store.swift": Self.store,
    ])
    let repo = outer + "/repo"
    try run(["git", "init", "-q"], in: repo)
    // From a folder below the root: the root's file, named relative to where the command runs.
    let below = try desingleton(["scan"], in: repo + "/Sources")
    #expect(below.status == 0)
    #expect(below.standardError == "../.desingleton.json:1:42: warning: unknown key 'colour'\n")
    #expect(below.output.contains("Env.current") && below.output.contains("Store.shared"))
    // Without the root's file, the one above the git root is not read.
    try FileManager.default.removeItem(atPath: repo + "/.desingleton.json")
    let alone = try desingleton(["scan"], in: repo + "/Sources")
    #expect(alone.standardError.isEmpty && !alone.output.contains("Env.current") && alone.output.contains("Store.shared"))
    // --config names any file; a missing one is an error.
    let named = try desingleton(["scan", "--config", "../../.desingleton.json"], in: repo + "/Sources")
    #expect(!named.output.contains("Store.shared"))
    let missing = try desingleton(["scan", "--config", "nope.json"], in: repo)
    #expect(missing.status == 1 && missing.standardError == "error: no such configuration file: 'nope.json'\n")
  }

  @Test func badUsageExitsTwo() throws {
    let directory = try project(["Store.swift": Self.store])
    #expect(try desingleton(["scan", "--no-such-flag"], in: directory).status == 2)
    #expect(try desingleton(["inject"], in: directory).status == 2)
    #expect(try desingleton(["frobnicate"], in: directory).status == 2)
    #expect(try desingleton(["finish", "--root", "App", "--container", "unity"], in: directory).status == 2)
    #expect(try desingleton(["finish", "--root", "App", "--container", "none", "--dependency-wrapper"], in: directory).status == 2)
    // Without --container the container may come from the configuration file: a refusal once it is read.
    let wrapper = try desingleton(["finish", "--root", "App", "--dependency-wrapper"], in: directory)
    #expect(wrapper.status == 1 && wrapper.standardError.contains("needs the 'dependencies' container"))
    #expect(try desingleton(["finish", "--root", "App", "--container", "swinject", "--dependency-wrapper"], in: directory).status == 2)
    #expect(try desingleton(["--help"], in: directory).status == 0)
  }

  @Test func unknownSingletonListsTheOnesThereAre() throws {
    let directory = try project(["Store.swift": Self.store])
    let result = try desingleton(["scan", "--singleton", "Nope"], in: directory)
    #expect(result.status == 1)
    #expect(result.standardError == "error: no singleton named 'Nope'; singletons found: Store\n")
  }

  @Test func scanGoesOnPastBrokenAndNonUTF8Files() throws {
    let directory = try project([
      "Store.swift": Self.store, "Counter.swift": Self.consumer, "Broken.swift": "func f( {\n",
    ])
    try Data([0x66, 0x75, 0x6E, 0x63, 0xFF, 0xFE, 0x0A]).write(to: URL(fileURLWithPath: directory + "/Latin1.swift"))
    let result = try desingleton(["scan", "--full", "--format", "json"], in: directory)
    #expect(result.status == 0)
    #expect(result.output.contains("\"type\" : \"Store\""))
    #expect(result.output.contains("Broken.swift:1:8: warning: the file has syntax errors"))
    #expect(result.output.contains("Latin1.swift:1:1: warning: the file is not valid UTF-8; skipped"))
    let json = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
    #expect((json?["singletons"] as? [Any])?.count == 1)
    // Without --full, a file that can hold nothing the scan looks for is read, not parsed: its
    // syntax errors are not known. Every file is still read, so an unreadable one is reported.
    let phased = try desingleton(["scan", "--format", "json"], in: directory)
    #expect(phased.status == 0)
    #expect(!phased.output.contains("Broken.swift"))
    #expect(phased.output.contains("Latin1.swift:1:1: warning: the file is not valid UTF-8; skipped"))
    #expect(phased.output.replacingOccurrences(of: "\n", with: "").contains("\"files\" : 3"))
  }

  @Test func aBrokenFileThatCanMatterIsReported() throws {
    let directory = try project(["Store.swift": Self.store, "Broken.swift": "func f( {\n  Store.shared.count\n"])
    let result = try desingleton(["scan", "--format", "json"], in: directory)
    #expect(result.status == 0)
    #expect(result.output.contains("Broken.swift:1:8: warning: the file has syntax errors"))
  }

  @Test func symlinkLoopIsSkipped() throws {
    let directory = try project(["Sources/Store.swift": Self.store])
    try FileManager.default.createSymbolicLink(atPath: directory + "/Sources/loop", withDestinationPath: directory + "/Sources")
    let result = try desingleton(["scan"], in: directory)
    #expect(result.status == 0)
    #expect(result.standardError.contains("symlink loop"))
    #expect(result.output.hasPrefix("1 singleton in 1 files"))
  }

  @Test func aFileThatDoesNotParseIsRefusedWhenItMustChange() throws {
    let broken = Self.store.replacingOccurrences(of: "func bump() { count += 1 }", with: "func bump() { count += }")
    let directory = try project(["Store.swift": broken, "Counter.swift": Self.consumer])
    let before = try snapshot(directory)
    let result = try desingleton(["extract-protocol"], in: directory)
    #expect(result.status == 1)
    #expect(result.standardError.hasPrefix("Store.swift:5:"))
    #expect(result.standardError.contains(": error: "))
    #expect(result.standardError.hasSuffix("the command needs this file, and it does not parse; fix it, or leave it out with --exclude\n"))
    #expect(result.standardError.split(separator: "\n").count == 1, "one line for the file: \(result.standardError)")
    #expect(try snapshot(directory) == before)
  }

  @Test func dryRunWritesNothingAndExitsZero() throws {
    let directory = try project(["Store.swift": Self.store, "Counter.swift": Self.consumer])
    let before = try snapshot(directory)
    let result = try desingleton(["extract-protocol", "--dry-run"], in: directory)
    #expect(result.status == 0)
    #expect(result.output.hasPrefix("diff --git "))
    #expect(try snapshot(directory) == before)
  }

  @Test func aReadOnlyFileStopsEveryWrite() throws {
    let directory = try project(["Store.swift": Self.store, "Counter.swift": Self.consumer])
    try run(["chmod", "0444", directory + "/Store.swift"])
    let before = try snapshot(directory)
    let result = try desingleton(["extract-protocol"], in: directory)
    #expect(result.status == 1)
    #expect(result.standardError.contains("Store.swift"))
    #expect(result.standardError.contains("read-only"))
    #expect(try snapshot(directory) == before)
  }

  @Test func uncommittedChangesAreProtected() throws {
    let directory = try project(["Store.swift": Self.store, "Counter.swift": Self.consumer], git: true)
    try Data((Self.store + "// mine\n").utf8).write(to: URL(fileURLWithPath: directory + "/Store.swift"))
    let before = try snapshot(directory)
    let refused = try desingleton(["extract-protocol"], in: directory)
    #expect(refused.status == 1)
    #expect(refused.standardError.contains("'Store.swift' has uncommitted changes"))
    #expect(try snapshot(directory) == before)
    #expect(try desingleton(["extract-protocol", "--dry-run"], in: directory).status == 0)
    let allowed = try desingleton(["extract-protocol", "--allow-dirty"], in: directory)
    #expect(allowed.status == 0)
    #expect(try snapshot(directory) != before)
  }

  @Test func theSameInputGivesTheSameOutputWhateverTheThreads() throws {
    var files: [String: String] = ["Store.swift": Self.store]
    for number in 0..<40 {
      files["Counter\(number).swift"] = Self.consumer.replacingOccurrences(of: "Counter", with: "Counter\(number)")
    }
    let directory = try project(files)
    var outputs: Set<String> = []
    for threads in ["1", "2", "4", "8"] {
      for command in [["scan", "--format", "json"], ["extract-protocol", "--dry-run"]] {
        let result = try desingleton(command + ["--threads", threads], in: directory)
        #expect(result.status == 0)
        outputs.insert(command[0] + result.output + result.standardError)
      }
    }
    #expect(outputs.count == 2)
  }

  /// BOM, CRLF, tabs, emoji before an edit, no final newline: every untouched byte survives.
  @Test func encodingAndLayoutAreKept() throws {
    let store = "\u{FEFF}" + Self.store.replacingOccurrences(of: "\n", with: "\r\n")
    let consumer = "// 🛒 Zähler — counts taps 👍\r\n" + Self.consumer.replacingOccurrences(of: "\n", with: "\r\n").dropLast(1)
    let directory = try project(["Store.swift": store, "Counter.swift": String(consumer)], git: true)
    #expect(try desingleton(["extract-protocol"], in: directory).status == 0)
    try run(["git", "add", "-A"], in: directory)
    try run(["git", "-c", "user.name=t", "-c", "user.email=t@localhost", "commit", "-qm", "slices"], in: directory)
    // `count` no consumer uses stays on the singleton; `bump` is the slice.
    #expect(bytes(directory + "/Store.swift") == Array((store + "\r\nextension Store: BumpService {}\r\n").utf8))
    #expect(bytes(directory + "/BumpService.swift") == Array("@MainActor\r\nprotocol BumpService: AnyObject, Sendable {\r\n\tfunc bump()\r\n}\r\n".utf8))

    let injection = try desingleton(["inject", "--all"], in: directory)
    #expect(injection.status == 0, "\(injection.standardError)")
    let injected = String(decoding: bytes(directory + "/Counter.swift"), as: UTF8.self)
    let expected = String(consumer)
      .replacingOccurrences(of: "final class Counter {\r\n", with: "final class Counter {\r\n\tprivate let bumpService: BumpService\r\n\r\n\tinit(bumpService: BumpService) {\r\n\t\tself.bumpService = bumpService\r\n\t}\r\n\r\n")
      .replacingOccurrences(of: "Store.shared.bump()", with: "bumpService.bump()")
    #expect(injected == expected)
  }

  /// Files that reach the accessor without naming the type are read before `finish` deletes it.
  /// (`show(.shared)` may be `Store.shared`: one `show` takes a generic value.)
  @Test func finishReadsFilesThatUseTheAccessorThroughAnAliasOrAnImplicitMember() throws {
    let directory = try project([
      "Store.swift": Self.store
        + "typealias S = Store\n\n@MainActor func show(_ store: Store) -> Int { store.count }\n\nfunc show<T: Sendable>(_ value: T) -> Int { 0 }\n",
      "App.swift": "@MainActor\nfinal class App {\n\tfunc start() { Store.shared.bump() }\n}\n",
      "Badge.swift": "@MainActor\nfinal class Badge {\n\tfunc text() -> Int { S.shared.count }\n}\n",
      "Panel.swift": "@MainActor\nfinal class Panel {\n\tfunc text() -> Int { show(.shared) }\n}\n",
    ], git: true)
    let before = try snapshot(directory)
    let result = try desingleton(["finish", "--singleton", "Store", "--root", "App"], in: directory)
    #expect(result.status == 1)
    #expect(result.standardError.contains("Badge.swift:3:23: error: 'Store.shared' is still used by a consumer not yet injected 'Badge'"))
    #expect(result.standardError.contains("Panel.swift:3:28: error: '.shared' may be 'Store.shared'"))
    #expect(try snapshot(directory) == before)
  }

  /// Several types could own the instance: finish names them, entry points first, lists what
  /// still blocks with the first as the root (the others' uses among it), and changes nothing.
  @Test func finishWithSeveralPossibleOwnersListsWhatBlocksWithTheLikeliest() throws {
    let directory = try project([
      "Store.swift": Self.store,
      "APanel.swift": "@MainActor\nfinal class Panel {\n\tfunc start() { Store.shared.bump() }\n}\n",
      "Delegates.swift": """
        protocol NSApplicationDelegate {}
        @MainActor
        final class MainDelegate: NSApplicationDelegate {
        \tfunc launched() { Store.shared.bump() }
        }
        @MainActor
        final class HelperDelegate: NSApplicationDelegate {
        \tfunc launched() { Store.shared.bump() }
        }

        """,
    ], git: true)
    let before = try snapshot(directory)
    let result = try desingleton(["finish", "--singleton", "Store"], in: directory)
    #expect(result.status == 1)
    #expect(
      result.standardError == """
        Store.swift:3:2: note: several types could own the instance of 'Store' (MainDelegate, HelperDelegate, Panel); what still blocks with 'MainDelegate' as the root is listed; name another with --root
        APanel.swift:3:17: error: 'Store.shared' is still used by a consumer not yet injected 'Panel'; 'inject --type Panel' cannot take it yet: 'Store' conforms to no protocol declared in this code; run 'desingleton extract-protocol --singleton Store' first
        Delegates.swift:8:20: error: 'Store.shared' is still used by a type the system creates 'HelperDelegate'; it cannot take init parameters: give it a property that whoever configures it sets, or keep the accessor there until the root passes it on
        Delegates.swift:4:20: note: 'Store.shared' is used by the composition root 'MainDelegate'

        """, "\(result.standardError)")
    #expect(try snapshot(directory) == before)
  }

  /// A scratch Xcode app: the singleton and its consumer, and the project file listing them.
  func xcodeProject(git: Bool = false) throws -> String {
    try project([
      "Sources/App/Store.swift": Self.store,
      "Sources/App/Screens/Phone.swift": Self.consumer,
      "Shared/Root.swift": "@MainActor\nfinal class Root {}\n",
      "Tests/StoreTests.swift": "",
      "App.xcodeproj/project.pbxproj": XcodeProjectTests.classic,
    ], git: git)
  }

  @Test func verifyFailingRestoresEveryFileByteForByte() throws {
    let directory = try xcodeProject(git: true)
    let before = try snapshot(directory)
    // The check sees the new files in place, then fails like a compiler.
    let check = "grep -q Counting.swift App.xcodeproj/project.pbxproj && test -f Sources/App/Counting.swift && "
      + "grep -q 'extension Store: Counting' Sources/App/Store.swift && "
      + "echo 'building'; echo 'Sources/App/Store.swift:9:1: error: boom'; echo 'more'; exit 3"
    let result = try desingleton(["extract-protocol", "--slice", "Counting=count,bump", "--verify", check], in: directory)
    #expect(result.status == 1)
    #expect(
      result.standardError
        == "Sources/App/Store.swift:9:1: error: boom\n"
        + "error: '\(check)' failed (exit 3) after the changes were written; every file was restored\n")
    #expect(try snapshot(directory) == before)
    #expect(!FileManager.default.fileExists(atPath: directory + "/Sources/App/Counting.swift"))
    #expect((try run(["git", "status", "--porcelain"], in: directory)).output == "")
  }

  @Test func verifyFailingWithoutErrorLinesShowsTheEndOfTheOutput() throws {
    let directory = try xcodeProject()
    let before = try snapshot(directory)
    let result = try desingleton(
      ["extract-protocol", "--slice", "Counting=count,bump", "--verify", "seq 1 30; exit 1"], in: directory)
    #expect(result.status == 1)
    #expect(result.standardError.hasPrefix((11...30).map { "\($0)\n" }.joined()))
    #expect(try snapshot(directory) == before)
  }

  @Test func verifyPassingKeepsTheChanges() throws {
    let directory = try xcodeProject()
    let result = try desingleton(
      ["extract-protocol", "--slice", "Counting=count,bump", "--verify", "test -f Sources/App/Counting.swift"], in: directory)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardError.contains("verified: 'test -f Sources/App/Counting.swift' succeeded"))
    #expect(FileManager.default.fileExists(atPath: directory + "/Sources/App/Counting.swift"))
    let checked = try IndependentReader.readFile(directory + "/App.xcodeproj/project.pbxproj")
    #expect(checked.targets["Phone"]?.contains("Sources/App/Counting.swift") == true)
    #expect(checked.targets["Mac"]?.contains("Sources/App/Counting.swift") == true)
    #expect(checked.targets["PhoneTests"]?.contains("Sources/App/Counting.swift") == false)
    #expect(checked.duplicateIds.isEmpty && checked.dangling.isEmpty)
  }

  @Test func verifyOnInjectAndFinishAndNotWithDryRun() throws {
    let directory = try project(["Store.swift": Self.store, "Counter.swift": Self.consumer])
    let before = try snapshot(directory)
    #expect(try desingleton(["extract-protocol", "--dry-run", "--verify", "true"], in: directory).status == 2)
    #expect(try desingleton(["extract-protocol", "--slice", "Counting=count,bump"], in: directory).status == 0)
    let extracted = try snapshot(directory)
    #expect(extracted != before)
    let inject = try desingleton(["inject", "--all", "--verify", "false"], in: directory)
    #expect(inject.status == 1)
    #expect(try snapshot(directory) == extracted)
    #expect(try desingleton(["inject", "--all", "--verify", "true"], in: directory).status == 0)
    let injected = try snapshot(directory)
    #expect(injected != extracted)
    #expect(try desingleton(["finish", "--root", "Counter", "--verify", "exit 2"], in: directory).status == 1)
    #expect(try snapshot(directory) == injected)
  }

  @Test func theDryRunDiffShowsTheProjectFileEdit() throws {
    let directory = try xcodeProject(git: true)
    let result = try desingleton(["extract-protocol", "--slice", "Counting=count,bump", "--dry-run"], in: directory)
    #expect(result.status == 0)
    #expect(result.output.contains("--- a/App.xcodeproj/project.pbxproj\n+++ b/App.xcodeproj/project.pbxproj\n"))
    let patch = directory + "/../\(UUID().uuidString).diff"
    defer { try? FileManager.default.removeItem(atPath: patch) }
    try Data(result.output.utf8).write(to: URL(fileURLWithPath: patch))
    #expect(try run(["git", "apply", patch], in: directory).status == 0)
    let checked = try IndependentReader.readFile(directory + "/App.xcodeproj/project.pbxproj")
    #expect(checked.targets["Mac"]?.contains("Sources/App/Counting.swift") == true)
    #expect(result.standardError.contains("App.xcodeproj: Counting.swift added to group 'Code' and to the Sources of 'Phone', 'Mac'"))
  }

  /// A project's own accessor name is taken with `--accessor`, and scan's command repeats it.
  @Test func aProjectAccessorNameIsGivenAgainInScansCommand() throws {
    let directory = try project([
      "Environment.swift": "@MainActor\nfinal class Environment {\n\tstatic let current = Environment()\n\tvar apiURL = \"x\"\n}\n",
      "Client.swift": "@MainActor\nfinal class Client {\n\tfunc url() -> String { Environment.current.apiURL }\n}\n",
    ])
    #expect(try desingleton(["scan"], in: directory).output.hasPrefix("no singletons found"))
    let scan = try desingleton(["scan", "--accessor", "current"], in: directory)
    #expect(scan.status == 0)
    let command = try #require(scan.output.split(separator: "\n").first { $0.contains("desingleton extract-protocol") })
    #expect(command.contains("--accessor current --singleton Environment --slice EnvironmentProtocol=apiURL"))
    let arguments = command.split(separator: " ").dropFirst().map(String.init)
    let extract = try desingleton(arguments + ["--dry-run"], in: directory)
    #expect(extract.status == 0)
    #expect(extract.output.contains("+protocol EnvironmentProtocol: AnyObject, Sendable {"))
    #expect(try desingleton(["scan", "--accessor", "cur-rent"], in: directory).status == 2)
  }

  /// A plan that would change a generated file is refused, and nothing is written.
  @Test func aPlanChangingAGeneratedFileIsRefused() throws {
    let directory = try project([
      "Locating.generated.swift": "protocol ServiceLocating: AnyObject {\n\tvar count: Int { get }\n}\n",
      "Locator.swift": "final class ServiceLocator: ServiceLocating {\n\tnonisolated(unsafe) static var shared: ServiceLocating = ServiceLocator()\n\tvar count = 0\n}\n",
      "Badge.swift": "final class Badge {\n\tfunc text() -> Int { ServiceLocator.shared.count }\n}\n",
    ], git: true)
    let before = try snapshot(directory)
    let result = try desingleton(["extract-protocol", "--singleton", "ServiceLocator"], in: directory)
    #expect(result.status == 1)
    #expect(result.standardError.contains("Locating.generated.swift:1:1: error: 'Locating.generated.swift' is a generated file, read but never rewritten"))
    #expect(try snapshot(directory) == before)
  }

  /// `inject --all` skips what it cannot rewrite, says why in groups, and counts the accessor
  /// references; `--strict` turns a skip into a refusal; `--format json` gives the same decisions.
  @Test func injectAllSummarizesSkipsAndStrictRefuses() throws {
    let directory = try project([
      "Store.swift": Self.store + "\n@MainActor\nprotocol Counting: AnyObject, Sendable {\n\tvar count: Int { get }\n\tfunc bump()\n}\n\nextension Store: Counting {}\n",
      "Counter.swift": Self.consumer,
      "Passer.swift": "@MainActor\nfinal class Passer {\n\tfunc pass() -> Store { Store.shared }\n\tfunc tap() { Store.shared.bump() }\n}\n",
      "App.swift": "@MainActor\nfinal class App {\n\tlet counter = Counter()\n\tlet passer = Passer()\n\tstatic func count() -> Int { Store.shared.count }\n}\n",
    ], git: true)
    let before = try snapshot(directory)

    let strict = try desingleton(["inject", "--all", "--strict"], in: directory)
    #expect(strict.status == 1)
    #expect(strict.standardError.contains("Passer.swift:3:25: error: 'Passer' passes the instance 'Store.shared' itself"))
    #expect(try snapshot(directory) == before)

    let one = try desingleton(["inject", "--type", "Passer"], in: directory)
    #expect(one.status == 1)
    #expect(one.standardError.contains("Passer.swift:3:25: error: 'Passer' passes the instance"))

    let json = try desingleton(["inject", "--all", "--format", "json", "--dry-run"], in: directory)
    #expect(json.status == 0, "\(json.standardError)")
    #expect(try snapshot(directory) == before)
    let document = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
    #expect(document["schemaVersion"] as? Int == 1)
    let consumers = try #require(document["consumers"] as? [[String: Any]])
    #expect(consumers.map { $0["type"] as? String } == ["Counter"])
    #expect(document["protocols"] as? [String] == ["Counting"])
    let skipped = try #require(document["skipped"] as? [[String: Any]])
    #expect(skipped.map { $0["type"] as? String } == ["Passer"])
    #expect(skipped.first?["reason"] as? String == "instance-use")
    let sites = try #require(document["callSites"] as? [[String: Any]])
    #expect(sites.map { $0["type"] as? String } == ["Counter"])
    let census = try #require(document["accessorReferences"] as? [String: [String: Int]])
    #expect(census["before"]?["total"] == 4)
    // Passer's two uses stay; App's static use stays; App, a root, now passes the accessor to Counter.
    #expect(census["after"]?["total"] == 4)
    #expect(census["after"]?["static"] == 1)
    #expect(census["after"]?["roots"] == 1)
    #expect(census["after"]?["elsewhere"] == 2)
    // The count a migration never raises: all but the root's use, which finish turns into the instance.
    #expect(census["before"]?["outsideRootsAndTests"] == 4)
    #expect(census["after"]?["outsideRootsAndTests"] == 3)

    let all = try desingleton(["inject", "--all"], in: directory)
    #expect(all.status == 0, "\(all.standardError)")
    #expect(all.standardError.contains("skipped 1 consumer:\n  uses the instance itself (1): Passer\n    Passer.swift:3:25: error:"))
    #expect(all.standardError.contains("accessor references outside roots, entry points and tests: 4 before → 3 after (in all 4 → 4: 1 in roots, 0 framework-created, 1 static, 2 elsewhere)"))
  }
}
