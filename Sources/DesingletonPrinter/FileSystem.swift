/// What a path names on disk, as `lstat`/`stat` report it.
struct FileStatus: Equatable, Sendable {
  enum Kind: Equatable, Sendable {
    case regular, directory, symbolicLink, other
  }

  var kind: Kind
  /// The permission bits (`mode & 0o7777`).
  var permissions: UInt32
  var owner: UInt32
  var group: UInt32

  /// No write bit is set for anyone. Checked on the mode bits because `access(W_OK)` says yes to root.
  var isReadOnly: Bool { permissions & 0o222 == 0 }
}

/// A failed system call, with the path it was about.
struct FileSystemError: Error, Sendable, CustomStringConvertible {
  var operation: String
  var path: String
  var code: Int32
  var reason: String

  /// `cannot rename 'a' to 'b': permission denied`
  var description: String { "cannot \(operation) '\(path)': \(reason)" }
}

/// The file operations a transactional write needs. `PosixFileSystem` is the real one; tests wrap it
/// to make any single step fail.
protocol FileSystem: Sendable {
  func currentDirectory() -> String?
  /// nil when nothing is at `path`.
  func status(_ path: String, followingLinks: Bool) throws -> FileStatus?
  /// `access(W_OK)`: false for a file in a read-only place even when the mode bits allow writing.
  func isWritable(_ path: String) -> Bool
  func read(_ path: String) throws -> [UInt8]
  /// Creates a file that must not exist yet, writes and syncs it. With `permissions`, the file gets
  /// exactly those bits (and, where allowed, `owner`); without, the default mode the umask leaves.
  func createFile(
    _ path: String,
    contents: [UInt8],
    permissions: UInt32?,
    owner: (user: UInt32, group: UInt32)?
  )
    throws
  func makeDirectory(_ path: String) throws
  /// A second name for a file; fails when `newPath` exists.
  func link(_ existingPath: String, to newPath: String) throws
  /// Replaces whatever is at `newPath` in one step.
  func rename(_ oldPath: String, to newPath: String) throws
  func removeFile(_ path: String) throws
  func removeDirectory(_ path: String) throws
}
