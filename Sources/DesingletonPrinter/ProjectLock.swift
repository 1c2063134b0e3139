#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import DesingletonCore

/// One write at a time in a project: a write holds an exclusive lock on the directory its journal
/// sits in (the project's root) while its files change and its build runs, and only a journal whose
/// lock is free was left by a run that ended midway. Without it, a second command started during a
/// write (an editor's scan, a second terminal, a folder of the same work tree) would take the live
/// journal for an interrupted run's and restore files under the write, or a second write would
/// replace the first one's journal.
///
/// The lock is `flock` on the directory, opened close-on-exec: the operating system lets it go when
/// the process ends however it ends (`kill -9` too), and the build a write runs does not inherit it.
final class ProjectLock {
  /// -1: a directory that could not be opened, where there is nothing to lock.
  private let descriptor: Int32

  private init(descriptor: Int32) { self.descriptor = descriptor }

  deinit {
    guard descriptor >= 0 else { return }
    _ = flock(descriptor, LOCK_UN)
    close(descriptor)
  }

  /// The lock of the directory holding `journal`, or nil when another process holds it.
  static func take(forJournal journal: String) -> ProjectLock? {
    let descriptor = open(PathName.parent(of: journal), O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return ProjectLock(descriptor: -1) }
    while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      let code = errno
      if code == EINTR { continue }
      close(descriptor)
      return code == EWOULDBLOCK ? nil : ProjectLock(descriptor: -1)
    }
    return ProjectLock(descriptor: descriptor)
  }

  /// Runs `body` holding the lock of the directory holding `journal`; refuses, before `body` runs,
  /// when another run holds it.
  static func holding<T>(journal: String, _ body: () throws -> T) throws -> T {
    guard let lock = take(forJournal: journal) else { throw Refusal([busy(journal)]) }
    return try withExtendedLifetime(lock) { try body() }
  }

  /// Why nothing was done: another run writes in the project.
  static func busy(_ journal: String) -> Diagnostic {
    .error(
      "another desingleton run is writing in '\(PathName.parent(of: journal))' (its journal is '\(journal)'); nothing was changed; run this command again when it has finished"
    )
  }
}
