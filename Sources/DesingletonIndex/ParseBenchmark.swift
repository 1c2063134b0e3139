import DesingletonCore
import Dispatch
import Foundation
import SwiftParser

/// Parses files and keeps nothing: the floor `make bench` measures the index against.
public enum ParseBenchmark {
  /// Returns the number of lines parsed.
  public static func parseAll(_ paths: [String], threads: Int?) -> Int {
    let sizes = paths.map { path -> Int in
      var info = stat()
      return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }
    let order = paths.indices.sorted { sizes[$0] > sizes[$1] }
    let lines = parallelMap(count: order.count, threads: threads) { position -> Int in
      guard let bytes = readBytes(paths[order[position]]) else { return 0 }
      let tree = bytes.withUnsafeBufferPointer { Parser.parse(source: $0) }
      _ = tree.statements.count
      return bytes.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
    }
    return lines.reduce(0, +)
  }
}
