import DesingletonCore

/// A JSON document read with the place of every value and key, so that a configuration file's
/// problems can be reported as `path:line:col: error: ...` (Foundation's reader gives no places).
/// Strict RFC 8259: no comments, no trailing commas.
struct JSONNode: Sendable {
  enum Value: Sendable {
    case object([Member])
    case array([JSONNode])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
  }

  struct Member: Sendable {
    var key: String
    var keyLocation: Location
    var value: JSONNode
  }

  var value: Value
  var location: Location
  /// The UTF-8 byte range of the value in the file.
  var bytes: Range<Int>

  /// What the value is, as an error message names it.
  var kindName: String {
    switch value {
    case .object: return "an object"
    case .array: return "an array"
    case .string: return "a string"
    case .number: return "a number"
    case .bool: return "a boolean"
    case .null: return "null"
    }
  }

  /// Reads a whole document; the first syntax error is a refusal at its place.
  static func parse(_ source: SourceText) throws -> JSONNode {
    var reader = JSONReader(source: source)
    reader.skipWhitespace()
    let node = try reader.value(depth: 0)
    reader.skipWhitespace()
    if reader.position < source.bytes.count {
      throw reader.error("unexpected text after the JSON value")
    }
    return node
  }
}

private struct JSONReader {
  let source: SourceText
  var position = 0

  init(source: SourceText) {
    self.source = source
  }

  var bytes: [UInt8] { source.bytes }

  func error(_ message: String, at offset: Int? = nil) -> Refusal {
    Refusal(message, at: source.location(ofOffset: offset ?? position))
  }

  mutating func skipWhitespace() {
    while position < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[position]) { position += 1 }
  }

  mutating func value(depth: Int) throws -> JSONNode {
    guard depth < 64 else { throw error("the JSON is nested too deeply") }
    guard position < bytes.count else { throw error("the file ends where a JSON value was expected") }
    let start = position
    let value: JSONNode.Value
    switch bytes[position] {
    case UInt8(ascii: "{"): value = try object(depth: depth)
    case UInt8(ascii: "["): value = try array(depth: depth)
    case UInt8(ascii: "\""): value = .string(try string())
    case UInt8(ascii: "t"): try literal("true"); value = .bool(true)
    case UInt8(ascii: "f"): try literal("false"); value = .bool(false)
    case UInt8(ascii: "n"): try literal("null"); value = .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): value = .number(try number())
    default: throw error("expected a JSON value, found '\(Character(Unicode.Scalar(bytes[position])))'")
    }
    return JSONNode(value: value, location: source.location(ofOffset: start), bytes: start..<position)
  }

  mutating func literal(_ word: String) throws {
    let expected = Array(word.utf8)
    guard position + expected.count <= bytes.count, Array(bytes[position..<position + expected.count]) == expected
    else {
      throw error("expected a JSON value")
    }
    position += expected.count
  }

  mutating func number() throws -> Double {
    let start = position
    if bytes[position] == UInt8(ascii: "-") { position += 1 }
    let digits = { (reader: inout JSONReader) -> Int in
      let first = reader.position
      while reader.position < reader.bytes.count,
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(reader.bytes[reader.position])
      {
        reader.position += 1
      }
      return reader.position - first
    }
    guard digits(&self) > 0 else { throw error("expected a digit", at: position) }
    if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
      position += 1
      guard digits(&self) > 0 else { throw error("expected a digit after '.'") }
    }
    if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
      position += 1
      if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
        position += 1
      }
      guard digits(&self) > 0 else { throw error("expected a digit in the exponent") }
    }
    guard let number = Double(String(decoding: bytes[start..<position], as: UTF8.self)) else {
      throw error("not a number", at: start)
    }
    return number
  }

  mutating func string() throws -> String {
    let start = position
    position += 1
    var out: [UInt8] = []
    while true {
      guard position < bytes.count else { throw error("the string is not closed", at: start) }
      let byte = bytes[position]
      switch byte {
      case UInt8(ascii: "\""):
        position += 1
        return String(decoding: out, as: UTF8.self)
      case UInt8(ascii: "\\"):
        position += 1
        guard position < bytes.count else { throw error("the string is not closed", at: start) }
        let escaped = bytes[position]
        position += 1
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escaped)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
          var scalar = try hex4()
          if (0xD800..<0xDC00).contains(scalar), position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
            bytes[position + 1] == UInt8(ascii: "u")
          {
            position += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw error("invalid surrogate pair in '\\u' escape") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
          }
          guard let unicode = Unicode.Scalar(scalar) else { throw error("invalid '\\u' escape") }
          out.append(contentsOf: String(Character(unicode)).utf8)
        default:
          throw error("invalid escape '\\\(Character(Unicode.Scalar(escaped)))' in a string", at: position - 2)
        }
      case 0x00..<0x20:
        throw error("a control character in a string must be escaped")
      default:
        out.append(byte)
        position += 1
      }
    }
  }

  mutating func hex4() throws -> UInt32 {
    guard position + 4 <= bytes.count,
      let value = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16)
    else { throw error("expected four hex digits after '\\u'") }
    position += 4
    return value
  }

  mutating func array(depth: Int) throws -> JSONNode.Value {
    position += 1
    var elements: [JSONNode] = []
    skipWhitespace()
    if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
      position += 1
      return .array(elements)
    }
    while true {
      skipWhitespace()
      elements.append(try value(depth: depth + 1))
      skipWhitespace()
      guard position < bytes.count else { throw error("the array is not closed") }
      if bytes[position] == UInt8(ascii: ",") {
        position += 1
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
          throw error("a trailing comma is not allowed in JSON")
        }
        continue
      }
      if bytes[position] == UInt8(ascii: "]") {
        position += 1
        return .array(elements)
      }
      throw error("expected ',' or ']' in the array")
    }
  }

  mutating func object(depth: Int) throws -> JSONNode.Value {
    position += 1
    var members: [JSONNode.Member] = []
    skipWhitespace()
    if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
      position += 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
        if position < bytes.count, bytes[position] == UInt8(ascii: "}"), !members.isEmpty {
          throw error("a trailing comma is not allowed in JSON")
        }
        throw error("expected a key in double quotes")
      }
      let keyLocation = source.location(ofOffset: position)
      let key = try string()
      if members.contains(where: { $0.key == key }) {
        throw Refusal("duplicate key '\(key)'", at: keyLocation)
      }
      skipWhitespace()
      guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
        throw error("expected ':' after the key '\(key)'")
      }
      position += 1
      skipWhitespace()
      members.append(JSONNode.Member(key: key, keyLocation: keyLocation, value: try value(depth: depth + 1)))
      skipWhitespace()
      guard position < bytes.count else { throw error("the object is not closed") }
      if bytes[position] == UInt8(ascii: ",") {
        position += 1
        continue
      }
      if bytes[position] == UInt8(ascii: "}") {
        position += 1
        return .object(members)
      }
      throw error("expected ',' or '}' in the object")
    }
  }
}
