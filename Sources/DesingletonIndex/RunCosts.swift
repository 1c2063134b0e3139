import Foundation

/// What the loader's runs cost, for the bound on the runs it throws away (`PhasedScan.run`), and
/// the memory parsing takes.
extension PhasedScan {
  /// Time spent parsing files (on every thread) and their lines: the rate at which the files left
  /// would be parsed.
  final class ParseMeter: @unchecked Sendable {
    private let lock = NSLock()
    private var time = Duration.zero
    private var lines = 0

    func add(_ duration: Duration, lines count: Int) {
      lock.lock()
      defer { lock.unlock() }
      time += duration
      lines += count
    }

    /// Parsing `remaining` lines on `threads` threads at the rate so far; zero before any parse.
    func estimate(lines remaining: Int, threads: Int) -> Duration {
      lock.lock()
      defer { lock.unlock() }
      return lines == 0 ? .zero : time / lines * remaining / max(1, threads)
    }
  }
}

/// Bytes being worked on by several threads, kept under a limit: a thread waits while others hold
/// the budget (a request larger than the limit goes alone).
final class ByteBudget: @unchecked Sendable {
  private let condition = NSCondition()
  private let limit: Int
  private var inUse = 0

  init(limit: Int) {
    self.limit = limit
  }

  func acquire(_ bytes: Int) {
    condition.lock()
    while inUse > 0 && inUse + bytes > limit { condition.wait() }
    inUse += bytes
    condition.unlock()
  }

  func release(_ bytes: Int) {
    condition.lock()
    inUse -= bytes
    condition.broadcast()
    condition.unlock()
  }
}
