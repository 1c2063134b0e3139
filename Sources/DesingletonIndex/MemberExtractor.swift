import DesingletonCore
@_spi(RawSyntax) import SwiftSyntax

/// Turns the declarations of a member block into the members they declare, reading swift-syntax's
/// raw tree: a code base has a member every few lines, and the raw nodes are read without creating
/// the positioned nodes of the syntax API (an allocation, a reference count and a kind check for
/// every child touched). Offsets are summed from node lengths, starting at the member list's
/// position; texts are read from the tokens, without their outer trivia, as the source has them.
enum MemberExtractor {
  /// `conditions` are those of the `#if` clauses around the type declaration itself.
  static func members(
    of list: MemberBlockItemListSyntax, in source: SourceText, conditions: [String] = []
  ) -> [MemberDecl] {
    var result: [MemberDecl] = []
    collect(list.raw, at: list.position.utf8Offset, source: source, conditions: conditions, into: &result)
    return result
  }

  /// What the index keeps of a type whose members it leaves out, without making the members: the
  /// names of its `mutating func`s, its type aliases, whether it nests types, and whether a static
  /// member is named like an accessor (which keeps the members after all). The members `members`
  /// would give, reduced to those facts.
  struct Outline {
    var hasStaticAccessorName = false
    var hasNestedTypes = false
    /// A method is marked `@Test` (Swift Testing): the type is test code (`Index.isTestType`).
    var hasTestMethod = false
    var mutatingMethodNames: [String] = []
    /// The names a call can be written with: methods, properties and enum cases (`Index.callableNames`).
    var callableNames: [String] = []
    /// Name and aliased type, in source order.
    var typeAliases: [(name: String, aliasedType: String)] = []
  }

  /// `accessors`: nil when no member name keeps the members (a generated file's).
  static func outline(of list: MemberBlockItemListSyntax, accessors: AccessorNames?) -> Outline {
    var outline = Outline()
    Self.outline(list.raw, accessors: accessors, into: &outline)
    return outline
  }

  private static func outline(_ list: RawSyntax, accessors: AccessorNames?, into outline: inout Outline) {
    guard let items = list.layoutView?.children else { return }
    for case let item? in items {
      guard let member = RawMemberBlockItemSyntax(item) else { continue }
      let raw = member.decl.raw
      switch raw.kind {
      case .ifConfigDecl:
        for clause in RawIfConfigDeclSyntax(raw)!.clauses.elements {
          if let elements = clause.elements, case .decls(let nested) = RawIfConfigClauseSyntax.Elements(elements) {
            Self.outline(nested.raw, accessors: accessors, into: &outline)
          }
        }
      case .variableDecl:
        let variable = RawVariableDeclSyntax(raw)!
        for binding in variable.bindings.elements {
          outline.callableNames.append(contentsOf: PatternNames.identifiers(binding.pattern.raw))
        }
        guard let accessors, !outline.hasStaticAccessorName, ModifierSummary(variable.modifiers).isStatic else {
          continue
        }
        for binding in variable.bindings.elements {
          if let pattern = binding.pattern.as(RawIdentifierPatternSyntax.self),
            accessors.matches(unquoted(pattern.identifier.text))
          {
            outline.hasStaticAccessorName = true
          }
        }
      case .functionDecl:
        let function = RawFunctionDeclSyntax(raw)!
        let modifiers = ModifierSummary(function.modifiers)
        let name = unquoted(function.name.text)
        outline.callableNames.append(name)
        if modifiers.others.contains("mutating") { outline.mutatingMethodNames.append(name) }
        if !outline.hasTestMethod, attributeNames(function.attributes).contains("@Test") { outline.hasTestMethod = true }
        if modifiers.isStatic && accessors?.matches(name) == true { outline.hasStaticAccessorName = true }
      case .subscriptDecl:
        if ModifierSummary(RawSubscriptDeclSyntax(raw)!.modifiers).isStatic && accessors?.matches("subscript") == true {
          outline.hasStaticAccessorName = true
        }
      case .typeAliasDecl:
        let alias = RawTypeAliasDeclSyntax(raw)!
        outline.typeAliases.append((alias.name.text, alias.initializer.value.trimmedText))
      case .enumCaseDecl:
        for element in RawEnumCaseDeclSyntax(raw)!.elements.elements {
          outline.callableNames.append(unquoted(element.name.text))
          if accessors?.matches(element.name.text) == true { outline.hasStaticAccessorName = true }
        }
      case .classDecl, .structDecl, .enumDecl, .actorDecl, .protocolDecl:
        outline.hasNestedTypes = true
      default:
        break
      }
    }
  }

  /// `list` is a member block's item list starting at byte `offset`.
  private static func collect(
    _ list: RawSyntax, at offset: Int, source: SourceText, conditions: [String], into result: inout [MemberDecl]
  ) {
    guard let items = list.layoutView?.children else { return }
    result.reserveCapacity(result.count + items.count)
    var itemOffset = offset
    for case let item? in items {
      defer { itemOffset += item.byteLength }
      guard let member = RawMemberBlockItemSyntax(item) else { continue }
      let decl = member.decl
      let first = result.count
      let declOffset = itemOffset + Self.offset(of: decl.raw, in: item)
      extract(decl, at: declOffset, source: source, conditions: conditions, into: &result)
      if !conditions.isEmpty && decl.as(RawIfConfigDeclSyntax.self) == nil {
        for position in first..<result.count { result[position].conditions = conditions }
      }
    }
  }

  private static func extract(
    _ decl: RawDeclSyntax, at offset: Int, source: SourceText, conditions: [String], into result: inout [MemberDecl]
  ) {
    if let ifConfig = decl.as(RawIfConfigDeclSyntax.self) {
      let clauses = ifConfig.clauses
      let clauseConditions = IfConfigCondition.conditions(
        ofClauses: clauses.elements.map { clause in clause.condition.map { ($0.trimmedText, $0.raw.kind) } })
      var clauseOffset = offset + self.offset(of: clauses.raw, in: ifConfig.raw)
      for (clause, condition) in zip(clauses.elements, clauseConditions) {
        defer { clauseOffset += clause.raw.byteLength }
        if let elements = clause.elements, case .decls(let nested) = RawIfConfigClauseSyntax.Elements(elements) {
          collect(
            nested.raw, at: clauseOffset + self.offset(of: nested.raw, in: clause.raw), source: source,
            conditions: conditions + [condition], into: &result)
        }
      }
      return
    }
    let raw = decl.raw
    let start = offset + raw.leadingTriviaByteLength
    let end = max(start, offset + raw.byteLength - raw.trailingTriviaByteLength)
    let range = SourceRange(path: source.path, bytes: start..<end, start: source.location(ofOffset: start))
    switch raw.kind {
    case .variableDecl:
      properties(of: RawVariableDeclSyntax(raw)!, range: range, into: &result)
    case .functionDecl:
      let function = RawFunctionDeclSyntax(raw)!
      let modifiers = ModifierSummary(function.modifiers)
      result.append(
        MemberDecl(
          name: unquoted(function.name.text), kind: .method, isStatic: modifiers.isStatic, isClassMember: modifiers.isClass,
          access: modifiers.access, attributes: attributeNames(function.attributes), modifiers: modifiers.others,
          typeText: function.signature.returnClause?.type.trimmedText,
          labels: labels(function.signature.parameterClause),
          variadicPositions: variadicPositions(function.signature.parameterClause), range: range,
          returnedText: modifiers.isStatic ? function.body.flatMap { singleExpression($0.statements) } : nil))
    case .initializerDecl:
      let initializer = RawInitializerDeclSyntax(raw)!
      let modifiers = ModifierSummary(initializer.modifiers)
      result.append(
        MemberDecl(
          name: "init", kind: .initializer, access: modifiers.access, attributes: attributeNames(initializer.attributes),
          modifiers: modifiers.others, labels: labels(initializer.signature.parameterClause),
          variadicPositions: variadicPositions(initializer.signature.parameterClause), isFailable: initializer.optionalMark != nil, range: range))
    case .subscriptDecl:
      result.append(subscriptMember(RawSubscriptDeclSyntax(raw)!, range: range))
    case .typeAliasDecl:
      let alias = RawTypeAliasDeclSyntax(raw)!
      result.append(
        MemberDecl(
          name: alias.name.text, kind: .typeAlias, access: ModifierSummary(alias.modifiers).access,
          typeText: alias.initializer.value.trimmedText, range: range))
    case .associatedTypeDecl:
      result.append(MemberDecl(name: RawAssociatedTypeDeclSyntax(raw)!.name.text, kind: .associatedType, range: range))
    case .enumCaseDecl:
      for element in RawEnumCaseDeclSyntax(raw)!.elements.elements {
        result.append(MemberDecl(name: element.name.text, kind: .enumCase, isStatic: true, range: range))
      }
    case .classDecl:
      result.append(MemberDecl(name: RawClassDeclSyntax(raw)!.name.text, kind: .nestedType, range: range))
    case .structDecl:
      result.append(MemberDecl(name: RawStructDeclSyntax(raw)!.name.text, kind: .nestedType, range: range))
    case .enumDecl:
      result.append(MemberDecl(name: RawEnumDeclSyntax(raw)!.name.text, kind: .nestedType, range: range))
    case .actorDecl:
      result.append(MemberDecl(name: RawActorDeclSyntax(raw)!.name.text, kind: .nestedType, range: range))
    case .protocolDecl:
      result.append(MemberDecl(name: RawProtocolDeclSyntax(raw)!.name.text, kind: .nestedType, range: range))
    default:
      break
    }
  }

  private static func subscriptMember(_ subscriptDecl: RawSubscriptDeclSyntax, range: SourceRange) -> MemberDecl {
    var settable = false
    if let block = subscriptDecl.accessorBlock, case .accessors(let accessors) = RawAccessorBlockSyntax.Accessors(block.accessors) {
      settable = accessors.elements.contains { $0.accessorSpecifier.tokenText == "set" }
    }
    let modifiers = ModifierSummary(subscriptDecl.modifiers)
    return MemberDecl(
      name: "subscript", kind: .subscript, isStatic: modifiers.isStatic, isSettable: settable,
      setterAccess: modifiers.setterAccess, access: modifiers.access,
      attributes: attributeNames(subscriptDecl.attributes), modifiers: modifiers.others,
      typeText: subscriptDecl.returnClause.type.trimmedText, labels: labels(subscriptDecl.parameterClause),
      variadicPositions: variadicPositions(subscriptDecl.parameterClause), range: range)
  }

  private static func properties(of variable: RawVariableDeclSyntax, range: SourceRange, into result: inout [MemberDecl]) {
    let isLet = variable.bindingSpecifier.tokenKind == .keyword && variable.bindingSpecifier.tokenText == "let"
    let modifiers = ModifierSummary(variable.modifiers)
    let attributes = attributeNames(variable.attributes)
    // `var a, b: Int` gives both names the annotation written after the last one: the bindings are
    // read last to first, and the members they give put back in source order.
    let firstFound = result.count
    var pendingType: String?
    for binding in variable.bindings.elements.reversed() {
      let annotation = binding.typeAnnotation.map { $0.type.trimmedText }
      if let annotation { pendingType = annotation }
      guard let pattern = binding.pattern.as(RawIdentifierPatternSyntax.self) else { continue }
      var isStored = true
      var hasSetter = false
      var returned: String?
      switch binding.accessorBlock.flatMap({ RawAccessorBlockSyntax.Accessors($0.accessors) }) {
      case .getter(let items):
        isStored = false
        if modifiers.isStatic { returned = singleExpression(items) }
      case .accessors(let accessors):
        let specifiers = accessors.elements.map { $0.accessorSpecifier.tokenText }
        if !specifiers.allSatisfy({ $0 == "willSet" || $0 == "didSet" }) {
          isStored = false
          hasSetter = specifiers.contains { $0 == "set" || $0 == "_modify" || $0 == "unsafeMutableAddress" }
          if modifiers.isStatic, let getter = accessors.elements.first(where: { $0.accessorSpecifier.tokenText == "get" }) {
            returned = getter.body.flatMap { singleExpression($0.statements) }
          }
        }
      case nil:
        break
      }
      let initializer = binding.initializer
      // An instance property's initial value is kept only when it is a call (`Cart()`): the index
      // learns the property's type from it, without a copy of every initial value.
      result.append(
        MemberDecl(
          name: unquoted(pattern.identifier.text), kind: .property, isStatic: modifiers.isStatic,
          isClassMember: modifiers.isClass, isLet: isLet, isStored: isStored, isSettable: !isLet && (isStored || hasSetter),
          setterAccess: modifiers.setterAccess, access: modifiers.access, attributes: attributes,
          modifiers: modifiers.others,
          typeText: annotation ?? (initializer == nil ? pendingType ?? environmentObjectType(variable.attributes) : nil),
          initializerText: initializer.flatMap {
            modifiers.isStatic || $0.value.is(RawFunctionCallExprSyntax.self) ? $0.value.trimmedText : nil
          },
          range: range, returnedText: returned))
    }
    result[firstFound...].reverse()
  }

  /// The expression a body of one statement returns: `Self(x: 1)` for `{ Self(x: 1) }` or `{ return Self(x: 1) }`.
  private static func singleExpression(_ items: RawCodeBlockItemListSyntax) -> String? {
    let elements = items.elements
    guard elements.count == 1 else { return nil }
    let item = elements[0].item.raw
    if let statement = RawReturnStmtSyntax(item) { return statement.expression?.trimmedText }
    return RawExprSyntax.isKindOf(item) ? item.trimmedText : nil
  }

  /// `Store` for `@Environment(Store.self) var store`: an environment object read by its type, the
  /// property's type without an annotation.
  private static func environmentObjectType(_ list: RawAttributeListSyntax) -> String? {
    for element in list.elements {
      guard let attribute = RawAttributeSyntax(element), attribute.attributeName.trimmedText == "Environment" else { continue }
      let text = attribute.trimmedText
      guard text.hasPrefix("@Environment("), text.hasSuffix(".self)") else { continue }
      let type = text.dropFirst("@Environment(".count).dropLast(".self)".count).filter { !$0.isWhitespace }
      if !type.isEmpty, type.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }) { return type }
    }
    return nil
  }

  /// `@MainActor`, `@objc`: attribute names without arguments.
  private static func attributeNames(_ list: RawAttributeListSyntax) -> [String] {
    guard !list.isEmpty else { return [] }
    return list.elements.compactMap { element in
      RawAttributeSyntax(element).map { "@" + $0.attributeName.trimmedText }
    }
  }

  private static func labels(_ clause: RawFunctionParameterClauseSyntax) -> [String] {
    clause.parameters.elements.map { $0.firstName.text }
  }

  private static func variadicPositions(_ clause: RawFunctionParameterClauseSyntax) -> [Int] {
    clause.parameters.elements.enumerated().compactMap { $1.ellipsis != nil ? $0 : nil }
  }

  /// The distance from `parent`'s start to `child`'s, `child` being one of `parent`'s children.
  private static func offset(of child: RawSyntax, in parent: RawSyntax) -> Int {
    var offset = 0
    guard let children = parent.layoutView?.children else { return 0 }
    for case let candidate? in children {
      if candidate.id == child.id { return offset }
      offset += candidate.byteLength
    }
    return offset
  }
}

/// The condition under which each clause of an `#if` is compiled, built from the conditions as written.
public enum IfConfigCondition {
  /// `clauses`: each clause's condition and its syntax kind, nil for `#else`. A clause holds when its
  /// own condition does and none before it: `#elseif B` after `#if A` is `!A && B`.
  public static func conditions(ofClauses clauses: [(text: String, kind: SyntaxKind)?]) -> [String] {
    var negated: [String] = []
    var result: [String] = []
    for clause in clauses {
      var parts = negated
      if let clause {
        let standsAlone = isAtomic(clause.kind)
        parts.append(negated.isEmpty || standsAlone ? clause.text : "(\(clause.text))")
        negated.append(standsAlone ? "!" + clause.text : "!(\(clause.text))")
      }
      result.append(parts.joined(separator: " && "))
    }
    return result
  }

  /// The conditions of the `#if` clauses around a node, outermost first.
  public static func conditions(around node: some SyntaxProtocol) -> [String] {
    var result: [String] = []
    var current = Syntax(node)
    while let parent = current.parent {
      if let clause = parent.as(IfConfigClauseSyntax.self), let ifConfig = clause.parent?.parent?.as(IfConfigDeclSyntax.self),
        let position = ifConfig.clauses.firstIndex(where: { $0.id == clause.id })
      {
        let all = conditions(ofClauses: ifConfig.clauses.map { clause in clause.condition.map { ($0.trimmedDescription, $0.kind) } })
        result.insert(all[ifConfig.clauses.distance(from: ifConfig.clauses.startIndex, to: position)], at: 0)
      }
      current = parent
    }
    return result
  }

  /// Whether a condition of this kind needs no parentheses after `!` or next to `&&`.
  public static func isAtomic(_ kind: SyntaxKind) -> Bool {
    [.declReferenceExpr, .functionCallExpr, .booleanLiteralExpr, .tupleExpr, .integerLiteralExpr].contains(kind)
  }
}

extension RawTokenSyntax {
  /// The token's text as written (backticks included), without trivia.
  var text: String { String(syntaxText: tokenText) }
}

extension RawSyntaxNodeProtocol {
  /// The node's text without its outer trivia, as the source has it.
  var trimmedText: String { raw.trimmedText }
}

extension RawSyntax {
  /// The node's text without its outer trivia, as the source has it. A parsed tree's tokens are
  /// slices of one copy of the source, so the text runs from the first token's text to the last's;
  /// the lengths say whether that holds, and the tokens are joined one by one where it does not.
  var trimmedText: String {
    if let first = edgeToken(last: false), let last = edgeToken(last: true),
      let start = first.tokenText.baseAddress, let lastStart = last.tokenText.baseAddress
    {
      let length = byteLength - first.raw.leadingTriviaByteLength - last.raw.trailingTriviaByteLength
      let end = lastStart + last.tokenText.count
      if start <= end, end - start == length {
        let text = String(decoding: UnsafeBufferPointer(start: start, count: length), as: UTF8.self)
        assert(text == joinedTrimmedText)
        return text
      }
    }
    return joinedTrimmedText
  }

  /// The first (or last) token present in the source.
  private func edgeToken(last: Bool) -> RawTokenSyntax? {
    if let token = RawTokenSyntax(self) { return token.presence == .present ? token : nil }
    guard let children = layoutView?.children else { return nil }
    for position in children.indices {
      if let child = children[last ? children.count - 1 - position : position], let token = child.edgeToken(last: last) {
        return token
      }
    }
    return nil
  }

  private var joinedTrimmedText: String {
    var bytes: [UInt8] = []
    withEachSyntaxText { text, _ in
      bytes.append(contentsOf: UnsafeBufferPointer(start: text.baseAddress, count: text.count))
    }
    let leading = leadingTriviaByteLength
    let trailing = trailingTriviaByteLength
    guard leading + trailing <= bytes.count else { return "" }
    return String(decoding: bytes[leading..<(bytes.count - trailing)], as: UTF8.self)
  }
}

/// An identifier without the backticks that let it be a keyword: `` `import` `` is `import`, as
/// code that uses it writes it (`store.import(...)`).
public func unquoted(_ name: String) -> String {
  name.count > 2 && name.hasPrefix("`") && name.hasSuffix("`") ? String(name.dropFirst().dropLast()) : name
}

/// The names a binding pattern declares: `a` in `var a`, `a` and `b` in `let (a, b)`.
enum PatternNames {
  static func identifiers(_ pattern: PatternSyntax) -> [String] { identifiers(pattern.raw) }

  static func identifiers(_ raw: RawSyntax) -> [String] {
    if let identifier = RawIdentifierPatternSyntax(raw) { return [unquoted(identifier.identifier.text)] }
    if let tuple = RawTuplePatternSyntax(raw) {
      return tuple.elements.elements.flatMap { identifiers($0.pattern.raw) }
    }
    return []
  }
}
