#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The real file system, through the POSIX calls.
struct PosixFileSystem: FileSystem {
  func currentDirectory() -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    guard getcwd(&buffer, buffer.count) != nil else { return nil }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  func status(_ path: String, followingLinks: Bool) throws -> FileStatus? {
    var info = stat()
    let result = followingLinks ? stat(path, &info) : lstat(path, &info)
    if result != 0 {
      let code = errno
      if code == ENOENT || code == ENOTDIR { return nil }
      throw failure("inspect", path, code)
    }
    let mode = UInt32(info.st_mode)
    let kind: FileStatus.Kind
    switch mode & 0o170000 {
    case 0o100000: kind = .regular
    case 0o040000: kind = .directory
    case 0o120000: kind = .symbolicLink
    default: kind = .other
    }
    return FileStatus(kind: kind, permissions: mode & 0o7777, owner: UInt32(info.st_uid), group: UInt32(info.st_gid))
  }

  func isWritable(_ path: String) -> Bool {
    access(path, W_OK) == 0
  }

  func read(_ path: String) throws -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    if fd < 0 { throw failure("read", path, errno) }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw failure("read", path, errno)
      }
      if count == 0 { return bytes }
      bytes.append(contentsOf: chunk[0..<count])
    }
  }

  func createFile(
    _ path: String,
    contents: [UInt8],
    permissions: UInt32?,
    owner: (user: UInt32, group: UInt32)?
  ) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions == nil ? 0o666 : 0o600)
    if fd < 0 { throw failure("create", path, errno) }
    var closed = false
    do {
      if let owner {
        // Best effort: only root may give a file away, and keeping our own ownership is no error.
        _ = fchown(fd, uid_t(owner.user), gid_t(owner.group))
      }
      // After fchown, which may clear set-id bits.
      if let permissions, fchmod(fd, mode_t(permissions)) != 0 { throw failure("set permissions of", path, errno) }
      var written = 0
      while written < contents.count {
        let count = contents.withUnsafeBytes { buffer in
          systemWrite(fd, buffer.baseAddress.map { $0 + written }, buffer.count - written)
        }
        if count < 0 {
          if errno == EINTR { continue }
          throw failure("write", path, errno)
        }
        written += count
      }
      if fsync(fd) != 0 { throw failure("write", path, errno) }
      closed = true
      if close(fd) != 0 { throw failure("write", path, errno) }
    } catch {
      if !closed { close(fd) }
      unlink(path)
      throw error
    }
  }

  func makeDirectory(_ path: String) throws {
    if mkdir(path, 0o777) != 0 { throw failure("create directory", path, errno) }
  }

  func link(_ existingPath: String, to newPath: String) throws {
    if systemLink(existingPath, newPath) != 0 { throw failure("link", newPath, errno) }
  }

  func rename(_ oldPath: String, to newPath: String) throws {
    if systemRename(oldPath, newPath) != 0 { throw failure("rename '\(oldPath)' to", newPath, errno) }
  }

  func removeFile(_ path: String) throws {
    if unlink(path) != 0 { throw failure("remove", path, errno) }
  }

  func removeDirectory(_ path: String) throws {
    if rmdir(path) != 0 { throw failure("remove directory", path, errno) }
  }

  private func failure(_ operation: String, _ path: String, _ code: Int32) -> FileSystemError {
    var reason = strerror(code).map { String(cString: $0) } ?? "error \(code)"
    if let first = reason.first, first.isUppercase, reason.dropFirst().first?.isLowercase ?? false {
      reason = first.lowercased() + reason.dropFirst()
    }
    return FileSystemError(operation: operation, path: path, code: code, reason: reason)
  }
}

extension FileSystemError {
  /// `link` failed because this file system (or its protection of hard links) does not allow it.
  var meansLinksUnsupported: Bool {
    [EPERM, EXDEV, EMLINK, ENOTSUP, EOPNOTSUPP, ENOSYS].contains(code)
  }

  var meansAlreadyExists: Bool { code == EEXIST }
}

// The methods above shadow the C functions of the same names.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  read(fd, buffer, count)
}

private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
  write(fd, buffer, count)
}

private func systemLink(_ existingPath: String, _ newPath: String) -> Int32 {
  link(existingPath, newPath)
}

private func systemRename(_ oldPath: String, _ newPath: String) -> Int32 {
  rename(oldPath, newPath)
}
