import Foundation
import Testing

/// A golden case: a sample app and a sequence of commands run on a scratch copy of it.
///
/// `Tests/Golden/<case>/sample` names the sample; `steps` holds one command a line (the words after
/// `desingleton`; a line starting with `!` must be refused). For each step `NN.diff` is the exact
/// dry-run diff and `NN.stderr` the exact summary or refusal. Every step is checked: the diff
/// passes `git apply --check`, applying it equals the real run, a second run changes nothing, a
/// refused run leaves the tree byte-identical; and after every step the sample builds and its own
/// tests pass (a sample with a `check.sh`, which Linux cannot build, passes that instead). A `scan` step writes nothing: its output is `NN.out` (`NN.dot`, `NN.mmd`, `NN.html`,
/// `NN.json` for its formats). `files/` (optional) is copied into the sample before the first step
/// (a `.desingleton.json`). `tests/NN/` (optional) holds hand-written test files copied into the sample after
/// step NN, before it is built: tests that use what the step generated. `DESINGLETON_RECORD=1` rewrites the golden files and fails the run.
struct GoldenCase: CustomTestStringConvertible, Sendable {
  var name: String
  var sample: String
  var steps: [String]

  var testDescription: String { name }

  static let directory = packageRoot + "/Tests/Golden"

  /// The golden file of a `scan` step: `dot`, `mmd`, `html`, `json`, or `out` for text.
  static func outputExtension(_ arguments: [String]) -> String {
    guard let flag = arguments.firstIndex(of: "--format"), flag + 1 < arguments.count else { return "out" }
    return ["dot": "dot", "mermaid": "mmd", "html": "html", "json": "json"][arguments[flag + 1]] ?? "out"
  }

  static var all: [GoldenCase] {
    var names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    // `DESINGLETON_GOLDEN=a,b` runs (or records) only those cases.
    if let only = ProcessInfo.processInfo.environment["DESINGLETON_GOLDEN"] {
      names = names.filter(only.split(separator: ",").map(String.init).contains)
    }
    return names.sorted().compactMap { name in
      let folder = directory + "/" + name
      guard let sample = try? String(contentsOfFile: folder + "/sample", encoding: .utf8),
        let steps = try? String(contentsOfFile: folder + "/steps", encoding: .utf8)
      else { return nil }
      return GoldenCase(
        name: name, sample: sample.trimmingCharacters(in: .whitespacesAndNewlines),
        steps: steps.split(separator: "\n").map(String.init).filter { !$0.isEmpty && !$0.hasPrefix("#") })
    }
  }
}

@Suite(.serialized) struct GoldenTests {
  static let recording = ProcessInfo.processInfo.environment["DESINGLETON_RECORD"] == "1"
  static let binary = packageRoot + "/.build/debug/desingleton"

  @Test(arguments: GoldenCase.all)
  func golden(_ golden: GoldenCase) throws {
    #expect(FileManager.default.isExecutableFile(atPath: Self.binary), "build the tool first: swift build")
    let work = try SampleCopy(sample: golden.sample, name: golden.name)
    defer { work.remove() }
    // `files/` (a configuration file, say) is laid over the sample before the first step.
    let files = GoldenCase.directory + "/" + golden.name + "/files"
    if FileManager.default.fileExists(atPath: files) {
      try run(["cp", "-R", files + "/.", work.path])
      try work.commit("the case's files")
    }
    for (number, line) in golden.steps.enumerated() {
      let refused = line.hasPrefix("!")
      let arguments = words(refused ? String(line.dropFirst()) : line)
      let prefix = String(format: "%02d", number + 1)
      let folder = GoldenCase.directory + "/" + golden.name
      let context = "\(golden.name) step \(prefix): desingleton \(arguments.joined(separator: " "))"
      let before = try work.treeHash()

      // `scan` writes nothing: its output is the golden file, named for its format.
      if arguments.first == "scan" {
        let scan = try run([Self.binary] + arguments, in: work.path)
        #expect(scan.status == (refused ? 1 : 0), "\(context): exit \(scan.status)\n\(scan.standardError)")
        try compare(scan.output, with: folder + "/\(prefix).\(GoldenCase.outputExtension(arguments))", context: context)
        try compare(scan.standardError, with: folder + "/\(prefix).stderr", context: context)
        #expect(try work.treeHash() == before && work.isClean(), "\(context): scan changed the tree")
        continue
      }

      let dry = try run([Self.binary] + arguments + ["--dry-run"], in: work.path)
      if refused {
        #expect(dry.status == 1, "\(context): expected a refusal, got exit \(dry.status)\n\(dry.standardError)")
        try compare(dry.standardError, with: folder + "/\(prefix).stderr", context: context)
        let real = try run([Self.binary] + arguments, in: work.path)
        #expect(real.status == 1, "\(context): expected a refusal, got exit \(real.status)")
        #expect(try work.treeHash() == before && work.isClean(), "\(context): a refused run changed the tree")
        continue
      }
      #expect(dry.status == 0, "\(context): exit \(dry.status)\n\(dry.standardError)")
      #expect(try work.treeHash() == before && work.isClean(), "\(context): --dry-run changed the tree")
      try compare(dry.output, with: folder + "/\(prefix).diff", context: context)
      try compare(dry.standardError, with: folder + "/\(prefix).stderr", context: context)

      // The diff applies, and applying it is the same as the real run.
      var applied = before
      if !dry.output.isEmpty {
        let patch = work.path + "/../\(golden.name)-\(prefix).diff"
        try Data(dry.output.utf8).write(to: URL(fileURLWithPath: patch))
        let check = try run(["git", "apply", "--check", patch], in: work.path)
        #expect(check.status == 0, "\(context): git apply --check failed: \(check.standardError)")
        try run(["git", "apply", patch], in: work.path)
        applied = try work.treeHash()
        try work.reset()
      }
      let real = try run([Self.binary] + arguments, in: work.path)
      #expect(real.status == 0, "\(context): exit \(real.status)\n\(real.standardError)")
      #expect(try work.treeHash() == applied, "\(context): the real run differs from the applied diff")

      // A second run changes nothing.
      let again = try run([Self.binary] + arguments + ["--dry-run"], in: work.path)
      #expect(again.status == 0 && again.output.isEmpty, "\(context): a second run is not empty:\n\(again.output)\(again.standardError)")
      try work.commit(context)

      // Hand-written tests that need this step's output (tests against the generated doubles):
      // `tests/NN/` is copied into the sample as it is laid out, then built and run with its tests.
      let written = folder + "/tests/" + prefix
      if FileManager.default.fileExists(atPath: written) {
        try run(["cp", "-R", written + "/.", work.path])
        try work.commit(context + " (hand-written tests)")
      }

      // A sample Linux cannot build (Objective-C) says how it is checked instead: `check.sh`.
      if FileManager.default.fileExists(atPath: work.path + "/check.sh") {
        let check = try run(["sh", "check.sh"], in: work.path)
        #expect(check.status == 0, "\(context): the rewritten sample does not type-check:\n\(check.output)\(check.standardError)")
        continue
      }
      // The product: the rewritten app builds and its own tests pass.
      let build = try run(["swift", "build", "--build-tests", "-q", "--scratch-path", work.scratch], in: work.path)
      #expect(build.status == 0, "\(context): the rewritten sample does not build:\n\(build.output)\(build.standardError)")
      if build.status == 0 {
        let test = try run(["swift", "test", "--skip-build", "--scratch-path", work.scratch], in: work.path)
        #expect(test.status == 0, "\(context): the rewritten sample's tests fail:\n\(test.output.suffix(3000))")
      }
    }
  }

  func compare(_ actual: String, with path: String, context: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    if Self.recording {
      try Data(actual.utf8).write(to: URL(fileURLWithPath: path))
      Issue.record("\(context): recorded \(path)", sourceLocation: sourceLocation)
      return
    }
    guard let expected = try? String(contentsOfFile: path, encoding: .utf8) else {
      Issue.record("\(context): no golden file \(path); run with DESINGLETON_RECORD=1 and read it", sourceLocation: sourceLocation)
      return
    }
    expectText(actual, expected, sourceLocation: sourceLocation)
  }

  func words(_ line: String) -> [String] {
    line.split(separator: " ").map(String.init)
  }
}

/// A scratch copy of a sample under git, with the UIKit stand-in referenced by absolute path.
struct SampleCopy {
  let path: String
  let scratch: String
  private let base: String

  init(sample: String, name: String) throws {
    base = FileManager.default.temporaryDirectory.appendingPathComponent("desingleton-golden-\(name)-\(UUID().uuidString)").path
    path = base + "/" + sample
    scratch = packageRoot + "/.build-golden/" + sample
    try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
    try run(["cp", "-R", packageRoot + "/Samples/" + sample, path])
    try run(["sh", "-c", "rm -rf .build .build-* .swiftpm"], in: path)
    let manifest = path + "/Package.swift"
    // A sample without a manifest (an Objective-C app, checked by its `check.sh`) has nothing to resolve.
    if let text = try? String(contentsOfFile: manifest, encoding: .utf8) {
      // The stand-ins are found where they are in the repository.
      let resolved = ["UIKit", "SwiftUI"].reduce(text) {
        $0.replacingOccurrences(of: "path: \"../\($1)\"", with: "path: \"\(packageRoot)/Samples/\($1)\"")
      }
      try Data(resolved.utf8).write(to: URL(fileURLWithPath: manifest))
    }
    try run(["git", "init", "-q"], in: path)
    try commit("the sample")
  }

  func commit(_ message: String) throws {
    try run(["git", "add", "-A"], in: path)
    try run(["git", "-c", "user.name=golden", "-c", "user.email=golden@localhost", "commit", "-q", "--allow-empty", "-m", message], in: path)
  }

  /// The tree as git sees it, untracked files included.
  func treeHash() throws -> String {
    try run(["git", "add", "-A"], in: path)
    let tree = try run(["git", "write-tree"], in: path).output.trimmingCharacters(in: .whitespacesAndNewlines)
    try run(["git", "reset", "-q"], in: path)
    return tree
  }

  func isClean() -> Bool {
    (try? run(["git", "status", "--porcelain"], in: path).output.isEmpty) ?? false
  }

  func reset() throws {
    try run(["git", "reset", "-q", "--hard"], in: path)
    try run(["git", "clean", "-fdq"], in: path)
  }

  func remove() {
    try? FileManager.default.removeItem(atPath: base)
  }
}
