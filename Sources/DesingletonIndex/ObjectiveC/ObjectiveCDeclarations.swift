import DesingletonCore

/// A class's `@interface` (or a category's) in a header, as written: what Swift code can see of it.
struct ObjectiveCInterface {
  var name: String
  /// `NS_SWIFT_NAME(...)`/`swift_name` written before `@interface`.
  var swiftName: String?
  var superclass: String?
  var protocols: [String]
  /// The category's name for `@interface Name (Category)`; nil for the class's own interface.
  var category: String?
  var members: [ObjectiveCMember]
  /// From `@interface` to `@end`.
  var bytes: Range<Int>
}

/// A property or method declared in an `@interface`.
struct ObjectiveCMember {
  enum Kind { case property, method }

  var kind: Kind
  /// `+` methods and `(class)` properties.
  var isClass: Bool
  /// The selector's pieces without colons (`logScreen`, `duration`); a property's name.
  var pieces: [String]
  /// Each piece's parameter: its type's tokens and its name.
  var parameters: [(type: [String], name: String)]
  /// A property's type or a method's return type, as tokens.
  var type: [String]
  /// A property's attributes: `nonatomic`, `readonly`, `class`, `nullable`, `getter=isOn`.
  var attributes: [String]
  /// `NS_SWIFT_NAME(...)` or `__attribute__((swift_name("...")))`.
  var swiftName: String?
  /// `NS_UNAVAILABLE`, `__attribute__((unavailable))`, `UNAVAILABLE_ATTRIBUTE`, `NS_SWIFT_UNAVAILABLE`.
  var isUnavailable: Bool
  /// Declared between `NS_ASSUME_NONNULL_BEGIN` and `_END`: pointers without a nullability are nonnull.
  var assumesNonnull: Bool
  /// Ends with `, ...`.
  var isVariadic: Bool
  /// The declaration, up to its `;`.
  var bytes: Range<Int>

  /// `logScreen:duration:`, `countOfEvents`.
  var selector: String { parameters.isEmpty ? pieces[0] : pieces.map { $0 + ":" }.joined() }
}

/// A class's `@implementation`: what its class methods return, which tells an accessor that hands
/// out one stored instance from a factory.
struct ObjectiveCImplementation {
  var name: String
  /// Selector of each class method without parameters → the identifier its last `return` returns,
  /// when that identifier is a `static` variable (in the method or at file scope).
  var returnsStatic: [String: String]
  /// `+allocWithZone:` is overridden: every `alloc` hands out the shared instance (a strict singleton).
  var overridesAllocWithZone: Bool
}

enum ObjectiveCDeclarations {
  static func interfaces(_ tokens: [ObjectiveCToken]) -> [ObjectiveCInterface] {
    var result: [ObjectiveCInterface] = []
    var nonnull = false
    var position = 0
    while position < tokens.count {
      let token = tokens[position]
      if token.kind == .identifier && token.text == "NS_ASSUME_NONNULL_BEGIN" { nonnull = true }
      if token.kind == .identifier && token.text == "NS_ASSUME_NONNULL_END" { nonnull = false }
      guard token.kind == .keyword && token.text == "@interface" else {
        position += 1
        continue
      }
      let swiftName = precedingSwiftName(tokens, before: position)
      var interface = ObjectiveCInterface(
        name: "", swiftName: swiftName, superclass: nil, protocols: [], category: nil, members: [],
        bytes: token.offset..<token.offset)
      position += 1
      guard position < tokens.count, tokens[position].kind == .identifier else { continue }
      interface.name = tokens[position].text
      position += 1
      if position < tokens.count, tokens[position].is("<") {
        position = ObjectiveCLexer.closing(tokens, from: position)  // generic parameters
      }
      if position < tokens.count, tokens[position].is("(") {
        let end = ObjectiveCLexer.closing(tokens, from: position)
        interface.category = tokens[(position + 1)..<max(position + 1, end - 1)].map(\.text).joined()
        position = end
      }
      if position + 1 < tokens.count, tokens[position].is(":"), tokens[position + 1].kind == .identifier {
        interface.superclass = tokens[position + 1].text
        position += 2
        if position < tokens.count, tokens[position].is("<"), interface.category == nil,
          tokens[ObjectiveCLexer.closing(tokens, from: position) - 1].is(">"),
          tokens[position + 1..<ObjectiveCLexer.closing(tokens, from: position)].contains(where: { $0.is("*") })
        {
          position = ObjectiveCLexer.closing(tokens, from: position)  // generic arguments of the superclass
        }
      }
      if position < tokens.count, tokens[position].is("<") {
        let end = ObjectiveCLexer.closing(tokens, from: position)
        interface.protocols = tokens[position..<end].filter { $0.kind == .identifier }.map(\.text)
        position = end
      }
      if position < tokens.count, tokens[position].is("{") { position = ObjectiveCLexer.closing(tokens, from: position) }
      // Declarations up to `@end`.
      while position < tokens.count, !(tokens[position].kind == .keyword && tokens[position].text == "@end") {
        let start = tokens[position]
        if start.kind == .identifier && start.text == "NS_ASSUME_NONNULL_BEGIN" { nonnull = true; position += 1; continue }
        if start.kind == .identifier && start.text == "NS_ASSUME_NONNULL_END" { nonnull = false; position += 1; continue }
        let isMember = start.is("+") || start.is("-") || (start.kind == .keyword && start.text == "@property")
        guard isMember else {
          position += 1
          continue
        }
        var end = position
        var depth = 0
        while end < tokens.count {
          let current = tokens[end]
          if current.is("(") || current.is("{") || current.is("[") { depth += 1 }
          if current.is(")") || current.is("}") || current.is("]") { depth -= 1 }
          if depth == 0 && current.is(";") { break }
          if current.kind == .keyword && current.text == "@end" { break }
          end += 1
        }
        let closing = end < tokens.count ? tokens[end].offset + tokens[end].text.utf8.count : start.offset
        if let member = member(Array(tokens[position..<min(end, tokens.count)]), nonnull: nonnull, end: closing) {
          interface.members.append(member)
        }
        position = end < tokens.count && tokens[end].is(";") ? end + 1 : end
      }
      if position < tokens.count {
        interface.bytes = token.offset..<(tokens[position].offset + 4)
        position += 1
      }
      result.append(interface)
    }
    return result
  }

  /// A member declaration's tokens, without its `;`.
  private static func member(_ tokens: [ObjectiveCToken], nonnull: Bool, end: Int) -> ObjectiveCMember? {
    guard let first = tokens.first else { return nil }
    var (body, swiftName, unavailable) = withoutTrailingAttributes(tokens)
    var member = ObjectiveCMember(
      kind: .method, isClass: first.is("+"), pieces: [], parameters: [], type: [], attributes: [], swiftName: swiftName,
      isUnavailable: unavailable, assumesNonnull: nonnull, isVariadic: false, bytes: first.offset..<end)
    if first.kind == .keyword {
      member.kind = .property
      var position = 1
      if position < body.count, body[position].is("(") {
        let close = ObjectiveCLexer.closing(body, from: position)
        member.attributes = attributeList(body[(position + 1)..<max(position + 1, close - 1)])
        position = close
      }
      member.isClass = member.attributes.contains("class")
      body = Array(body[min(position, body.count)...])
      // A block property names itself inside its type: `void (^handler)(BOOL)`.
      if let caret = body.indices.first(where: { body[$0].is("^") && $0 > 0 && body[$0 - 1].is("(") }),
        caret + 2 < body.count, body[caret + 1].kind == .identifier, body[caret + 2].is(")")
      {
        member.pieces = [body[caret + 1].text]
        body.remove(at: caret + 1)
        member.type = body.map(\.text)
        return member
      }
      guard let name = body.last, name.kind == .identifier, body.count >= 2 else { return nil }
      member.pieces = [name.text]
      member.type = body.dropLast().map(\.text)
      return member
    }
    guard body.count >= 3, body[1].is("(") else { return nil }
    let close = ObjectiveCLexer.closing(body, from: 1)
    member.type = body[2..<max(2, close - 1)].map(\.text)
    var position = close
    while position < body.count {
      guard body[position].kind == .identifier || body[position].is(":") else {
        if body[position].is(",") { member.isVariadic = true }
        break
      }
      let piece = body[position].kind == .identifier ? body[position].text : ""
      if body[position].kind == .identifier { position += 1 }
      guard position < body.count, body[position].is(":") else {
        if member.pieces.isEmpty { member.pieces = [piece] }
        break
      }
      position += 1
      var type: [String] = []
      if position < body.count, body[position].is("(") {
        let typeClose = ObjectiveCLexer.closing(body, from: position)
        type = body[(position + 1)..<max(position + 1, typeClose - 1)].map(\.text)
        position = typeClose
      }
      guard position < body.count, body[position].kind == .identifier else { return nil }
      member.pieces.append(piece)
      member.parameters.append((type, body[position].text))
      position += 1
    }
    return member.pieces.isEmpty ? nil : member
  }

  /// `nonatomic, readonly, getter=isOn` → one string per attribute.
  private static func attributeList(_ tokens: ArraySlice<ObjectiveCToken>) -> [String] {
    tokens.split(whereSeparator: { $0.is(",") }).map { $0.map(\.text).joined() }
  }

  /// The declaration without the macros and attributes after it, with the Swift name and
  /// unavailability they give.
  private static func withoutTrailingAttributes(_ tokens: [ObjectiveCToken]) -> ([ObjectiveCToken], String?, Bool) {
    var end = tokens.count
    var swiftName: String?
    var unavailable = false
    while end > 1 {
      var start = end - 1
      if tokens[start].is(")") {
        // The macro's name before the group's `(`.
        start = ObjectiveCLexer.opening(tokens, closingAt: start) - 1
        guard start > 0, isMacro(tokens[start]) else { break }
      } else if !isMacro(tokens[start]) {
        break
      }
      let macro = tokens[start].text
      let arguments = tokens[(start + 1)..<end]
      swiftName = Self.swiftName(macro, arguments) ?? swiftName
      if macro.contains("UNAVAILABLE") || (macro == "__attribute__" && arguments.contains { $0.text == "unavailable" }) {
        unavailable = true
      }
      end = start
    }
    return (Array(tokens[..<end]), swiftName, unavailable)
  }

  /// `NS_UNAVAILABLE`, `API_AVAILABLE`, `__attribute__`: all capitals with an underscore.
  static func isMacro(_ token: ObjectiveCToken) -> Bool {
    guard token.kind == .identifier else { return false }
    if token.text == "__attribute__" { return true }
    return token.text.contains("_") && token.text.allSatisfy { $0.isUppercase || $0.isNumber || $0 == "_" }
  }

  /// `NS_SWIFT_NAME(Logger)` or `__attribute__((swift_name("Logger")))` just before `@interface`.
  private static func precedingSwiftName(_ tokens: [ObjectiveCToken], before position: Int) -> String? {
    guard position > 0, tokens[position - 1].is(")") else { return nil }
    let start = ObjectiveCLexer.opening(tokens, closingAt: position - 1)
    guard start > 0 else { return nil }
    return swiftName(tokens[start - 1].text, tokens[start..<position])
  }

  /// The name `NS_SWIFT_NAME(name)` or `__attribute__((swift_name("name")))` gives; nil for another macro.
  private static func swiftName(_ macro: String, _ arguments: ArraySlice<ObjectiveCToken>) -> String? {
    if macro == "NS_SWIFT_NAME" { return arguments.dropFirst().dropLast().map(\.text).joined() }
    if macro == "__attribute__", arguments.contains(where: { $0.text == "swift_name" }),
      let literal = arguments.first(where: { $0.kind == .literal })
    {
      return String(literal.text.dropFirst().dropLast())
    }
    return nil
  }

  static func implementations(_ tokens: [ObjectiveCToken]) -> [ObjectiveCImplementation] {
    var result: [ObjectiveCImplementation] = []
    var fileStatics: Set<String> = []
    var position = 0
    var current: ObjectiveCImplementation?
    var braceDepth = 0
    while position < tokens.count {
      let token = tokens[position]
      if token.kind == .keyword && token.text == "@implementation", position + 1 < tokens.count {
        current = ObjectiveCImplementation(name: tokens[position + 1].text, returnsStatic: [:], overridesAllocWithZone: false)
        position += 2
        continue
      }
      if token.kind == .keyword && token.text == "@end", let finished = current {
        result.append(finished)
        current = nil
      }
      if token.is("{") { braceDepth += 1 }
      if token.is("}") { braceDepth -= 1 }
      if braceDepth == 0 && token.kind == .identifier && token.text == "static" {
        fileStatics.formUnion(staticNames(tokens, from: position))
      }
      if current != nil, braceDepth == 0, token.is("+"), let (selector, bodyStart) = classMethodHead(tokens, from: position) {
        let bodyEnd = ObjectiveCLexer.closing(tokens, from: bodyStart)
        if selector == "allocWithZone:" { current?.overridesAllocWithZone = true }
        if !selector.contains(":"), let returned = lastReturned(tokens[bodyStart..<bodyEnd]) {
          var statics = fileStatics
          for index in bodyStart..<bodyEnd where tokens[index].kind == .identifier && tokens[index].text == "static" {
            statics.formUnion(staticNames(tokens, from: index))
          }
          if statics.contains(returned) { current?.returnsStatic[selector] = returned }
        }
        position = bodyEnd
        continue
      }
      position += 1
    }
    return result
  }

  /// `+ (Type)selector {` → the selector and the position of `{`; nil for a declaration.
  private static func classMethodHead(_ tokens: [ObjectiveCToken], from start: Int) -> (String, Int)? {
    guard start + 1 < tokens.count, tokens[start + 1].is("(") else { return nil }
    var position = ObjectiveCLexer.closing(tokens, from: start + 1)
    var selector = ""
    while position < tokens.count, !tokens[position].is("{"), !tokens[position].is(";") {
      let token = tokens[position]
      if token.kind == .identifier, position + 1 < tokens.count, tokens[position + 1].is(":") {
        selector += token.text + ":"
        position += 2
        if position < tokens.count, tokens[position].is("(") { position = ObjectiveCLexer.closing(tokens, from: position) }
        position += 1  // the parameter's name
        continue
      }
      if token.kind == .identifier && selector.isEmpty { selector = token.text }
      if token.is(":") { selector += ":" }
      position += 1
    }
    guard position < tokens.count, tokens[position].is("{"), !selector.isEmpty else { return nil }
    return (selector, position)
  }

  /// The names a `static` declaration starting here declares: `static Foo *shared = nil;` → `shared`.
  private static func staticNames(_ tokens: [ObjectiveCToken], from start: Int) -> Set<String> {
    var names: Set<String> = []
    var position = start + 1
    var previous: ObjectiveCToken?
    while position < tokens.count, !tokens[position].is(";"), !tokens[position].is("{") {
      let token = tokens[position]
      if token.is("=") || token.is(",") || token.is("[") {
        if let previous, previous.kind == .identifier { names.insert(previous.text) }
        if token.is("=") { break }
      }
      previous = token
      position += 1
    }
    if position < tokens.count, tokens[position].is(";"), let previous, previous.kind == .identifier {
      names.insert(previous.text)
    }
    return names
  }

  /// The identifier `return name;` returns, last in the body.
  private static func lastReturned(_ body: ArraySlice<ObjectiveCToken>) -> String? {
    var found: String?
    var position = body.startIndex
    while position + 2 < body.endIndex {
      if body[position].kind == .identifier, body[position].text == "return", body[position + 1].kind == .identifier,
        body[position + 2].is(";")
      {
        found = body[position + 1].text
      }
      position += 1
    }
    return found
  }
}
