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
/// and it blanks only a body in which it lexed everything for sure (`Scanner`). The file is parsed
/// in full when the lexer cannot follow its bytes, when the blanked text has a syntax error, when a
/// range is not such a body, or when an alias of the instance is declared outside every body
/// (its uses may be in any member). What a file parsed so loses: syntax errors inside the blanked
/// bodies (a file left unparsed loses all of its own).
enum BodySkipping {
  /// A body left out: the bytes between its braces.
  struct Body: Equatable {
    var open: Int
    var close: Int
  }

  /// The file's bytes with the bodies left out blanked, and those bodies; nil when no body can be
  /// left out, or the bytes hold something the lexer here does not follow.
  /// `keeping`: offsets of possible references (sorted); a declaration holding one is kept whole.
  static func blanked(_ bytes: [UInt8], keeping offsets: [Int]) -> (bytes: [UInt8], bodies: [Body])? {
    var scanner = Scanner(bytes: bytes)
    guard let found = scanner.declarationBodies(), !found.isEmpty else { return nil }
    var blanked = bytes
    var bodies: [Body] = []
    for body in found where body.isCertain && !body.isStatic {
      if contains(offsets, from: body.declaration, through: body.close) { continue }
      var position = body.open + 1
      while position < body.close {
        let byte = blanked[position]
        if byte != UInt8(ascii: "\n") && byte != UInt8(ascii: "\r") { blanked[position] = UInt8(ascii: " ") }
        position += 1
      }
      bodies.append(Body(open: body.open, close: body.close))
    }
    return bodies.isEmpty ? nil : (blanked, bodies)
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

/// Follows a file's bytes far enough to find the braces of its declaration-level bodies: comments,
/// string literals (multi-line, raw, interpolated), brackets and braces, and the keywords that open
/// a type or a function. Anything it does not follow ends the scan (nil): `'`, a `/` that may open a
/// regular expression literal, a string that does not end.
///
/// Where a body opens is checked against the tree (the bytes before it are the same in the file
/// and in its blanked text, and so is what the parser made of them); where it closes is not, so a
/// body is blanked only when everything in it is lexed here for sure (`Found.isCertain`): plain
/// string literals on one line, comments, brackets. A raw or multi-line string literal, whose rules
/// reach further, leaves its body parsed.
private struct Scanner {
  struct Found {
    var declaration: Int
    var open: Int
    var close: Int
    var isStatic: Bool
    /// Nothing in the body is lexed here with less than certainty.
    var isCertain: Bool
  }

  private enum Brace {
    /// A type's, an extension's or a protocol's member block.
    case members
    /// A function's, an init's or a deinit's body, declared where `declaration` starts.
    case body(declaration: Int, open: Int, isStatic: Bool)
    case other
  }

  let bytes: [UInt8]
  private var position = 0
  /// The last byte of the last token, blank space and comments skipped.
  private var previous: UInt8 = 0
  /// Whether something lexed since the last body opened is not lexed for sure.
  private var uncertain = false

  init(bytes: [UInt8]) { self.bytes = bytes }

  /// The bodies declared at the declaration level, in the order they close.
  mutating func declarationBodies() -> [Found]? {
    var found: [Found] = []
    // Each open brace, with the bracket depth outside it.
    var braces: [(Brace, Int)] = []
    var depth = 0
    var declaration = Declaration()
    var atDeclarationLevel: Bool {
      depth == 0 && (braces.isEmpty || { if case .members = braces[braces.count - 1].0 { return true }; return false }())
    }
    while position < bytes.count {
      guard let stepped = skipCommon() else { return nil }
      if stepped { continue }
      let byte = bytes[position]
      switch byte {
      case UInt8(ascii: "("), UInt8(ascii: "["):
        depth += 1
        position += 1
      case UInt8(ascii: ")"), UInt8(ascii: "]"):
        depth -= 1
        if depth < 0 { return nil }
        position += 1
      case UInt8(ascii: "{"):
        var brace = Brace.other
        if depth == 0, let pending = declaration.body, !pending.isGetter || opensImplicitGetter() {
          brace = .body(declaration: pending.start, open: position, isStatic: pending.isStatic)
          uncertain = false
        } else if depth == 0, declaration.members {
          brace = .members
        }
        // A brace inside brackets (a default value's closure) leaves the declaration pending.
        if depth == 0 { declaration = Declaration() }
        braces.append((brace, depth))
        depth = 0
        position += 1
      case UInt8(ascii: "}"):
        guard depth == 0, let (brace, outside) = braces.popLast() else { return nil }
        if case .body(let start, let open, let isStatic) = brace {
          found.append(Found(declaration: start, open: open, close: position, isStatic: isStatic, isCertain: !uncertain))
        }
        depth = outside
        if depth == 0 { declaration = Declaration() }
        position += 1
      case UInt8(ascii: "="):
        // `var x = ...`: a brace after an initial value is a closure's or observers'.
        if depth == 0, declaration.body?.isGetter == true { declaration.body = nil }
        position += 1
      case UInt8(ascii: ";"):
        if atDeclarationLevel { declaration = Declaration() }
        position += 1
      default:
        guard isIdentifierStart(byte) else {
          position += 1
          break
        }
        let start = position
        let afterDot = previous == UInt8(ascii: ".")
        skipIdentifier()
        previous = bytes[position - 1]
        if atDeclarationLevel && !afterDot { declaration.read(bytes[start..<position], at: start) }
        continue
      }
      previous = byte
    }
    return braces.isEmpty && depth == 0 ? found : nil
  }

  /// What the words of the declaration being read at the declaration level say so far.
  private struct Declaration {
    /// A function's or a property's declaration whose next brace may open its body.
    var body: (start: Int, isStatic: Bool, isGetter: Bool)?
    /// A type's or an extension's, whose next brace opens its members.
    var members = false
    var sawStatic = false
    var sawClass = false

    mutating func read(_ word: ArraySlice<UInt8>, at start: Int) {
      if sawClass {
        // `class func`, `class var`: a modifier; `class Name`: a type.
        sawClass = false
        guard Scanner.declarationWords.contains(where: { $0.elementsEqual(word) }) else {
          (members, body) = (true, nil)
          return
        }
        sawStatic = true
      }
      if Scanner.bodyWords.contains(where: { $0.elementsEqual(word) }) {
        (body, members, sawStatic) = ((start, sawStatic, false), false, false)
      } else if Scanner.typeWords.contains(where: { $0.elementsEqual(word) }) {
        (members, body, sawStatic) = (true, nil, false)
      } else if word.elementsEqual(Scanner.classWord) {
        sawClass = true
      } else if word.elementsEqual(Scanner.varWord) {
        (body, members, sawStatic) = ((start, sawStatic, true), false, false)
      } else if word.elementsEqual(Scanner.staticWord) {
        sawStatic = true
      } else if Scanner.otherDeclarationWords.contains(where: { $0.elementsEqual(word) }) {
        (body, members, sawStatic) = (nil, false, false)
      }
    }
  }

  private static let bodyWords = ["func", "init", "deinit"].map { Array($0.utf8) }
  private static let typeWords = ["struct", "enum", "actor", "protocol", "extension"].map { Array($0.utf8) }
  private static let otherDeclarationWords = [
    "let", "subscript", "case", "typealias", "associatedtype", "import", "operator", "precedencegroup", "macro",
  ].map { Array($0.utf8) }
  /// What `class` is a modifier of, or another modifier after it.
  private static let declarationWords = [
    "func", "var", "let", "subscript", "final", "override", "public", "private", "fileprivate", "internal", "open",
    "required", "convenience", "dynamic", "nonisolated", "unowned", "weak", "lazy", "mutating",
  ].map { Array($0.utf8) }
  private static let classWord = Array("class".utf8)
  private static let staticWord = Array("static".utf8)
  private static let varWord = Array("var".utf8)

  /// At a property's `{`: whether the block is a getter's statements (`{ value }`), not accessors
  /// (`{ get set }`, `{ didSet { ... } }`, `{ @inlinable get { ... } }`).
  private func opensImplicitGetter() -> Bool {
    var cursor = position + 1
    while cursor < bytes.count {
      switch bytes[cursor] {
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): cursor += 1
      case UInt8(ascii: "/"), UInt8(ascii: "@"): return false
      default:
        var end = cursor
        while end < bytes.count, isIdentifierByte(bytes[end]) { end += 1 }
        let word = bytes[cursor..<end]
        return !Scanner.accessorWords.contains { $0.elementsEqual(word) }
      }
    }
    return false
  }

  /// Words that open an accessor, or modify one.
  private static let accessorWords = [
    "get", "set", "willSet", "didSet", "init", "_modify", "_read", "modify", "read", "unsafeAddress",
    "unsafeMutableAddress", "mutating", "nonmutating", "__consuming", "borrowing", "consuming", "yielding",
  ].map { Array($0.utf8) }

  private func isIdentifierStart(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
      || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte == UInt8(ascii: "`") || byte >= 0x80
      || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
  }

  private func isIdentifierByte(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
      || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
      || byte == UInt8(ascii: "$") || byte >= 0x80
  }

  /// An identifier, a keyword, a number's digits, or a name in backticks.
  private mutating func skipIdentifier() {
    if bytes[position] == UInt8(ascii: "`") {
      position += 1
      while position < bytes.count, bytes[position] != UInt8(ascii: "`"), bytes[position] != UInt8(ascii: "\n") {
        position += 1
      }
      if position < bytes.count { position += 1 }
      return
    }
    while position < bytes.count, isIdentifierByte(bytes[position]) { position += 1 }
  }

  /// What code and interpolations read alike: steps past blank space, a comment, a string literal
  /// or a directive's `#`, or over a division's `/` or a lone `#` (true); false at anything else,
  /// the caller's to read; nil where the lexer here cannot follow (`'`, a regular expression
  /// literal, a string that does not end).
  private mutating func skipCommon() -> Bool? {
    let byte = bytes[position]
    switch byte {
    case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
      position += 1
      return true
    case UInt8(ascii: "/"):
      guard let skipped = skipCommentOrDivision() else { return nil }
      if !skipped { (position, previous) = (position + 1, byte) }
      return true
    case UInt8(ascii: "\""), UInt8(ascii: "#"):
      guard let handled = skipStringOrDirective() else { return nil }
      if !handled { (position, previous) = (position + 1, byte) }
      return true
    case UInt8(ascii: "'"):
      return nil
    default:
      return false
    }
  }

  /// At `/`: skips a comment (true), or a division operator (false: the caller steps over it);
  /// nil where a regular expression literal may start.
  private mutating func skipCommentOrDivision() -> Bool? {
    let next = position + 1 < bytes.count ? bytes[position + 1] : 0
    if next == UInt8(ascii: "/") {
      while position < bytes.count, bytes[position] != UInt8(ascii: "\n") { position += 1 }
      return true
    }
    if next == UInt8(ascii: "*") {
      var nesting = 0
      while position + 1 < bytes.count {
        if bytes[position] == UInt8(ascii: "/"), bytes[position + 1] == UInt8(ascii: "*") {
          nesting += 1
          position += 2
        } else if bytes[position] == UInt8(ascii: "*"), bytes[position + 1] == UInt8(ascii: "/") {
          nesting -= 1
          position += 2
          if nesting == 0 { return true }
        } else {
          position += 1
        }
      }
      return nil
    }
    // After a name, a literal or a closing bracket `/` divides when blank space or `=` follows it
    // (no regular expression literal starts so), or nothing stands between it and what it follows;
    // elsewhere it may open a regular expression literal.
    func endsOperand(_ byte: UInt8) -> Bool {
      isIdentifierByte(byte) || byte == UInt8(ascii: ")") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "\"")
        || byte == UInt8(ascii: "`")
    }
    guard endsOperand(previous) else { return nil }
    switch next {
    case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "="): return false
    default: return position > 0 && endsOperand(bytes[position - 1]) ? false : nil
    }
  }

  /// At `"` or `#`: skips a string literal, or a directive's or a raw string's `#` (true); false
  /// for any other `#`; nil for a regular expression literal or an unterminated string.
  private mutating func skipStringOrDirective() -> Bool? {
    var hashes = 0
    var cursor = position
    while cursor < bytes.count, bytes[cursor] == UInt8(ascii: "#") {
      hashes += 1
      cursor += 1
    }
    guard cursor < bytes.count else { return false }
    if bytes[cursor] == UInt8(ascii: "/") { return nil }
    guard bytes[cursor] == UInt8(ascii: "\"") else {
      // `#if`, `#selector`: the directive's name is an identifier like any other.
      position = cursor
      return true
    }
    position = cursor
    if hashes > 0 { uncertain = true }
    guard skipString(hashes: hashes) else { return nil }
    previous = UInt8(ascii: "\"")
    return true
  }

  /// At the opening quote of a string with `hashes` around it; after it, past its closing
  /// delimiter. False when it does not end.
  private mutating func skipString(hashes: Int) -> Bool {
    let multiline = opensMultilineString(hashes: hashes)
    if multiline { uncertain = true }
    position += multiline ? 3 : 1
    while position < bytes.count {
      let byte = bytes[position]
      if byte == UInt8(ascii: "\\") && hashesFollow(position + 1, hashes) {
        position += 1 + hashes
        guard position < bytes.count else { return false }
        if bytes[position] == UInt8(ascii: "(") {
          position += 1
          let start = position
          guard skipInterpolation() else { return false }
          // Whether a line break may sit in an interpolation of a one-line string is not decided here.
          if !multiline && bytes[start..<position].contains(UInt8(ascii: "\n")) { uncertain = true }
        } else {
          position += 1
        }
        continue
      }
      if byte == UInt8(ascii: "\"") {
        if multiline {
          if position + 2 < bytes.count, bytes[position + 1] == UInt8(ascii: "\""), bytes[position + 2] == UInt8(ascii: "\""),
            hashesFollow(position + 3, hashes)
          {
            position += 3 + hashes
            return true
          }
        } else if hashesFollow(position + 1, hashes) {
          position += 1 + hashes
          return true
        }
      }
      if byte == UInt8(ascii: "\n") && !multiline { return false }
      position += 1
    }
    return false
  }

  /// At a string's opening quote: whether `"""` opens a multi-line string. With `#`s, not when
  /// the line holds a quote and as many `#`s after it (`#"""#` is a one-line string of `"`).
  private func opensMultilineString(hashes: Int) -> Bool {
    guard position + 2 < bytes.count, bytes[position + 1] == UInt8(ascii: "\""), bytes[position + 2] == UInt8(ascii: "\"")
    else { return false }
    guard hashes > 0 else { return true }
    var cursor = position + 3
    if hashesFollow(cursor, hashes) { return false }
    while cursor < bytes.count, bytes[cursor] != UInt8(ascii: "\n"), bytes[cursor] != UInt8(ascii: "\r") {
      if bytes[cursor] == UInt8(ascii: "\""), hashesFollow(cursor + 1, hashes) { return false }
      cursor += 1
    }
    return true
  }

  private func hashesFollow(_ start: Int, _ count: Int) -> Bool {
    guard start + count <= bytes.count else { return false }
    for offset in start..<(start + count) where bytes[offset] != UInt8(ascii: "#") { return false }
    return true
  }

  /// Inside `\(`: past the `)` that closes it, strings and comments within followed.
  private mutating func skipInterpolation() -> Bool {
    var depth = 0
    let saved = previous
    defer { previous = saved }
    previous = UInt8(ascii: "(")
    while position < bytes.count {
      guard let stepped = skipCommon() else { return false }
      if stepped { continue }
      let byte = bytes[position]
      switch byte {
      case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
        depth += 1
        position += 1
      case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
        position += 1
        if depth == 0 { return byte == UInt8(ascii: ")") }
        depth -= 1
      default:
        if isIdentifierStart(byte) {
          skipIdentifier()
          previous = bytes[position - 1]
          continue
        }
        position += 1
      }
      previous = byte
    }
    return false
  }
}
