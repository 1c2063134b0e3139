import DesingletonCore
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Type-checks a sample the way SwiftPM builds it: Swift 6 mode, whole module, through the SIL diagnostic
/// passes (definite initialization, like `compileErrors`), first the app target (`Sources/<Name>`) against
/// the UIKit stand-in in Samples/UIKit, then its test target (`Tests/<Name>Tests`) against the app target
/// built as a testable module. The stand-in and its Swift Testing overlay are compiled once per process
/// into a temporary folder.
///
/// Results are kept by the modules' exact text, so two commands that write the same code, or a mutant of
/// a file in neither module, cost one compiler run.
final class FuzzTypeChecker: @unchecked Sendable {
  /// The folder of the sample whose modules are checked, as `FuzzSample` names its files.
  let virtualRoot: String
  let moduleName: String

  private let lock = NSLock()
  private var results: [[FuzzFile]: String] = [:]
  /// Sets of modules compiled, cache hits excluded.
  private(set) var runs = 0

  init(sample: FuzzSample) {
    virtualRoot = sample.virtualRoot
    moduleName = sample.name
  }

  private var targetPrefix: String { "\(virtualRoot)/Sources/\(moduleName)/" }
  private var testPrefix: String { "\(virtualRoot)/Tests/\(moduleName)Tests/" }

  /// The files of the app target and its test target, sorted by path (the app target's first).
  func moduleFiles(_ sources: [String: SourceText]) -> [FuzzFile] {
    moduleFiles(sources.values.map { FuzzFile(path: $0.path, bytes: $0.bytes) })
  }

  func moduleFiles(_ files: [FuzzFile]) -> [FuzzFile] {
    files.filter { ($0.path.hasPrefix(targetPrefix) || $0.path.hasPrefix(testPrefix)) && $0.path.hasSuffix(".swift") }
      .sorted { $0.path < $1.path }
  }

  /// The compiler's errors for the modules in `sources`, paths given as `FuzzSample` names them; "" when
  /// both type-check.
  func errors(in sources: [String: SourceText]) -> String {
    errors(of: moduleFiles(sources))
  }

  /// `files` as `moduleFiles` returns them.
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
    guard let stubs = Self.uiKitModule.directory else { return Self.uiKitModule.errors }
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("desingleton-fuzz-typecheck-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    // The SIL goes to a file of its own: the frontend renames a temporary file over its output,
    // which would turn `/dev/null` into a regular file.
    let swiftc = [
      "swiftc", "-swift-version", "6", "-emit-sil", "-wmo", "-I", stubs, "-o", directory.appendingPathComponent("out.sil").path,
    ]
    do {
      var target: [String] = []
      var tests: [String] = []
      for file in files {
        let url = directory.appendingPathComponent(String(file.path.dropFirst(virtualRoot.count + 1)))
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(file.bytes).write(to: url)
        if file.path.hasPrefix(targetPrefix) { target.append(url.path) } else { tests.append(url.path) }
      }
      let modules = directory.appendingPathComponent(".modules")
      try FileManager.default.createDirectory(at: modules, withIntermediateDirectories: true)
      let built = try run(
        swiftc + [
          "-module-name", moduleName, "-parse-as-library", "-enable-testing", "-emit-module", "-emit-module-path",
          modules.appendingPathComponent("\(moduleName).swiftmodule").path,
        ] + target
      )
      if built.status != 0 { return report(built, directory: directory) }
      if tests.isEmpty { return "" }
      let tested = try run(swiftc + ["-module-name", "\(moduleName)Tests", "-I", modules.path] + tests)
      return tested.status == 0 ? "" : report(tested, directory: directory)
    } catch {
      return "could not run swiftc: \(error)"
    }
  }

  private func report(_ result: ProcessResult, directory: URL) -> String {
    let output = (result.standardError + result.output).replacingOccurrences(of: directory.path, with: virtualRoot)
    return output.isEmpty ? "swiftc exited with status \(result.status)" : output
  }

  /// The first `count` errors of compiler output, each with the source excerpt the compiler prints under it.
  static func firstErrors(_ output: String, count: Int = 3) -> String {
    let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
    var picked: [String] = []
    var errors = 0
    var inExcerpt = false
    for line in lines {
      if line.contains(": error: ") {
        errors += 1
        if errors > count { break }
        picked.append(String(line))
        inExcerpt = true
      } else if inExcerpt, line.contains(" | ") || line.hasSuffix(" |") {
        picked.append(String(line))
      } else {
        inExcerpt = false
      }
    }
    return picked.isEmpty ? String(output.prefix(2000)) : picked.joined(separator: "\n")
  }

  /// The UIKit stand-in built as a module the samples can import (Foundation comes with it, as on Apple's
  /// platforms), with `_Testing_UIKit`, the overlay a file importing both Testing and UIKit also imports;
  /// built once per process and removed when it exits.
  static let uiKitModule: (directory: String?, errors: String) = {
    let sources = URL(fileURLWithPath: FuzzSample.directory).appendingPathComponent("UIKit/Sources")
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("desingleton-fuzz-uikit-\(UUID().uuidString)")
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      for module in ["UIKit", "_Testing_UIKit"] {
        let folder = sources.appendingPathComponent(module)
        let paths = try FileManager.default.contentsOfDirectory(atPath: folder.path)
          .filter { $0.hasSuffix(".swift") }.sorted().map { folder.appendingPathComponent($0).path }
        let result = try run(
          [
            "swiftc", "-swift-version", "6", "-parse-as-library", "-module-name", module, "-I", directory.path,
            "-emit-module", "-emit-module-path", directory.appendingPathComponent("\(module).swiftmodule").path,
          ]
            + paths
        )
        guard result.status == 0 else {
          return (nil, "the UIKit stand-in's '\(module)' does not build:\n\(result.standardError)\(result.output)")
        }
      }
      atexit { FuzzTypeChecker.removeUIKitModule() }
      return (directory.path, "")
    } catch {
      return (nil, "could not build the UIKit stand-in in \(directory.path): \(error)")
    }
  }()

  private static func removeUIKitModule() {
    if let directory = uiKitModule.directory { try? FileManager.default.removeItem(atPath: directory) }
  }
}
