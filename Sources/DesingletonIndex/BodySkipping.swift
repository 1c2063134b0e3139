import DesingletonCore
import SwiftParser
import SwiftSyntax

/// The bodies of functions, inits, deinits and computed properties' getters an index need not
/// parse: a file's summary takes only their declarations from them (`DeclarationCollector` never
/// enters a body), unless the body holds a reference to an accessor, or a static member's body
/// gives its returned expression (`MemberDecl.returnedText`). The bytes of such a body are replaced
/// by spaces (line breaks kept, so every offset, line and column outside stays), and the parser
/// skips them as blank space.
///
/// Checked, not trusted: where a blanked body opens, the parser says (the bytes before it are the
/// same in the file and in its blanked text, so is what the parser made of them, and the tree must
/// have a declaration-level function, init, deinit or instance getter, `var name: T { ... }` with
/// no accessor written, whose body is exactly that range); where it closes, the lexer here says,
/// and it blanks only a body in which it lexed everything for sure (`DeclarationScanner`). The file is parsed
/// in full when the lexer cannot follow its bytes, when the blanked text has a syntax error, when a
/// range is not such a body, or when an alias of the instance is declared outside every body
/// (its uses may be in any member). What a file parsed so loses: syntax errors inside the blanked
/// bodies (a file left unparsed loses all of its own).
///
/// A scan's widening may also leave out whole the top-level type declarations and extensions that
/// hold no reference (`omitting`), each a line of `//` comments where it had a whole line (the
/// parser passes those faster than spaces). The lexer here says where each starts (its first
/// attribute or modifier, first on its line or after `;` or `}`) and ends; the tree must then have
/// the blank space it left between two items of its top level. What such a file loses is what
/// those declarations declare: the caller keeps their names (`PhasedScan.partial`).
enum BodySkipping {
  /// A body left out: the bytes between its braces.
  struct Body: Equatable {
    var open: Int
    var close: Int
  }

  /// A file's bytes with what is left out blanked, and what was.
  struct Blanked {
    var bytes: [UInt8]
    var bodies: [Body]
    /// The type declarations and extensions at the top level left out whole, from their first
    /// attribute, modifier or keyword through their closing brace (`omitting`), in order.
    var omitted: [Range<Int>] = []
  }

  /// The file's bytes with the bodies left out blanked, and those bodies; nil when nothing can be
  /// left out, or the bytes hold something the lexer here does not follow.
  /// `keeping`: offsets of possible references (sorted); a declaration holding one is kept whole.
  /// `omitting`: asked with the top-level types and extensions that hold none (outside `#if`
  /// clauses, lexed for sure), whether those are left out whole too.
  static func blanked(
    _ bytes: [UInt8], keeping offsets: [Int], omitting: (([Range<Int>]) -> Bool)? = nil
  ) -> Blanked? {
    guard let (found, topLevelTypes) = DeclarationScanner.scan(bytes) else { return nil }
    var omitted: [Range<Int>] = []
    if let omitting {
      let types = topLevelTypes.filter { $0.isCertain && !contains(offsets, from: $0.start, through: $0.close) }
      let ranges = types.map { $0.start..<($0.close + 1) }
      if !ranges.isEmpty && omitting(ranges) { omitted = ranges }
    }
    var blanked = Blanked(bytes: bytes, bodies: [], omitted: omitted)
    for body in found where body.isCertain && !body.isStatic {
      if contains(offsets, from: body.declaration, through: body.close) || isInside(body.open, omitted) { continue }
      blank(body.open + 1..<body.close, in: &blanked.bytes)
      blanked.bodies.append(Body(open: body.open, close: body.close))
    }
    for range in omitted { blankAsComments(range, in: &blanked.bytes) }
    return blanked.bodies.isEmpty && omitted.isEmpty ? nil : blanked
  }

  /// The file's bytes with everything but `ranges` blanked: what a left-out declaration can
  /// declare or reference is read from them.
  static func keepingOnly(_ ranges: [Range<Int>], of bytes: [UInt8]) -> [UInt8] {
    var kept = bytes
    var start = 0
    for range in ranges {
      blank(start..<range.lowerBound, in: &kept)
      start = range.upperBound
    }
    blank(start..<bytes.count, in: &kept)
    return kept
  }

  /// Spaces for every byte in `range` but line breaks.
  private static func blank(_ range: Range<Int>, in bytes: inout [UInt8]) {
    for position in range where bytes[position] != UInt8(ascii: "\n") && bytes[position] != UInt8(ascii: "\r") {
      bytes[position] = UInt8(ascii: " ")
    }
  }

  /// Spaces for every byte in `range` but line breaks, and `//` opening each line the range holds
  /// whole: the parser passes a comment's line faster than a line of spaces.
  private static func blankAsComments(_ range: Range<Int>, in bytes: inout [UInt8]) {
    blank(range, in: &bytes)
    var lineStart = range.lowerBound
    if lineStart > 0 && bytes[lineStart - 1] != UInt8(ascii: "\n") {
      while lineStart < range.upperBound && bytes[lineStart] != UInt8(ascii: "\n") { lineStart += 1 }
      lineStart += 1
    }
    while lineStart + 2 < range.upperBound {
      var end = lineStart
      while end < range.upperBound && bytes[end] != UInt8(ascii: "\n") && bytes[end] != UInt8(ascii: "\r") { end += 1 }
      guard end < range.upperBound else { return }
      if end - lineStart >= 2 { (bytes[lineStart], bytes[lineStart + 1]) = (UInt8(ascii: "/"), UInt8(ascii: "/")) }
      while end < range.upperBound && bytes[end] != UInt8(ascii: "\n") { end += 1 }
      lineStart = end + 1
    }
  }

  /// Whether `offset` is in one of `ranges` (sorted, apart).
  private static func isInside(_ offset: Int, _ ranges: [Range<Int>]) -> Bool {
    var (low, high) = (0, ranges.count)
    while low < high {
      let mid = (low + high) / 2
      if ranges[mid].upperBound <= offset { low = mid + 1 } else { high = mid }
    }
    return low < ranges.count && ranges[low].contains(offset)
  }

  /// Whether every declaration left out whole sat between two items of the tree's top level: the
  /// blank space it left is between the last token of one (or the file's start) and the first of
  /// the next (or the file's end).
  static func omissionsStand(_ tree: SourceFileSyntax, _ omitted: [Range<Int>]) -> Bool {
    omitted.allSatisfy { range in
      let last = range.upperBound - 1
      guard var next = tree.token(at: AbsolutePosition(utf8Offset: last)) else { return false }
      if next.positionAfterSkippingLeadingTrivia.utf8Offset <= last {
        guard let after = next.nextToken(viewMode: .sourceAccurate) else { return false }
        next = after
      }
      guard next.positionAfterSkippingLeadingTrivia.utf8Offset > last else { return false }
      if let before = next.previousToken(viewMode: .sourceAccurate) {
        guard before.endPositionBeforeTrailingTrivia.utf8Offset <= range.lowerBound,
          topLevelItem(of: before)?.lastToken(viewMode: .sourceAccurate) == before
        else { return false }
      }
      return next.tokenKind == .endOfFile || topLevelItem(of: next)?.firstToken(viewMode: .sourceAccurate) == next
    }
  }

  /// The item of the file's top level a token is in.
  private static func topLevelItem(of token: TokenSyntax) -> CodeBlockItemSyntax? {
    var node = Syntax(token)
    while let parent = node.parent {
      if let item = node.as(CodeBlockItemSyntax.self), parent.parent?.is(SourceFileSyntax.self) == true { return item }
      node = parent
    }
    return nil
  }

  /// Whether every body blanked is the body of a function, init, deinit or getter declared at the
  /// declaration level of the tree (top level, `#if` clauses, member blocks), not a static
  /// member's, and the tree has no syntax error. Each body is found from its opening brace.
  static func matches(_ tree: SourceFileSyntax, _ bodies: [Body]) -> Bool {
    if tree.hasError { return false }
    return bodies.allSatisfy { body in
      guard let brace = tree.token(at: AbsolutePosition(utf8Offset: body.open)), brace.tokenKind == .leftBrace,
        brace.positionAfterSkippingLeadingTrivia.utf8Offset == body.open, let block = brace.parent
      else { return false }
      let close: TokenSyntax
      let declaration: Syntax
      if let code = block.as(CodeBlockSyntax.self), let parent = code.parent {
        switch parent.as(SyntaxEnum.self) {
        case .functionDecl(let function) where !function.modifiers.isStatic: break
        case .initializerDecl, .deinitializerDecl: break
        default: return false
        }
        (close, declaration) = (code.rightBrace, parent)
      } else if let accessors = block.as(AccessorBlockSyntax.self), case .getter = accessors.accessors,
        let variable = accessors.parent?.parent?.parent?.as(VariableDeclSyntax.self), !variable.modifiers.isStatic
      {
        (close, declaration) = (accessors.rightBrace, Syntax(variable))
      } else {
        return false
      }
      return close.positionAfterSkippingLeadingTrivia.utf8Offset == body.close && isAtDeclarationLevel(declaration)
    }
  }

  /// Whether a declaration sits at the top level, in a type's or an extension's members, or in
  /// `#if` clauses there: not in a body or a closure.
  private static func isAtDeclarationLevel(_ declaration: Syntax) -> Bool {
    var node = declaration
    while let parent = node.parent {
      switch parent.kind {
      case .sourceFile: return true
      case .memberBlockItem, .memberBlockItemList, .memberBlock, .codeBlockItem, .codeBlockItemList, .ifConfigClause,
        .ifConfigClauseList, .ifConfigDecl, .classDecl, .structDecl, .enumDecl, .actorDecl, .protocolDecl,
        .extensionDecl:
        node = parent
      default:
        return false
      }
    }
    return false
  }

  /// Whether the file's references keep their meaning without the blanked bodies: an alias or a
  /// held parameter declared outside any body (a stored property, an init's default, top-level
  /// code) has later uses that may sit in any member's body.
  static func referencesStand(_ summary: FileSummary, in tree: SourceFileSyntax) -> Bool {
    for reference in summary.candidateReferences {
      switch reference.use {
      case .alias, .held: break
      default: continue
      }
      guard let token = tree.token(at: AbsolutePosition(utf8Offset: reference.range.bytes.lowerBound)) else { return false }
      var node = Syntax(token)
      var insideBody = false
      while let parent = node.parent {
        if parent.is(CodeBlockItemListSyntax.self), !(parent.parent?.is(SourceFileSyntax.self) ?? true) {
          insideBody = true
          break
        }
        if parent.is(MemberBlockSyntax.self) || parent.is(SourceFileSyntax.self) { break }
        node = parent
      }
      if !insideBody { return false }
    }
    return true
  }

  private static func contains(_ offsets: [Int], from start: Int, through end: Int) -> Bool {
    var low = 0
    var high = offsets.count
    while low < high {
      let mid = (low + high) / 2
      if offsets[mid] < start { low = mid + 1 } else { high = mid }
    }
    return low < offsets.count && offsets[low] <= end
  }
}
