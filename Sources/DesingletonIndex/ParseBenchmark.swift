import DesingletonCore
import Dispatch
import Foundation
import SwiftParser

/// Parses files and keeps nothing: the floor `make bench` measures the index against.
public enum ParseBenchmark {
  /// Returns the number of lines parsed.
  public static func parseAll(_ paths: [String], threads: Int?) -> Int {
    let workers = max(1, threads ?? ProcessInfo.processInfo.activeProcessorCount)
    let sizes = paths.map { path -> Int in
      var info = stat()
      return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }
    let order = paths.indices.sorted { sizes[$0] > sizes[$1] }
    let next = Counter()
    let total = Total()
    DispatchQueue.concurrentPerform(iterations: min(workers, max(paths.count, 1))) { _ in
      while let position = next.take(below: order.count) {
        guard let bytes = readBytes(paths[order[position]]) else { continue }
        let tree = bytes.withUnsafeBufferPointer { Parser.parse(source: $0) }
        _ = tree.statements.count
        total.add(bytes.reduce(0) { $0 + ($1 == 10 ? 1 : 0) })
      }
    }
    return total.value
  }
}

final class Total: @unchecked Sendable {
  private let lock = NSLock()
  private var sum = 0

  func add(_ amount: Int) {
    lock.lock()
    sum += amount
    lock.unlock()
  }

  var value: Int {
    lock.lock()
    defer { lock.unlock() }
    return sum
  }
}
