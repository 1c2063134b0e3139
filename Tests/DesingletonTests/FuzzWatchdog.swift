import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Makes a crash or a hang while fuzzing say which mutant caused it. A crash (a Swift runtime trap is
/// SIGILL or SIGTRAP) kills the test process before any `#expect` can report, so the mutant being run is
/// kept in a buffer a signal handler can write to stderr; the previous handlers (Swift's backtracer) run
/// after it. A mutant that runs longer than the time limit is reported the same way and the process
/// aborted, since a hung thread cannot be stopped.
final class FuzzWatchdog: @unchecked Sendable {
  private let lock = NSLock()
  /// The mutants running now, by worker: when each started and what it is.
  private var running: [Int: (started: DispatchTime, note: String)] = [:]
  private var timer: (any DispatchSourceTimer)?
  private let limit: Double

  init(limitSeconds: Double) {
    limit = limitSeconds
    FuzzWatchdog.installHandlers()
    let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global())
    timer.schedule(deadline: .now() + 1, repeating: 1)
    timer.setEventHandler { [weak self] in self?.check() }
    timer.resume()
    self.timer = timer
  }

  /// Call before worker `worker` runs a mutant.
  func begin(_ worker: Int, _ description: String) {
    lock.lock()
    running[worker] = (.now(), description)
    updateCrashNote()
    lock.unlock()
  }

  func end(_ worker: Int) {
    lock.lock()
    running[worker] = nil
    updateCrashNote()
    lock.unlock()
  }

  func stop() {
    timer?.cancel()
    timer = nil
    lock.lock()
    running = [:]
    FuzzWatchdog.setCrashNote("")
    lock.unlock()
    FuzzWatchdog.restoreHandlers()
  }

  /// Called with the lock held.
  private func updateCrashNote() {
    let notes = running.sorted { $0.key < $1.key }.map(\.value.note)
    switch notes.count {
    case 0: FuzzWatchdog.setCrashNote("")
    case 1: FuzzWatchdog.setCrashNote("\n*** crashed while fuzzing: \(notes[0])\n")
    default:
      FuzzWatchdog.setCrashNote("\n*** crashed while fuzzing one of these:\n" + notes.map { "- \($0)\n" }.joined())
    }
  }

  private func check() {
    lock.lock()
    let now = DispatchTime.now().uptimeNanoseconds
    let hung = running.values.first { Double(now - $0.started.uptimeNanoseconds) / 1e9 > limit }
    lock.unlock()
    guard let hung else { return }
    let seconds = Int(Double(now - hung.started.uptimeNanoseconds) / 1e9)
    FileHandle.standardError.write(
      Data("\n*** hang: still running after \(seconds) s while fuzzing: \(hung.note)\n".utf8)
    )
    FuzzWatchdog.setCrashNote("")
    abort()
  }

  // MARK: Signal handling

  private static let signals: [Int32] = [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGABRT, SIGFPE]
  private static let capacity = 8192
  // Fixed storage, so the handler touches no Swift collections.
  nonisolated(unsafe) private static let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
  nonisolated(unsafe) private static var length = 0
  nonisolated(unsafe) private static let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
  nonisolated(unsafe) private static var installed = false

  private static func setCrashNote(_ text: String) {
    length = 0
    var count = 0
    for byte in text.utf8.prefix(capacity) {
      buffer[count] = byte
      count += 1
    }
    length = count
  }

  private static func installHandlers() {
    guard !installed else { return }
    installed = true
    for signal in signals {
      var action = sigaction()
      #if canImport(Glibc)
      action.__sigaction_handler.sa_handler = fuzzSignalHandler
      #else
      action.__sigaction_u.__sa_handler = fuzzSignalHandler
      #endif
      sigemptyset(&action.sa_mask)
      action.sa_flags = 0
      sigaction(signal, &action, previous + Int(signal))
    }
  }

  private static func restoreHandlers() {
    guard installed else { return }
    for signal in signals {
      sigaction(signal, previous + Int(signal), nil)
    }
    installed = false
  }

  /// Writes the note, puts back the handler that was there before (Swift's backtracer, or the default)
  /// and raises the signal again for it.
  fileprivate static func handle(_ signal: Int32) {
    if length > 0 { _ = write(2, buffer, length) }
    sigaction(signal, previous + Int(signal), nil)
    raise(signal)
  }
}

private func fuzzSignalHandler(_ signal: Int32) {
  FuzzWatchdog.handle(signal)
}
