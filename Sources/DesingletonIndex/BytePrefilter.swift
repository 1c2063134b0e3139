/// Byte tests that tell, without parsing, whether a file can hold something the index looks for.
/// Each answers "maybe" for every file that can hold it (a superset), so a file it rules out would
/// add nothing to the index. The scan's phases and the one-singleton commands read files through
/// these tests and parse only the files they keep.
public enum BytePrefilter {
  /// Whether the bytes contain one of `needles` anywhere.
  public static func mentions(_ needles: [[UInt8]], in bytes: [UInt8]) -> Bool {
    !occurrences(of: needles, in: bytes, firstOnly: true).isEmpty
  }

  /// Whether the file can declare a singleton accessor: a `static` or `class` member whose name
  /// looks like an accessor (`shared…`, `default…`, `standard`, `instance`, or a configured name).
  /// The modifier is spelled out in the bytes, and the name starts an identifier right after `var`,
  /// `let` or `func` (or a `,` or `(` of a binding list), whatever the declaration looks like
  /// (backticks, extensions, `#if` clauses, `class var`, the keyword on the line before).
  public static func canDeclareAccessor(_ bytes: [UInt8], accessors: AccessorNames) -> Bool {
    guard mentions(modifiers, in: bytes) else { return false }
    return occurrences(of: accessors.needles, in: bytes).contains { offset in
      var position = offset - 1
      if position >= 0, bytes[position] == UInt8(ascii: "`") { position -= 1 }
      if position >= 0, isIdentifierByte(bytes[position]) { return false }
      switch preceding(position, in: bytes) {
      case .comment: return true
      case .word(let word): return bindingKeywords.contains { $0.elementsEqual(bytes[word]) }
      case .other(let byte): return byte == UInt8(ascii: ",") || byte == UInt8(ascii: "(")
      case .dot, .start: return false
      }
    }
  }

  private static let bindingKeywords: [[UInt8]] = ["var", "let", "func"].map { Array($0.utf8) }

  private static let modifiers: [[UInt8]] = [Array("static".utf8), Array("class".utf8)]

  /// Whether one of `names` occurs where a member access can name it (`Base.name`, `.name`): the
  /// files that can hold a reference to an accessor of that name.
  public static func canReference(_ names: [[UInt8]], in bytes: [UInt8]) -> Bool {
    !memberNameOffsets(occurrences(of: names, in: bytes), in: bytes).isEmpty
  }

  /// The offsets that can start the name of a member access (`Base.name`): those after a `.`, with
  /// only whitespace between. `default:` in a `switch`, `static let shared` and names that merely
  /// contain an accessor's (`isShared`, `instanceCount`) are left out. Where a comment may sit
  /// between the dot and the name (a `/` before it, or a line with `//` above it), the offset is kept.
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
  /// `enum`, `actor`, `protocol`, `extension`, `typealias` or `func`, or after a `.` (`extension
  /// Outer.Name`), and not followed by more of an identifier. A file without such an occurrence
  /// declares no type, extension, type alias or method of that name.
  public static func canDeclare(_ names: [[UInt8]], in bytes: [UInt8]) -> Bool {
    names.contains { name in
      occurrences(of: [name], in: bytes).contains { offset in
        let end = offset + name.count
        if end < bytes.count, isIdentifierByte(bytes[end]) { return false }
        var position = offset - 1
        if position >= 0, bytes[position] == UInt8(ascii: "`") { position -= 1 }
        if position >= 0, isIdentifierByte(bytes[position]) { return false }
        switch preceding(position, in: bytes) {
        case .dot, .comment: return true
        case .word(let word): return declarationKeywords.contains { $0.elementsEqual(bytes[word]) }
        case .other, .start: return false
        }
      }
    }
  }

  static let declarationKeywords: [[UInt8]] =
    ["class", "struct", "enum", "actor", "protocol", "extension", "typealias", "func"].map { Array($0.utf8) }

  enum Preceding: Equatable {
    case dot
    /// A comment may sit in between: the answer must be "maybe".
    case comment
    /// The identifier or keyword before, as a range of the bytes.
    case word(Range<Int>)
    /// Any other byte.
    case other(UInt8)
    case start
  }

  /// What comes before `position` (inclusive), skipping whitespace and line breaks.
  static func preceding(_ position: Int, in bytes: [UInt8]) -> Preceding {
    var position = position
    while position >= 0 {
      switch bytes[position] {
      case UInt8(ascii: "\n"):
        var lineStart = position
        while lineStart > 0, bytes[lineStart - 1] != UInt8(ascii: "\n") { lineStart -= 1 }
        if bytes[lineStart..<position].indices.contains(where: {
          $0 + 1 < position && bytes[$0] == UInt8(ascii: "/") && bytes[$0 + 1] == UInt8(ascii: "/")
        }) {
          return .comment
        }
        position -= 1
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), 0x0B, 0x0C:
        position -= 1
      case UInt8(ascii: "."):
        return .dot
      case UInt8(ascii: "/"):
        return .comment
      case let byte where isIdentifierByte(byte):
        var start = position
        while start > 0, isIdentifierByte(bytes[start - 1]) { start -= 1 }
        return .word(start..<(position + 1))
      case let byte:
        return .other(byte)
      }
    }
    return .start
  }

  /// Letters, digits, `_`, and every byte of a non-ASCII character (Swift identifiers may have them).
  static func isIdentifierByte(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
      || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte >= 0x80
  }
}
