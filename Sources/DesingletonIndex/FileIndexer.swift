import DesingletonCore
import SwiftParser
import SwiftParserDiagnostics
import SwiftSyntax

/// Indexes one parsed file: its type declarations and extensions with their members, and every
/// place that reaches for something that looks like a singleton accessor.
public enum FileIndexer {
  /// With `keepingMembersOf`, a type keeps its members only when it has a simple name the function
  /// accepts or a static member named like an accessor (a singleton's members, or a type a scan asks
  /// about); the others are kept without (`TypeDecl.membersOmitted`), which bounds the memory a scan
  /// of generated code takes.
  /// `isGenerated`: what `GeneratedFile.isGenerated` says of the file, when the caller already knows.
  /// `skippingBodies`: the bodies that hold no reference are not parsed (`BodySkipping`); the
  /// summary is the same but for syntax errors inside them.
  public static func index(
    _ source: SourceText, isGenerated: Bool? = nil, accessors: AccessorNames = .standard,
    keepingMembersOf keep: ((String) -> Bool)? = nil, skippingBodies: Bool = false
  ) -> FileSummary {
    if skippingBodies,
      let (summary, _, _) = indexSkippingBodies(source, isGenerated: isGenerated, accessors: accessors, keepingMembersOf: keep)
    {
      return summary
    }
    let tree = source.bytes.withUnsafeBufferPointer { Parser.parse(source: $0, maximumNestingLevel: swiftParserNestingLimit) }
    return index(tree, source: source, isGenerated: isGenerated, accessors: accessors, keepingMembersOf: keep)
  }

  /// The summary made with the bodies that hold no reference left blank, how many bytes were
  /// blanked, and the top-level declarations left out whole (`omitting`: `BodySkipping.blanked`);
  /// nil when nothing can be, or the check of the blanked tree fails (`BodySkipping`).
  static func indexSkippingBodies(
    _ source: SourceText, isGenerated: Bool?, accessors: AccessorNames, keepingMembersOf keep: ((String) -> Bool)?,
    omitting: (([Range<Int>]) -> Bool)? = nil
  ) -> (FileSummary, blankedBytes: Int, omitted: [Range<Int>])? {
    guard
      let blanked = BodySkipping.blanked(
        source.bytes, keeping: candidateOffsets(source.bytes, accessors), omitting: omitting)
    else { return nil }
    let tree = blanked.bytes.withUnsafeBufferPointer { Parser.parse(source: $0, maximumNestingLevel: swiftParserNestingLimit) }
    guard BodySkipping.matches(tree, blanked.bodies), BodySkipping.omissionsStand(tree, blanked.omitted) else { return nil }
    let summary = index(tree, source: source, isGenerated: isGenerated, accessors: accessors, keepingMembersOf: keep)
    guard BodySkipping.referencesStand(summary, in: tree) else { return nil }
    return (summary, zip(source.bytes, blanked.bytes).reduce(0) { $0 + ($1.0 != $1.1 ? 1 : 0) }, blanked.omitted)
  }

  /// Where the file's bytes name an accessor after a dot: the places a reference can be.
  static func candidateOffsets(_ bytes: [UInt8], _ accessors: AccessorNames) -> [Int] {
    BytePrefilter.memberNameOffsets(occurrences(of: accessors.needles, in: bytes), in: bytes)
  }

  public static func index(
    _ tree: SourceFileSyntax, source: SourceText, isGenerated: Bool? = nil, accessors: AccessorNames = .standard,
    keepingMembersOf keep: ((String) -> Bool)? = nil
  ) -> FileSummary {
    var collector = DeclarationCollector(source: source)
    let isGenerated = isGenerated ?? GeneratedFile.isGenerated(path: source.path, bytes: source.bytes)
    if let keep {
      // A generated file's members never make a singleton (`SingletonDetector`).
      collector.keepsMembers = DeclarationCollector.KeptMembers(
        of: keep, orStaticAccessorsNamed: isGenerated ? nil : accessors)
    }
    collector.collect(tree.statements, enclosing: nil)
    let references = ReferenceCollector.references(
      at: candidateOffsets(source.bytes, accessors),
      in: tree, source: source, accessors: accessors)
    var errors: [Diagnostic] = []
    if tree.hasError {
      errors = syntaxErrors(in: tree, source: source)
    }
    return FileSummary(
      path: source.path,
      lineCount: source.lineStarts.count,
      types: collector.types,
      candidateReferences: references,
      syntaxErrors: errors,
      typeAliases: collector.typeAliases,
      isGenerated: isGenerated,
      mutatingMethodNames: keep == nil ? nil : collector.mutatingMethodNames,
      callableNames: collector.callableNames,
      parameters: collector.parameterSlots.facts
    )
  }

  /// The parser's own diagnostics for a tree with errors, as `path:line:col: error:` diagnostics.
  public static func syntaxErrors(in tree: SourceFileSyntax, source: SourceText) -> [Diagnostic] {
    ParseDiagnosticsGenerator.diagnostics(for: tree).compactMap { diagnostic in
      guard diagnostic.diagMessage.severity == .error else { return nil }
      let offset = diagnostic.position.utf8Offset
      return .error(diagnostic.message, at: source.location(ofOffset: offset))
    }
  }
}

/// Finds the file's type declarations and extensions by descending through declaration lists only:
/// top-level code, `#if` clauses and member blocks. Bodies and expressions are never entered, so
/// types declared inside a function or closure (local types, which no other file can name) are not
/// indexed.
struct DeclarationCollector {
  let source: SourceText
  var types: [TypeDecl] = []
  /// `typealias` declarations, at top level and in types.
  var typeAliases: [TypeAlias] = []
  /// The conditions of the `#if` clauses the declarations being collected sit in.
  private var enclosingConditions: [String] = []
  /// Which types keep their members; nil: every type does.
  var keepsMembers: KeptMembers?

  /// The types that keep their members: those with a simple name `names` accepts, and those with a
  /// static member named like one of `accessors` (a singleton's, whatever a scan asked).
  struct KeptMembers {
    var names: (String) -> Bool
    var accessors: AccessorNames?

    init(of names: @escaping (String) -> Bool, orStaticAccessorsNamed accessors: AccessorNames?) {
      self.names = names
      self.accessors = accessors
    }
  }
  /// Names of the `mutating func`s of every type, those whose members are left out included.
  var mutatingMethodNames: Set<String> = []
  /// The names a call can be written with (`FileSummary.callableNames`), those of types whose
  /// members are left out included.
  var callableNames: Set<String> = []
  /// The parameter types of the file's callables, by the slot a call names.
  var parameterSlots: ParameterSlotCollector

  init(source: SourceText) {
    self.source = source
    self.parameterSlots = ParameterSlotCollector(source: source)
  }

  mutating func collect(_ items: CodeBlockItemListSyntax, enclosing: String?) {
    for item in items {
      if case .decl(let decl) = item.item { collect(decl, enclosing: enclosing) }
    }
  }

  mutating func collect(_ members: MemberBlockItemListSyntax, enclosing: String?) {
    for member in members { collect(member.decl, enclosing: enclosing) }
  }

  private mutating func collect(_ decl: DeclSyntax, enclosing: String?) {
    switch decl.as(DeclSyntaxEnum.self) {
    case .classDecl(let node): record(node, kind: .class, enclosing: enclosing)
    case .structDecl(let node): record(node, kind: .struct, enclosing: enclosing)
    case .enumDecl(let node): record(node, kind: .enum, enclosing: enclosing)
    case .actorDecl(let node): record(node, kind: .actor, enclosing: enclosing)
    case .protocolDecl(let node): record(node, kind: .protocol, enclosing: enclosing)
    case .extensionDecl(let node):
      let extended = node.extendedType.text(in: source)
      record(node.extendedType.simpleName ?? extended, qualifiedName: extended, kind: .extension, group: node,
        enclosing: enclosing)
    case .functionDecl(let node) where enclosing == nil:
      callableNames.insert(unquoted(node.name.text))
      parameterSlots.record(node)
    case .variableDecl(let node) where enclosing == nil:
      for binding in node.bindings { callableNames.formUnion(PatternNames.identifiers(binding.pattern)) }
    case .typeAliasDecl(let node) where enclosing == nil:
      typeAliases.append(TypeAlias(name: node.name.text, aliasedType: node.initializer.value.text(in: source)))
    case .ifConfigDecl(let node):
      let conditions = IfConfigCondition.conditions(
        ofClauses: node.clauses.map { clause in clause.condition.map { ($0.text(in: source), $0.kind) } })
      for (clause, condition) in zip(node.clauses, conditions) {
        enclosingConditions.append(condition)
        defer { enclosingConditions.removeLast() }
        switch clause.elements {
        case .statements(let items): collect(items, enclosing: enclosing)
        case .decls(let members): collect(members, enclosing: enclosing)
        default: break
        }
      }
    default:
      break
    }
  }

  private static func genericParameterNames(of group: some DeclGroupSyntax) -> [String] {
    switch Syntax(group).as(SyntaxEnum.self) {
    case .classDecl(let node): ParameterSlotCollector.names(node.genericParameterClause)
    case .structDecl(let node): ParameterSlotCollector.names(node.genericParameterClause)
    case .enumDecl(let node): ParameterSlotCollector.names(node.genericParameterClause)
    case .actorDecl(let node): ParameterSlotCollector.names(node.genericParameterClause)
    // What a protocol's requirements and extensions may name for any type: its associated types.
    case .protocolDecl(let node):
      node.memberBlock.members.compactMap { $0.decl.as(AssociatedTypeDeclSyntax.self)?.name.text }
    default: []
    }
  }

  private mutating func record(_ node: some DeclGroupSyntax & NamedDeclSyntax, kind: TypeDecl.Kind, enclosing: String?) {
    record(node.name.text, kind: kind, group: node, enclosing: enclosing)
  }

  private mutating func record(
    _ name: String, qualifiedName: String? = nil, kind: TypeDecl.Kind, group: some DeclGroupSyntax, enclosing: String?
  ) {
    let memberBlock = group.memberBlock
    let written = qualifiedName ?? name
    let qualified = enclosing.map { "\($0).\(written)" } ?? written
    parameterSlots.record(
      memberBlock.members, typeName: name, scope: qualified, generics: Self.genericParameterNames(of: group),
      memberwise: kind == .struct)
    if let kept = keepsMembers, !kept.names(name) {
      // Most types of a scan's files keep no members: what the index needs of them is read without
      // making the members, unless a static member named like an accessor keeps them after all.
      let outline = MemberExtractor.outline(of: memberBlock.members, accessors: kept.accessors)
      if !outline.hasStaticAccessorName {
        recordWithoutMembers(name, qualified: qualified, kind: kind, group: group, outline: outline)
        return
      }
    }
    // From here on the type keeps its members.
    var members = MemberExtractor.members(of: memberBlock.members, in: source, conditions: enclosingConditions)
    let modifierSummary = ModifierSummary(group.modifiers)
    // An extension's access is its members' default: the members of a `private extension` are
    // visible in the file only, those of a `public extension` are public.
    if kind == .extension, let access = modifierSummary.access {
      for position in members.indices where members[position].access == nil {
        members[position].access = access == .private ? .fileprivate : access
      }
    }
    for position in members.indices where [.method, .property, .enumCase].contains(members[position].kind) {
      callableNames.insert(members[position].name)
    }
    if keepsMembers != nil {
      for position in members.indices
      where members[position].kind == .method && members[position].modifiers.contains("mutating") {
        mutatingMethodNames.insert(members[position].name)
      }
    }
    types.append(
      typeDecl(
        name, qualified: qualified, kind: kind, group: group, modifiers: modifierSummary, members: members,
        membersOmitted: false))
    for position in members.indices where members[position].kind == .typeAlias {
      if let aliased = members[position].typeText {
        typeAliases.append(TypeAlias(name: members[position].name, aliasedType: aliased, enclosingType: qualified))
      }
    }
    // Nested types come after their enclosing type, in source order. The members already say
    // whether there are any (those in `#if` clauses included).
    // (By index: iterating an array of members copies each one.)
    if members.indices.contains(where: { members[$0].kind == .nestedType }) {
      collect(memberBlock.members, enclosing: qualified)
    }
  }

  /// `record` for a type that keeps no members, from its outline: the same type, type aliases,
  /// `mutating func` names and nested types.
  private mutating func recordWithoutMembers(
    _ name: String, qualified: String, kind: TypeDecl.Kind, group: some DeclGroupSyntax,
    outline: MemberExtractor.Outline
  ) {
    mutatingMethodNames.formUnion(outline.mutatingMethodNames)
    callableNames.formUnion(outline.callableNames)
    types.append(
      typeDecl(
        name, qualified: qualified, kind: kind, group: group, modifiers: ModifierSummary(group.modifiers), members: [],
        membersOmitted: true, hasTestMethod: outline.hasTestMethod))
    for alias in outline.typeAliases {
      typeAliases.append(TypeAlias(name: alias.name, aliasedType: alias.aliasedType, enclosingType: qualified))
    }
    if outline.hasNestedTypes { collect(group.memberBlock.members, enclosing: qualified) }
  }

  private func typeDecl(
    _ name: String, qualified: String, kind: TypeDecl.Kind, group: some DeclGroupSyntax, modifiers: ModifierSummary,
    members: [MemberDecl], membersOmitted: Bool, hasTestMethod: Bool? = nil
  ) -> TypeDecl {
    TypeDecl(
      name: name,
      qualifiedName: qualified,
      kind: kind,
      inherited: group.inheritanceClause?.inheritedTypes.map { $0.type.text(in: source) } ?? [],
      attributes: group.attributes.names(in: source),
      modifiers: modifiers.others,
      access: modifiers.access,
      members: members,
      range: group.sourceRange(in: source),
      bodyOpen: group.memberBlock.leftBrace.endPositionBeforeTrailingTrivia.utf8Offset,
      bodyClose: group.memberBlock.rightBrace.positionAfterSkippingLeadingTrivia.utf8Offset,
      membersOmitted: membersOmitted,
      hasTestMethod: hasTestMethod,
      genericParameters: Self.genericParameterNames(of: group)
    )
  }
}

/// Finds the places that reach for something that looks like a singleton accessor
/// (`Type.shared`, `Type.sharedInstance()`) without walking the tree: it descends only to the
/// tokens at the byte offsets where an accessor-like name occurs.
public enum ReferenceCollector {
  /// `.shared` looked up in a type the code does not say: the index makes it a possible reference
  /// of every singleton with this accessor (`Index`'s `attributePossible`).
  static func possibleReference(
    _ instance: ExprSyntax, node: MemberAccessExprSyntax, accessor: String, source: SourceText
  ) -> Reference {
    var reference = Reference(
      baseName: "", accessor: accessor, use: .unresolvedImplicit, alias: nil,
      range: instance.sourceRange(in: source), context: ReferenceContextFinder.context(of: Syntax(instance)))
    if let call = node.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == node.id,
      !call.arguments.isEmpty || call.trailingClosure != nil
    {
      reference.implicitApplied = true
    }
    return reference
  }

  /// `type(of: value)`: the dynamic type of a value, whose static members it reaches.
  static func isTypeOfCall(_ expression: ExprSyntax) -> Bool {
    guard let call = expression.as(FunctionCallExprSyntax.self),
      call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "type",
      call.arguments.count == 1, call.arguments.first?.label?.text == "of"
    else { return false }
    return true
  }

  static func references(
    at offsets: [Int], in tree: SourceFileSyntax, source: SourceText, accessors: AccessorNames = .standard
  ) -> [Reference] {
    guard !offsets.isEmpty else { return [] }
    let accesses = inWalkOrder(tokens(at: offsets, in: Syntax(tree)).compactMap { accessorAccess($0, accessors: accessors) })
    var result: [Reference] = []
    for node in accesses {
      var instance = ExprSyntax(node)
      if let call = node.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == node.id,
        call.arguments.isEmpty, call.trailingClosure == nil
      {
        instance = ExprSyntax(call)
      }
      let accessor = unquoted(node.declName.baseName.text)
      if let base = node.base {
        if let written = base.typeReferenceText {
          record(instance: instance, baseName: written, accessor: accessor, alias: nil, source: source, into: &result)
        } else if isTypeOfCall(base) {
          // `type(of: value).shared`: the value's type is the compiler's to know.
          result.append(possibleReference(instance, node: node, accessor: accessor, source: source))
        }
      } else if let annotated = annotatedType(ofImplicit: instance),
        // A type declared in a body (`typealias S = Store` in a function) is none the index knows.
        !namesLocalOrGenericType(annotated, at: Syntax(instance))
      {
        record(instance: instance, baseName: annotated, accessor: accessor, alias: nil, source: source, into: &result)
      } else if isCasePattern(instance) {
        // `case .shared:` matches an enum case or an `Equatable` value's accessor; `.shared(let x)` a case.
        guard instance.is(MemberAccessExprSyntax.self) else { continue }
        // `switch self { case .shared: }`: `Self.shared`, an enum's own case where Self is no singleton.
        if matchesSelf(instance) {
          record(instance: instance, baseName: "Self", accessor: accessor, alias: nil, source: source, into: &result)
          continue
        }
        // `switch mode { case .shared: }` over a parameter or a local: its declared type's.
        if let written = boundType(ofCasePattern: instance) {
          record(instance: instance, baseName: written, accessor: accessor, alias: nil, source: source, into: &result)
          continue
        }
        var reference = possibleReference(instance, node: node, accessor: accessor, source: source)
        reference.implicitInCasePattern = true
        reference.implicitPeer = matchedPeer(ofCasePattern: instance)
        result.append(reference)
      } else {
        // `use(.shared)`: the type `.shared` is looked up in is the parameter's, which only the
        // compiler knows.
        var reference = possibleReference(instance, node: node, accessor: accessor, source: source)
        if let slot = argumentSlot(of: instance) {
          reference.implicitCallee = slot.initializedType
          reference.implicitFunction = slot.function
          reference.implicitLabel = slot.label
          reference.implicitInArray = slot.inArray
          reference.implicitEnclosingInit = slot.enclosingInit
        } else {
          reference.implicitPeer = peerChain(of: instance)
        }
        result.append(reference)
      }
    }
    return result
  }

  /// The call an implicit member (`.shared`, `.init(...)`) is an argument of, which says the type it
  /// is looked up in: the parameter's. `??` between the argument's parts (`.init(named: n) ??
  /// .init()`) keeps them the argument's. Nil when it is no argument, or of a call whose callee
  /// cannot be told (a closure, a name bound in the enclosing scopes, an implicit member's call).
  public static func argumentSlot(of instance: ExprSyntax) -> ImplicitArgumentSlot? {
    var node = Syntax(instance)
    if let list = node.parent?.as(ExprListSyntax.self), list.parent?.is(SequenceExprSyntax.self) == true,
      list.allSatisfy({ element in
        element.as(BinaryOperatorExprSyntax.self).map { $0.operator.text == "??" } ?? true
      }), let sequence = list.parent
    {
      node = sequence
    }
    // `[.default, .other]` passed as an argument: an element of the parameter's type.
    var inArray = false
    if let element = node.parent?.as(ArrayElementSyntax.self), let array = element.parent?.parent?.as(ArrayExprSyntax.self) {
      node = Syntax(array)
      inArray = true
    }
    guard let argument = node.parent?.as(LabeledExprSyntax.self),
      let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self)
    else { return nil }
    let label = argument.label.map { unquoted($0.text) } ?? "_"
    if let enclosing = enclosingInit(called: call) {
      // A local type's inits are not the index's, and its name may be another type's.
      guard !ReferenceContextFinder.isInLocalType(Syntax(call)),
        let type = ReferenceContextFinder.context(of: Syntax(call)).typeName
      else { return nil }
      return ImplicitArgumentSlot(initializedType: type, function: nil, label: label, inArray: inArray, enclosingInit: enclosing)
    }
    if let type = initializedType(call) {
      // A generic parameter's or a local type's inits are not the index's.
      if namesLocalOrGenericType(type, at: Syntax(call)) { return nil }
      return ImplicitArgumentSlot(initializedType: type, function: nil, label: label, inArray: inArray)
    }
    if let function = calledFunction(call) {
      return ImplicitArgumentSlot(initializedType: nil, function: function, label: label, inArray: inArray)
    }
    return nil
  }

  /// The type whose init a call calls: `URLSession` in `URLSession(configuration: .default)` and
  /// `URLSession.init(configuration: .default)`.
  static func initializedType(_ call: FunctionCallExprSyntax) -> String? {
    var called = call.calledExpression
    if let member = called.as(MemberAccessExprSyntax.self), member.declName.baseName.tokenKind == .keyword(.`init`),
      let base = member.base
    {
      called = base
    }
    guard let written = called.typeReferenceText, let first = written.split(separator: ".").last?.first, first.isUppercase
    else { return nil }
    return written
  }

  /// Which init of the enclosing type's a call calls without naming a type: its own
  /// (`self.init(...)`, `Self.init(...)`, `Self(...)`) or its superclass's (`super.init(...)`),
  /// whose parameters the index looks up in that type's declarations (`EnclosingInit`).
  static func enclosingInit(called call: FunctionCallExprSyntax) -> EnclosingInit? {
    let called = call.calledExpression
    if let member = called.as(MemberAccessExprSyntax.self), member.declName.baseName.tokenKind == .keyword(.`init`) {
      if member.base?.is(SuperExprSyntax.self) == true { return .superclass }
      guard let base = member.base?.as(DeclReferenceExprSyntax.self) else { return nil }
      return base.baseName.tokenKind == .keyword(.self) || base.baseName.tokenKind == .keyword(.Self) ? .own : nil
    }
    return called.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.Self) ? .own : nil
  }

  /// The function, method or enum case a call calls: `present` in `present(.shared)`,
  /// `view.present(.shared)` and `.image(name: .shared)` (a static member of a type the code does
  /// not name: like a method of a value whose type is not kept, it is looked up by its name and
  /// label in every declaration). Nil for a type's init, a closure, and a bare name the enclosing
  /// declaration binds anywhere (a parameter, a local variable or function), whose type the index
  /// does not keep.
  private static func calledFunction(_ call: FunctionCallExprSyntax) -> String? {
    let token: TokenSyntax
    var bare = false
    if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self) {
      token = reference.baseName
      bare = true
    } else if let member = call.calledExpression.as(MemberAccessExprSyntax.self) {
      token = member.declName.baseName
    } else {
      return nil
    }
    guard case .identifier = token.tokenKind else { return nil }
    let name = unquoted(token.text)
    guard let first = name.first, !first.isUppercase else { return nil }
    if bare, LocalNames.binds(name, around: Syntax(call)) { return nil }
    return name
  }

  /// `Base.name` where the token is `name` and `name` looks like an accessor.
  private static func accessorAccess(_ token: TokenSyntax, accessors: AccessorNames) -> MemberAccessExprSyntax? {
    guard let reference = token.parent?.as(DeclReferenceExprSyntax.self), reference.baseName.id == token.id,
      reference.argumentNames == nil,
      let access = reference.parent?.as(MemberAccessExprSyntax.self), access.declName.id == reference.id,
      accessors.matches(token.text)
    else { return nil }
    return access
  }

  /// The nodes in pre-order, as a walk would meet them: outer ones before the ones inside them.
  public static func inWalkOrder<Node: SyntaxProtocol>(_ nodes: [Node]) -> [Node] {
    nodes.sorted {
      let (left, right) = ($0.position.utf8Offset, $1.position.utf8Offset)
      return left != right ? left < right : $0.totalLength.utf8Length > $1.totalLength.utf8Length
    }
  }

  /// The tokens whose full range (trivia included) contains one of the sorted `offsets`, each once,
  /// in source order.
  public static func tokens(at offsets: [Int], in root: Syntax) -> [TokenSyntax] {
    var result: [TokenSyntax] = []
    var next = 0
    func descend(_ node: Syntax) {
      if let token = node.as(TokenSyntax.self) {
        result.append(token)
        let end = token.endPosition.utf8Offset
        while next < offsets.count, offsets[next] < end { next += 1 }
        return
      }
      for child in node.children(viewMode: .sourceAccurate) {
        guard next < offsets.count else { return }
        if offsets[next] < child.endPosition.utf8Offset, child.totalLength.utf8Length > 0 { descend(child) }
      }
    }
    if next < offsets.count, offsets[next] >= root.position.utf8Offset { descend(root) }
    return result
  }

  /// Whether the node is inside `#selector(...)` or `#keyPath(...)`.
  static func isInSelectorOrKeyPath(_ node: Syntax) -> Bool {
    var current = node.parent
    while let syntax = current {
      if let macro = syntax.as(MacroExpansionExprSyntax.self), ["selector", "keyPath"].contains(macro.macroName.text) {
        return true
      }
      current = syntax.parent
    }
    return false
  }

  private static func record(
    instance: ExprSyntax, baseName: String, accessor: String, alias: String?, source: SourceText,
    into references: inout [Reference]
  ) {
    let analysis = ReferenceAnalysis(instance: instance)
    let context = ReferenceContextFinder.context(of: Syntax(instance))
    var reference = Reference(
      baseName: baseName, accessor: accessor, use: analysis.use, alias: alias,
      range: instance.sourceRange(in: source), context: context, chain: analysis.chain, arguments: analysis.arguments)
    reference.inSelectorOrKeyPath = isInSelectorOrKeyPath(Syntax(instance))
    references.append(reference)
    if alias == nil, case .alias(let aliasName) = analysis.use, let scope = analysis.aliasScope {
      for use in AliasUseFinder.uses(of: aliasName, in: scope, after: instance.endPosition.utf8Offset) {
        record(instance: use, baseName: baseName, accessor: accessor, alias: aliasName, source: source,
          into: &references)
      }
    }
    if alias == nil, case .held(let property) = analysis.use, let scope = analysis.aliasScope {
      let excluded = analysis.aliasExcluded ?? 0..<0
      for use in AliasUseFinder.uses(of: property, in: scope, after: 0)
      where !excluded.contains(use.positionAfterSkippingLeadingTrivia.utf8Offset) {
        record(instance: use, baseName: baseName, accessor: accessor, alias: property, source: source, into: &references)
      }
    }
  }
}
