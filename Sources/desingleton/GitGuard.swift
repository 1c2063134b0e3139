import DesingletonCore
import Foundation

/// Protects a user's own uncommitted edits: a command does not overwrite a file that git shows as
/// changed, unless asked to with `--allow-dirty`.
enum GitGuard {
  static func refuseUncommittedChanges(in paths: [String]) throws {
    guard !paths.isEmpty else { return }
    var dirty: [String] = []
    // Files are grouped by directory so that each `git status` runs inside the work tree that holds them.
    let byDirectory = Dictionary(grouping: paths) { ($0 as NSString).deletingLastPathComponent }
    for (directory, files) in byDirectory.sorted(by: { $0.key < $1.key }) {
      let names = files.map { ($0 as NSString).lastPathComponent }
      guard let output = git(["status", "--porcelain", "--"] + names, in: directory.isEmpty ? "." : directory) else { continue }
      for line in output.split(separator: "\n") where line.count > 3 {
        let name = String(line.dropFirst(3))
        dirty.append(directory.isEmpty ? name : directory + "/" + (name as NSString).lastPathComponent)
      }
    }
    guard !dirty.isEmpty else { return }
    throw Refusal(dirty.sorted().map { path in
      .error("'\(path)' has uncommitted changes; commit or stash them, or pass --allow-dirty (--dry-run shows the changes without writing)", at: Location(path: path, line: 1, column: 1))
    })
  }

  /// Runs git; nil when git is missing or the directory is not in a work tree.
  static func git(_ arguments: [String], in directory: String) -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["git", "-C", directory] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return nil }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    return String(decoding: data, as: UTF8.self)
  }
}
