import DesingletonCore

/// A value of the old-style (NeXTSTEP) property list grammar that `project.pbxproj` files are written
/// in: strings (quoted or bare), arrays `( a, b, )` and dictionaries `{ key = value; }`, with `/* */`
/// and `//` comments anywhere between tokens. Every value keeps the UTF-8 byte range it was read
/// from, so that an edit can be placed exactly.
public struct PropertyList: Sendable {
  public enum Kind: Sendable {
    case string(String)
    case array([PropertyList])
    case dictionary([Entry])
  }

  public struct Entry: Sendable {
    public var key: String
    public var keyRange: Range<Int>
    public var value: PropertyList
    /// The offset just after the entry's `;`.
    public var end: Int
  }

  public var kind: Kind
  /// The value's bytes: a string's token (quotes included), an array from `(` to `)`, a dictionary
  /// from `{` to `}`.
  public var range: Range<Int>

  public var string: String? {
    if case .string(let value) = kind { return value }
    return nil
  }

  public var array: [PropertyList]? {
    if case .array(let values) = kind { return values }
    return nil
  }

  public var entries: [Entry]? {
    if case .dictionary(let entries) = kind { return entries }
    return nil
  }

  public subscript(key: String) -> PropertyList? {
    entries?.first(where: { $0.key == key })?.value
  }

  /// The strings of an array value (`( A, B, )`); empty when the value is missing or not an array.
  public func strings(_ key: String) -> [String] {
    self[key]?.array?.compactMap(\.string) ?? []
  }

  /// Reads a whole property list; a syntax error is a refusal at its place.
  public static func parse(_ source: SourceText) throws -> PropertyList {
    var parser = Parser(source: source)
    parser.skipTrivia()
    let value = try parser.value()
    parser.skipTrivia()
    if parser.offset < source.bytes.count {
      throw parser.error("unexpected text after the end of the property list")
    }
    return value
  }

  /// Whether `text` can be written without quotes (Xcode quotes everything else).
  public static func isBare(_ text: String) -> Bool {
    !text.isEmpty
      && text.utf8.allSatisfy { byte in
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
          || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte == UInt8(ascii: "/")
          || byte == UInt8(ascii: ".")
      } && !text.contains("//")
  }

  /// `text` as Xcode writes it: bare when it can be, otherwise quoted with escapes.
  public static func quoted(_ text: String) -> String {
    if isBare(text) { return text }
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\t": result += "\\t"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }

  private struct Parser {
    let source: SourceText
    var offset = 0
    var bytes: [UInt8] { source.bytes }

    init(source: SourceText) {
      self.source = source
    }

    func error(_ message: String) -> Refusal {
      Refusal("cannot read the Xcode project: \(message)", at: source.location(ofOffset: min(offset, bytes.count)))
    }

    mutating func skipTrivia() {
      while offset < bytes.count {
        let byte = bytes[offset]
        if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
          offset += 1
        } else if byte == UInt8(ascii: "/"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "*") {
          offset += 2
          while offset + 1 < bytes.count,
            !(bytes[offset] == UInt8(ascii: "*") && bytes[offset + 1] == UInt8(ascii: "/"))
          {
            offset += 1
          }
          offset = min(offset + 2, bytes.count)
        } else if byte == UInt8(ascii: "/"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "/") {
          while offset < bytes.count, bytes[offset] != 0x0A { offset += 1 }
        } else {
          return
        }
      }
    }

    mutating func expect(_ character: Character) throws {
      skipTrivia()
      guard offset < bytes.count, bytes[offset] == character.asciiValue else {
        throw error("expected '\(character)'")
      }
      offset += 1
    }

    mutating func value() throws -> PropertyList {
      skipTrivia()
      guard offset < bytes.count else { throw error("unexpected end of file") }
      let start = offset
      switch bytes[offset] {
      case UInt8(ascii: "{"):
        offset += 1
        var entries: [Entry] = []
        while true {
          skipTrivia()
          guard offset < bytes.count else { throw error("unexpected end of file in a dictionary") }
          if bytes[offset] == UInt8(ascii: "}") { break }
          let keyStart = offset
          let key = try string()
          let keyRange = keyStart..<offset
          try expect("=")
          let value = try value()
          try expect(";")
          entries.append(Entry(key: key, keyRange: keyRange, value: value, end: offset))
        }
        offset += 1
        return PropertyList(kind: .dictionary(entries), range: start..<offset)
      case UInt8(ascii: "("):
        offset += 1
        var values: [PropertyList] = []
        while true {
          skipTrivia()
          guard offset < bytes.count else { throw error("unexpected end of file in an array") }
          if bytes[offset] == UInt8(ascii: ")") { break }
          values.append(try value())
          skipTrivia()
          if offset < bytes.count, bytes[offset] == UInt8(ascii: ",") {
            offset += 1
          } else if offset < bytes.count, bytes[offset] != UInt8(ascii: ")") {
            throw error("expected ',' or ')'")
          }
        }
        offset += 1
        return PropertyList(kind: .array(values), range: start..<offset)
      default:
        let text = try string()
        return PropertyList(kind: .string(text), range: start..<offset)
      }
    }

    /// A quoted string (with backslash escapes) or a bare one (anything up to a delimiter).
    mutating func string() throws -> String {
      skipTrivia()
      guard offset < bytes.count else { throw error("unexpected end of file") }
      if bytes[offset] == UInt8(ascii: "\"") {
        offset += 1
        var result: [UInt8] = []
        while offset < bytes.count, bytes[offset] != UInt8(ascii: "\"") {
          if bytes[offset] == UInt8(ascii: "\\"), offset + 1 < bytes.count {
            offset += 1
            switch bytes[offset] {
            case UInt8(ascii: "n"): result.append(0x0A)
            case UInt8(ascii: "t"): result.append(0x09)
            case UInt8(ascii: "r"): result.append(0x0D)
            default: result.append(bytes[offset])
            }
          } else {
            result.append(bytes[offset])
          }
          offset += 1
        }
        guard offset < bytes.count else { throw error("unterminated string") }
        offset += 1
        return String(decoding: result, as: UTF8.self)
      }
      let start = offset
      while offset < bytes.count {
        let byte = bytes[offset]
        if byte <= 0x20
          || [
            UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: ";"),
            UInt8(ascii: ","), UInt8(ascii: "="), UInt8(ascii: "\""),
          ].contains(byte)
        {
          break
        }
        if byte == UInt8(ascii: "/"), offset + 1 < bytes.count,
          bytes[offset + 1] == UInt8(ascii: "*") || bytes[offset + 1] == UInt8(ascii: "/")
        {
          break
        }
        offset += 1
      }
      guard offset > start else { throw error("expected a value") }
      return String(decoding: bytes[start..<offset], as: UTF8.self)
    }
  }
}
