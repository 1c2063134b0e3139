import DesingletonCore
import Foundation
import SwiftParser

/// Parses files and keeps nothing: the floor `make bench` measures the index against.
public enum ParseBenchmark {
  /// Returns the number of lines parsed.
  public static func parseAll(_ paths: [String], threads: Int?) -> Int {
    // The same order and the same line count as the index, so that only the index differs.
    let order = IndexBuilder.largestFirst(paths)
    let lines = parallelMap(count: order.count, threads: threads) { position -> Int in
      guard let bytes = readBytes(paths[order[position]]) else { return 0 }
      let tree = bytes.withUnsafeBufferPointer { Parser.parse(source: $0, maximumNestingLevel: swiftParserNestingLimit) }
      _ = tree.statements.count
      return SourceText.lineStarts(in: bytes).count - 1
    }
    return lines.reduce(0, +)
  }
}
