/// Byte tests that tell, without parsing, whether a file can hold something the index looks for.
/// Each answers "maybe" for every file that can hold it (a superset), so a file it rules out would
/// add nothing to the index. The scan's phases and the one-singleton commands read files through
/// these tests and parse only the files they keep.
public enum BytePrefilter {
  /// Whether the bytes contain one of `needles` anywhere.
  public static func mentions(_ needles: [[UInt8]], in bytes: [UInt8]) -> Bool {
    !occurrences(of: needles, in: bytes, firstOnly: true).isEmpty
  }

  /// Whether `name` can follow an implicit member's dot in the bytes (`f(.init())`, `x = .init()`):
  /// a whole word after a `.` that nothing ending an expression precedes (`isImplicitMemberDot`),
  /// or after a comment that may hide what does.
  public static func mayHoldImplicitMember(_ name: [UInt8], in bytes: [UInt8]) -> Bool {
    wordOccurrences(of: [name], in: bytes).contains { start in
      switch preceding(start - 1, in: bytes) {
      case .dot(let dot): return isImplicitMemberDot(at: dot, in: bytes)
      case .comment: return true
      case .word, .other, .start: return false
      }
    }
  }

  /// Whether one of `needles` occurs in the bytes where it can be code: every occurrence but those
  /// its line shows to be in a string literal's text (`isInStringText`). A word that only a string
  /// says (`return "Refreshing"`) names no type, no property and no attribute.
  public static func mentionsInCode(_ needles: [[UInt8]], in bytes: [UInt8]) -> Bool {
    guard containsAny(needles, in: bytes) else { return false }
    return occurrences(of: needles, in: bytes).contains { !isInStringText(at: $0, in: bytes) }
  }

  /// Whether the bytes from the start of the line to `offset` open a string literal and leave it
  /// open: an odd number of `"`, and no `/` (a comment, a regex), `#` (a raw string), `\` (an escape,
  /// an interpolation) or `"""` before it on the line. Then `offset` is in the text of a one-line
  /// string, or the line is inside a multi-line string (which only `"""` closes) or a block
  /// comment: code in neither. Any other line's occurrence may be code.
  static func isInStringText(at offset: Int, in bytes: [UInt8]) -> Bool {
    let quote = UInt8(ascii: "\"")
    var quotes = 0
    var position = offset - 1
    while position >= 0 {
      switch bytes[position] {
      case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
        return quotes % 2 == 1
      case quote:
        if position >= 2 && bytes[position - 1] == quote && bytes[position - 2] == quote { return false }
        quotes += 1
      case UInt8(ascii: "/"), UInt8(ascii: "#"), UInt8(ascii: "\\"):
        return false
      default:
        break
      }
      position -= 1
    }
    return quotes % 2 == 1
  }

  /// Whether the file can declare a singleton accessor: a `static` or `class` member whose name
  /// looks like an accessor (`shared…`, `default…`, `standard`, `instance`, or a configured name).
  /// The name starts an identifier right after `var`, `let` or `func` (or in a binding list after
  /// one: `static let a = 1, shared = X()`), and `static` or `class` is among the modifiers before
  /// that keyword, whatever the declaration looks like (backticks, extensions, `#if` clauses,
  /// `class var`, attributes, `private(set)`, line breaks). Where a comment or a string literal
  /// sits in between, the answer is "maybe".
  ///
  /// And the declaration names the type it belongs to: an accessor is typed as its type, makes one,
  /// or returns one (`SingletonDetector.canBeAccessor`), so `Self` or the name of a type this file
  /// declares or extends is written after the accessor's name, before the declaration ends
  /// (`namesOwnType`). `static let defaultPort = 8080` is no accessor.
  public static func canDeclareAccessor(_ bytes: [UInt8], accessors: AccessorNames) -> Bool {
    guard mentions(modifiers, in: bytes) else { return false }
    var typeNames: Set<ArraySlice<UInt8>>?
    return occurrences(of: accessors.needles, in: bytes).contains { offset in
      guard isStaticMemberName(at: offset, in: bytes) else { return false }
      let names = typeNames ?? declaredTypeNames(in: bytes)
      typeNames = names
      return namesOwnType(afterNameAt: offset, in: bytes, typeNames: names)
    }
  }

  /// Whether the name at `offset` is declared by a `static`/`class` `var`, `let` or `func`.
  private static func isStaticMemberName(at offset: Int, in bytes: [UInt8]) -> Bool {
      var position = offset - 1
      if position >= 0, bytes[position] == UInt8(ascii: "`") { position -= 1 }
      if position >= 0, isIdentifierByte(bytes[position]) { return false }
      switch preceding(position, in: bytes) {
      case .comment: return true
      case .word(let word):
        guard bindingKeywords.contains(where: { $0.elementsEqual(bytes[word]) }) else { return false }
        return isStaticDeclaration(keywordAt: word.lowerBound, in: bytes)
      case .other(let at):
        if bytes[at] == UInt8(ascii: ",") { return isInBindingList(comma: at, in: bytes) }
        return bytes[at] == UInt8(ascii: "(") && isBindingListStart(position: at, in: bytes)
      case .dot, .start: return false
      }
  }

  /// `Self` and the names written after `class`, `struct`, `enum`, `actor`, `protocol` and
  /// `extension` (every component of `extension Outer.Inner`), comments and strings included: the
  /// types whose members this file can declare.
  static func declaredTypeNames(in bytes: [UInt8]) -> Set<ArraySlice<UInt8>> {
    var names: Set<ArraySlice<UInt8>> = [ArraySlice("Self".utf8)]
    // The next word names a type; after `extension`, a dot after a name makes the next one too.
    var expecting = false
    var chain = false
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      guard isIdentifierByte(byte) else {
        switch byte {
        case UInt8(ascii: "."): if chain { expecting = true }
        case UInt8(ascii: "`"), UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): break
        default:
          expecting = false
          chain = false
        }
        index += 1
        continue
      }
      var end = index + 1
      while end < bytes.count, isIdentifierByte(bytes[end]) { end += 1 }
      if expecting {
        names.insert(bytes[index..<end])
        expecting = false
      } else if let keyword = declarationKeyword(in: bytes, index..<end), keyword.introducesType {
        expecting = true
        chain = keyword == .extension
      } else {
        chain = false
      }
      index = end
    }
    return names
  }

  /// The keywords a declaration of a type, extension, type alias or method starts with.
  enum DeclarationKeyword {
    case `class`, `struct`, `enum`, actor, `protocol`, `extension`, `typealias`, `func`

    /// `class`, `struct`, `enum`, `actor`, `protocol` and `extension` name a type's members' owner.
    var introducesType: Bool { self != .typealias && self != .func }
  }

  /// The declaration keyword `length` bytes from `start`, if it is one; told by length and first
  /// byte before any comparison (this runs for every identifier of every file a scan reads).
  static func declarationKeyword(_ base: UnsafePointer<UInt8>, _ start: Int, _ length: Int) -> DeclarationKeyword? {
    func matches(_ word: StaticString, _ keyword: DeclarationKeyword) -> DeclarationKeyword? {
      let text = word.utf8Start
      for offset in 1..<length where text[offset] != base[start + offset] { return nil }
      return keyword
    }
    switch (length, base[start]) {
    case (4, UInt8(ascii: "e")): return matches("enum", .enum)
    case (4, UInt8(ascii: "f")): return matches("func", .func)
    case (5, UInt8(ascii: "c")): return matches("class", .class)
    case (5, UInt8(ascii: "a")): return matches("actor", .actor)
    case (6, UInt8(ascii: "s")): return matches("struct", .struct)
    case (8, UInt8(ascii: "p")): return matches("protocol", .protocol)
    case (9, UInt8(ascii: "e")): return matches("extension", .extension)
    case (9, UInt8(ascii: "t")): return matches("typealias", .typealias)
    default: return nil
    }
  }

  static func declarationKeyword(in bytes: [UInt8], _ word: Range<Int>) -> DeclarationKeyword? {
    bytes.withUnsafeBufferPointer { buffer in
      buffer.baseAddress.flatMap { declarationKeyword($0, word.lowerBound, word.count) }
    }
  }

  /// Whether one of `typeNames` is written after the name starting at `offset`, before the
  /// declaration ends: the next member's keyword or the type's closing brace, outside brackets. A
  /// block comment, a raw or multi-line string, or a string with escapes or interpolation is "maybe".
  static func namesOwnType(afterNameAt offset: Int, in bytes: [UInt8], typeNames: Set<ArraySlice<UInt8>>) -> Bool {
    let count = bytes.count
    var index = offset
    while index < count, isIdentifierByte(bytes[index]) { index += 1 }
    var depth = 0
    while index < count {
      let byte = bytes[index]
      if isIdentifierByte(byte) {
        var end = index + 1
        while end < count, isIdentifierByte(bytes[end]) { end += 1 }
        let word = bytes[index..<end]
        if typeNames.contains(word) { return true }
        // `Store.init()`, `.self`: a member's name, not a keyword.
        let isMemberName = index > 0 && bytes[index - 1] == UInt8(ascii: ".")
        if depth == 0, !isMemberName, declarationEnds.contains(word) { return false }
        index = end
        continue
      }
      switch byte {
      case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
        depth += 1
      case UInt8(ascii: ")"), UInt8(ascii: "]"):
        if depth == 0 { return true }
        depth -= 1
      case UInt8(ascii: "}"):
        if depth == 0 { return false }
        depth -= 1
      case UInt8(ascii: "\""):
        // A string on one line without escapes or interpolation is skipped.
        if index + 2 < count, bytes[index + 1] == UInt8(ascii: "\""), bytes[index + 2] == UInt8(ascii: "\"") { return true }
        index += 1
        while index < count, bytes[index] != UInt8(ascii: "\"") {
          if bytes[index] == UInt8(ascii: "\\") || bytes[index] == UInt8(ascii: "\n") { return true }
          index += 1
        }
      case UInt8(ascii: "/"):
        if index + 1 < count, bytes[index + 1] == UInt8(ascii: "*") { return true }
        if index + 1 < count, bytes[index + 1] == UInt8(ascii: "/") {
          while index < count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
          continue
        }
      case UInt8(ascii: "#"):
        if index + 1 < count, bytes[index + 1] == UInt8(ascii: "\"") || bytes[index + 1] == UInt8(ascii: "#") { return true }
      default:
        break
      }
      index += 1
    }
    return false
  }

  /// Words that start the next declaration: where a member's declaration has ended.
  private static let declarationEnds: Set<ArraySlice<UInt8>> = Set(
    [
      "static", "class", "func", "var", "let", "init", "deinit", "subscript", "case", "typealias", "struct", "enum",
      "actor", "protocol", "extension", "import", "associatedtype", "operator", "precedencegroup", "macro",
    ].map { ArraySlice($0.utf8) })

  private static let modifiers: [[UInt8]] = [Array("static".utf8), Array("class".utf8)]
  private static let bindingKeywords: [[UInt8]] = ["var", "let", "func"].map { Array($0.utf8) }
  /// Declaration modifiers that may stand between `static` and `let` (`static nonisolated(unsafe) let`).
  private static let otherModifiers: Set<[UInt8]> = Set(
    [
      "public", "private", "fileprivate", "internal", "package", "open", "final", "override", "nonisolated",
      "lazy", "dynamic", "weak", "unowned", "required", "convenience", "mutating", "nonmutating", "optional",
      "distributed", "isolated", "consuming", "borrowing", "unsafe", "set", "safe",
    ].map { Array($0.utf8) }
  )

  /// Whether the `var`/`let`/`func` starting at `start` has `static` or `class` among the modifiers
  /// and attributes before it; "maybe" where a comment or string is in the way.
  static func isStaticDeclaration(keywordAt start: Int, in bytes: [UInt8]) -> Bool {
    var position = start - 1
    while true {
      switch preceding(position, in: bytes) {
      case .comment: return true
      case .word(let word):
        if modifiers.contains(where: { $0.elementsEqual(bytes[word]) }) { return true }
        // An attribute (`@MainActor`) or another modifier: keep going.
        let isAttribute = word.lowerBound > 0 && bytes[word.lowerBound - 1] == UInt8(ascii: "@")
        guard isAttribute || otherModifiers.contains(Array(bytes[word])) else { return false }
        position = word.lowerBound - (isAttribute ? 2 : 1)
      case .other(let at):
        // `private(set)`, `nonisolated(unsafe)`, `@available(iOS 13, *)`: skip the parentheses.
        guard bytes[at] == UInt8(ascii: ")") else { return false }
        // A string or comment inside: "maybe".
        guard let open = matchingOpen(of: at, in: bytes) else { return true }
        position = open - 1
      case .dot, .start: return false
      }
      if position < 0 { return false }
    }
  }

  /// The `(` that the `)` at `close` closes; nil if a string or comment is in the way or there is
  /// none within 1,000 bytes.
  private static func matchingOpen(of close: Int, in bytes: [UInt8]) -> Int? {
    var depth = 0
    var index = close
    while index >= 0, close - index < 1_000 {
      switch bytes[index] {
      case UInt8(ascii: ")"): depth += 1
      case UInt8(ascii: "("):
        depth -= 1
        if depth == 0 { return index }
      case UInt8(ascii: "\""), UInt8(ascii: "/"): return nil
      default: break
      }
      index -= 1
    }
    return nil
  }

  /// Whether the `,` at `comma` separates the bindings of a `static let`/`var` (or the names of its
  /// tuple pattern), not the arguments of a call (`result[key, default: []]`): going back over
  /// balanced brackets, the statement's `let`/`var` comes before any unmatched bracket.
  private static func isInBindingList(comma: Int, in bytes: [UInt8]) -> Bool {
    var depth = 0
    var index = comma - 1
    while index >= 0, comma - index < 4_000 {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
        depth += 1
      case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
        if depth == 0 {
          // `static let (a, shared) = ...`: a tuple pattern right after the keyword.
          return byte == UInt8(ascii: "(") && isBindingListStart(position: index, in: bytes)
        }
        depth -= 1
      case UInt8(ascii: "\""), UInt8(ascii: "/"):
        return true
      case UInt8(ascii: ";"):
        if depth == 0 { return false }
      default:
        if depth == 0, isIdentifierByte(byte), index == 0 || !isIdentifierByte(bytes[index - 1]) {
          var end = index
          while end < bytes.count, isIdentifierByte(bytes[end]) { end += 1 }
          let word = bytes[index..<end]
          if bindingKeywords.dropLast().contains(where: { $0.elementsEqual(word) }) {
            return isStaticDeclaration(keywordAt: index, in: bytes)
          }
        }
      }
      index -= 1
    }
    return true
  }

  /// Whether the `(` at `position` opens the tuple pattern of a `let`/`var`.
  private static func isBindingListStart(position: Int, in bytes: [UInt8]) -> Bool {
    guard case .word(let word) = preceding(position - 1, in: bytes),
      bindingKeywords.dropLast().contains(where: { $0.elementsEqual(bytes[word]) })
    else { return false }
    return isStaticDeclaration(keywordAt: word.lowerBound, in: bytes)
  }

  /// Whether one of `names` occurs, as a whole identifier, where a member access can name it
  /// (`Base.name`, `.name`) and what stands before the dot can be one of `bases`
  /// (`referenceBase(dotAt:in:)`): the files that can hold a reference to an accessor of one of
  /// those types. `bases` are the types' simple names, `Self` and the names of type aliases; nil
  /// takes any base.
  public static func canReference(_ names: [[UInt8]], bases: Set<[UInt8]>?, in bytes: [UInt8]) -> Bool {
    names.contains { name in
      memberNameOffsets(occurrences(of: [name], in: bytes), in: bytes).contains { offset in
        let end = offset + name.count
        guard end >= bytes.count || !isIdentifierByte(bytes[end]) else { return false }
        guard let bases else { return true }
        var position = offset - 1
        if position >= 0, bytes[position] == UInt8(ascii: "`") { position -= 1 }
        guard case .dot(let dot) = preceding(position, in: bytes) else { return true }
        switch referenceBase(dotAt: dot, in: bytes) {
        case .unknown: return true
        case .notAType: return false
        case .word(let word): return bases.contains(Array(bytes[word]))
        }
      }
    }
  }

  /// The names declared after `typealias` in the bytes: the word after each, past blank space and
  /// comments (in comments and strings too: more names, never fewer).
  public static func typeAliasNames(in bytes: [UInt8]) -> Set<[UInt8]> {
    var names: Set<[UInt8]> = []
    let keyword = Array("typealias".utf8)
    for offset in occurrences(of: [keyword], in: bytes) {
      if offset > 0, isIdentifierByte(bytes[offset - 1]) { continue }
      var position = offset + keyword.count
      guard position < bytes.count, !isIdentifierByte(bytes[position]) else { continue }
      while position < bytes.count, !isIdentifierByte(bytes[position]) {
        if bytes[position] == UInt8(ascii: "/"), position + 1 < bytes.count {
          if bytes[position + 1] == UInt8(ascii: "/") {
            while position < bytes.count, bytes[position] != UInt8(ascii: "\n") { position += 1 }
            continue
          }
          if bytes[position + 1] == UInt8(ascii: "*") {
            position += 2
            while position + 1 < bytes.count, !(bytes[position] == UInt8(ascii: "*") && bytes[position + 1] == UInt8(ascii: "/")) {
              position += 1
            }
            position += 2
            continue
          }
        }
        guard [0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C, UInt8(ascii: "`")].contains(bytes[position]) else { break }
        position += 1
      }
      var end = position
      while end < bytes.count, isIdentifierByte(bytes[end]) { end += 1 }
      if end > position { names.insert(Array(bytes[position..<end])) }
    }
    return names
  }

  /// Whether one of `names` occurs where an implicit member expression can name it (`.shared`
  /// with no expression before the dot: `f(.shared)`, `= .shared`, `return .shared`): the files
  /// that can reference an accessor without writing its type. A dot after an identifier that is
  /// no keyword, or after `)`, `]`, `?`, `!` or a backtick, ends an expression (`Store.shared`,
  /// `make().shared`); anything else, a comment in between included, is "maybe".
  public static func canReferenceImplicitly(_ names: [[UInt8]], in bytes: [UInt8]) -> Bool {
    names.contains { name in
      occurrences(of: [name], in: bytes).contains { offset in
        let end = offset + name.count
        if end < bytes.count, isIdentifierByte(bytes[end]) { return false }
        var position = offset - 1
        if position >= 0, bytes[position] == UInt8(ascii: "`") { position -= 1 }
        switch preceding(position, in: bytes) {
        case .comment: return true
        case .dot(let dot): return isImplicitMemberDot(at: dot, in: bytes)
        case .word, .other, .start: return false
        }
      }
    }
  }

  /// Whether the member access whose dot is at `dot` can be an implicit member expression: what
  /// stands before the dot cannot end an expression. Blank space on its line makes it a leading dot
  /// (`a ?? .shared`); a line break continues the expression above, whose last word or character
  /// decides. `canReferenceImplicitly` asks it of each dot before a name; `NameSites` of every dot.
  static func isImplicitMemberDot(at dot: Int, in bytes: [UInt8]) -> Bool {
    // Most dots follow a name (`store.load`): it ends an expression unless it is a keyword.
    if dot > 0, isIdentifierByte(bytes[dot - 1]) {
      var start = dot - 1
      while start > 0, isIdentifierByte(bytes[start - 1]) { start -= 1 }
      return isExpressionKeyword(bytes, start..<dot)
    }
    var before = dot - 1
    while before >= 0, bytes[before] == UInt8(ascii: " ") || bytes[before] == UInt8(ascii: "\t") { before -= 1 }
    if before >= 0, before < dot - 1, bytes[before] != UInt8(ascii: "\n"), bytes[before] != UInt8(ascii: "\r") {
      return true
    }
    switch preceding(dot - 1, in: bytes) {
    case .word(let word): return isExpressionKeyword(bytes, word)
    case .other(let at):
      // A closing bracket, `?`, `!`, a backtick or a string literal's `"` ends an expression.
      return ![UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "?"), UInt8(ascii: "!"), UInt8(ascii: "`"), UInt8(ascii: "\"")]
        .contains(bytes[at])
    case .dot, .comment, .start: return true
    }
  }

  /// Whether the word is one of `expressionKeywords`, compared only with those of its length (this
  /// runs for every dot after a name in every file a command reads).
  public static func isExpressionKeyword(_ bytes: [UInt8], _ word: Range<Int>) -> Bool {
    guard word.count < expressionKeywordsByLength.count else { return false }
    return expressionKeywordsByLength[word.count].contains { $0.elementsEqual(bytes[word]) }
  }

  /// Keywords an expression can follow: an implicit member may come right after them.
  public static let expressionKeywords: Set<String> = [
    "return", "case", "in", "try", "await", "throw", "where", "if", "guard", "while", "switch", "repeat", "else",
    "is", "as", "yield", "let", "var", "then", "do", "catch", "defer", "some", "any",
  ]

  /// `expressionKeywords` as bytes, by length.
  private static let expressionKeywordsByLength: [[[UInt8]]] = {
    var table = [[[UInt8]]](repeating: [], count: 1 + (expressionKeywords.map(\.utf8.count).max() ?? 0))
    for keyword in expressionKeywords { table[keyword.utf8.count].append(Array(keyword.utf8)) }
    return table
  }()

  /// The offsets that can start the name of a member access (`Base.name`): those after a `.`, with
  /// only whitespace between. `default:` in a `switch`, `static let shared` and names that merely
  /// contain an accessor's (`isShared`, `instanceCount`) are left out. Where a comment may sit
  /// between the dot and the name (`*/` before it, or a line above whose comment's start its bytes
  /// cannot tell: `BytePrefilter.lineComment`), the offset is kept.
  static func memberNameOffsets(_ offsets: [Int], in bytes: [UInt8]) -> [Int] {
    offsets.filter { offset in
      var position = offset - 1
      // `` Palette.`default` ``: the backtick belongs to the name.
      if position >= 0, bytes[position] == UInt8(ascii: "`") { position -= 1 }
      switch preceding(position, in: bytes) {
      case .dot, .comment: return true
      case .word, .other, .start: return false
      }
    }
  }

  /// Whether one of `names` occurs where a declaration can name it: right after `class`, `struct`,
  /// `enum`, `actor`, `protocol`, `extension`, `typealias` or `func`, or after a `.` in the name an
  /// extension extends (`extension Outer.Name`), and not followed by more of an identifier. A file without such an occurrence
  /// declares no type, extension, type alias or method of that name. A scan asks `NameSites`, which
  /// answers this for every name from one pass over the bytes.
  public static func canDeclare(_ names: [[UInt8]], in bytes: [UInt8]) -> Bool {
    names.contains { name in
      occurrences(of: [name], in: bytes).contains { offset in
        let end = offset + name.count
        if end < bytes.count, isIdentifierByte(bytes[end]) { return false }
        return isDeclarationSite(offset, in: bytes)
      }
    }
  }

  /// Whether one of these operators (`==`) can be declared in the bytes: right after `func`, with
  /// blank space or none between, or a comment (then "maybe"). A file's names (`NameSites`) keep
  /// identifiers only.
  public static func canDeclareOperator(_ operators: [[UInt8]], in bytes: [UInt8]) -> Bool {
    let keyword = Array("func".utf8)
    return occurrences(of: operators, in: bytes).contains { offset in
      var end = offset
      while end > 0, [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains(bytes[end - 1]) {
        end -= 1
      }
      if end >= 2, bytes[end - 2] == UInt8(ascii: "*"), bytes[end - 1] == UInt8(ascii: "/") { return true }
      let start = end - keyword.count
      return start >= 0 && bytes[start..<end].elementsEqual(keyword) && (start == 0 || !isIdentifierByte(bytes[start - 1]))
    }
  }

  /// Whether the identifier starting at `offset` follows a declaration keyword, or a `.` of a
  /// name an extension can extend (`canNameExtendedType`), or a comment may be in between.
  private static func isDeclarationSite(_ offset: Int, in bytes: [UInt8]) -> Bool {
    var position = offset - 1
    if position >= 0, bytes[position] == UInt8(ascii: "`") { position -= 1 }
    if position >= 0, isIdentifierByte(bytes[position]) { return false }
    switch preceding(position, in: bytes) {
    case .dot(let dot):
      return canNameExtendedType(dotAt: dot, in: bytes)
    case .comment: return true
    case .word(let word): return declarationKeyword(in: bytes, word) != nil
    case .other, .start: return false
    }
  }

  /// Whether the name after the `.` at `dot` can end the name of a type an extension extends
  /// (`extension Outer.Name`, `extension Swift.String`): the dotted names before the dot follow the
  /// word `extension`. The same names anywhere else (`let s: Swift.String`, `Outer.Name()`, `extension
  /// Box: Swift.Sendable`, `".Sendable"` in a string) declare nothing. What the bytes cannot tell
  /// (blank space or a comment inside the names, generic arguments, a backtick) is "maybe".
  static func canNameExtendedType(dotAt dot: Int, in bytes: [UInt8]) -> Bool {
    var position = dot - 1
    while true {
      guard position >= 0 else { return false }
      let byte = bytes[position]
      guard isIdentifierByte(byte) else {
        switch byte {
        case UInt8(ascii: ">"), UInt8(ascii: "`"), UInt8(ascii: "/"), UInt8(ascii: " "), UInt8(ascii: "\t"),
          UInt8(ascii: "\r"), UInt8(ascii: "\n"), 0x0B, 0x0C:
          return true
        default:
          return false
        }
      }
      while position >= 0, isIdentifierByte(bytes[position]) { position -= 1 }
      guard position >= 0, bytes[position] == UInt8(ascii: ".") else { break }
      position -= 1
    }
    if position >= 0, bytes[position] == UInt8(ascii: "`") { return true }
    switch preceding(position, in: bytes) {
    case .word(let word): return declarationKeyword(in: bytes, word) == .extension
    case .comment, .dot: return true
    case .other, .start: return false
    }
  }

  /// Letters, digits, `_`, and every byte of a non-ASCII character (Swift identifiers may have them).
  public static func isIdentifierByte(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
      || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte >= 0x80
  }
}
