import DesingletonCore

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
///
/// It also finds the type declarations and extensions at the top level (`TopLevel`), from their
/// first attribute, modifier or keyword through their closing brace, for a scan that leaves them
/// out whole (`BodySkipping.blanked`'s `omitting`; the tree checks where each sat).
struct DeclarationScanner {
  struct Found {
    var declaration: Int
    var open: Int
    var close: Int
    var isStatic: Bool
    /// Nothing in the body is lexed here with less than certainty.
    var isCertain: Bool
  }

  /// A type's or an extension's declaration at the top level: from its first attribute, modifier
  /// or keyword to its closing brace.
  struct TopLevelType: Equatable {
    var start: Int
    var close: Int
    /// Nothing in it is lexed here with less than certainty.
    var isCertain: Bool
  }

  private enum Brace {
    /// A type's, an extension's or a protocol's member block.
    case members
    /// A function's, an init's or a deinit's body, declared where `declaration` starts.
    case body(declaration: Int, open: Int, isStatic: Bool)
    case other
  }

  /// The file's bytes, valid while the scan runs (`scan`).
  let bytes: UnsafeBufferPointer<UInt8>
  private var position = 0
  /// The last byte of the last token, blank space and comments skipped.
  private var previous: UInt8 = 0
  /// Whether something lexed since the last body opened is not lexed for sure.
  private var uncertain = false {
    didSet { if uncertain { uncertainties += 1 } }
  }
  /// How many times something was lexed with less than certainty, from the start.
  private var uncertainties = 0
  /// The type declarations and extensions at the top level, outside `#if` clauses, in order
  /// (`declarationBodies` finds them).
  private(set) var topLevelTypes: [TopLevelType] = []

  private init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  /// The declaration-level bodies of `bytes` (`declarationBodies`) and their top-level types, or
  /// nil where the lexer here cannot follow them.
  static func scan(_ bytes: [UInt8]) -> (bodies: [Found], types: [TopLevelType])? {
    bytes.withUnsafeBufferPointer { buffer in
      var scanner = DeclarationScanner(bytes: buffer)
      return scanner.declarationBodies().map { ($0, scanner.topLevelTypes) }
    }
  }

  /// The bodies declared at the declaration level, in the order they close.
  private mutating func declarationBodies() -> [Found]? {
    var found: [Found] = []
    // Each open brace, with the bracket depth outside it.
    var braces: [(Brace, Int)] = []
    var depth = 0
    var declaration = Declaration()
    var atDeclarationLevel: Bool {
      depth == 0 && (braces.isEmpty || { if case .members = braces[braces.count - 1].0 { return true }; return false }())
    }
    var topLevel = TopLevel()
    while position < bytes.count {
      guard let stepped = skipCommon() else { return nil }
      if stepped { continue }
      let byte = bytes[position]
      if braces.isEmpty && depth == 0 {
        topLevel.read(byte, at: position, in: bytes, previous: previous, uncertainties: uncertainties)
      }
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
        if braces.isEmpty, let type = topLevel.closed(at: position, uncertainties: uncertainties) {
          topLevelTypes.append(type)
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

  /// What the top level's words and brackets say of the declaration being read there: where a
  /// type's or an extension's declaration starts (its first attribute, modifier or keyword), and
  /// the member block it opens. Not followed into `#if` clauses.
  private struct TopLevel {
    var start: Int?
    /// A type's or an extension's keyword was read since `start`.
    var isType = false
    /// `#if` clauses open at the top level.
    var directives = 0
    /// The last word was `import`: the next may be a kind (`import struct Foundation.Date`).
    var afterImport = false
    /// The member block open at the top level: where its declaration starts, and how many
    /// uncertainties there were then.
    var open: (start: Int, uncertainties: Int)?

    /// At a byte of code at the top level (`previous`: the last byte of the token before it).
    mutating func read(_ byte: UInt8, at position: Int, in bytes: UnsafeBufferPointer<UInt8>, previous: UInt8, uncertainties: Int) {
      switch byte {
      case UInt8(ascii: "@"):
        if start == nil && opensItem(position, bytes, previous) { start = position }
      case UInt8(ascii: "{"):
        open = isType && directives == 0 ? start.map { ($0, uncertainties) } : nil
        (start, isType) = (nil, false)
      case UInt8(ascii: ";"):
        (start, isType) = (nil, false)
      case UInt8(ascii: "="):
        // A value's `=`, not a `where` clause's `==`: what went before is no type's head.
        let isEquals = { (byte: UInt8) in byte == UInt8(ascii: "=") || byte == UInt8(ascii: "!") }
        if !isEquals(previous) && !(position + 1 < bytes.count && isEquals(bytes[position + 1])) {
          (start, isType) = (nil, false)
        }
      default:
        var end = position
        while end < bytes.count, DeclarationScanner.isWordByte(bytes[end]) { end += 1 }
        guard end > position else { return }
        let word = bytes[position..<end]
        defer { afterImport = word.elementsEqual(DeclarationScanner.importWord) }
        if afterImport {
          start = nil
          return
        }
        if position > 0 && bytes[position - 1] == UInt8(ascii: "#") {
          if word.elementsEqual(DeclarationScanner.ifWord) { directives += 1 }
          if word.elementsEqual(DeclarationScanner.endifWord) { directives -= 1 }
          (start, isType) = (nil, false)
          return
        }
        // An attribute's name, a qualified name's part, or what follows a type's keyword.
        if isType || previous == UInt8(ascii: "@") || previous == UInt8(ascii: ".") { return }
        let isTypeWord =
          DeclarationScanner.typeWords.contains(where: { $0.elementsEqual(word) }) || word.elementsEqual(DeclarationScanner.classWord)
        if !isTypeWord && !DeclarationScanner.topLevelModifiers.contains(where: { $0.elementsEqual(word) }) {
          start = nil
        } else if start != nil || opensItem(position, bytes, previous) {
          start = start ?? position
          isType = isTypeWord
        }
      }
    }

    /// Whether a declaration may start at `position`: first on its line, or after `;` or `}`.
    private func opensItem(_ position: Int, _ bytes: UnsafeBufferPointer<UInt8>, _ previous: UInt8) -> Bool {
      if previous == UInt8(ascii: ";") || previous == UInt8(ascii: "}") { return true }
      var cursor = position - 1
      while cursor >= 0 && (bytes[cursor] == UInt8(ascii: " ") || bytes[cursor] == UInt8(ascii: "\t")) { cursor -= 1 }
      return cursor < 0 || bytes[cursor] == UInt8(ascii: "\n") || bytes[cursor] == UInt8(ascii: "\r")
    }

    /// At the brace that closes a block opened at the top level: the type it ends, if it opened
    /// a type's members.
    mutating func closed(at position: Int, uncertainties: Int) -> TopLevelType? {
      defer { (open, start, isType) = (nil, nil, false) }
      guard let open else { return nil }
      return TopLevelType(start: open.start, close: position, isCertain: open.uncertainties == uncertainties)
    }
  }

  private static let ifWord = Array("if".utf8)
  private static let importWord = Array("import".utf8)
  private static let endifWord = Array("endif".utf8)
  private static let topLevelModifiers = [
    "public", "private", "fileprivate", "internal", "package", "open", "final", "indirect", "distributed", "nonisolated",
  ].map { Array($0.utf8) }

  static func isWordByte(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
      || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
      || byte == UInt8(ascii: "$") || byte >= 0x80
  }

  /// What the words of the declaration being read at the declaration level say so far.
  private struct Declaration {
    /// A function's or a property's declaration whose next brace may open its body.
    var body: (start: Int, isStatic: Bool, isGetter: Bool)?
    /// A type's or an extension's, whose next brace opens its members.
    var members = false
    var sawStatic = false
    var sawClass = false

    mutating func read(_ word: Slice<UnsafeBufferPointer<UInt8>>, at start: Int) {
      if sawClass {
        // `class func`, `class var`: a modifier; `class Name`: a type.
        sawClass = false
        guard DeclarationScanner.declarationWords.contains(where: { $0.elementsEqual(word) }) else {
          (members, body) = (true, nil)
          return
        }
        sawStatic = true
      }
      if DeclarationScanner.bodyWords.contains(where: { $0.elementsEqual(word) }) {
        (body, members, sawStatic) = ((start, sawStatic, false), false, false)
      } else if DeclarationScanner.typeWords.contains(where: { $0.elementsEqual(word) }) {
        (members, body, sawStatic) = (true, nil, false)
      } else if word.elementsEqual(DeclarationScanner.classWord) {
        sawClass = true
      } else if word.elementsEqual(DeclarationScanner.varWord) {
        (body, members, sawStatic) = ((start, sawStatic, true), false, false)
      } else if word.elementsEqual(DeclarationScanner.staticWord) {
        sawStatic = true
      } else if DeclarationScanner.otherDeclarationWords.contains(where: { $0.elementsEqual(word) }) {
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
        return !DeclarationScanner.accessorWords.contains { $0.elementsEqual(word) }
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

  private func isIdentifierByte(_ byte: UInt8) -> Bool { DeclarationScanner.isWordByte(byte) }

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
