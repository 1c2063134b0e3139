/// What stands before a name in a file's bytes, as the byte tests read it: the one place that
/// says how comments between a name and what precedes it are read. `NameSites` reads the same way
/// forwards.
extension BytePrefilter {
  enum Preceding: Equatable {
    /// A `.`, at this offset.
    case dot(at: Int)
    /// A comment may sit in between: the answer must be "maybe".
    case comment
    /// The identifier or keyword before, as a range of the bytes.
    case word(Range<Int>)
    /// Any other byte, at this offset.
    case other(at: Int)
    case start
  }

  /// What comes before `position` (inclusive), skipping whitespace, line breaks and the comments
  /// ending lines whose code can be read (`lineComment`). After `*/` a comment may hide what is
  /// before it; any other `/` (an operator, a regex's delimiter, the start of a line comment, whose
  /// text follows) stands before no name of a declaration or member access.
  static func preceding(_ position: Int, in bytes: [UInt8]) -> Preceding {
    var position = position
    while position >= 0 {
      switch bytes[position] {
      case UInt8(ascii: "\n"):
        var lineStart = position
        while lineStart > 0, bytes[lineStart - 1] != UInt8(ascii: "\n") { lineStart -= 1 }
        switch lineComment(lineStart..<position, in: bytes) {
        case .none: position -= 1
        case .at(let start): position = start - 1
        case .unknown: return .comment
        }
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), 0x0B, 0x0C:
        position -= 1
      case UInt8(ascii: "."):
        return .dot(at: position)
      case UInt8(ascii: "/"):
        return position > 0 && bytes[position - 1] == UInt8(ascii: "*") ? .comment : .other(at: position)
      case let byte where isIdentifierByte(byte):
        var start = position
        while start > 0, isIdentifierByte(bytes[start - 1]) { start -= 1 }
        return .word(start..<(position + 1))
      default:
        return .other(at: position)
      }
    }
    return .start
  }

  enum LineComment: Equatable {
    /// The line has no `//`.
    case none
    /// A comment starts at this offset and runs to the line's end.
    case at(Int)
    /// Where a comment starts, if it does, is not known from the line's bytes.
    case unknown
  }

  /// Where the comment ending a line (its bytes without the line break) starts: its first `//`,
  /// when nothing before it can open a string literal or another comment (no `"` or `/`), and
  /// nothing after it can end one or go on into code (no `\`, which can open an interpolation of
  /// a multi-line string's text, and no `*/`). Otherwise `unknown`. `NameSites` follows the same
  /// rule reading forwards.
  static func lineComment(_ line: Range<Int>, in bytes: [UInt8]) -> LineComment {
    var index = line.lowerBound
    while index < line.upperBound {
      switch bytes[index] {
      case UInt8(ascii: "\""): return lineHasComment(line, from: index, in: bytes) ? .unknown : .none
      case UInt8(ascii: "/"):
        guard index + 1 < line.upperBound, bytes[index + 1] == UInt8(ascii: "/") else {
          return lineHasComment(line, from: index + 1, in: bytes) ? .unknown : .none
        }
        for after in (index + 2)..<max(index + 2, line.upperBound)
        where bytes[after] == UInt8(ascii: "\\") || (bytes[after] == UInt8(ascii: "/") && bytes[after - 1] == UInt8(ascii: "*")) {
          return .unknown
        }
        return .at(index)
      default: index += 1
      }
    }
    return .none
  }

  /// Whether `//` occurs in the line from `start` on.
  private static func lineHasComment(_ line: Range<Int>, from start: Int, in bytes: [UInt8]) -> Bool {
    var index = start
    while index + 1 < line.upperBound {
      if bytes[index] == UInt8(ascii: "/") && bytes[index + 1] == UInt8(ascii: "/") { return true }
      index += 1
    }
    return false
  }
}
