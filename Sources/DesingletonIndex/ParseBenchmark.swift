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
    /// Files some of whose top-level declarations were left out whole (`BodySkipping.blanked`'s
    /// `omitting`), and their bytes.
    public var omitted = 0
    public var omittedBytes = 0
    /// Files whose bodies could be left out, but not their top-level declarations as well.
    public var omissionFallbacks: [String] = []
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
      total.omitted += one.omitted
      total.omittedBytes += one.omittedBytes
      total.omissionFallbacks += one.omissionFallbacks
    }
  }

  /// One file: whether bodies were skipped, and whether the summaries differ, keeping every
  /// type's members and none. The skipped summary is `FileIndexer`'s own.
  public static func check(_ source: SourceText) -> Outcome {
    var outcome = Outcome(files: 1, bytes: source.bytes.count)
    let blankable = BodySkipping.blanked(source.bytes, keeping: FileIndexer.candidateOffsets(source.bytes, .standard)) != nil
    for keep in [nil, { (_: String) in false }] as [((String) -> Bool)?] {
      let full = FileIndexer.index(source, keepingMembersOf: keep)
      guard let (skipping, blankedBytes, _) = FileIndexer.indexSkippingBodies(
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
    if outcome.differences.isEmpty { checkOmitting(source, &outcome) }
    return outcome
  }

  /// Every top-level declaration that holds no reference left out whole: the summary must be the
  /// whole file's less what those declare.
  private static func checkOmitting(_ source: SourceText, _ outcome: inout Outcome) {
    let all: ([Range<Int>]) -> Bool = { _ in true }
    let offsets = FileIndexer.candidateOffsets(source.bytes, .standard)
    guard let blanked = BodySkipping.blanked(source.bytes, keeping: offsets, omitting: all), !blanked.omitted.isEmpty
    else { return }
    guard
      let (part, _, omitted) = FileIndexer.indexSkippingBodies(
        source, isGenerated: nil, accessors: .standard, keepingMembersOf: nil, omitting: all)
    else {
      // Unless the bodies alone did not check either.
      if outcome.fallbacks.isEmpty { outcome.omissionFallbacks = [source.path] }
      return
    }
    (outcome.omitted, outcome.omittedBytes) = (1, omitted.reduce(0) { $0 + $1.count })
    if let difference = omissionDifference(FileIndexer.index(source), part, omitted) {
      outcome.differences.append("\(source.path): left out whole: \(difference)")
    }
  }

  private static func omissionDifference(_ full: FileSummary, _ part: FileSummary, _ omitted: [Range<Int>]) -> String? {
    func isLeftOut(_ type: TypeDecl) -> Bool { omitted.contains { $0.contains(type.range.bytes.lowerBound) } }
    if full.types.filter({ !isLeftOut($0) }) != part.types { return "types" }
    if full.candidateReferences != part.candidateReferences { return "references" }
    // The type aliases kept are the whole file's, in order, less some declared in a type left out.
    let leftOut = Set(full.types.filter(isLeftOut).map(\.qualifiedName))
    var aliases = part.typeAliases[...]
    for alias in full.typeAliases {
      if alias == aliases.first {
        aliases.removeFirst()
      } else if !(alias.enclosingType.map(leftOut.contains) ?? false) {
        return "type aliases"
      }
    }
    if !aliases.isEmpty { return "type aliases" }
    if !part.mutatingMethodNames.isSubset(of: full.mutatingMethodNames) { return "mutating methods" }
    if !part.callableNames.isSubset(of: full.callableNames) { return "callable names" }
    if !Set(part.parameters).isSubset(of: full.parameters) { return "parameters" }
    if full.lineCount != part.lineCount || full.isGenerated != part.isGenerated { return "counts" }
    if !Set(part.syntaxErrors.map(\.description)).isSubset(of: full.syntaxErrors.map(\.description)) {
      return "syntax errors"
    }
    return nil
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
