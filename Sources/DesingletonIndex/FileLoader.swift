import DesingletonCore
import Foundation

/// Finds the Swift files under the paths a command is given and reads them.
public struct FileLoader: Sendable {
  /// Directory names never entered.
  public static let skippedDirectories: Set<String> = [".build", ".git", "Pods", "Carthage", "DerivedData", "node_modules"]

  public var excludes: [String]

  public init(excludes: [String] = []) {
    self.excludes = excludes
  }

  public struct Result: Sendable {
    /// Paths of `.swift` files, sorted.
    public var files: [String]
    /// Problems that did not stop the search (a symlink loop, an unreadable directory).
    public var warnings: [Diagnostic]
  }

  /// Every `.swift` file under `paths`, skipping build folders, hidden folders and excluded globs.
  /// A path that does not exist is a refusal.
  public func swiftFiles(in paths: [String]) throws -> Result {
    var files: [String] = []
    var warnings: [Diagnostic] = []
    var visitedDirectories: Set<String> = []
    let manager = FileManager.default
    for path in paths {
      var isDirectory: ObjCBool = false
      guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw Refusal("no such file or directory: '\(path)'", at: nil)
      }
      if !isDirectory.boolValue {
        guard path.hasSuffix(".swift") else { throw Refusal("'\(path)' is not a Swift file") }
        files.append(path)
        continue
      }
      walk(path, files: &files, warnings: &warnings, visited: &visitedDirectories)
    }
    var seen: Set<String> = []
    files = files.sorted().filter { seen.insert($0).inserted }
    return Result(files: files, warnings: warnings)
  }

  private func walk(_ directory: String, files: inout [String], warnings: inout [Diagnostic], visited: inout Set<String>) {
    // A directory is known by its device and inode: cheaper than resolving links, and it sees loops.
    var info = stat()
    guard stat(directory, &info) == 0 else {
      warnings.append(.warning("cannot read directory '\(directory)'"))
      return
    }
    guard visited.insert("\(info.st_dev):\(info.st_ino)").inserted else {
      warnings.append(.warning("skipping '\(directory)': it leads back to a directory already searched (a symlink loop)"))
      return
    }
    let manager = FileManager.default
    guard let entries = try? manager.contentsOfDirectory(atPath: directory) else {
      warnings.append(.warning("cannot read directory '\(directory)'"))
      return
    }
    for entry in entries.sorted() {
      let path = directory == "." ? entry : (directory.hasSuffix("/") ? directory + entry : directory + "/" + entry)
      if isExcluded(path) { continue }
      var isDirectory: ObjCBool = false
      guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
        warnings.append(.warning("skipping '\(path)': broken symbolic link"))
        continue
      }
      if isDirectory.boolValue {
        if entry.hasPrefix(".") || Self.skippedDirectories.contains(entry) { continue }
        walk(path, files: &files, warnings: &warnings, visited: &visited)
      } else if entry.hasSuffix(".swift") {
        files.append(path)
      }
    }
  }

  func isExcluded(_ path: String) -> Bool {
    excludes.contains { pattern in
      fnmatch(pattern, path, 0) == 0 || fnmatch(pattern, (path as NSString).lastPathComponent, 0) == 0
        || fnmatch("*/" + pattern, path, 0) == 0 || fnmatch(pattern + "/*", path, 0) == 0
        || fnmatch("*/" + pattern + "/*", path, 0) == 0
    }
  }

  /// Reads one file. A file that is not UTF-8 is a refusal naming it.
  public static func read(_ path: String) throws -> SourceText {
    guard let bytes = readBytes(path) else {
      throw Refusal("cannot read '\(path)'", at: nil)
    }
    if !isValidUTF8(bytes) {
      throw Refusal("'\(path)' is not valid UTF-8", at: Location(path: path, line: 1, column: 1))
    }
    return SourceText(path: path, bytes: bytes)
  }
}

/// Whether `bytes` are valid UTF-8; checked in place where the standard library can (no copy).
public func isValidUTF8(_ bytes: [UInt8]) -> Bool {
  if #available(macOS 26, *) {
    return (try? UTF8Span(validating: bytes.span)) != nil
  }
  return String(validating: bytes, as: UTF8.self) != nil
}

/// A file's bytes, read with one `read` loop into a buffer of the file's size; nil if it cannot be read.
public func readBytes(_ path: String) -> [UInt8]? {
  let descriptor = open(path, O_RDONLY)
  guard descriptor >= 0 else { return nil }
  defer { close(descriptor) }
  var info = stat()
  guard fstat(descriptor, &info) == 0 else { return nil }
  let size = Int(info.st_size)
  var failed = false
  let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
    count = 0
    while count < size {
      let got = read(descriptor, buffer.baseAddress.map { $0 + count }, size - count)
      if got < 0 {
        failed = true
        return
      }
      if got == 0 { break }
      count += got
    }
  }
  return failed ? nil : bytes
}
