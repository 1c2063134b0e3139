import DesingletonCore
import Foundation

/// Type-checks a sample's app target the way SwiftPM builds it: Swift 6 mode, whole module, through the
/// SIL diagnostic passes (definite initialization, like `compileErrors`), against the UIKit stand-in in
/// Samples/UIKit, which is compiled once per process into a temporary folder. The samples' test targets
/// are left out: they need the target built as a module first, which would double the cost.
///
/// Results are kept by the target's exact text, so a mutant of a test file, or two commands that write the
/// same code, cost one compiler run.
final class FuzzTypeChecker: @unchecked Sendable {
  /// The folder of the sample whose target is checked, as `FuzzSample` names its files.
  let virtualRoot: String
  let moduleName: String

  private let lock = NSLock()
  private var results: [[FuzzFile]: String] = [:]
  /// Compiler runs, cache hits excluded.
  private(set) var runs = 0

  init(sample: FuzzSample) {
    virtualRoot = sample.virtualRoot
    moduleName = sample.name
  }

  /// The files of the app target: those below `Sources/<module>/`, sorted by path.
  func targetFiles(_ sources: [String: SourceText]) -> [FuzzFile] {
    let prefix = "\(virtualRoot)/Sources/\(moduleName)/"
    return sources.values.filter { $0.path.hasPrefix(prefix) && $0.path.hasSuffix(".swift") }
      .map { FuzzFile(path: $0.path, bytes: $0.bytes) }
      .sorted { $0.path < $1.path }
  }

  func targetFiles(_ files: [FuzzFile]) -> [FuzzFile] {
    targetFiles(Dictionary(files.map { ($0.path, SourceText(path: $0.path, bytes: $0.bytes)) }) { first, _ in first })
  }

  /// The compiler's errors for the app target in `sources`, paths given as `FuzzSample` names them;
  /// "" when it type-checks.
  func errors(in sources: [String: SourceText]) -> String {
    errors(of: targetFiles(sources))
  }

  func errors(of files: [FuzzFile]) -> String {
    lock.lock()
    if let known = results[files] {
      lock.unlock()
      return known
    }
    runs += 1
    lock.unlock()
    let result = compile(files)
    lock.lock()
    results[files] = result
    lock.unlock()
    return result
  }

  private func compile(_ files: [FuzzFile]) -> String {
    guard let uiKit = Self.uiKitModule.directory else { return Self.uiKitModule.errors }
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("desingleton-fuzz-typecheck-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    do {
      var paths: [String] = []
      for file in files {
        let url = directory.appendingPathComponent(String(file.path.dropFirst(virtualRoot.count + 1)))
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(file.bytes).write(to: url)
        paths.append(url.path)
      }
      if paths.isEmpty { return "" }
      let result = try run(
        ["swiftc", "-swift-version", "6", "-emit-sil", "-wmo", "-module-name", moduleName, "-I", uiKit, "-o", "/dev/null"]
          + paths
      )
      guard result.status != 0 else { return "" }
      let output = (result.standardError + result.output).replacingOccurrences(of: directory.path, with: virtualRoot)
      return output.isEmpty ? "swiftc exited with status \(result.status)" : output
    } catch {
      return "could not run swiftc: \(error)"
    }
  }

  /// The first `count` error lines of compiler output, each with the line after it (the code it quotes).
  static func firstErrors(_ output: String, count: Int = 3) -> String {
    let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
    var picked: [String] = []
    for (number, line) in lines.enumerated() where line.contains(": error: ") {
      picked.append(String(line))
      if number + 1 < lines.count { picked.append(String(lines[number + 1])) }
      if picked.count >= count * 2 { break }
    }
    return picked.isEmpty ? String(output.prefix(2000)) : picked.joined(separator: "\n")
  }

  /// The UIKit stand-in built as a module the samples can import (Foundation comes with it, as on Apple's
  /// platforms); built once per process, removed by `removeUIKitModule`.
  static let uiKitModule: (directory: String?, errors: String) = {
    let sources = URL(fileURLWithPath: FuzzSample.directory).appendingPathComponent("UIKit/Sources/UIKit")
    let paths = ((try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? [])
      .filter { $0.hasSuffix(".swift") }.sorted().map { sources.appendingPathComponent($0).path }
    guard !paths.isEmpty else { return (nil, "no UIKit stand-in sources in \(sources.path)") }
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("desingleton-fuzz-uikit-\(UUID().uuidString)")
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      let result = try run(
        ["swiftc", "-swift-version", "6", "-parse-as-library", "-module-name", "UIKit", "-emit-module",
         "-emit-module-path", directory.appendingPathComponent("UIKit.swiftmodule").path] + paths
      )
      guard result.status == 0 else {
        return (nil, "the UIKit stand-in does not build:\n\(result.standardError)\(result.output)")
      }
      return (directory.path, "")
    } catch {
      return (nil, "could not run swiftc: \(error)")
    }
  }()

  static func removeUIKitModule() {
    if let directory = uiKitModule.directory { try? FileManager.default.removeItem(atPath: directory) }
  }
}
