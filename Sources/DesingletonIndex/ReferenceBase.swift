/// What stands before the dot of `Base.shared`, read from bytes: the rule the byte tests and a
/// file's names (`NameSites`) share.
extension BytePrefilter {
  /// What a member access's dot at `position` follows, as far as a reference to a type's static
  /// member can tell (the index attributes `Base.shared` by the name its base ends with,
  /// `SyntaxProtocol.typeReferenceText`, which starts with an uppercase letter or is `Self`, and
  /// `Base.self.shared` by `Base`).
  public enum ReferenceBase: Equatable {
    /// A name starting with an ASCII uppercase letter (`Store`, `Outer.Store`, `Self`, or one on
    /// the line above: `Store⏎  .shared`), or its metatype (`Store.self`): the reference is to
    /// that name's type.
    case word(Range<Int>)
    /// An expression that names no type: a lowercase name, `_name` or a number right before the
    /// dot (`store.shared`, `self.shared`), the end of a call other than `type(of:)`, a subscript
    /// or an optional (`make().shared`, `list[0].shared`, `x?.shared`), or a string literal's closing `"`.
    case notAType
    /// Anything else: no base (`f(.shared)`, `return .shared`), generic arguments (`Box<T>.shared`),
    /// `type(of: value)`, a backtick, a comment, a name that is not ASCII, or `#if` above a leading dot.
    case unknown
  }

  public static func referenceBase(dotAt position: Int, in bytes: [UInt8]) -> ReferenceBase {
    var before = position - 1
    guard before >= 0 else { return .unknown }
    let adjacent = bytes[before]
    if isIdentifierByte(adjacent) {
      var start = before
      while start > 0, isIdentifierByte(bytes[start - 1]) { start -= 1 }
      // `Store.self.shared`: a metatype's static members are its type's.
      if start > 0, bytes[start - 1] == UInt8(ascii: "."), bytes[start...before].elementsEqual("self".utf8) {
        return referenceBase(dotAt: start - 1, in: bytes)
      }
      return nameBase(start..<(before + 1), in: bytes, nextLine: false)
    }
    switch adjacent {
    case UInt8(ascii: ")"): return mayBeTypeOfCall(closingAt: before, in: bytes) ? .unknown : .notAType
    case UInt8(ascii: "]"), UInt8(ascii: "?"), UInt8(ascii: "!"), UInt8(ascii: "\""): return .notAType
    default: break
    }
    // Blank space on the dot's line: a leading dot, an implicit member unless a line break comes
    // before it (a line starting with `.` continues the expression above).
    while before >= 0, [0x20, 0x09, 0x0D, 0x0B, 0x0C].contains(bytes[before]) { before -= 1 }
    guard before >= 0, bytes[before] == UInt8(ascii: "\n") else { return .unknown }
    guard case .word(let word) = preceding(before, in: bytes) else { return .unknown }
    return nameBase(word, in: bytes, nextLine: true)
  }

  /// Whether the parenthesis closing at `close` may end `type(of: value)`, whose static members are
  /// the value's type's: its opening one follows the word `type`. A string inside, or more than
  /// 4 KB of arguments, may hide where it opens: then it may.
  private static func mayBeTypeOfCall(closingAt close: Int, in bytes: [UInt8]) -> Bool {
    var depth = 0
    var position = close
    while position >= 0 && close - position < 4096 {
      switch bytes[position] {
      case UInt8(ascii: ")"): depth += 1
      case UInt8(ascii: "\""): return true
      case UInt8(ascii: "("):
        depth -= 1
        guard depth == 0 else { break }
        var end = position
        while end > 0, [0x20, 0x09].contains(bytes[end - 1]) { end -= 1 }
        let word = Array("type".utf8)
        guard end >= word.count, bytes[(end - word.count)..<end].elementsEqual(word) else { return false }
        return end == word.count || !isIdentifierByte(bytes[end - word.count - 1])
      default: break
      }
      position -= 1
    }
    return true
  }

  /// A name right before a dot, or ending the line above a leading dot.
  private static func nameBase(_ word: Range<Int>, in bytes: [UInt8], nextLine: Bool) -> ReferenceBase {
    let first = bytes[word.lowerBound]
    if first >= UInt8(ascii: "A") && first <= UInt8(ascii: "Z") {
      guard nextLine else { return .word(word) }
      // `#if DEBUG⏎  .shared`: a condition, not an expression, ends the line above.
      var lineStart = word.lowerBound
      while lineStart > 0, bytes[lineStart - 1] != UInt8(ascii: "\n") { lineStart -= 1 }
      let line = bytes[lineStart..<word.lowerBound].drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
      return line.first == UInt8(ascii: "#") ? .unknown : .word(word)
    }
    // A keyword the line above ends with can be followed by an implicit member (`return⏎ .shared`).
    return first >= 0x80 || nextLine ? .unknown : .notAType
  }
}
