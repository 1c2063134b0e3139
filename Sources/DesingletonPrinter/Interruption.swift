#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// SIGINT and SIGTERM while files are being written or the build runs: the signal is noted, the
/// step under way finishes, every file is restored, and the process exits with 128 + the signal.
/// Outside a write the default action stands: nothing is on disk yet, so ending at once is safe.
public enum Interruption {
  /// The signal received while watching, or 0.
  nonisolated(unsafe) private static var received: Int32 = 0
  nonisolated(unsafe) private static var depth = 0

  /// Runs `body` with SIGINT and SIGTERM noted instead of ending the process.
  public static func watching<T>(_ body: () throws -> T) rethrows -> T {
    if depth == 0 {
      received = 0
      install { signal in Interruption.note(signal) }
      // A mask inherited blocked (a parent that spawned us from a thread that blocks them) would
      // keep the signals pending until exit.
      var signals = sigset_t()
      sigemptyset(&signals)
      sigaddset(&signals, SIGINT)
      sigaddset(&signals, SIGTERM)
      pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }
    depth += 1
    defer {
      depth -= 1
      if depth == 0 { restoreDefaults() }
    }
    return try body()
  }

  /// The signal received so far while watching, if any.
  public static var pending: Int32? { received == 0 ? nil : received }

  /// Throws `Interrupted` when a signal arrived.
  public static func check() throws {
    if let signal = pending { throw Interrupted(signal: signal) }
  }

  private static func note(_ signal: Int32) {
    if received == 0 { received = signal }
  }

  private static func install(_ handler: @convention(c) (Int32) -> Void) {
    for signal in [SIGINT, SIGTERM] {
      var action = sigaction()
      #if canImport(Darwin)
        action.__sigaction_u.__sa_handler = handler
      #else
        action.__sigaction_handler.sa_handler = handler
      #endif
      sigemptyset(&action.sa_mask)
      action.sa_flags = 0
      sigaction(signal, &action, nil)
    }
  }

  private static func restoreDefaults() {
    signal(SIGINT, SIG_DFL)
    signal(SIGTERM, SIG_DFL)
  }
}

/// A run ended by SIGINT or SIGTERM; the tree was restored before this is thrown past the write.
public struct Interrupted: Error, Sendable, CustomStringConvertible {
  public var signal: Int32
  /// Problems met while restoring, if any.
  public var problems: [String] = []

  public init(signal: Int32, problems: [String] = []) {
    self.signal = signal
    self.problems = problems
  }

  /// The shell's convention: 128 + the signal (130 for SIGINT, 143 for SIGTERM).
  public var exitCode: Int32 { 128 + signal }

  public var description: String {
    let name = signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "signal \(signal)"
    return "error: interrupted (\(name)); every file was restored"
  }
}
