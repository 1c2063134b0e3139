import DesingletonCore
import Foundation
import Testing

@testable import DesingletonPrinter

/// Helpers shared by the Printer tests.
enum PrinterTestSupport {
  /// A fresh empty directory under the system's temporary directory (absolute, symlinks resolved).
  static func makeTemporaryDirectory() throws -> String {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("desingleton-printer-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url.resolvingSymlinksInPath().path
  }

  static func removeDirectory(_ path: String) {
    // Read-only files and directories do not stop root, but make sure a non-root run cleans up too.
    if let items = FileManager.default.enumerator(atPath: path) {
      for case let item as String in items {
        try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path + "/" + item)
      }
    }
    try? FileManager.default.removeItem(atPath: path)
  }

  /// Writes `contents` at `path`, creating parent directories.
  static func writeFile(_ path: String, _ contents: [UInt8], permissions: Int? = nil) throws {
    let url = URL(fileURLWithPath: path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(contents).write(to: url)
    if let permissions {
      try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: path)
    }
  }

  static func readFile(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  static func permissions(of path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
  }

  /// Everything below `directory`, hidden files included: relative path -> kind, permissions and bytes.
  static func snapshot(_ directory: String) throws -> [String: String] {
    var result: [String: String] = [:]
    for item in try FileManager.default.subpathsOfDirectory(atPath: directory) {
      let path = directory + "/" + item
      let attributes = try FileManager.default.attributesOfItem(atPath: path)
      let type = attributes[.type] as? FileAttributeType
      let mode = String((attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1, radix: 8)
      if type == .typeDirectory {
        result[item] = "directory \(mode)"
      } else {
        let bytes = try readFile(path)
        result[item] = "file \(mode) \(bytes.map { String($0, radix: 16) }.joined(separator: " "))"
      }
    }
    return result
  }

  /// Runs git in `directory`; returns its exit status and combined output.
  @discardableResult
  static func git(_ arguments: [String], in directory: String) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["git", "-c", "core.autocrlf=false", "-c", "core.quotePath=false"] + arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  /// The UTF-8 offset of the first occurrence of `needle` in `text`.
  static func offset(
    of needle: String,
    in text: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Int {
    let haystack = Array(text.utf8)
    let pattern = Array(needle.utf8)
    if !pattern.isEmpty, pattern.count <= haystack.count {
      for start in 0...(haystack.count - pattern.count)
      where haystack[start..<(start + pattern.count)].elementsEqual(pattern) {
        return start
      }
    }
    Issue.record("'\(needle)' is not in the text", sourceLocation: sourceLocation)
    return 0
  }

  /// The edit that replaces the first occurrence of `needle` in `text`.
  static func replacing(
    _ needle: String,
    with replacement: String,
    in text: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> TextEdit {
    let start = offset(of: needle, in: text, sourceLocation: sourceLocation)
    return TextEdit(range: start..<(start + needle.utf8.count), replacement: replacement)
  }
}

/// The real file system with a hook called before every step that moves towards the new state
/// (creating, linking, renaming, removing a temporary file); the hook may throw to make that step fail.
/// Removing a backup after success is best effort and is not hooked.
final class HookedFileSystem: FileSystem, @unchecked Sendable {
  typealias Hook = @Sendable (_ step: Int, _ operation: String, _ path: String) throws -> Void

  private let base = PosixFileSystem()
  private let hook: Hook
  private let linksUnsupported: Bool
  private let lock = NSLock()
  private var count = 0

  /// `linksUnsupported`: every `link` fails with EPERM, as on a file system without hard links.
  init(linksUnsupported: Bool = false, hook: @escaping Hook) {
    self.linksUnsupported = linksUnsupported
    self.hook = hook
  }

  /// A file system whose `failingStep`-th step fails.
  static func failing(atStep failingStep: Int, linksUnsupported: Bool = false) -> HookedFileSystem {
    HookedFileSystem(linksUnsupported: linksUnsupported) { step, operation, path in
      if step == failingStep {
        throw FileSystemError(operation: operation, path: path, code: EIO, reason: "injected failure")
      }
    }
  }

  var steps: Int { lock.withLock { count } }

  private func step(_ operation: String, _ path: String) throws {
    let step = lock.withLock {
      count += 1
      return count
    }
    try hook(step, operation, path)
  }

  func currentDirectory() -> String? { base.currentDirectory() }
  func status(_ path: String, followingLinks: Bool) throws -> FileStatus? {
    try base.status(path, followingLinks: followingLinks)
  }
  func isWritable(_ path: String) -> Bool { base.isWritable(path) }
  func read(_ path: String) throws -> [UInt8] { try base.read(path) }

  func createFile(
    _ path: String,
    contents: [UInt8],
    permissions: UInt32?,
    owner: (user: UInt32, group: UInt32)?
  )
    throws
  {
    try step("create", path)
    try base.createFile(path, contents: contents, permissions: permissions, owner: owner)
  }

  func makeDirectory(_ path: String) throws {
    try step("create directory", path)
    try base.makeDirectory(path)
  }

  func link(_ existingPath: String, to newPath: String) throws {
    if linksUnsupported {
      throw FileSystemError(operation: "link", path: newPath, code: EPERM, reason: "operation not permitted")
    }
    try step("link", newPath)
    try base.link(existingPath, to: newPath)
  }

  func rename(_ oldPath: String, to newPath: String) throws {
    try step("rename '\(oldPath)' to", newPath)
    try base.rename(oldPath, to: newPath)
  }

  func removeFile(_ path: String) throws {
    if !path.hasSuffix(".backup") { try step("remove", path) }
    try base.removeFile(path)
  }

  func removeDirectory(_ path: String) throws {
    try step("remove directory", path)
    try base.removeDirectory(path)
  }
}
