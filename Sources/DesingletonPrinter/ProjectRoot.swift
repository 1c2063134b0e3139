#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import DesingletonCore

/// The directory a command may write in: the git work tree that holds the paths it was given, or,
/// outside a repository, the deepest directory holding all of them. No file outside it is created
/// or changed, and the journal of an interrupted write lives at its top.
public struct ProjectRoot: Sendable, Equatable {
  /// Absolute, normalized, symbolic links resolved.
  public let path: String

  public init(path: String) { self.path = path }

  /// The root for the paths a command was given (relative ones against the current directory).
  public static func find(for paths: [String]) -> ProjectRoot {
    let fileSystem = PosixFileSystem()
    let current = fileSystem.currentDirectory() ?? "/"
    var directories: [String] = []
    for path in paths.isEmpty ? ["."] : paths {
      var directory = resolved(PathName.absolute(path, in: current))
      if let status = try? fileSystem.status(directory, followingLinks: true), status.kind != .directory {
        directory = PathName.parent(of: directory)
      }
      directories.append(workTree(containing: directory, fileSystem: fileSystem) ?? directory)
    }
    var common = directories[0]
    for directory in directories.dropFirst() {
      while !(directory == common || directory.hasPrefix(common == "/" ? "/" : common + "/")) {
        common = PathName.parent(of: common)
      }
    }
    return ProjectRoot(path: common)
  }

  /// The nearest directory at or above `directory` holding `.git` (a folder in a clone, a file in a
  /// worktree).
  private static func workTree(containing directory: String, fileSystem: PosixFileSystem) -> String? {
    var current = directory
    while true {
      if (try? fileSystem.status(current == "/" ? "/.git" : current + "/.git", followingLinks: false)) ?? nil != nil {
        return current
      }
      let parent = PathName.parent(of: current)
      if parent == current { return nil }
      current = parent
    }
  }

  /// `path` with its nearest existing ancestor's symbolic links resolved.
  static func resolved(_ path: String) -> String {
    var existing = path
    var rest: [String] = []
    while true {
      if let real = realpath(existing, nil) {
        defer { free(real) }
        let base = String(cString: real)
        return rest.isEmpty ? base : PathName.absolute(rest.reversed().joined(separator: "/"), in: base)
      }
      let parent = PathName.parent(of: existing)
      if parent == existing { return path }
      rest.append(PathName.lastComponent(of: existing))
      existing = parent
    }
  }

  /// Whether `path` (relative to the current directory, or absolute) lies inside the root.
  public func contains(_ path: String) -> Bool {
    let current = PosixFileSystem().currentDirectory() ?? "/"
    let absolute = ProjectRoot.resolved(PathName.absolute(path, in: current))
    return absolute == self.path || absolute.hasPrefix(self.path == "/" ? "/" : self.path + "/")
  }

  /// Refuses, before anything is written, a plan whose files lie outside the root.
  public func refuseOutside(_ paths: [String]) throws {
    let outside = paths.filter { !contains($0) }.sorted()
    guard !outside.isEmpty else { return }
    throw Refusal(outside.map { path in
      .error("'\(path)' lies outside the project ('\(self.path)'); desingleton writes nothing outside it; nothing was written")
    })
  }

  /// Where a write keeps its journal while it runs.
  public var journal: String { (path == "/" ? "" : path) + "/.desingleton-journal" }
}
