import Dispatch
import Foundation

/// Runs `body` once for every position in `0..<count` on up to `threads` threads (default: the
/// active cores), positions taken in order from a shared counter, and returns the results by
/// position: the result does not depend on thread timing.
public func parallelMap<Value>(count: Int, threads: Int? = nil, _ body: @Sendable (Int) -> Value) -> [Value] {
  guard count > 0 else { return [] }
  let workers = max(1, min(threads ?? ProcessInfo.processInfo.activeProcessorCount, count))
  let results = ResultSlots<Value>(count: count)
  DispatchQueue.concurrentPerform(iterations: workers) { _ in
    while let position = results.take() {
      results.set(position, body(position))
    }
  }
  return results.values
}

/// The positions still to work on and the results, behind one lock.
private final class ResultSlots<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var storage: [Value?]
  private var taken = 0

  init(count: Int) {
    storage = Array(repeating: nil, count: count)
  }

  func take() -> Int? {
    lock.lock()
    defer { lock.unlock() }
    guard taken < storage.count else { return nil }
    taken += 1
    return taken - 1
  }

  func set(_ position: Int, _ value: Value) {
    lock.lock()
    storage[position] = value
    lock.unlock()
  }

  var values: [Value] {
    lock.lock()
    defer { lock.unlock() }
    return storage.map { $0! }
  }
}
