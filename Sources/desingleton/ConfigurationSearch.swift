import DesingletonCore
import DesingletonIndex
import DesingletonPlanner
import Foundation

/// Where a command finds `.desingleton.json`: `--config PATH`, or the first one in the working
/// directory or a directory above it, up to the git repository's root (outside a repository, only
/// the working directory). Shown relative to the working directory (`../.desingleton.json`).
enum ConfigurationSearch {
  static func find(explicit: String?) throws -> Configuration {
    if let explicit {
      guard FileManager.default.fileExists(atPath: explicit) else {
        throw Refusal("no such configuration file: '\(explicit)'")
      }
      return try Configuration.read(FileLoader.read(explicit))
    }
    let manager = FileManager.default
    var directory = URL(fileURLWithPath: manager.currentDirectoryPath).standardizedFileURL
    var prefix = ""
    while true {
      if manager.fileExists(atPath: directory.appendingPathComponent(Configuration.fileName).path) {
        return try Configuration.read(FileLoader.read(prefix + Configuration.fileName))
      }
      // `.git` is a folder in a clone and a file in a worktree: either ends the search.
      let atRoot = manager.fileExists(atPath: directory.appendingPathComponent(".git").path)
      let parent = directory.deletingLastPathComponent()
      if atRoot || parent.path == directory.path || !isInsideRepository(parent) { return Configuration() }
      directory = parent
      prefix += "../"
    }
  }

  /// Whether `directory` or one above it holds `.git`: a search outside a repository stays put.
  private static func isInsideRepository(_ directory: URL) -> Bool {
    var current = directory
    while true {
      if FileManager.default.fileExists(atPath: current.appendingPathComponent(".git").path) { return true }
      let parent = current.deletingLastPathComponent()
      if parent.path == current.path { return false }
      current = parent
    }
  }
}
