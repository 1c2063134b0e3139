import DesingletonCore
import DesingletonIndex
import SwiftSyntax

/// Reads a protocol's requirements from its syntax into `MockItem`s, keeping the `#if` structure
/// they are declared in, and names each the way mockolo does.
enum MockRequirements {
  static func protocolNode(of declaration: TypeDecl, in tree: SourceFileSyntax) -> ProtocolDeclSyntax? {
    final class Finder: SyntaxVisitor {
      let name: String
      let bodyOpen: Int
      var found: ProtocolDeclSyntax?
      init(name: String, bodyOpen: Int) {
        self.name = name
        self.bodyOpen = bodyOpen
        super.init(viewMode: .sourceAccurate)
      }
      override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind {
        if node.name.text == name && node.memberBlock.leftBrace.endPositionBeforeTrailingTrivia.utf8Offset == bodyOpen {
          found = node
        }
        return .skipChildren
      }
    }
    let finder = Finder(name: declaration.name, bodyOpen: declaration.bodyOpen)
    finder.walk(tree)
    return finder.found
  }

  static func items(of node: ProtocolDeclSyntax, file: ParsedFile, index: Index) throws -> [MockItem] {
    try items(in: node.memberBlock.members, conditional: false, file: file, index: index)
  }

  private static func items(
    in members: MemberBlockItemListSyntax,
    conditional: Bool,
    file: ParsedFile,
    index: Index
  ) throws -> [MockItem] {
    var result: [MockItem] = []
    for member in members {
      let decl = member.decl
      if let variable = decl.as(VariableDeclSyntax.self) {
        result += try properties(variable, conditional: conditional, file: file, index: index).map(MockItem.property)
      } else if let function = decl.as(FunctionDeclSyntax.self) {
        result.append(.method(try method(function, file: file, index: index)))
      } else if let ifConfig = decl.as(IfConfigDeclSyntax.self) {
        var clauses: [MockClause] = []
        for clause in ifConfig.clauses {
          let directive = clause.poundKeyword.text + (clause.condition.map { " " + $0.trimmedDescription } ?? "")
          var inner: [MockItem] = []
          if case .decls(let list)? = clause.elements {
            inner = try items(in: list, conditional: true, file: file, index: index)
          }
          clauses.append(MockClause(directive: directive, items: inner))
        }
        result.append(.conditional(clauses))
      } else {
        throw unsupported(decl, "this requirement", file: file)
      }
    }
    return result
  }

  private static func unsupported(_ node: some SyntaxProtocol, _ what: String, file: ParsedFile) -> Refusal {
    Refusal(
      "\(what) cannot be mocked yet (mocks implement properties and methods); write this double by hand",
      at: file.source.location(ofOffset: node.positionAfterSkippingLeadingTrivia.utf8Offset)
    )
  }

  private static func isStatic(_ modifiers: DeclModifierListSyntax) -> Bool {
    modifiers.contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }
  }

  private static func properties(
    _ node: VariableDeclSyntax,
    conditional: Bool,
    file: ParsedFile,
    index: Index
  ) throws -> [MockProperty] {
    try node.bindings.map { binding in
      guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
        let type = binding.typeAnnotation?.type.trimmedDescription
      else { throw unsupported(binding, "this property", file: file) }
      if name.hasPrefix("`") { throw unsupported(binding, "a property named in backticks ('\(name)')", file: file) }
      if case .accessors(let accessors)? = binding.accessorBlock?.accessors,
        accessors.contains(where: { $0.effectSpecifiers != nil })
      {
        throw unsupported(binding, "an 'async' or 'throws' property", file: file)
      }
      if index.isNoncopyable(written: type) {
        throw unsupported(binding, "a property of a noncopyable type", file: file)
      }
      return MockProperty(
        name: name,
        type: type,
        isStatic: isStatic(node.modifiers),
        defaultValue: defaultValue(of: type),
        isConditional: conditional
      )
    }
  }

  private static func method(_ node: FunctionDeclSyntax, file: ParsedFile, index: Index) throws -> MockMethod {
    guard case .identifier = node.name.tokenKind else { throw unsupported(node, "an operator", file: file) }
    // The double's names are made from the method's (`returnCallCount`), its own declarations keep it.
    if node.name.text.hasPrefix("`") { throw unsupported(node, "a method named in backticks ('\(node.name.text)')", file: file) }
    let generics = node.genericParameterClause?.parameters.map(\.name.text) ?? []
    func mentionsGeneric(_ type: String) -> Bool { !Set(identifiers(in: type)).isDisjoint(with: generics) }
    var parameters: [MockMethod.Parameter] = []
    for parameter in node.signature.parameterClause.parameters {
      let written = parameter.type.trimmedDescription
      let name = (parameter.secondName ?? parameter.firstName).text
      let label = parameter.firstName.text
      let isInout = hasPrefix(written, in: ["inout"])
      var bare = stripping(
        written,
        ["inout", "@escaping", "@autoclosure", "sending", "borrowing", "consuming", "__owned", "__shared"]
      )
      let isEscaping = written.contains("@escaping")
      // A `borrowing` or `consuming` value cannot be copied implicitly, a noncopyable one not at
      // all: the mock passes it to the handler and records nothing of it.
      let isOwned =
        hasPrefix(stripping(written, ["inout", "@escaping", "@autoclosure", "sending"]), in: ["borrowing", "consuming"])
        || index.isNoncopyable(written: bare)
      let isClosure = isFunctionType(stripping(bare, ["@Sendable", "@MainActor"]))
      if identifiers(in: written).contains("Self") {
        throw unsupported(parameter, "a parameter of type 'Self'", file: file)
      }
      if bare.hasPrefix("some ") { bare = "any " + bare.dropFirst(5) }
      if parameter.ellipsis != nil { bare = "[\(bare)]" }
      var handlerType = written.replacingOccurrences(of: "@autoclosure ", with: "")
      if parameter.ellipsis != nil || written.hasPrefix("some ") { handlerType = bare }
      let isErased = mentionsGeneric(written) && !isClosure
      if isErased {
        if isInout { throw unsupported(parameter, "an 'inout' parameter of a generic type", file: file) }
        if isOwned { throw unsupported(parameter, "a 'borrowing' or 'consuming' parameter of a generic type", file: file) }
        handlerType = "Any"
        bare = "Any"
      } else if mentionsGeneric(written) {
        // A closure over the generic type cannot be kept or erased: it is passed on, not recorded.
        throw unsupported(parameter, "a closure parameter of a generic type", file: file)
      }
      parameters.append(
        MockMethod.Parameter(
          name: name,
          handlerType: handlerType,
          storedType: (isClosure && !isEscaping) || isOwned ? nil : bare,
          isInout: isInout,
          isErased: isErased,
          key: label == "_" ? name : label
        )
      )
    }
    let effects = node.signature.effectSpecifiers
    let throwsClause = effects?.throwsClause
    var handlerThrows: String?
    if let throwsClause, throwsClause.throwsSpecifier.tokenKind == .keyword(.throws) {
      handlerThrows = throwsClause.trimmedDescription
    }
    var returnType = node.signature.returnClause?.type.trimmedDescription
    if let type = returnType, ["Void", "()"].contains(type) { returnType = nil }
    if let type = returnType, type.hasPrefix("some ") || identifiers(in: type).contains("Self") {
      throw unsupported(node, "a method returning '\(type)'", file: file)
    }
    let castsResult = returnType.map(mentionsGeneric) ?? false
    return MockMethod(
      name: node.name.text,
      mockName: node.name.text,
      signature: writtenSignature(of: node),
      parameters: parameters,
      isStatic: isStatic(node.modifiers),
      isAsync: effects?.asyncSpecifier != nil,
      handlerThrows: handlerThrows,
      returnType: returnType,
      castsResult: castsResult,
      defaultResult: returnType.flatMap(defaultValue(of:))
    )
  }

  /// The declaration as written, without access, `mutating` (a class has none) or body.
  private static func writtenSignature(of node: FunctionDeclSyntax) -> String {
    let dropped: Set<String> = [
      "mutating", "nonmutating", "public", "open", "internal", "package", "fileprivate", "private",
    ]
    var head = node.attributes.map { $0.trimmedDescription }.filter { $0 != "@objc" }
    head += node.modifiers.map(\.name.text).filter { !dropped.contains($0) }
    let parameterList = node.signature.parameterClause.parameters.map {
      $0.with(\.trailingComma, nil).trimmedDescription
    }
    var signature = (head + ["func " + node.name.text]).joined(separator: " ")
    signature +=
      (node.genericParameterClause?.trimmedDescription ?? "") + "(" + parameterList.joined(separator: ", ") + ")"
    if let effects = node.signature.effectSpecifiers { signature += " " + effects.trimmedDescription }
    if let clause = node.signature.returnClause { signature += " " + clause.trimmedDescription }
    if let clause = node.genericWhereClause { signature += " " + clause.trimmedDescription }
    return signature
  }

  // MARK: Names

  /// Gives overloads mockolo's names: the base name and the first label that differs from another
  /// overload's (`load()` and `load(limit:)` are `load` and `loadLimit`); the same requirement
  /// declared once per `#if` branch keeps one name.
  static func named(_ items: [MockItem]) -> [MockItem] {
    var all: [MockMethod] = []
    func collect(_ items: [MockItem]) {
      for item in items {
        switch item {
        case .method(let method): all.append(method)
        case .conditional(let clauses): clauses.forEach { collect($0.items) }
        case .property: break
        }
      }
    }
    collect(items)
    func identity(_ method: MockMethod) -> String { method.signature }
    var names: [String: String] = [:]
    for (name, group) in Dictionary(grouping: all, by: \.name) {
      var distinct: [MockMethod] = []
      for method in group where !distinct.contains(where: { identity($0) == identity(method) }) {
        distinct.append(method)
      }
      if distinct.count == 1 {
        names[identity(distinct[0])] = name
        continue
      }
      var chosen: [String] = distinct.map { method in
        let keys = method.parameters.map(\.key)
        let others = distinct.filter { identity($0) != identity(method) }.map { $0.parameters.map(\.key) }
        let length = ([keys.count] + others.map(\.count)).max() ?? 0
        for position in 0..<length {
          let key = position < keys.count ? keys[position] : nil
          if others.contains(where: { (position < $0.count ? $0[position] : nil) != key }) {
            return name + (key.map(capitalized) ?? "")
          }
        }
        return name
      }
      // Same labels, different types: the parameter types tell them apart.
      let clashing = chosen.indices.filter { position in chosen.filter { $0 == chosen[position] }.count > 1 }
      for position in clashing {
        chosen[position] =
          name + distinct[position].parameters.map { capitalized(identifiers(in: $0.handlerType).joined()) }.joined()
      }
      let stillClashing = chosen.indices.filter { position in chosen.filter { $0 == chosen[position] }.count > 1 }
      for position in stillClashing {
        chosen[position] += String(position + 1)
      }
      for (method, mockName) in zip(distinct, chosen) { names[identity(method)] = mockName }
    }
    func rename(_ items: [MockItem]) -> [MockItem] {
      items.map { item in
        switch item {
        case .method(var method):
          method.mockName = names[identity(method)] ?? method.name
          return .method(method)
        case .conditional(let clauses):
          return .conditional(clauses.map { MockClause(directive: $0.directive, items: rename($0.items)) })
        case .property:
          return item
        }
      }
    }
    return rename(items)
  }

  static func capitalized(_ text: String) -> String {
    text.prefix(1).uppercased() + text.dropFirst()
  }

  // MARK: Types

  /// The value a property or result of this type starts with when nobody set one: zero, empty,
  /// false or nil for the standard library's common types; nil for any other type.
  static func defaultValue(of type: String) -> String? {
    let type = type.trimmingSpaces
    if isFunctionType(type) { return nil }
    if type.hasSuffix("?") || type.hasSuffix("!") || type.hasPrefix("Optional<") { return "nil" }
    if type.hasPrefix("[") && type.hasSuffix("]") {
      return hasTopLevel(":", in: String(type.dropFirst().dropLast())) ? "[:]" : "[]"
    }
    if type.hasPrefix("Array<") || type.hasPrefix("Set<") || type.hasPrefix("ContiguousArray<") { return "[]" }
    if type.hasPrefix("Dictionary<") { return "[:]" }
    let numbers: Set<String> = [
      "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Double", "Float",
      "CGFloat", "TimeInterval", "Decimal",
    ]
    if numbers.contains(type) { return "0" }
    if type == "String" || type == "Substring" { return "\"\"" }
    if type == "Bool" { return "false" }
    return nil
  }

  /// Whether the type is a function type (`(Int) -> Void`, `@Sendable () async -> Int`), not an
  /// optional closure or a tuple of them.
  static func isFunctionType(_ type: String) -> Bool {
    hasTopLevel("->", in: type)
  }

  /// Whether `token` occurs outside every bracket of `text`.
  static func hasTopLevel(_ token: String, in text: String) -> Bool {
    let bytes = Array(text.utf8)
    let needle = Array(token.utf8)
    var depth = 0
    var position = 0
    while position < bytes.count {
      switch bytes[position] {
      case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "<"): depth += 1
      case UInt8(ascii: ")"), UInt8(ascii: "]"): depth -= 1
      case UInt8(ascii: ">") where position == 0 || bytes[position - 1] != UInt8(ascii: "-"): depth -= 1
      default: break
      }
      if depth == 0 && bytes[position...].starts(with: needle) { return true }
      position += 1
    }
    return false
  }

  static func identifiers(in text: String) -> [String] {
    var result: [String] = []
    var current = ""
    for character in text {
      if character.isLetter || character.isNumber || character == "_" {
        current.append(character)
      } else {
        if !current.isEmpty { result.append(current) }
        current = ""
      }
    }
    if !current.isEmpty { result.append(current) }
    return result
  }

  private static func hasPrefix(_ type: String, in words: [String]) -> Bool {
    words.contains { type.hasPrefix($0 + " ") }
  }

  /// The type without the leading attributes and specifiers named.
  private static func stripping(_ type: String, _ words: [String]) -> String {
    var type = type
    var changed = true
    while changed {
      changed = false
      for word in words where type.hasPrefix(word + " ") {
        type = String(type.dropFirst(word.count + 1)).trimmingSpaces
        changed = true
      }
    }
    return type
  }

  // MARK: Placement

  /// The `#if` conditions the protocol is declared under, joined: the mock is declared under the same.
  static func enclosingCondition(of node: ProtocolDeclSyntax) -> String? {
    var conditions: [String] = []
    var current = Syntax(node).parent
    while let syntax = current {
      if let clause = syntax.as(IfConfigClauseSyntax.self), let list = clause.parent?.as(IfConfigClauseListSyntax.self)
      {
        var parts: [String] = []
        for earlier in list {
          if earlier.id == clause.id { break }
          if let condition = earlier.condition { parts.append("!(\(condition.trimmedDescription))") }
        }
        if let condition = clause.condition {
          parts.append(parts.isEmpty ? condition.trimmedDescription : "(\(condition.trimmedDescription))")
        }
        if !parts.isEmpty { conditions.insert(parts.joined(separator: " && "), at: 0) }
      }
      current = syntax.parent
    }
    if conditions.isEmpty { return nil }
    if conditions.count == 1 { return conditions[0] }
    return conditions.map { "(\($0))" }.joined(separator: " && ")
  }

  /// One level of indentation in the protocol's file: its first member's, less the protocol's own.
  static func indentUnit(of node: ProtocolDeclSyntax, file: ParsedFile) -> String {
    let layout = file.source
    guard let first = node.memberBlock.members.first else { return "    " }
    let inner = layout.indentation(at: first.positionAfterSkippingLeadingTrivia.utf8Offset)
    let outer = layout.indentation(at: node.positionAfterSkippingLeadingTrivia.utf8Offset)
    guard inner.hasPrefix(outer), inner.count > outer.count else { return "    " }
    return String(inner.dropFirst(outer.count))
  }
}

extension String {
  fileprivate var trimmingSpaces: String {
    var text = Substring(self)
    while text.first == " " { text = text.dropFirst() }
    while text.last == " " { text = text.dropLast() }
    return String(text)
  }
}
