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
    let firstType = member.parameters[0].type
    if let with = words.indices.dropFirst().first(where: { words[$0] == "With" }), with + 1 < words.count {
      // `loadWithName:` → `load(withName:)`; before a block the `with` goes: `fetch(completion:)`.
      let rest = words[(with + 1)...].joined()
      if ObjectiveCTypes.isBlock(firstType) && rest == "Block" {
        return .failure(ObjectiveCTypes.Unknown("the importer may shorten '\(first)' after its block type"))
      }
      base = words[..<with].joined()
      firstLabel = ObjectiveCTypes.isBlock(firstType) ? lowerFirst(rest) : "with" + rest
    } else if words.dropFirst().contains(where: prepositions.contains) {
      return .failure(ObjectiveCTypes.Unknown("its first selector piece '\(first)' holds a word the importer may split at"))
    }
    // `addItem:(Item *)` is `add(_:)` in some headers and `addItem(_:)` in others.
    var shortenable = false
    if firstLabel == "_", let typeName = types.className(firstType), let last = camelWords(stripPrefix(typeName)).last,
      words.count > 1, words.last?.lowercased() == last.lowercased()
    {
      shortenable = true
    }
    var labels = [firstLabel]
    for (piece, parameter) in zip(member.pieces.dropFirst(), member.parameters.dropFirst()) {
      if let typeName = types.className(parameter.type), let last = camelWords(stripPrefix(typeName)).last,
        camelWords(piece).count > 1, camelWords(piece).last?.lowercased() == last.lowercased()
      {
        return .failure(ObjectiveCTypes.Unknown("the importer may shorten the label '\(piece)' after its parameter's type"))
      }
      // `withBlock:` loses its type's name (`with:`); `completionBlock:` and `completionHandler:` keep theirs.
      let pieceWords = camelWords(piece)
      if ObjectiveCTypes.isBlock(parameter.type), pieceWords.count == 2, pieceWords[1] == "Block",
        pieceWords[0] == "with" || prepositions.contains(pieceWords[0].prefix(1).uppercased() + pieceWords[0].dropFirst())
      {
        return .failure(ObjectiveCTypes.Unknown("the importer may shorten the label '\(piece)' after its block type"))
      }
      labels.append(piece.isEmpty ? "_" : piece)
    }
    if shortenable {
      return .failure(ObjectiveCTypes.Unknown("the importer may shorten '\(first)' after its parameter's type", nameOnly: true))
    }
    return .success((base, labels))
  }

  /// Whether the parameter at `position` is a completion handler the importer marks `@Sendable`
  /// (it also offers the method as `async`): the method returns `void`, and its last parameter is a
  /// block returning `void` named for completion or a reply.
  static func isSendableCompletion(_ member: ObjectiveCMember, position: Int) -> Bool {
    guard position == member.parameters.count - 1, member.type.filter({ $0 != "oneway" }) == ["void"],
      ObjectiveCTypes.isVoidBlock(member.parameters[position].type)
    else { return false }
    let names: Set<String> = [
      "completion", "completionHandler", "completionBlock", "withCompletion", "withCompletionHandler",
      "withCompletionBlock", "reply", "withReply", "replyTo", "withReplyTo",
    ]
    let piece = member.pieces[position]
    let name = member.parameters[position].name
    if names.contains(piece) || names.contains(name) { return true }
    // `flushWithCompletion:`: the first piece's words after `With`.
    let words = camelWords(piece)
    guard position == 0, let with = words.indices.dropFirst().last(where: { words[$0] == "With" }) else { return false }
    return names.contains("with" + words[(with + 1)...].joined())
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
