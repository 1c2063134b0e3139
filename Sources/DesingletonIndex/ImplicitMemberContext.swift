import SwiftSyntax

/// The type a declaration gives an implicit member (`.shared` in `var store: Store { .shared }`),
/// read from the syntax around it.
extension ReferenceCollector {
  /// The type an implicit member (`.shared`, `.shared.child`) is looked up in when a declaration
  /// says it: a type annotation (`let ledger: Ledger = .shared`, `var ledger: Ledger? = .shared`,
  /// a parameter's default), the declared type of what returns it (`var ledger: Ledger { .shared }`,
  /// `func ledger() -> Ledger { return .shared }`, a subscript's), the element type of an annotated
  /// array literal (`let modes: [Mode] = [.default]`), the type a value type's init assigns to
  /// `self` (`self = .default`), or the type whose init `??` unwraps (`Mode(rawValue: raw) ??
  /// .default`). Nil when none does, or the type is a generic parameter.
  public static func annotatedType(ofImplicit instance: ExprSyntax) -> String? {
    // The whole implicit member chain has the type.
    var node = Syntax(instance)
    while let parent = node.parent {
      if let member = parent.as(MemberAccessExprSyntax.self), member.base?.id == node.id {
        node = parent
      } else if let call = parent.as(FunctionCallExprSyntax.self), call.calledExpression.id == node.id {
        node = parent
      } else if let subscriptCall = parent.as(SubscriptCallExprSyntax.self),
        subscriptCall.calledExpression.id == node.id
      {
        node = parent
      } else if parent.is(ForceUnwrapExprSyntax.self) || parent.is(OptionalChainingExprSyntax.self) {
        node = parent
      } else {
        break
      }
    }
    if let assigned = assignedToSelf(node) { return assigned }
    if let coalesced = coalescedInitType(node) { return coalesced }
    guard let (type, generics) = contextType(of: node) else { return nil }
    if case .named(let written) = ParameterType.of(type, generics: generics) { return written }
    return nil
  }

  /// The property an implicit member is assigned to or compared with, as the members reached from
  /// the enclosing type's instance: `["mode"]` for `mode = .shared`, `self.mode = .shared` and
  /// `mode != .shared`; `["networks", "[]", "mode"]` for `networks[i].mode == .shared`. Only where
  /// the comparison is an operand of `&&`, `||`, `?:` or `=` at most (which bind less tightly), a
  /// subscript takes no argument label, and a first name written without `self.` is no name the
  /// enclosing declaration binds (a parameter, an accessor's, a local, a closure's parameter) nor
  /// one Swift binds itself (`newValue`, `oldValue`, `error`). Whether it names a property of
  /// `self` or something else the index tells (`ImplicitMemberLookup.property(_:in:)`).
  public static func peerChain(of instance: ExprSyntax) -> PropertyPeer? {
    guard let list = instance.parent?.as(ExprListSyntax.self), list.parent?.is(SequenceExprSyntax.self) == true else {
      return nil
    }
    let elements = Array(list)
    guard let position = elements.firstIndex(where: { $0.id == instance.id }) else { return nil }
    func looser(_ at: Int) -> Bool {
      guard elements.indices.contains(at) else { return true }
      if elements[at].is(UnresolvedTernaryExprSyntax.self) || elements[at].is(AssignmentExprSyntax.self) { return true }
      return elements[at].as(BinaryOperatorExprSyntax.self).map { ["&&", "||"].contains($0.operator.text) } ?? false
    }
    func compares(_ at: Int) -> Bool {
      elements[at].as(BinaryOperatorExprSyntax.self).map { ["==", "!="].contains($0.operator.text) } ?? false
    }
    let other: ExprSyntax
    var compared = true
    if elements.count == 3, position == 2, elements[1].is(AssignmentExprSyntax.self) {
      other = elements[0]
      compared = false
    } else if position >= 2, compares(position - 1), looser(position + 1), looser(position - 3) {
      other = elements[position - 2]
    } else if position + 2 < elements.count, compares(position + 1), looser(position - 1), looser(position + 3) {
      other = elements[position + 2]
    } else {
      return nil
    }
    return peer(other, of: instance, compared: compared)
  }

  /// `case .shared:` in `switch mode { }` or `if case .shared = self.mode`: the matched value's
  /// property chain, whose declared type says where `.shared` is looked up, as for `mode == .shared`.
  public static func matchedPeer(ofCasePattern instance: ExprSyntax) -> PropertyPeer? {
    casePatternSubject(of: instance).flatMap { peer($0, of: instance, compared: true, matched: true) }
  }

  /// `other`, the value an implicit member `instance` is compared with or assigned to, as a chain
  /// of properties; nil for any other expression or a name a scope binds.
  private static func peer(_ other: ExprSyntax, of instance: ExprSyntax, compared: Bool, matched: Bool = false) -> PropertyPeer? {
    guard let (steps, throughSelf) = propertySteps(other), let first = steps.first else { return nil }
    // A local type's properties are not the index's, and its name may be another type's.
    if ReferenceContextFinder.isInLocalType(Syntax(instance)) { return nil }
    if !throughSelf {
      if ["newValue", "oldValue", "error"].contains(first) || LocalNames.binds(first, around: Syntax(instance)) { return nil }
    }
    return PropertyPeer(steps: steps, compared: compared, matched: matched)
  }

  /// `a.b[i]?.c` → `["a", "b", "[]", "c"]`, and whether it starts at `self.`; nil for any other expression.
  private static func propertySteps(_ expression: ExprSyntax) -> (steps: [String], throughSelf: Bool)? {
    if let reference = expression.as(DeclReferenceExprSyntax.self) {
      guard case .identifier = reference.baseName.tokenKind, reference.argumentNames == nil else { return nil }
      return ([unquoted(reference.baseName.text)], false)
    }
    if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base {
      guard case .identifier = member.declName.baseName.tokenKind, member.declName.argumentNames == nil else { return nil }
      let name = unquoted(member.declName.baseName.text)
      // `self.mode`, and `self?.mode` / `self!.mode` where a closure holds `self` weakly.
      var receiver = base
      if let optional = receiver.as(OptionalChainingExprSyntax.self) { receiver = optional.expression }
      if let forced = receiver.as(ForceUnwrapExprSyntax.self) { receiver = forced.expression }
      if receiver.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self) { return ([name], true) }
      guard let (steps, throughSelf) = propertySteps(base) else { return nil }
      return (steps + [name], throughSelf)
    }
    if let subscriptCall = expression.as(SubscriptCallExprSyntax.self) {
      // A labelled subscript (`items[safe: i]`) is a declaration of its own, not the element.
      guard subscriptCall.arguments.allSatisfy({ $0.label == nil }),
        let (steps, throughSelf) = propertySteps(subscriptCall.calledExpression)
      else { return nil }
      return (steps + ["[]"], throughSelf)
    }
    if let optional = expression.as(OptionalChainingExprSyntax.self) { return propertySteps(optional.expression) }
    if let forced = expression.as(ForceUnwrapExprSyntax.self) { return propertySteps(forced.expression) }
    return nil
  }

  /// The declared type an expression is the value of, with the generic parameters in scope there.
  private static func contextType(of node: Syntax) -> (TypeSyntax, [String])? {
    if let initializer = node.parent?.as(InitializerClauseSyntax.self) {
      if let type = initializer.parent?.as(PatternBindingSyntax.self)?.typeAnnotation?.type { return (type, []) }
      if let type = initializer.parent?.as(FunctionParameterSyntax.self)?.type { return (type, []) }
      return nil
    }
    // `[.default, .other]`: each element has the array's element type.
    if let element = node.parent?.as(ArrayElementSyntax.self), let array = element.parent?.parent?.as(ArrayExprSyntax.self) {
      guard let (type, generics) = contextType(of: Syntax(array)), let arrayType = type.as(ArrayTypeSyntax.self) else {
        return nil
      }
      return (arrayType.element, generics)
    }
    guard isReturned(node), let returned = returnedDeclaration(around: node) else { return nil }
    return (returned.type, returned.generics)
  }

  /// Whether an expression is what its function, getter or subscript returns: the value of a
  /// `return`, or the one expression of a body (`var x: T { .shared }`, `func f() -> T { .shared }`).
  /// An `if` body's one expression is a statement, not a return.
  public static func isReturned(_ node: Syntax) -> Bool {
    if node.parent?.is(ReturnStmtSyntax.self) == true { return true }
    guard let item = node.parent?.as(CodeBlockItemSyntax.self), let list = item.parent?.as(CodeBlockItemListSyntax.self),
      list.count == 1, let body = list.parent
    else { return false }
    if body.is(AccessorBlockSyntax.self) { return true }
    guard body.is(CodeBlockSyntax.self), let declaration = body.parent else { return false }
    return declaration.is(FunctionDeclSyntax.self)
      || declaration.as(AccessorDeclSyntax.self)?.accessorSpecifier.tokenKind == .keyword(.get)
  }

  /// The declaration a returned expression (`isReturned`) is the result of: its declared type, the
  /// generic parameters in scope there, the declaration itself, and whether it is a property's
  /// getter. Nil in a closure (whose type is inferred), an init, a setter or observer, or where no
  /// type is written. The one answer for an implicit `.shared` and an implicit `.init(...)`.
  public static func returnedDeclaration(
    around node: Syntax
  ) -> (type: TypeSyntax, generics: [String], declaration: Syntax, inGetter: Bool)? {
    var current = node.parent
    while let syntax = current {
      if syntax.is(ClosureExprSyntax.self) || syntax.is(InitializerDeclSyntax.self) { return nil }
      // A result builder's (`@ViewBuilder`, `@ListBuilder`) expressions are its components, of
      // types the builder's methods take.
      let declaration = syntax.is(PatternBindingSyntax.self) ? syntax.parent?.parent : syntax
      if let attributes = declaration?.asProtocol(WithAttributesSyntax.self)?.attributes,
        attributes.contains(where: { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription.hasSuffix("Builder") == true })
      {
        return nil
      }
      if let function = syntax.as(FunctionDeclSyntax.self) {
        guard let type = function.signature.returnClause?.type else { return nil }
        let generics = ParameterSlotCollector.names(function.genericParameterClause) + enclosingGenericNames(of: syntax)
        return (type, generics, syntax, false)
      }
      if let accessor = syntax.as(AccessorDeclSyntax.self), accessor.accessorSpecifier.tokenKind != .keyword(.get) {
        return nil
      }
      if let subscriptDecl = syntax.as(SubscriptDeclSyntax.self) {
        let generics = ParameterSlotCollector.names(subscriptDecl.genericParameterClause) + enclosingGenericNames(of: syntax)
        return (subscriptDecl.returnClause.type, generics, syntax, false)
      }
      if let binding = syntax.as(PatternBindingSyntax.self) {
        guard let type = binding.typeAnnotation?.type else { return nil }
        return (type, enclosingGenericNames(of: syntax), syntax, true)
      }
      if syntax.is(MemberBlockItemSyntax.self) || syntax.is(SourceFileSyntax.self) { return nil }
      current = syntax.parent
    }
    return nil
  }

  /// Whether a type name written at `node` may be a generic parameter in scope there (of a
  /// function or a type around it) or a type or type alias declared in a body around it, which
  /// the index does not record (`func make() { struct Local { ... }; Local(store: .shared) }`).
  static func namesLocalOrGenericType(_ written: String, at node: Syntax) -> Bool {
    let first = Index.firstName(ofWritten: written)
    if enclosingGenericNames(of: node).contains(first) { return true }
    var current = node.parent
    while let syntax = current {
      if let items = syntax.as(CodeBlockItemListSyntax.self), syntax.parent?.is(SourceFileSyntax.self) != true {
        for item in items {
          guard case .decl(let decl) = item.item else { continue }
          switch decl.as(DeclSyntaxEnum.self) {
          case .structDecl(let type): if type.name.text == first { return true }
          case .classDecl(let type): if type.name.text == first { return true }
          case .enumDecl(let type): if type.name.text == first { return true }
          case .actorDecl(let type): if type.name.text == first { return true }
          case .typeAliasDecl(let alias): if alias.name.text == first { return true }
          default: break
          }
        }
      }
      current = syntax.parent
    }
    return false
  }

  /// `Mode(rawValue: raw) ?? .default`: the type whose init gives the optional `??` unwraps (not
  /// a standard generic one, `Optional(x) ?? .shared`, whose type is its argument's).
  private static func coalescedInitType(_ node: Syntax) -> String? {
    guard let list = node.parent?.as(ExprListSyntax.self), list.count == 3, list.parent?.is(SequenceExprSyntax.self) == true,
      list.last?.id == node.id, list.dropFirst().first?.as(BinaryOperatorExprSyntax.self)?.operator.text == "??",
      let call = list.first?.as(FunctionCallExprSyntax.self), let type = initializedType(call)
    else { return nil }
    return ImplicitMemberLookup.genericTypes.contains(NameCoverage.key(type) ?? type) ? nil : type
  }

  /// `self = .default` in an init of a struct or enum: the enclosing type's name.
  private static func assignedToSelf(_ node: Syntax) -> String? {
    guard let list = node.parent?.as(ExprListSyntax.self), list.count == 3, list.parent?.is(SequenceExprSyntax.self) == true,
      list.last?.id == node.id, list.dropFirst().first?.is(AssignmentExprSyntax.self) == true,
      list.first?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self)
    else { return nil }
    var current = node.parent
    var inInit = false
    while let syntax = current {
      if syntax.is(ClosureExprSyntax.self) || syntax.is(FunctionDeclSyntax.self) { return nil }
      if syntax.is(InitializerDeclSyntax.self) { inInit = true }
      if inInit, let type = syntax.as(StructDeclSyntax.self) { return type.genericParameterClause == nil ? type.name.text : nil }
      if inInit, let type = syntax.as(EnumDeclSyntax.self) { return type.genericParameterClause == nil ? type.name.text : nil }
      if syntax.is(ClassDeclSyntax.self) || syntax.is(ActorDeclSyntax.self) || syntax.is(ExtensionDeclSyntax.self)
        || syntax.is(ProtocolDeclSyntax.self)
      {
        return nil
      }
      current = syntax.parent
    }
    return nil
  }

  /// The generic parameters of the types around a declaration (`T` in `struct Box<T> { ... }`).
  static func enclosingGenericNames(of node: Syntax) -> [String] {
    var names: [String] = []
    var current = node.parent
    while let syntax = current {
      if let type = syntax.as(StructDeclSyntax.self) { names += ParameterSlotCollector.names(type.genericParameterClause) }
      if let type = syntax.as(ClassDeclSyntax.self) { names += ParameterSlotCollector.names(type.genericParameterClause) }
      if let type = syntax.as(EnumDeclSyntax.self) { names += ParameterSlotCollector.names(type.genericParameterClause) }
      if let type = syntax.as(ActorDeclSyntax.self) { names += ParameterSlotCollector.names(type.genericParameterClause) }
      if let function = syntax.as(FunctionDeclSyntax.self) { names += ParameterSlotCollector.names(function.genericParameterClause) }
      current = syntax.parent
    }
    return names
  }
}

/// `case .shared:` patterns, which compare with `~=` where they are no enum case.
extension ReferenceCollector {
  /// `case .shared:` and `case .shared(let x):` in a `switch`, and `if case .shared = value`.
  static func isCasePattern(_ instance: ExprSyntax) -> Bool {
    var node = Syntax(instance)
    if let call = node.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == node.id { node = Syntax(call) }
    return node.parent?.is(ExpressionPatternSyntax.self) == true
  }

  /// Whether a case pattern matches `self`: `switch self { case .shared: }`, `if case .shared = self`.
  static func matchesSelf(_ instance: ExprSyntax) -> Bool {
    casePatternSubject(of: instance).map(isSelf) ?? false
  }

  /// `switch mode { case .shared: }` where one declaration in the member around binds `mode`, and
  /// `mode` there names it: a parameter's declared type, a local's (`let mode: Mode`, `guard let
  /// mode = Mode(rawValue: raw)`), which `.shared` is looked up in (an enum's case, or what `~=`
  /// compares a value of that type with).
  static func boundType(ofCasePattern instance: ExprSyntax) -> String? {
    guard let subject = casePatternSubject(of: instance)?.as(DeclReferenceExprSyntax.self),
      case .identifier = subject.baseName.tokenKind, subject.argumentNames == nil,
      let binding = LocalNames.onlyBinding(of: unquoted(subject.baseName.text), around: Syntax(instance)),
      // The name there is that binding's: declared before it, in a scope around it.
      let scope = LocalNames.scope(of: binding), binding.endPosition <= instance.position,
      scope.position <= instance.position, instance.endPosition <= scope.endPosition
    else { return nil }
    func written(_ annotation: TypeAnnotationSyntax?, _ initializer: InitializerClauseSyntax?) -> String? {
      if let annotation {
        guard case .named(let name) = ParameterType.of(annotation.type) else { return nil }
        return name
      }
      return initializer.flatMap { Index.createdTypeName($0.value.trimmedDescription) }
    }
    var type: String?
    if let parameter = binding.as(FunctionParameterSyntax.self), case .named(let name) = ParameterType.of(parameter.type) {
      type = name
    } else if let pattern = binding.as(IdentifierPatternSyntax.self) {
      if let declared = pattern.parent?.as(PatternBindingSyntax.self) {
        type = written(declared.typeAnnotation, declared.initializer)
      } else if let condition = pattern.parent?.as(OptionalBindingConditionSyntax.self) {
        type = written(condition.typeAnnotation, condition.initializer)
      }
    }
    guard let type, !namesLocalOrGenericType(type, at: Syntax(instance)) else { return nil }
    return type
  }

  /// The value a case pattern matches: the `switch`'s subject, the `if case`'s value.
  static func casePatternSubject(of instance: ExprSyntax) -> ExprSyntax? {
    var node = Syntax(instance)
    while let parent = node.parent {
      if let switchExpr = parent.as(SwitchExprSyntax.self) { return switchExpr.subject }
      if let condition = parent.as(MatchingPatternConditionSyntax.self) { return condition.initializer.value }
      if parent.is(CodeBlockSyntax.self) || parent.is(ClosureExprSyntax.self) { return nil }
      node = parent
    }
    return nil
  }

  private static func isSelf(_ expression: ExprSyntax) -> Bool {
    expression.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self)
  }
}

extension Index {
  /// Whether a value of the singleton `type` can be matched by a `case .shared:` pattern, which
  /// compares with `~=`: it declares `==` or `~=`, or it says it is `Equatable` (or `Hashable`,
  /// `Comparable`) or inherits from `NSObject`, itself or through the project's superclasses and
  /// protocols it inherits (`class Service: NSObject`, `final class Registry: Service`).
  static func mayMatchPattern(_ type: String, tables: TypeTables) -> Bool {
    let own = tables.declarations[type] ?? []
    if own.contains(where: { $0.membersOmitted || $0.members.contains { $0.name == "==" || $0.name == "~=" } }) { return true }
    var seen: Set<String> = []
    var next = [type]
    while let current = next.popLast() {
      guard seen.insert(current).inserted else { continue }
      for declaration in tables.declarations[current] ?? [] {
        for written in declaration.inherited {
          if FrameworkTypes.equatableSupertypes.contains(FrameworkTypes.lastComponent(written)) { return true }
          // Asked through the tables, so that a partial index parses the files that declare it.
          if case .project = tables.kind(ofWritten: written) { next.append(tables.resolveType(written)) }
        }
      }
    }
    return false
  }

}
