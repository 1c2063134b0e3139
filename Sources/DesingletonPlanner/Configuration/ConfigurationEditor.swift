import DesingletonCore

/// `extract-protocol --save-slices`: the chosen slices written into `.desingleton.json` under the
/// singleton, so that a team reviews them before any code changes. The rest of the file is kept byte
/// for byte: the slices replace the singleton's `"slices"` value, or go in as the first member of
/// the nearest object the file already has.
///
/// ## Before
/// ```json
/// {
///   "version": 1
/// }
/// ```
/// ## After
/// ```json
/// {
///   "singletons": {
///     "SessionController": {
///       "slices": {
///         "CurrentCart": ["cart", "addItemToCart"]
///       }
///     }
///   },
///   "version": 1
/// }
/// ```
public enum ConfigurationEditor {
  /// A value as the editor writes it.
  indirect enum Value {
    case object([(key: String, value: Value)])
    case strings([String])
    case number(Int)

    func text(indent: String, unit: String) -> String {
      switch self {
      case .number(let number): return String(number)
      case .strings(let strings): return "[" + strings.map(quoted).joined(separator: ", ") + "]"
      case .object(let members):
        guard !members.isEmpty else { return "{}" }
        let inner = indent + unit
        let lines = members.map { inner + quoted($0.key) + ": " + $0.value.text(indent: inner, unit: unit) }
        return "{\n" + lines.joined(separator: ",\n") + "\n" + indent + "}"
      }
    }
  }

  /// The plan that saves `slices` for `singleton` into the file at `path` (`source` nil: a new file).
  public static func savingSlices(
    _ slices: [Slice],
    singleton: String,
    simpleName: String,
    path: String,
    source: SourceText?
  ) throws -> Plan {
    let slicesValue = Value.object(slices.map { ($0.name, .strings($0.members)) })
    guard let source else {
      let file = Value.object([
        ("version", .number(Configuration.version)),
        ("singletons", .object([(singleton, .object([("slices", slicesValue)]))])),
      ])
      return Plan(newFiles: [path: file.text(indent: "", unit: "  ") + "\n"], notes: notes(slices, singleton, path))
    }
    // A file that does not read is refused by `Configuration.read` before this runs; read it again
    // here for the places of its values.
    let root = try JSONNode.parse(source)
    let unit = source.indentUnit.contains("\t") ? "\t" : String(repeating: " ", count: min(source.indentUnit.count, 4))
    let existing = try Configuration.read(source)
    let key = [singleton, simpleName].first { existing.singletons[$0] != nil } ?? singleton
    if existing.singletons[key]?.slices == slices {
      return Plan(notes: [Note(.project, "the slices of '\(key)' are saved already", at: Note.Place(path: path))])
    }

    // The deepest object on the way root → singletons → key → slices that the file has.
    var keys = ["singletons", key, "slices"]
    var node = root
    var edit: TextEdit?
    while edit == nil {
      guard case .object(let members) = node.value else { throw Refusal("expected an object", at: node.location) }
      if let member = members.first(where: { $0.key == keys[0] }) {
        if keys.count == 1 {
          let indent = lineIndent(member.value.bytes.lowerBound, source)
          edit = TextEdit(range: member.value.bytes, replacement: slicesValue.text(indent: indent, unit: unit))
        } else {
          node = member.value
          keys.removeFirst()
        }
        continue
      }
      // What is missing, nested: `"singletons": {"Key": {"slices": {...}}}` from the first missing level.
      let value = keys.dropFirst().reversed().reduce(slicesValue) { inner, name in .object([(name, inner)]) }
      edit = insertion(key: keys[0], value: value, into: node, members: members, source: source, unit: unit)
    }
    var plan = Plan(notes: notes(slices, key, path))
    if let edit { plan.add(edit, in: path) }
    return plan
  }

  /// `"key": value` as the first member of an object: on its own line when the object's members are.
  private static func insertion(
    key: String,
    value: Value,
    into object: JSONNode,
    members: [JSONNode.Member],
    source: SourceText,
    unit: String
  ) -> TextEdit {
    guard let first = members.first else {
      let indent = lineIndent(object.bytes.lowerBound, source)
      return TextEdit(range: object.bytes, replacement: Value.object([(key, value)]).text(indent: indent, unit: unit))
    }
    let offset = source.lineStarts[first.keyLocation.line - 1] + first.keyLocation.column - 1
    let indent = lineIndent(offset, source)
    let ownLine = first.keyLocation.line != source.location(ofOffset: object.bytes.lowerBound).line
    let text = quoted(key) + ": " + value.text(indent: indent, unit: unit) + (ownLine ? ",\n" + indent : ", ")
    return .insert(text, at: offset)
  }

  /// The spaces and tabs that start the line holding `offset`.
  private static func lineIndent(_ offset: Int, _ source: SourceText) -> String {
    let start = source.lineStarts[source.location(ofOffset: offset).line - 1]
    let bytes = source.bytes[start...].prefix { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
    return String(decoding: bytes, as: UTF8.self)
  }

  private static func notes(_ slices: [Slice], _ singleton: String, _ path: String) -> [Note] {
    [Note(.project, "saved \(slices.count) slice\(slices.count == 1 ? "" : "s") for '\(singleton)'", at: Note.Place(path: path))]
      + slices.map { Note(.project, "\($0.name): \($0.members.joined(separator: ", "))", depth: 1) }
  }
}

private func quoted(_ text: String) -> String {
  var out = "\""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    case "\n": out += "\\n"
    case "\t": out += "\\t"
    case "\r": out += "\\r"
    default:
      if scalar.value < 0x20 {
        out +=
          "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
          + String(scalar.value, radix: 16)
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
  }
  return out + "\""
}
