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

/// The check of `BodySkipping` on real code: every file indexed in full and with its bodies
/// skipped; the summaries must be the same but for syntax errors.
public enum BodySkippingCheck {
  public struct Outcome: Sendable {
    public var files = 0
    /// Files some of whose bodies were parsed blank.
    public var skipped = 0
    public var bytes = 0
    public var blankedBytes = 0
    /// Files whose blanked text did not check, parsed in full.
    public var fallbacks: [String] = []
    /// `path: what differs`, one a file.
    public var differences: [String] = []
  }

  public static func check(_ paths: [String], threads: Int?) -> Outcome {
    let outcomes = parallelMap(count: paths.count, threads: threads) { position -> Outcome in
      guard let bytes = readBytes(paths[position]), isValidUTF8(bytes) else { return Outcome() }
      return check(SourceText(path: paths[position], bytes: bytes))
    }
    return outcomes.reduce(into: Outcome()) { total, one in
      total.files += one.files
      total.skipped += one.skipped
      total.bytes += one.bytes
      total.blankedBytes += one.blankedBytes
      total.differences += one.differences
      total.fallbacks += one.fallbacks
    }
  }

  /// One file: whether bodies were skipped, and whether the summaries differ, keeping every
  /// type's members and none. The skipped summary is `FileIndexer`'s own.
  public static func check(_ source: SourceText) -> Outcome {
    var outcome = Outcome(files: 1, bytes: source.bytes.count)
    let blankable = BodySkipping.blanked(source.bytes, keeping: FileIndexer.candidateOffsets(source.bytes, .standard)) != nil
    for keep in [nil, { (_: String) in false }] as [((String) -> Bool)?] {
      let full = FileIndexer.index(source, keepingMembersOf: keep)
      guard let (skipping, blankedBytes) = FileIndexer.indexSkippingBodies(
        source, isGenerated: nil, accessors: .standard, keepingMembersOf: keep)
      else {
        if blankable { outcome.fallbacks = [source.path] }
        break
      }
      (outcome.skipped, outcome.blankedBytes) = (1, blankedBytes)
      if let difference = difference(full, skipping) {
        outcome.differences.append("\(source.path): \(difference)")
        break
      }
    }
    return outcome
  }

  private static func difference(_ full: FileSummary, _ skipping: FileSummary) -> String? {
    if full.types != skipping.types { return "types" }
    if full.candidateReferences != skipping.candidateReferences { return "references" }
    if full.typeAliases != skipping.typeAliases { return "type aliases" }
    if full.mutatingMethodNames != skipping.mutatingMethodNames { return "mutating methods" }
    if full.callableNames != skipping.callableNames { return "callable names" }
    if full.parameters != skipping.parameters { return "parameters" }
    if full.typesWithoutMembers != skipping.typesWithoutMembers { return "types without members" }
    if full.lineCount != skipping.lineCount || full.isGenerated != skipping.isGenerated { return "counts" }
    // Errors inside a skipped body are not seen; none may appear that a full parse does not find.
    if !Set(skipping.syntaxErrors.map(\.description)).isSubset(of: full.syntaxErrors.map(\.description)) {
      return "syntax errors"
    }
    return nil
  }
}
