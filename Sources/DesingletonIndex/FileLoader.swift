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
    /// Paths of Objective-C sources and headers (`.m`, `.mm`, `.h`), sorted: read only to find where
    /// Objective-C code uses what a command would change.
    public var objectiveCFiles: [String] = []
    /// Paths of Xcode project files (`Name.xcodeproj/project.pbxproj`), sorted.
    public var xcodeProjectFiles: [String] = []
    /// Problems that did not stop the search (a symlink loop, an unreadable directory).
    public var warnings: [Diagnostic]
  }

  /// Every `.swift` file under `paths`, skipping build folders, hidden folders and excluded globs.
  /// A path that does not exist is a refusal.
  public func swiftFiles(in paths: [String]) throws -> Result {
    var files: [String] = []
    var objectiveC: [String] = []
    var projects: [String] = []
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
      walk(
        path, files: &files, objectiveC: &objectiveC, projects: &projects, warnings: &warnings,
        visited: &visitedDirectories)
    }
    var seen: Set<String> = []
    files = files.sorted().filter { seen.insert($0).inserted }
    return Result(
      files: files, objectiveCFiles: Array(Set(objectiveC)).sorted(), xcodeProjectFiles: Array(Set(projects)).sorted(),
      warnings: warnings)
  }

  private func walk(
    _ directory: String, files: inout [String], objectiveC: inout [String], projects: inout [String],
    warnings: inout [Diagnostic], visited: inout Set<String>
  ) {
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
    guard let entries = FileLoader.entries(of: directory) else {
      warnings.append(.warning("cannot read directory '\(directory)'"))
      return
    }
    for (entry, type) in entries {
      let path = directory == "." ? entry : (directory.hasSuffix("/") ? directory + entry : directory + "/" + entry)
      if isExcluded(path) { continue }
      var isDirectory = type == DT_DIR
      if type != DT_DIR && type != DT_REG {
        // A symbolic link (or a file system that does not say): follow it.
        var target = stat()
        guard stat(path, &target) == 0 else {
          warnings.append(.warning("skipping '\(path)': broken symbolic link"))
          continue
        }
        isDirectory = (target.st_mode & S_IFMT) == S_IFDIR
      }
      if isDirectory {
        if entry.hasPrefix(".") || Self.skippedDirectories.contains(entry) { continue }
        walk(path, files: &files, objectiveC: &objectiveC, projects: &projects, warnings: &warnings, visited: &visited)
      } else if entry.hasSuffix(".swift") {
        files.append(path)
      } else if ObjectiveCFiles.isObjectiveC(entry) {
        objectiveC.append(path)
      } else if entry == "project.pbxproj" && directory.hasSuffix(".xcodeproj") {
        projects.append(path)
      }
    }
  }

  /// A directory's entries and their types (`DT_DIR`, `DT_REG`, `DT_LNK`, ...), sorted by name;
  /// `readdir` gives the type, so only links need a `stat`.
  private static func entries(of directory: String) -> [(name: String, type: Int)]? {
    guard let stream = opendir(directory) else { return nil }
    defer { closedir(stream) }
    var entries: [(name: String, type: Int)] = []
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { buffer in
        String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name == "." || name == ".." { continue }
      entries.append((name, Int(entry.pointee.d_type)))
    }
    return entries.sorted { $0.name < $1.name }
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

/// The lines a scan counts in a file: its line feeds plus one. Eight bytes at a time: a byte of
/// `word ^ 0x0A…` is zero where the byte is a line feed, and the zero bytes are counted exactly.
public func lineCount(_ bytes: [UInt8]) -> Int {
  var lines = 1
  bytes.withUnsafeBytes { buffer in
    let count = buffer.count
    var offset = 0
    let feeds: UInt64 = 0x0A0A_0A0A_0A0A_0A0A
    let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    while offset + 8 <= count {
      // Each byte of `sums` counts the line feeds at its position, for at most 255 words at a time.
      var sums: UInt64 = 0
      var words = 0
      while words < 255, offset + 8 <= count {
        let word = UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) ^ feeds
        // The high bit of each byte is set where that byte of `word` is zero.
        let zero = ~(((word & low) &+ low) | word | low)
        sums &+= zero >> 7
        offset += 8
        words += 1
      }
      // Pairs of bytes summed into four 16-bit lanes, and the lanes into the top one.
      let lanes = (sums & 0x00FF_00FF_00FF_00FF) &+ ((sums >> 8) & 0x00FF_00FF_00FF_00FF)
      lines += Int((lanes &* 0x0001_0001_0001_0001) >> 48)
    }
    while offset < count {
      if buffer[offset] == UInt8(ascii: "\n") { lines += 1 }
      offset += 1
    }
  }
  return lines
}
