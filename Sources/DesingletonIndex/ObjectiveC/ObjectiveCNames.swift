/// The Swift names of Objective-C members, for the shapes `ObjectiveCImporter` lists.
enum ObjectiveCNames {
  /// Words that make the importer split a selector's first piece or that it treats specially: a
  /// first piece with one of these after its first word is not modelled (except `With`).
  static let prepositions: Set<String> = [
    "For", "From", "To", "In", "At", "By", "On", "Of", "Using", "Into", "Onto", "Over", "After", "Before", "Since",
    "Until", "Within", "Without", "Through", "Via", "Upon", "Under", "Along", "Across", "Around", "Against",
    "Between", "During", "Inside", "Outside", "Toward", "Towards", "Like", "As", "Above", "Below", "Near", "Off",
    "Per", "Than", "Out", "Up", "Down", "And", "Or", "If", "When", "While", "Where", "Except", "Beside", "Besides",
  ]

  /// Words after which the importer keeps a type name it could drop.
  static let vacuous: Set<String> = ["set", "get", "is", "has", "with", "make", "new", "copy", "mutable"]

  /// `sharedLogger` on `MetricsLogger` → `shared`: the trailing words the class name ends with
  /// dropped; nil when no word goes or nothing would be left.
  static func pruned(_ name: String, matching typeName: String) -> String? {
    let words = camelWords(name)
    let typeWords = camelWords(stripPrefix(typeName))
    var kept = words.count
    var typePosition = typeWords.count
    while kept > 1, typePosition > 0, words[kept - 1].lowercased() == typeWords[typePosition - 1].lowercased() {
      kept -= 1
      typePosition -= 1
    }
    guard kept < words.count, kept > 0 else { return nil }
    return words[..<kept].joined()
  }

  /// The name of a method that is not an initializer, or why it is not modelled.
  static func method(
    _ member: ObjectiveCMember, className: String, returnsClass: Bool, types: ObjectiveCTypes
  ) -> Result<(base: String, labels: [String]), ObjectiveCTypes.Unknown> {
    let first = member.pieces[0]
    if member.parameters.isEmpty {
      if member.isClass && returnsClass, let short = pruned(first, matching: className) { return .success((short, [])) }
      return .success((first, []))
    }
    if member.isClass && returnsClass {
      return .failure(ObjectiveCTypes.Unknown("a class method that returns its class may be imported as an initializer"))
    }
    let words = camelWords(first)
    var base = first
    var firstLabel = "_"
    if let with = words.indices.dropFirst().first(where: { words[$0] == "With" }), with + 1 < words.count {
      base = words[..<with].joined()
      firstLabel = lowerFirst(words[(with + 1)...].joined())
    } else if words.dropFirst().contains(where: prepositions.contains) {
      return .failure(ObjectiveCTypes.Unknown("its first selector piece '\(first)' holds a word the importer may split at"))
    } else if let typeName = types.className(member.parameters[0].type) {
      let typeWords = camelWords(stripPrefix(typeName))
      if let last = typeWords.last, words.count > 1, words.last?.lowercased() == last.lowercased() {
        guard let short = pruned(first, matching: typeName), words.count - camelWords(short).count == typeWords.count,
          !vacuous.contains(short.lowercased())
        else {
          return .failure(ObjectiveCTypes.Unknown("the importer may shorten '\(first)' after its parameter's type"))
        }
        base = short
      }
    }
    var labels = [firstLabel]
    for (piece, parameter) in zip(member.pieces.dropFirst(), member.parameters.dropFirst()) {
      if let typeName = types.className(parameter.type), let last = camelWords(stripPrefix(typeName)).last,
        camelWords(piece).count > 1, camelWords(piece).last?.lowercased() == last.lowercased()
      {
        return .failure(ObjectiveCTypes.Unknown("the importer may shorten the label '\(piece)' after its parameter's type"))
      }
      labels.append(piece.isEmpty ? "_" : piece)
    }
    return .success((base, labels))
  }

  /// `init`, `initWithName:age:` → `init(name:age:)`.
  static func initializer(_ member: ObjectiveCMember) -> (base: String, labels: [String]) {
    guard !member.parameters.isEmpty else { return ("init", []) }
    let rest = member.pieces[0].dropFirst(4)
    guard rest.hasPrefix("With"), rest.count > 4 else { return ("init", []) }
    return ("init", [lowerFirst(String(rest.dropFirst(4)))] + member.pieces.dropFirst())
  }

  /// `setUp(name:)` → (`setUp`, [`name`]); `shared` → (`shared`, []).
  static func parsed(_ written: String) -> (base: String, labels: [String]) {
    guard let open = written.firstIndex(of: "("), written.hasSuffix(")") else { return (written, []) }
    let inner = written[written.index(after: open)..<written.index(before: written.endIndex)]
    return (String(written[..<open]), inner.split(separator: ":").map(String.init))
  }

  /// A parameter name Swift accepts as written, backquoted when it is a keyword.
  static func swiftIdentifier(_ name: String) -> String {
    let keywords: Set<String> = [
      "in", "func", "var", "let", "class", "struct", "enum", "protocol", "extension", "return", "if", "else", "for",
      "while", "repeat", "switch", "case", "default", "where", "is", "as", "self", "Self", "super", "init", "deinit",
      "import", "operator", "static", "subscript", "typealias", "inout", "internal", "private", "public", "throw",
      "throws", "try", "do", "catch", "defer", "guard", "break", "continue", "fallthrough", "nil", "true", "false",
      "associatedtype", "any", "some",
    ]
    return keywords.contains(name) ? "`\(name)`" : name
  }

  /// `logScreenDuration` → [`log`, `Screen`, `Duration`]; a run of capitals is one word
  /// (`URLString` → [`URL`, `String`]).
  static func camelWords(_ name: String) -> [String] {
    var words: [String] = []
    var current = ""
    let characters = Array(name)
    for (position, character) in characters.enumerated() {
      let startsWord = character.isUppercase && !current.isEmpty
        && (!(characters[position - 1].isUppercase)
          || (position + 1 < characters.count && characters[position + 1].isLowercase))
      if startsWord || (character == "_" && !current.isEmpty) {
        words.append(current)
        current = ""
      }
      if character != "_" { current.append(character) }
    }
    if !current.isEmpty { words.append(current) }
    return words
  }

  /// `NSFileManager` → `FileManager`: the two-or-more capital prefix before the type's first word.
  static func stripPrefix(_ typeName: String) -> String {
    let characters = Array(typeName)
    var position = 0
    while position + 1 < characters.count, characters[position].isUppercase, characters[position + 1].isUppercase {
      position += 1
    }
    return position >= 2 ? String(characters[position...]) : typeName
  }

  static func lowerFirst(_ text: String) -> String {
    guard let first = text.first else { return text }
    let upper = text.prefix { $0.isUppercase }
    if upper.count > 1 && upper.count < text.count { return upper.dropLast().lowercased() + text.dropFirst(upper.count - 1) }
    if upper.count == text.count { return text.lowercased() }
    return first.lowercased() + text.dropFirst()
  }
}
