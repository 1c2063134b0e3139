import DesingletonCore
import DesingletonIndex
import DesingletonPlanner
import DesingletonPrinter
import Foundation
import Testing

/// A project made of inline sources; nothing is read from disk.
func makeProject(_ files: [String: String]) -> Project {
  let sources = files.map { SourceText(path: $0.key, text: $0.value) }
  let index = IndexBuilder(threads: 2).build(sources: sources)
  return Project(index: index, sources: Dictionary(uniqueKeysWithValues: sources.map { ($0.path, $0) }))
}

/// Applies a plan to inline sources: every file's new text, new files included, unchanged files too.
func apply(_ plan: Plan, to project: Project, files: [String: String]) throws -> [String: String] {
  var sources = project.loadedSources
  for (path, text) in files where sources[path] == nil { sources[path] = SourceText(path: path, text: text) }
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
func compileErrors(_ files: [String: String], warningsAreErrors: Bool = false) throws -> String {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("desingleton-compile-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  var paths: [String] = []
  for (name, text) in files.sorted(by: { $0.key < $1.key }) {
    let url = directory.appendingPathComponent((name as NSString).lastPathComponent)
    try Data(text.utf8).write(to: url)
    paths.append(url.path)
  }
  let flags = warningsAreErrors ? ["-warnings-as-errors"] : []
  let result = try run(
    ["swiftc", "-swift-version", "6", "-emit-sil", "-wmo", "-module-name", "Check", "-o", "/dev/null"] + flags + paths)
  guard result.status != 0 else { return "" }
  let output = result.standardError + result.output
  return output.isEmpty ? "swiftc exited with status \(result.status)" : output
}

struct ProcessResult {
  var status: Int32
  var output: String
  var standardError: String
}

/// Runs a program found on PATH, waiting for it; stdout and stderr are captured.
@discardableResult
func run(_ arguments: [String], in directory: String? = nil, environment: [String: String]? = nil) throws -> ProcessResult {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = arguments
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
