/// A JSON value written the way `JSONEncoder` writes it with `.prettyPrinted`, `.sortedKeys` and
/// `.withoutEscapingSlashes`: two-space indent, `"key" : value`, keys in byte order, an empty
/// array as `[`, a blank line and `]`. The scan report of a large code base is over a megabyte;
/// writing it directly takes a tenth of the time of going through `Encodable`.
indirect enum JSONValue {
  case string(String)
  case int(Int)
  case bool(Bool)
  /// A fraction rounded to two decimals, written as `JSONEncoder` writes the same `Double`.
  case number(Double)
  case null
  case array([JSONValue])
  case object([(key: String, value: JSONValue)])
  /// A value already written at the indentation where it goes.
  case rendered([UInt8])

  /// The document, with a final newline.
  func text() -> String {
    var out = bytes(indent: 0)
    out.append(UInt8(ascii: "\n"))
    return String(decoding: out, as: UTF8.self)
  }

  /// The value as written at `indent` (its first line is not indented: it follows a key or an
  /// array's indentation).
  func bytes(indent: Int) -> [UInt8] {
    var out: [UInt8] = []
    write(into: &out, indent: indent)
    return out
  }

  private func write(into out: inout [UInt8], indent: Int) {
    switch self {
    case .string(let text): JSONValue.writeString(text, into: &out)
    case .int(let number): out.append(contentsOf: String(number).utf8)
    case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
    case .null: out.append(contentsOf: "null".utf8)
    // As `JSONEncoder` writes a `Double`: a whole number without `.0`, else its shortest form.
    case .number(let value):
      let whole = value.rounded() == value && abs(value) < 1e15
      out.append(contentsOf: (whole ? String(Int(value)) : "\(value)").utf8)
    case .rendered(let bytes): out.append(contentsOf: bytes)
    case .array(let elements):
      JSONValue.writeContainer(open: "[", close: "]", count: elements.count, indent: indent, into: &out) { position, out in
        elements[position].write(into: &out, indent: indent + 2)
      }
    case .object(let entries):
      let sorted = entries.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
      JSONValue.writeContainer(open: "{", close: "}", count: sorted.count, indent: indent, into: &out) { position, out in
        JSONValue.writeString(sorted[position].key, into: &out)
        out.append(contentsOf: " : ".utf8)
        sorted[position].value.write(into: &out, indent: indent + 2)
      }
    }
  }

  private static func writeContainer(
    open: Unicode.Scalar, close: Unicode.Scalar, count: Int, indent: Int, into out: inout [UInt8],
    element: (Int, inout [UInt8]) -> Void
  ) {
    out.append(UInt8(ascii: open))
    out.append(UInt8(ascii: "\n"))
    if count == 0 { out.append(UInt8(ascii: "\n")) }
    for position in 0..<count {
      if position > 0 { out.append(contentsOf: ",\n".utf8) }
      out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent + 2))
      element(position, &out)
    }
    if count > 0 { out.append(UInt8(ascii: "\n")) }
    out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent))
    out.append(UInt8(ascii: close))
  }

  private static func writeString(_ text: String, into out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
      case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
      case 0x08: out.append(contentsOf: "\\b".utf8)
      case 0x09: out.append(contentsOf: "\\t".utf8)
      case 0x0A: out.append(contentsOf: "\\n".utf8)
      case 0x0C: out.append(contentsOf: "\\f".utf8)
      case 0x0D: out.append(contentsOf: "\\r".utf8)
      case 0..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        out.append(contentsOf: "\\u00".utf8)
        out.append(hex[Int(byte >> 4)])
        out.append(hex[Int(byte & 0xF)])
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
  }
}
