import DesingletonCore
import DesingletonPlanner
import Foundation
import Testing

/// The build in the loop: verification by default, repair by leaving out what the build fails with,
/// interruption, recovery after `kill -9`, and no write outside the project.
@Suite(.serialized) struct VerificationTests {
  static let binary = packageRoot + "/.build/debug/desingleton"
  let cli = CommandLineTests()

  /// The tool as a user runs it: the default build verifies what a write command wrote.
  func desingleton(_ arguments: [String], in directory: String) throws -> ProcessResult {
    try run([Self.binary] + arguments, in: directory, verifying: true)
  }

  // MARK: Repair

  /// RepairShapes has two consumers `inject` rewrites into code that does not compile (a subclass
  /// whose re-declared init lacks `override`): the default build finds it, it is left out with the
  /// compiler's message, the others are migrated, and the sample builds and passes its tests. Its
  /// other shapes were such too until the planners knew them: a value changed in place through a
  /// `mutating func` declared in a file that never names the singleton (migrated once the model read
  /// that file), and `@inlinable` code reading the private property it got (its property is
  /// `@usableFromInline` now).
  @Test func injectLeavesOutWhatTheBuildFailsWithAndKeepsTheRest() throws {
    let work = try SampleCopy(sample: "RepairShapes", name: "repair")
    defer { work.remove() }
    for slices in [["--slice", "BasketHolding=basket"], ["--slice", "Visiting=visits,visit", "--slice", "MottoProviding=motto"]] {
      let extract = try desingleton(["extract-protocol", "--singleton", "Depot"] + slices, in: work.path)
      #expect(extract.status == 0, "\(extract.standardError)")
      #expect(extract.standardError.contains("verified: 'swift build --build-tests --scratch-path .build/desingleton-verify' succeeded\n"))
      try work.commit("extract")
    }
    let basket = try String(contentsOfFile: work.path + "/Sources/Depot/BasketHolding.swift", encoding: .utf8)
    #expect(basket.contains("var basket: Basket { get set }"))
    let extracted = try sources(work.path)

    // Without repair the failed build restores every file.
    let strict = try desingleton(["inject", "--all", "--singleton", "Depot", "--no-repair"], in: work.path)
    #expect(strict.status == 1)
    #expect(strict.standardError.contains("error: overriding declaration requires an 'override' keyword"))
    #expect(strict.standardError.hasSuffix("after the changes were written; every file was restored\n"))
    #expect(try sources(work.path) == extracted)

    let result = try desingleton(["inject", "--all", "--singleton", "Depot", "--format", "json"], in: work.path)
    #expect(result.status == 0, "\(result.standardError)")
    let report = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    let verification = try #require(report["verification"] as? [String: Any])
    #expect(verification["verified"] as? Bool == true)
    #expect(verification["command"] as? String == "swift build --build-tests --scratch-path .build/desingleton-verify")
    let rounds = try #require(verification["rounds"] as? [[String: Any]])
    #expect(rounds.map { $0["passed"] as? Bool } == [false, true])
    let dropped = try #require(rounds.first?["dropped"] as? [[String: Any]])
    #expect(dropped.map { $0["unit"] as? String } == ["TurnstileGate"])
    #expect(
      dropped.map { $0["error"] as? String } == [
        "Sources/Depot/Consumers.swift:24:41: error: overriding declaration requires an 'override' keyword"
      ])
    let skipped = try #require(report["skipped"] as? [[String: Any]])
    #expect(skipped.map { $0["type"] as? String } == ["TurnstileGate"])
    #expect(skipped.allSatisfy { $0["reason"] as? String == "build-failed" })
    let consumers = try #require(report["consumers"] as? [[String: Any]])
    #expect(Set(consumers.compactMap { $0["type"] as? String }) == ["Checkout", "Gate", "Kiosk", "Poster", "Ticket"])

    // The left-out consumer keeps the accessor; the rest receive their slices.
    let code = try String(contentsOfFile: work.path + "/Sources/Depot/Consumers.swift", encoding: .utf8)
    #expect(code.contains("basketHolding.basket.addItem(item)"))
    #expect(code.contains("\"Depot: \" + mottoProviding.motto"))
    #expect(code.contains("Depot.shared.visits"))
    #expect(code.contains("@usableFromInline let visiting: Visiting"))
    let build = try run(["swift", "build", "--build-tests", "-q", "--scratch-path", work.scratch], in: work.path)
    #expect(build.status == 0, "\(build.output)\(build.standardError)")
    let test = try run(["swift", "test", "--skip-build", "--scratch-path", work.scratch], in: work.path)
    #expect(test.status == 0, "\(test.output.suffix(2000))")

    // A later run plans the consumer left out again: the subclass, whose base class now holds its
    // slice, is migrated (the planner names its property apart); the next run writes nothing.
    try work.commit("inject")
    let second = try desingleton(["inject", "--all", "--singleton", "Depot"], in: work.path)
    #expect(second.status == 0, "\(second.standardError)")
    #expect(second.standardError.contains("TurnstileGate: 1 call site updated"))
    try work.commit("inject again")
    let injected = try sources(work.path)
    let third = try desingleton(["inject", "--all", "--singleton", "Depot"], in: work.path)
    #expect(third.status == 0, "\(third.standardError)")
    #expect(try sources(work.path) == injected)
  }

  /// A build that fails with every change at a line the command wrote (a stand-in for the build,
  /// failing wherever Poster's new property is used) leaves each consumer out in turn; when none is
  /// left, nothing is written and the command says so.
  @Test func aBuildFailingWithEveryChangeLeavesNothingWritten() throws {
    let work = try SampleCopy(sample: "RepairShapes", name: "repair-all")
    defer { work.remove() }
    let extract = try desingleton(
      ["extract-protocol", "--singleton", "Depot", "--slice", "MottoProviding=motto", "--no-verify"], in: work.path)
    #expect(extract.status == 0, "\(extract.standardError)")
    try work.commit("extract")
    let extracted = try sources(work.path)
    let standIn =
      #"n=$(grep -n "mottoProviding.motto" Sources/Depot/Consumers.swift | cut -d: -f1); "#
      + #"if [ -n "$n" ]; then echo "Sources/Depot/Consumers.swift:$n:20: error: stand-in" >&2; exit 1; fi"#
    let result = try desingleton(["inject", "--type", "Poster", "--singleton", "Depot", "--verify", standIn], in: work.path)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardError.contains("the build failed with it (1): Poster"))
    #expect(result.standardError.hasSuffix("failed with every change it was given; left out Poster, nothing written\n"))
    #expect(try sources(work.path) == extracted)
  }

  /// The tree but for build products.
  func sources(_ directory: String) throws -> [String: Data] {
    try cli.snapshot(directory).filter { !$0.key.hasPrefix(".build/") }
  }

  @Test func withoutABuildTheSummarySaysSoOnceAndTheFileCanNameOne() throws {
    let directory = try cli.project(["Store.swift": CommandLineTests.store, "Counter.swift": CommandLineTests.consumer])
    let extract = try desingleton(["extract-protocol", "--slice", "Counting=count,bump", "--verify-rounds", "2"], in: directory)
    #expect(extract.status == 0, "\(extract.standardError)")
    #expect(extract.standardError.components(separatedBy: "not verified: no build command\n").count == 2)

    // The configuration file's command runs in the file's directory; `false` turns it off.
    try Data(#"{"version": 1, "verify": "test -f Counting.swift && echo checked"}"#.utf8)
      .write(to: URL(fileURLWithPath: directory + "/.desingleton.json"))
    let inject = try desingleton(["inject", "--all"], in: directory)
    #expect(inject.status == 0, "\(inject.standardError)")
    #expect(inject.standardError.hasSuffix("verified: 'test -f Counting.swift && echo checked' succeeded\n"))
    try Data(#"{"version": 1, "verify": false}"#.utf8).write(to: URL(fileURLWithPath: directory + "/.desingleton.json"))
    let finish = try desingleton(["finish", "--root", "Counter"], in: directory)
    #expect(!finish.standardError.contains("verified"), "\(finish.standardError)")
    #expect(try desingleton(["inject", "--all", "--verify", "true", "--no-verify"], in: directory).status == 2)
  }

  // MARK: Interruption

  /// Starts the tool (in a process group of its own, as a shell's foreground job); returns it once
  /// its write is in place and its verify command runs.
  func startWriteThatVerifiesSlowly(in directory: String, marker: String) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.binary)
    process.arguments = ["extract-protocol", "--slice", "Counting=count,bump", "--verify", "sleep 30; true \(marker)"]
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    let deadline = Date().addingTimeInterval(60)
    while Date() < deadline && !(FileManager.default.fileExists(atPath: directory + "/Counting.swift") && isRunning(marker)) {
      usleep(50_000)
    }
    #expect(isRunning(marker), "the verify command never started")
    return process
  }

  func isRunning(_ marker: String) -> Bool {
    (try? run(["pgrep", "-f", marker]))?.status == 0
  }

  @Test(arguments: [SIGINT, SIGTERM])
  func aSignalDuringTheBuildRestoresTheTreeAndEndsTheBuild(_ signal: Int32) throws {
    let directory = try cli.project(["Store.swift": CommandLineTests.store, "Counter.swift": CommandLineTests.consumer])
    let before = try cli.snapshot(directory)
    let marker = "desingleton-signal-\(UUID().uuidString)"
    let process = try startWriteThatVerifiesSlowly(in: directory, marker: marker)
    #expect(try cli.snapshot(directory) != before)
    // Ctrl-C reaches the foreground group, the tool's; the build runs in a group of its own.
    #expect(getpgid(process.processIdentifier) == process.processIdentifier)
    kill(-process.processIdentifier, signal)
    process.waitUntilExit()
    #expect(process.terminationStatus == 128 + signal)
    #expect(try cli.snapshot(directory) == before)
    #expect(!isRunning(marker), "the verify command outlived the run")
  }

  @Test func afterKillNineTheNextCommandRestoresTheTree() throws {
    let directory = try cli.project(["Store.swift": CommandLineTests.store, "Counter.swift": CommandLineTests.consumer])
    let before = try cli.snapshot(directory)
    let marker = "desingleton-kill-\(UUID().uuidString)"
    let process = try startWriteThatVerifiesSlowly(in: directory, marker: marker)
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    _ = try run(["pkill", "-f", marker])
    let left = try cli.snapshot(directory)
    #expect(left.keys.contains(".desingleton-journal"))
    #expect(left.keys.contains { $0.hasSuffix(".backup") })

    let scan = try desingleton(["scan"], in: directory)
    #expect(scan.status == 0)
    #expect(
      scan.standardError.hasPrefix(
        "note: an interrupted run had left its changes half-made; restored 2 files as they were before it\n"))
    #expect(try cli.snapshot(directory) == before)
    // Nothing is left to restore a second time.
    #expect(!(try desingleton(["scan"], in: directory)).standardError.contains("interrupted"))
  }

  /// A command started while another writes in the project (an editor's scan, a second terminal)
  /// leaves that write alone: the journal it finds is in use, not left by an interrupted run.
  @Test func aCommandDuringAWriteIsRefusedAndLeavesTheWriteAlone() throws {
    let directory = try cli.project(["Store.swift": CommandLineTests.store, "Counter.swift": CommandLineTests.consumer])
    let before = try cli.snapshot(directory)
    let marker = "desingleton-busy-\(UUID().uuidString)"
    let process = try startWriteThatVerifiesSlowly(in: directory, marker: marker)
    let written = try cli.snapshot(directory)
    let busy = "another desingleton run is writing in '"
    let scan = try desingleton(["scan"], in: directory)
    #expect(scan.status != 0)
    #expect(scan.standardError.hasPrefix("error: " + busy), "\(scan.standardError)")
    #expect(!scan.standardError.contains("interrupted"))
    let inject = try desingleton(["inject", "--all", "--no-verify"], in: directory)
    #expect(inject.status != 0)
    #expect(inject.standardError.contains(busy), "\(inject.standardError)")
    #expect(try cli.snapshot(directory) == written)
    kill(-process.processIdentifier, SIGTERM)
    process.waitUntilExit()
    #expect(process.terminationStatus == 128 + SIGTERM)
    #expect(try cli.snapshot(directory) == before)
    #expect(try desingleton(["scan"], in: directory).status == 0)
  }

  /// Sources inside a package's work tree that none of its targets compiles (a fixture, a corpus)
  /// are not verified by building that package.
  @Test func aPackageWhoseTargetsCompileNoneOfTheFilesIsNotTheirBuild() throws {
    let manifest = """
      // swift-tools-version:5.9
      import PackageDescription
      let package = Package(name: "Tool", targets: [.target(name: "Tool")])

      """
    let directory = try cli.project([
      "Package.swift": manifest, "Sources/Tool/Tool.swift": "public struct Tool {}\n",
      "Fixtures/App/Store.swift": CommandLineTests.store, "Fixtures/App/Counter.swift": CommandLineTests.consumer,
    ], git: true)
    let extract = try desingleton(["extract-protocol", "--slice", "Counting=count,bump", "Fixtures/App"], in: directory)
    #expect(extract.status == 0, "\(extract.standardError)")
    #expect(extract.standardError.hasSuffix("not verified: no target of 'Package.swift' compiles the files it changes\n"))
    #expect(!FileManager.default.fileExists(atPath: directory + "/.build"))
  }

  // MARK: Inside the project

  @Test func aNewFileOutsideTheProjectIsRefusedAndNothingIsWritten() throws {
    let outer = try cli.project([
      "app/Store.swift": CommandLineTests.store, "app/Counter.swift": CommandLineTests.consumer,
    ])
    let directory = outer + "/app"
    try run(["git", "init", "-q"], in: directory)
    try run(["git", "add", "-A"], in: directory)
    try run(["git", "-c", "user.name=t", "-c", "user.email=t@localhost", "commit", "-qm", "base"], in: directory)
    #expect(try desingleton(["extract-protocol", "--slice", "Counting=count,bump", "--allow-dirty"], in: directory).status == 0)
    let before = try cli.snapshot(outer)
    let result = try desingleton(["mocks", "--output-dir", "../Mocks", "--allow-dirty"], in: directory)
    #expect(result.status == 1)
    #expect(result.standardError.contains("lies outside the project"), "\(result.standardError)")
    #expect(try cli.snapshot(outer) == before)
    #expect(!FileManager.default.fileExists(atPath: outer + "/Mocks"))
  }

  /// An Xcode app with no package: its test target lists its files and has no folder of its own. The
  /// doubles go beside the test target's files (they once went to `/Mocks`, outside any project).
  @Test func anXcodeTestTargetWithoutAFolderGetsItsDoublesBesideItsFiles() throws {
    let work = try SampleCopy(sample: "XcodeApp", name: "xcode-no-package")
    defer { work.remove() }
    try FileManager.default.removeItem(atPath: work.path + "/Package.swift")
    try work.commit("no package")
    #expect(try desingleton(["extract-protocol", "--no-verify"], in: work.path).status == 0)
    try work.commit("extract")
    let mocks = try desingleton(["mocks", "--singleton", "Preferences", "--dry-run"], in: work.path)
    #expect(mocks.status == 0, "\(mocks.standardError)")
    let created = mocks.output.split(separator: "\n").filter { $0.hasPrefix("+++ b/") && $0.hasSuffix("Mock.swift") }
    #expect(!created.isEmpty)
    #expect(created.allSatisfy { $0.hasPrefix("+++ b/Tests/XcodeAppTests/Mocks/") }, "\(created)")
  }
}

/// Which consumer a compiler error blames, one case a line: the error's place in the written text
/// and the part the plan gives that place.
@Suite struct BuildRepairTests {
  static let original = "final class A {\n  func f() { Store.shared.x() }\n}\nfinal class B {\n  func g() { Store.shared.y() }\n}\n"

  /// A's reference and B's reference rewritten, each a part over its class.
  static var plan: Plan {
    var plan = Plan()
    plan.add(TextEdit(range: 29..<41, replacement: "aStore"), in: "F.swift")
    plan.add(TextEdit(range: 79..<91, replacement: "bStore"), in: "F.swift")
    plan.newFiles["P.swift"] = "protocol P {}\n"
    plan.parts = [
      PlanPart(name: "A", ranges: ["F.swift": [0..<50]], newFiles: ["P.swift"]),
      PlanPart(name: "B", ranges: ["F.swift": [50..<original.utf8.count]]),
    ]
    return plan
  }

  static func absolute(_ path: String) -> String { path.hasPrefix("/") ? path : "/p/" + path }

  static var written: [String: (original: SourceText?, new: [UInt8])] {
    let new = original.replacingOccurrences(of: "{ Store.shared.x", with: "{ aStore.x").replacingOccurrences(
      of: "{ Store.shared.y", with: "{ bStore.y")
    return [
      "F.swift": (SourceText(path: "F.swift", text: original), Array(new.utf8)),
      "P.swift": (nil, Array("protocol P {}\n".utf8)),
    ]
  }

  @Test(arguments: [
    // Inside A's replacement, placed back at the reference in the original.
    ("/p/F.swift:2:14: error: no member", ["A": "F.swift:2:14"]),
    // Right after B's replacement: the end of the text it replaced.
    ("/p/F.swift:5:20: error: no member 'y'", ["B": "F.swift:5:26"]),
    // Past it: six bytes further right in the original.
    ("/p/F.swift:5:21: error: bad call", ["B": "F.swift:5:27"]),
    // Between the edits, in B's declaration.
    ("/p/F.swift:4:1: error: bad", ["B": "F.swift:4:1"]),
    // A new file goes with the part that creates it.
    ("/p/P.swift:1:1: error: bad", ["A": "/p/P.swift:1:1"]),
    // An untouched file: the part whose new text names what the message quotes.
    ("/p/G.swift:3:3: error: cannot find 'bStore' in scope", ["B": "/p/G.swift:3:3"]),
  ])
  func blame(_ line: String, _ expected: [String: String]) throws {
    let errors = CompilerError.parse("building\n" + line + "\n")
    #expect(errors.count == 1)
    let blame = BuildRepair.blame(errors, plan: Self.plan, written: Self.written, absolute: Self.absolute)
    #expect(blame.unplaced.isEmpty)
    #expect(blame.units.mapValues { "\($0.path):\($0.line):\($0.column)" } == expected)
  }

  @Test func anErrorNothingExplainsIsUnplaced() {
    let errors = CompilerError.parse("/p/G.swift:1:1: error: something else\n")
    let blame = BuildRepair.blame(errors, plan: Self.plan, written: Self.written, absolute: Self.absolute)
    #expect(blame.units.isEmpty && blame.unplaced == errors)
  }

  @Test func compilerLinesAreParsedOnceEach() {
    let output = """
      [1/3] Compiling
      /a b/C.swift:3:7: error: one: two
         |   `- error: one: two
      /a b/C.swift:3:7: error: one: two
      C:\\x.swift:1:2: warning: no
      """
    #expect(CompilerError.parse(output) == [CompilerError(path: "/a b/C.swift", line: 3, column: 7, message: "one: two")])
  }
}
