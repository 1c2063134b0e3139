import Foundation

/// How far a long run has got: its phase and, for a phase over files, how many are done. Worker
/// threads advance it; whoever draws a progress line reads it.
public final class RunProgress: @unchecked Sendable {
  public struct State: Sendable, Equatable {
    public var phase: String
    public var done: Int
    /// 0 for a phase that does not count files.
    public var total: Int
  }

  private let lock = NSLock()
  private var state = State(phase: "reading", done: 0, total: 0)

  public init() {}

  public func begin(_ phase: String, total: Int = 0) {
    lock.lock()
    state = State(phase: phase, done: 0, total: total)
    lock.unlock()
  }

  public func advance() {
    lock.lock()
    state.done += 1
    lock.unlock()
  }

  public var current: State {
    lock.lock()
    defer { lock.unlock() }
    return state
  }
}
