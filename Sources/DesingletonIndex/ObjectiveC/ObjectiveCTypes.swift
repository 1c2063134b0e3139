/// Objective-C types as Swift sees them, for the types `ObjectiveCImporter` lists; any other type
/// is `Unknown`, with the reason.
struct ObjectiveCTypes {
  struct Unknown: Error, Equatable {
    var reason: String
    /// Only the name is in doubt, and the declaration written under the name as spelled is exact otherwise.
    var nameOnly = false
    init(_ reason: String, nameOnly: Bool = false) {
      self.reason = reason
      self.nameOnly = nameOnly
    }
  }

  enum Position { case property, parameter, result, element }

  /// The class the types are written in (`instancetype` is it).
  var className: String
  var swiftClassName: String
  var assumesNonnull: Bool

  static let scalars: [String: String] = [
    "void": "Void", "BOOL": "Bool", "bool": "Bool", "_Bool": "Bool", "char": "CChar", "short": "Int16",
    "int": "Int32", "long": "Int", "float": "Float", "double": "Double", "NSInteger": "Int", "NSUInteger": "Int",
    "CGFloat": "CGFloat", "NSTimeInterval": "TimeInterval", "int8_t": "Int8", "int16_t": "Int16", "int32_t": "Int32",
    "int64_t": "Int64", "uint8_t": "UInt8", "uint16_t": "UInt16", "uint32_t": "UInt32", "uint64_t": "UInt64",
    "size_t": "Int", "unsigned": "UInt32", "unsigned int": "UInt32", "unsigned long": "UInt", "long long": "Int64",
    "unsigned long long": "UInt64", "unsigned short": "UInt16", "unsigned char": "UInt8", "long int": "Int",
    "SEL": "Selector", "CGRect": "CGRect", "CGPoint": "CGPoint", "CGSize": "CGSize", "NSRange": "NSRange",
  ]

  static let bridged: [String: String] = [
    "NSString": "String", "NSData": "Data", "NSDate": "Date", "NSURL": "URL", "NSNumber": "NSNumber",
    "NSObject": "NSObject", "NSError": "Error", "NSUUID": "UUID", "NSLocale": "Locale", "NSTimeZone": "TimeZone",
    "NSIndexPath": "IndexPath", "NSNotificationName": "NSNotification.Name",
  ]

  static let qualifiers: Set<String> = [
    "const", "__kindof", "__strong", "__weak", "__unsafe_unretained", "__autoreleasing", "oneway", "in", "out",
    "inout", "bycopy", "byref", "volatile", "__block", "struct",
  ]

  static let nullabilities: [String: String] = [
    "nullable": "nullable", "_Nullable": "nullable", "__nullable": "nullable", "nonnull": "nonnull",
    "_Nonnull": "nonnull", "__nonnull": "nonnull", "null_unspecified": "null_unspecified",
    "_Null_unspecified": "null_unspecified", "null_resettable": "null_resettable",
  ]

  /// Whether the type is a block returning `void`.
  static func isVoidBlock(_ tokens: [String]) -> Bool {
    guard let caret = tokens.firstIndex(of: "^"), caret >= 1 else { return false }
    return tokens[..<(caret - 1)].filter { !qualifiers.contains($0) && nullabilities[$0] == nil } == ["void"]
  }

  /// Whether the type is a block.
  static func isBlock(_ tokens: [String]) -> Bool { tokens.contains("^") }

  /// Whether the type is the class itself (`instancetype`, `Class *`).
  func isClass(_ tokens: [String]) -> Bool {
    let words = tokens.filter { !Self.qualifiers.contains($0) && Self.nullabilities[$0] == nil }
    return words == ["instancetype"] || words == [className, "*"]
  }

  /// The class a pointer type names (`Item` for `Item *`, `String` for `NSString *`); nil for
  /// anything else.
  func className(_ tokens: [String]) -> String? {
    let words = tokens.filter { !Self.qualifiers.contains($0) && Self.nullabilities[$0] == nil }
    guard words.count == 2, words[1] == "*", let first = words.first, first.first?.isLetter == true else { return nil }
    return first
  }

  /// The Swift type for `tokens` in this position; `nullability` is a property's attribute.
  /// `sendable`: a completion handler the importer marks `@Sendable` (`ObjectiveCNames.isSendableCompletion`).
  func swift(_ tokens: [String], position: Position, nullability: String?, sendable: Bool = false) -> Result<String, Unknown> {
    var words: [String] = []
    var written = nullability
    var escapes = true
    for token in tokens {
      if let kind = Self.nullabilities[token] {
        written = kind
      } else if token == "NS_NOESCAPE" {
        escapes = false
      } else if !Self.qualifiers.contains(token) {
        words.append(token)
      }
    }
    guard !words.isEmpty else { return .failure(Unknown("its type is not written")) }
    if let caret = words.firstIndex(of: "^") {
      return block(words, caret: caret, position: position, nullability: written, escapes: escapes, sendable: sendable)
    }
    let joined = words.joined(separator: " ")
    if let scalar = Self.scalars[joined] { return .success(scalar) }
    guard let base: String = object(words) else {
      return .failure(Unknown("its type '\(joined)' is not one desingleton maps to Swift"))
    }
    switch written ?? (assumesNonnull ? "nonnull" : "null_unspecified") {
    case "nullable": return .success(optional(base, "?"))
    case "nonnull", "null_resettable": return .success(base)
    default: return .success(position == .element ? base : optional(base, "!"))
    }
  }

  private func optional(_ base: String, _ mark: String) -> String {
    base.contains(" ") || base.contains("->") ? "(\(base))\(mark)" : base + mark
  }

  /// An object type's Swift spelling without optionality; nil for pointers that are not objects.
  private func object(_ words: [String]) -> String? {
    if words == ["id"] { return "Any" }
    if words == ["instancetype"] { return swiftClassName }
    if words.first == "id", words.count >= 3, words[1] == "<", words.last == ">" {
      let protocols = words[2..<(words.count - 1)].filter { $0 != "," }
      return "any " + protocols.joined(separator: " & ")
    }
    guard words.last == "*", let name = words.first, name.first?.isLetter == true, !words.dropLast().contains("*") || words[1] == "<"
    else { return nil }
    let arguments = genericArguments(Array(words.dropFirst().dropLast()))
    guard let arguments else { return nil }
    let mapped = arguments.map { swift($0, position: .element, nullability: nil) }
    var elements: [String] = []
    for result in mapped {
      guard case .success(let type) = result else { return nil }
      elements.append(type)
    }
    switch name {
    case "NSArray": return elements.count == 1 ? "[\(elements[0])]" : elements.isEmpty ? "[Any]" : nil
    case "NSDictionary":
      return elements.count == 2 ? "[\(elements[0]): \(elements[1])]" : elements.isEmpty ? "[AnyHashable: Any]" : nil
    case "NSSet": return elements.count == 1 ? "Set<\(elements[0])>" : elements.isEmpty ? "Set<AnyHashable>" : nil
    default:
      guard elements.isEmpty else { return nil }
      if name == className { return swiftClassName }
      return Self.bridged[name] ?? name
    }
  }

  /// `<NSString *, NSNumber *>` → each argument's tokens; [] without arguments; nil when malformed.
  private func genericArguments(_ words: [String]) -> [[String]]? {
    guard !words.isEmpty else { return [] }
    guard words.first == "<", words.last == ">" else { return nil }
    var result: [[String]] = [[]]
    var depth = 0
    for word in words.dropFirst().dropLast() {
      if word == "<" { depth += 1 }
      if word == ">" { depth -= 1 }
      if word == "," && depth == 0 {
        result.append([])
      } else {
        result[result.count - 1].append(word)
      }
    }
    return result
  }

  /// `void (^)(BOOL ok, NSError *error)` → `(Bool, Error?) -> Void`.
  private func block(
    _ words: [String], caret: Int, position: Position, nullability: String?, escapes: Bool, sendable: Bool
  ) -> Result<String, Unknown> {
    guard caret >= 1, words[caret - 1] == "(", let close = words[caret...].firstIndex(of: ")"),
      close + 1 < words.count, words[close + 1] == "(", words.last == ")"
    else { return .failure(Unknown("its block type is not one desingleton maps to Swift")) }
    let returned: String
    switch swift(Array(words[..<(caret - 1)]), position: .result, nullability: nil) {
    case .success(let type): returned = type
    case .failure(let reason): return .failure(reason)
    }
    var parameters: [String] = []
    var current: [String] = []
    var depth = 0
    for word in words[(close + 2)..<(words.count - 1)] {
      if word == "(" || word == "<" { depth += 1 }
      if word == ")" || word == ">" { depth -= 1 }
      if word == "," && depth == 0 {
        parameters.append(contentsOf: [current.joined(separator: "\u{0}")])
        current = []
      } else {
        current.append(word)
      }
    }
    if !current.isEmpty { parameters.append(current.joined(separator: "\u{0}")) }
    var swiftParameters: [String] = []
    for parameter in parameters {
      var tokens = parameter.split(separator: "\u{0}").map(String.init)
      if tokens == ["void"] { continue }
      // A parameter's name, when written, is the last word after a type that is whole without it.
      if tokens.count >= 2, let last = tokens.last, last.first?.isLetter == true,
        case .success = swift(Array(tokens.dropLast()), position: .parameter, nullability: nil)
      {
        tokens.removeLast()
      }
      switch swift(tokens, position: .parameter, nullability: nil) {
      case .success(let type): swiftParameters.append(type)
      case .failure(let reason): return .failure(reason)
      }
    }
    let function = (sendable ? "@Sendable " : "") + "(\(swiftParameters.joined(separator: ", "))) -> \(returned)"
    switch nullability ?? (assumesNonnull ? "nonnull" : "null_unspecified") {
    case "nullable": return .success("(\(function))?")
    case "nonnull", "null_resettable":
      return .success(position == .parameter && escapes ? "@escaping \(function)" : function)
    default: return .success(position == .element ? function : "(\(function))!")
    }
  }
}
