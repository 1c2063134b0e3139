import DesingletonCore
import SwiftParser
@_spi(RawSyntax) import SwiftSyntax

/// A parsed file the planners can read and edit: its exact bytes and its syntax tree.
public struct ParsedFile: @unchecked Sendable {
  public let source: SourceText
  public let tree: SourceFileSyntax
  /// How far the parser looked ahead for each item it parsed: what parsing an edited text of this
  /// file needs to take the items no edit reaches from this tree (`init(source:editing:with:)`).
  let lookahead: LookaheadRanges
  /// Whether the tree was parsed from the tree of the file before edits (`init(source:editing:with:)`).
  public let isFromEdits: Bool

  public init(source: SourceText) {
    self.source = source
    (tree, lookahead) = source.bytes.withUnsafeBufferPointer {
      Parser.parseIncrementally(source: $0, maximumNestingLevel: swiftParserNestingLimit, parseTransition: nil)
    }
    isFromEdits = false
  }

  /// The file `previous` becomes with `edits` (the plan's edits of `previous.source`): the items
  /// (members, statements, top-level declarations) whose bytes and lookahead no edit reaches are
  /// taken from `previous.tree`, the rest parsed, as SwiftParser's incremental parse does. A tree
  /// equal to parsing `source` whole. When the edits do not make `source` of `previous.source`,
  /// `source` is parsed whole.
  public init(source: SourceText, editing previous: ParsedFile, with edits: [TextEdit]) {
    guard let concurrent = ParsedFile.concurrent(edits, from: previous.source.bytes, to: source.bytes) else {
      self.init(source: source)
      return
    }
    let transition = IncrementalParseTransition(
      previousIncrementalParseResult: IncrementalParseResult(tree: previous.tree, lookaheadRanges: previous.lookahead),
      edits: concurrent)
    let (tree, lookahead) = source.bytes.withUnsafeBufferPointer {
      Parser.parseIncrementally(source: $0, maximumNestingLevel: swiftParserNestingLimit, parseTransition: transition)
    }
    self.init(source: source, tree: tree, lookahead: lookahead, isFromEdits: true)
  }

  public var path: String { source.path }

  private init(source: SourceText, tree: SourceFileSyntax, lookahead: LookaheadRanges, isFromEdits: Bool) {
    self.source = source
    self.tree = tree
    self.lookahead = lookahead
    self.isFromEdits = isFromEdits
  }

  /// The same tree under a new root, which shares its raw nodes: what walking the old root made
  /// (every node a walk reached keeps its parent, position and children there) goes with the old
  /// root.
  public func underNewRoot() -> ParsedFile {
    ParsedFile(
      source: source, tree: SourceFileSyntax(Syntax(raw: tree.raw, rawNodeArena: tree.raw.arena))!, lookahead: lookahead,
      isFromEdits: isFromEdits)
  }

  /// `edits` as SwiftParser takes them, in the order they apply (`TextEdit.inApplicationOrder`),
  /// those that touch made one; nil unless applying them to `old` gives exactly `new`.
  static func concurrent(_ edits: [TextEdit], from old: [UInt8], to new: [UInt8]) -> ConcurrentEdits? {
    let sorted = TextEdit.inApplicationOrder(edits)
    guard sorted.allSatisfy({ $0.range.lowerBound >= 0 && $0.range.upperBound <= old.count }),
      zip(sorted, sorted.dropFirst()).allSatisfy({ $1.range.lowerBound >= $0.range.upperBound }),
      TextEdit.applying(sorted, to: old) == new
    else { return nil }
    var merged: [(range: Range<Int>, bytes: [UInt8])] = []
    for edit in sorted {
      if let last = merged.last, edit.range.lowerBound == last.range.upperBound {
        merged[merged.count - 1] = (last.range.lowerBound..<edit.range.upperBound, last.bytes + Array(edit.replacement.utf8))
      } else {
        merged.append((edit.range, Array(edit.replacement.utf8)))
      }
    }
    let sourceEdits = merged.map { edit in
      SourceEdit(
        range: AbsolutePosition(utf8Offset: edit.range.lowerBound)..<AbsolutePosition(utf8Offset: edit.range.upperBound),
        replacement: edit.bytes)
    }
    return try? ConcurrentEdits(concurrent: sourceEdits)
  }
}
