import DesingletonCore
import DesingletonIndex
import DesingletonPlanner
import DesingletonPrinter
import Foundation
import Testing

/// A project made of inline sources; nothing is read from disk.
/// Objective-C files (`.m`, `.mm`, `.h`) are not indexed, only searched, as the CLI does.
func makeProject(_ files: [String: String]) -> Project {
  let sources = files.map { SourceText(path: $0.key, text: $0.value) }
  let isObjectiveC = ObjectiveCFiles.isObjectiveC
  // As the command line reads them: Objective-C headers as their Swift interfaces.
  let index = IndexBuilder(threads: 2).build(sources: sources)
  let manifests = sources.filter { $0.path == "Package.swift" || $0.path.hasSuffix("/Package.swift") }
  return Project(
    index: index, sources: Dictionary(uniqueKeysWithValues: sources.map { ($0.path, $0) }),
    objectiveCPaths: sources.map(\.path).filter(isObjectiveC).sorted(), modules: ModuleMap(manifests: manifests))
}

/// Every sample's name and directory, sorted by name.
func sampleDirectories() throws -> [(name: String, directory: String)] {
  try FileManager.default.contentsOfDirectory(atPath: packageRoot + "/Samples").sorted().compactMap { sample in
    let directory = packageRoot + "/Samples/" + sample
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
      return nil
    }
    return (sample, directory)
  }
}

/// Applies a plan to inline sources: every file's new text, new files included, unchanged files too.
func apply(_ plan: Plan, to project: Project, files: [String: String]) throws -> [String: String] {
  let sources = try project.sources(of: Array(plan.edits.keys) + Array(plan.newFiles.keys))
  let outputs = try Printer(root: ".").render(plan, sources: sources)
  var result = files
  for output in outputs { result[output.path] = String(decoding: output.new, as: UTF8.self) }
  return result
}

/// Compares whole texts and shows a line diff on failure.
func expectText(_ actual: String?, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
  guard let actual else {
    Issue.record("no output; expected:\n\(expected)", sourceLocation: sourceLocation)
    return
  }
  if actual == expected { return }
  let diff = UnifiedDiff.render(path: "expected", old: Array(expected.utf8), new: Array(actual.utf8))
  Issue.record("text differs (- expected, + actual):\n\(diff)", sourceLocation: sourceLocation)
}

/// The compiler's errors when `files` do not build together in Swift 6 mode, else "". This runs the
/// SIL diagnostic passes too, where definite initialization is checked (a `let` assigned twice,
/// `self` used before every stored property is set): exactly what a rewritten init can get wrong.
/// Runs `planner` for the singleton `name` in `files`, applies the plan and checks the whole text of
/// every changed or new file and the plan's notes; then, when `compiles`, type-checks the result
/// (with `extra`, files the planner does not see) in Swift 6 mode, and runs the planner again on the
/// result, which must plan nothing. After a run that removes the accessor, the singleton may be gone
/// from the result (`mayDisappear`); otherwise it must still be found.
func expectPlan(
  _ files: [String: String], singleton name: String, produces expected: [String: String], notes: [String]?,
  compilingWith extra: [String: String] = [:], compiles: Bool = true, warningsAreErrors: Bool = false,
  compilerFlags: [String] = [], mayDisappear: Bool = false, sourceLocation: SourceLocation,
  _ planner: (Singleton, Project) throws -> Plan
) throws {
  let project = makeProject(files)
  let singleton = try #require(project.index.singletons.first { $0.typeName == name }, sourceLocation: sourceLocation)
  let plan = try planner(singleton, project)
  let result = try apply(plan, to: project, files: files)

  let changed = result.keys.filter { result[$0] != files[$0] }.sorted()
  #expect(changed == expected.keys.sorted(), "changed or new files", sourceLocation: sourceLocation)
  for (path, text) in expected.sorted(by: { $0.key < $1.key }) {
    expectText(result[path], text, sourceLocation: sourceLocation)
  }
  if let notes {
    #expect(plan.noteLines == notes, sourceLocation: sourceLocation)
  }
  if compiles {
    let errors = try compileErrors(
      result.merging(extra) { original, _ in original }, warningsAreErrors: warningsAreErrors, flags: compilerFlags)
    #expect(errors == "", "the result does not compile", sourceLocation: sourceLocation)
  }

  let again = makeProject(result)
  let found = again.index.singletons.first { $0.typeName == name }
  if found == nil && mayDisappear { return }
  let second = try #require(found, sourceLocation: sourceLocation)
  let secondPlan = try planner(second, again)
  if !secondPlan.isEmpty {
    let rerun = try apply(secondPlan, to: again, files: result)
    let changes = rerun.keys.sorted().filter { rerun[$0] != result[$0] }.map { "--- \($0)\n\(rerun[$0] ?? "")" }
    Issue.record(
      "'\(name)' still has the accessor '\(second.accessor)' and a second run changes:\n\(changes.joined(separator: "\n"))",
      sourceLocation: sourceLocation)
  }
}

/// `flags` go to the compiler as they are (`["-D", "DEBUG"]`).
func compileErrors(_ files: [String: String], warningsAreErrors: Bool = false, flags extraFlags: [String] = []) throws -> String {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("desingleton-compile-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  var paths: [String] = []
  for (name, text) in files.sorted(by: { $0.key < $1.key }) where name.hasSuffix(".swift") {
    let url = directory.appendingPathComponent((name as NSString).lastPathComponent)
    try Data(text.utf8).write(to: url)
    paths.append(url.path)
  }
  let flags = (warningsAreErrors ? ["-warnings-as-errors"] : []) + extraFlags
  let result = try run(
    // The SIL goes to a file of its own: the frontend writes its output by renaming a temporary
    // file over it, which would turn `/dev/null` into a regular file.
    ["swiftc", "-swift-version", "6", "-emit-sil", "-wmo", "-module-name", "Check", "-o", directory.appendingPathComponent("Check.sil").path]
      + flags + paths)
  guard result.status != 0 else { return "" }
  let output = result.standardError + result.output
  return output.isEmpty ? "swiftc exited with status \(result.status)" : output
}

struct ProcessResult {
  var status: Int32
  var output: String
  var standardError: String
}

/// The tool's write commands run by tests do not build what they wrote (`--no-verify`): each test
/// builds the result itself, and a planner bug must fail a test rather than become a consumer left
/// out. Tests of verification pass `--verify` or `--no-verify` themselves.
func withoutVerification(_ arguments: [String]) -> [String] {
  guard arguments.count > 1, arguments[0].hasSuffix("/desingleton"),
    ["extract-protocol", "inject", "finish", "mocks"].contains(arguments[1]),
    !arguments.contains(where: { ["--dry-run", "--verify", "--no-verify", "--help", "-h"].contains($0) || $0.hasPrefix("--verify=") })
  else { return arguments }
  return arguments + ["--no-verify"]
}

/// Runs a program found on PATH, waiting for it; stdout and stderr are captured. The tool's write
/// commands run `withoutVerification` unless `verifying` (the tests of the build in the loop).
@discardableResult
func run(
  _ arguments: [String], in directory: String? = nil, environment: [String: String]? = nil, verifying: Bool = false
) throws -> ProcessResult {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = verifying ? arguments : withoutVerification(arguments)
  if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
  if let environment { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
  let out = Pipe()
  let err = Pipe()
  process.standardOutput = out
  process.standardError = err
  try process.run()
  let group = DispatchGroup()
  nonisolated(unsafe) var outData = Data()
  nonisolated(unsafe) var errData = Data()
  group.enter()
  DispatchQueue.global().async {
    outData = out.fileHandleForReading.readDataToEndOfFile()
    group.leave()
  }
  group.enter()
  DispatchQueue.global().async {
    errData = err.fileHandleForReading.readDataToEndOfFile()
    group.leave()
  }
  group.wait()
  process.waitUntilExit()
  return ProcessResult(
    status: process.terminationStatus, output: String(decoding: outData, as: UTF8.self),
    standardError: String(decoding: errData, as: UTF8.self))
}

/// The package's root directory.
let packageRoot: String = {
  var url = URL(fileURLWithPath: #filePath)
  for _ in 0..<3 { url.deleteLastPathComponent() }
  return url.path
}()
