import DesingletonCore
@_spi(RawSyntax) import SwiftSyntax

/// What an expression that evaluates to the singleton instance is used for, as far as syntax
/// tells. Whether a member is written through a chain (`X.shared.cart.addItem(x)`) also depends on
/// the types along it, which only the whole index knows: here the use stays `.read` and `chain`
/// says what followed; `Index` decides.
struct ReferenceAnalysis {
  var use: ReferenceUse
  var chain: MemberChain?
  /// For a method call: the labels it passes.
  var arguments: CallArguments?
  /// For an alias: the syntax in which later uses of the alias are looked for.
  var aliasScope: Syntax?
  /// For a held parameter: where the alias's name is not a use (the assignment that keeps it).
  var aliasExcluded: Range<Int>?

  init(instance: ExprSyntax) {
    aliasScope = nil
    chain = nil
    arguments = nil
    var node = Syntax(instance)
    // `X.shared!.member`, `X.shared?.member`
    while let parent = node.parent,
      parent.is(ForceUnwrapExprSyntax.self) || parent.is(OptionalChainingExprSyntax.self)
    {
      node = parent
    }
    if let member = node.parent?.as(MemberAccessExprSyntax.self), member.base?.id == node.id {
      let name = unquoted(member.declName.baseName.text)
      if let call = member.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == member.id {
        use = .member(name, .call)
        arguments = CallArguments(
          labels: call.arguments.map { $0.label.map { unquoted($0.text) } ?? "_" },
          trailingClosures: (call.trailingClosure == nil ? 0 : 1) + call.additionalTrailingClosures.count)
      } else {
        use = .member(name, .read)
        chain = MemberChain.following(ExprSyntax(member))
      }
      return
    }
    // `X.shared["key"]`, `X.shared["key"] = value`: the subscript is a member like any other.
    if let subscriptCall = node.parent?.as(SubscriptCallExprSyntax.self), subscriptCall.calledExpression.id == node.id {
      if subscriptCall.arguments.count == 1, subscriptCall.arguments.first?.label?.text == "keyPath" {
        use = .keyPath
      } else {
        use = .member("subscript", .read)
        chain = MemberChain.following(ExprSyntax(subscriptCall))
      }
      return
    }
    if let held = HeldParameter(defaultValue: node) {
      use = .held(held.property)
      aliasScope = held.scope
      aliasExcluded = held.assignment
      return
    }
    if let initializer = node.parent?.as(InitializerClauseSyntax.self),
      let binding = initializer.parent?.as(PatternBindingSyntax.self),
      let pattern = binding.pattern.as(IdentifierPatternSyntax.self)
    {
      if let annotation = binding.typeAnnotation,
        !ReferenceAnalysis.isPlainAliasProperty(binding, annotation.type)
          || isSetAfterCreationProperty(binding, annotation.type, instance: instance)
      {
        // `let s: Store = Store.shared` in a body keeps needing the concrete type once the
        // instance is replaced, and `var s: Store? = ...` holds another type: like passing the
        // instance to a parameter of that type.
        use = .instance
        return
      }
      use = .alias(pattern.identifier.text)
      aliasScope = ReferenceAnalysis.scope(ofBinding: binding)
      return
    }
    use = ReferenceAnalysis.isAssigned(node) ? .reassignment : .instance
  }

  /// Names of the standard library's mutating methods, and of common mutating methods of value types.
  static let mutatingMethodNames: Set<String> = [
    "append", "insert", "remove", "removeAll", "removeFirst", "removeLast", "popLast", "popFirst", "removeValue",
    "updateValue", "merge", "sort", "reverse", "shuffle", "formUnion", "formIntersection", "subtract",
    "formSymmetricDifference", "toggle", "add", "reserveCapacity", "replaceSubrange",
  ]

  /// The node is the target of `=`, a compound assignment, or `&`.
  static func isAssigned(_ node: Syntax) -> Bool {
    guard let parent = node.parent else { return false }
    if parent.is(InOutExprSyntax.self) { return true }
    if let list = parent.as(ExprListSyntax.self) {
      var iterator = list.makeIterator()
      while let element = iterator.next() {
        if element.id == node.id {
          guard let next = iterator.next() else { return false }
          if next.is(AssignmentExprSyntax.self) { return true }
          if let op = next.as(BinaryOperatorExprSyntax.self) { return isCompoundAssignment(op.operator.text) }
          return false
        }
      }
    }
    if let infix = parent.as(InfixOperatorExprSyntax.self), infix.leftOperand.id == node.id {
      if infix.operator.is(AssignmentExprSyntax.self) { return true }
      if let op = infix.operator.as(BinaryOperatorExprSyntax.self) { return isCompoundAssignment(op.operator.text) }
    }
    return false
  }

  static func isCompoundAssignment(_ op: String) -> Bool {
    op.hasSuffix("=") && !["==", "!=", "<=", ">=", "===", "!=="].contains(op)
  }

  /// A stored property annotated with a plain type name (`let store: Store = .shared`): its whole
  /// declaration can take a protocol's type, where a local's or an optional's cannot.
  static func isPlainAliasProperty(_ binding: PatternBindingSyntax, _ type: TypeSyntax) -> Bool {
    guard binding.parent?.parent?.as(VariableDeclSyntax.self)?.parent?.is(MemberBlockItemSyntax.self) == true else {
      return false
    }
    return type.is(IdentifierTypeSyntax.self) || type.is(MemberTypeSyntax.self)
  }

  /// A local's scope is the statement list it is declared in; a stored property's is its type's member block.
  static func scope(ofBinding binding: PatternBindingSyntax) -> Syntax? {
    guard let variable = binding.parent?.parent?.as(VariableDeclSyntax.self) else { return nil }
    if let item = variable.parent?.as(MemberBlockItemSyntax.self) {
      return item.parent?.parent.map { Syntax($0) }
    }
    if let item = variable.parent?.as(CodeBlockItemSyntax.self) {
      return item.parent.map { Syntax($0) }
    }
    return nil
  }
}

extension MemberChain {
  /// What follows `member` (`X.shared.cart`, or `self.cart` in the singleton's own code) when it may
  /// write it: the members reached through it up to an assignment, an `inout` use or a method call.
  /// Nil when the chain's value is only read.
  public static func following(_ member: ExprSyntax) -> MemberChain? {
    var members: [String] = []
    var node = Syntax(member)
    while let parent = node.parent {
      if let next = parent.as(MemberAccessExprSyntax.self), next.base?.id == node.id {
        let name = next.declName.baseName.text
        if let call = parent.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == parent.id {
          return MemberChain(members: members, end: .call(name))
        }
        members.append(name)
        node = parent
      } else if let next = parent.as(SubscriptCallExprSyntax.self), next.calledExpression.id == node.id {
        members.append("subscript")
        node = parent
      } else if parent.is(ForceUnwrapExprSyntax.self) || parent.is(OptionalChainingExprSyntax.self) {
        node = parent
      } else {
        break
      }
    }
    return ReferenceAnalysis.isAssigned(node) ? MemberChain(members: members, end: .assigned) : nil
  }
}

/// `init(store: Store = Store.shared) { self.store = store }` in a type that declares
/// `let store: Store` (or `var`, with no value, accessors or attributes): the init takes the
/// instance, defaulting to the accessor, and keeps it. The default is where the type gets the
/// instance; every use of the property in the type's member block is a use of it.
public struct HeldParameter {
  /// The stored property that keeps the parameter.
  let property: String
  /// The member block of the type (or extension) that declares the init and the property.
  let scope: Syntax
  /// The statement `self.store = store`, whose names are not uses of the instance.
  let assignment: Range<Int>

  /// `anyType`: the parameter may have any plain type, not only the one the accessor is looked up in.
  init?(defaultValue node: Syntax, anyType: Bool = false) {
    guard let clause = node.parent?.as(InitializerClauseSyntax.self),
      let parameter = clause.parent?.as(FunctionParameterSyntax.self),
      let typeName = anyType ? HeldParameter.compositionName(parameter.type) : HeldParameter.plainTypeName(parameter.type),
      let initializer = parameter.parent?.parent?.parent?.as(FunctionSignatureSyntax.self)?.parent?.as(InitializerDeclSyntax.self),
      let block = initializer.parent?.as(MemberBlockItemSyntax.self)?.parent?.parent?.as(MemberBlockSyntax.self),
      let body = initializer.body
    else { return nil }
    // The default names the parameter's type: `Store.shared`, `Store.shared()`, or `.shared` looked up in it.
    var accessor = ExprSyntax(node)
    if let call = accessor?.as(FunctionCallExprSyntax.self) { accessor = call.calledExpression }
    guard let access = accessor?.as(MemberAccessExprSyntax.self) else { return nil }
    if let base = access.base, !anyType {
      guard base.trimmedDescription.split(separator: ".").last.map(String.init) == typeName else { return nil }
    }
    let parameterName = (parameter.secondName ?? parameter.firstName).text
    guard parameterName != "_" else { return nil }
    var found: (property: String, statement: Range<Int>)?
    for item in body.statements {
      guard let sequence = item.item.as(SequenceExprSyntax.self) else { continue }
      let elements = Array(sequence.elements)
      guard elements.count == 3, elements[1].is(AssignmentExprSyntax.self),
        elements[2].as(DeclReferenceExprSyntax.self)?.baseName.text == parameterName
      else { continue }
      var target: String?
      if let member = elements[0].as(MemberAccessExprSyntax.self),
        member.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self)
      {
        target = member.declName.baseName.text
      } else if let name = elements[0].as(DeclReferenceExprSyntax.self)?.baseName.text, name != parameterName {
        target = name
      }
      guard let target else { continue }
      found = (target, item.positionAfterSkippingLeadingTrivia.utf8Offset..<item.endPositionBeforeTrailingTrivia.utf8Offset)
      break
    }
    guard let found else { return nil }
    // The property is declared in the same member block with the same type and nothing else.
    let declared = block.members.contains { member in
      guard let variable = member.decl.as(VariableDeclSyntax.self), variable.attributes.isEmpty,
        !variable.modifiers.contains(where: { [.keyword(.static), .keyword(.class), .keyword(.lazy)].contains($0.name.tokenKind) }),
        variable.bindings.count == 1, let binding = variable.bindings.first,
        binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == found.property,
        binding.initializer == nil, binding.accessorBlock == nil,
        let type = binding.typeAnnotation?.type
      else { return false }
      return (anyType ? HeldParameter.compositionName(type) : HeldParameter.plainTypeName(type)) == typeName
    }
    guard declared else { return nil }
    property = found.property
    scope = Syntax(block)
    assignment = found.statement
  }

  /// For the accessor used as the default of an init parameter of another type (a protocol
  /// `inject --default-argument` wrote: `init(counting: Counting = Store.shared)`), kept in a
  /// stored property of that type: the property and the type as written.
  public static func typedDefault(_ expression: ExprSyntax) -> (property: String, type: String)? {
    var node = Syntax(expression)
    while let parent = node.parent, parent.is(ForceUnwrapExprSyntax.self) || parent.is(OptionalChainingExprSyntax.self) { node = parent }
    guard let held = HeldParameter(defaultValue: node, anyType: true),
      let type = node.parent?.parent?.as(FunctionParameterSyntax.self)?.type.trimmedDescription
    else { return nil }
    return (held.property, type)
  }

  /// A plain name's last name, or the plain names of a composition (`A & B`) as written.
  static func compositionName(_ type: TypeSyntax) -> String? {
    guard let composition = type.as(CompositionTypeSyntax.self) else { return plainTypeName(type) }
    let names = composition.elements.map { plainTypeName($0.type) }
    return names.contains(nil) ? nil : names.compactMap { $0 }.joined(separator: " & ")
  }

  /// The last name of a type written as a plain name (`Store`, `App.Store`); nil for any other type.
  static func plainTypeName(_ type: TypeSyntax) -> String? {
    if let identifier = type.as(IdentifierTypeSyntax.self), identifier.genericArgumentClause == nil { return identifier.name.text }
    if let member = type.as(MemberTypeSyntax.self), member.genericArgumentClause == nil { return member.name.text }
    return nil
  }
}

/// Finds the uses of an alias of the singleton: `s.member` and `self.s.member` after its declaration.
enum AliasUseFinder {
  static func uses(of name: String, in scope: Syntax, after offset: Int) -> [ExprSyntax] {
    let finder = Finder(name: name, after: offset)
    finder.walk(scope)
    return finder.found
  }

  private final class Finder: SyntaxVisitor {
    let name: String
    let after: Int
    var found: [ExprSyntax] = []

    init(name: String, after: Int) {
      self.name = name
      self.after = after
      super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
      guard node.baseName.text == name, node.position.utf8Offset >= after else { return .visitChildren }
      if let member = node.parent?.as(MemberAccessExprSyntax.self), member.declName.id == node.id {
        if let base = member.base?.as(DeclReferenceExprSyntax.self), base.baseName.tokenKind == .keyword(.self) {
          found.append(ExprSyntax(member))
        }
        return .visitChildren
      }
      found.append(ExprSyntax(node))
      return .visitChildren
    }
  }
}

/// Where a node sits: its enclosing type and member, and whether that member is static.
public enum ReferenceContextFinder {
  /// Whether the innermost type or extension around a node is declared inside a function body or
  /// a closure: a local type, which the index does not hold, and whose name (`context(of:)`'s
  /// `typeName`) may be a top-level type's of the same name.
  public static func isInLocalType(_ node: Syntax) -> Bool {
    var current = node.parent
    var inType = false
    while let syntax = current {
      if syntax.is(ClassDeclSyntax.self) || syntax.is(StructDeclSyntax.self) || syntax.is(EnumDeclSyntax.self)
        || syntax.is(ActorDeclSyntax.self) || syntax.is(ExtensionDeclSyntax.self) || syntax.is(ProtocolDeclSyntax.self)
      {
        inType = true
      } else if inType && (syntax.is(CodeBlockSyntax.self) || syntax.is(ClosureExprSyntax.self)) {
        return true
      }
      current = syntax.parent
    }
    return false
  }

  public static func context(of node: Syntax) -> ReferenceContext {
    var memberName: String?
    var isStatic = false
    var typeNames: [String] = []
    var current = node.parent
    var memberFound = false
    var inPropertyInitializer = false
    while let syntax = current {
      current = syntax.parent
      // Most ancestors are expressions, statements and lists: only these kinds say anything.
      switch syntax.kind {
      case .functionDecl, .initializerDecl, .deinitializerDecl, .variableDecl, .subscriptDecl,
        .classDecl, .structDecl, .enumDecl, .actorDecl, .protocolDecl, .extensionDecl:
        break
      default:
        continue
      }
      if !memberFound, let (name, staticMember) = memberInfo(syntax),
        syntax.parent?.is(MemberBlockItemSyntax.self) == true || syntax.parent?.parent?.parent?.is(SourceFileSyntax.self) == true
      {
        memberName = name
        isStatic = staticMember
        memberFound = true
        // The initial value, not a `willSet`/`didSet` or getter of the same variable.
        if let variable = syntax.as(VariableDeclSyntax.self) {
          let offset = node.position.utf8Offset
          inPropertyInitializer = variable.bindings.contains { binding in
            guard let initializer = binding.initializer else { return false }
            return initializer.position.utf8Offset <= offset && offset < initializer.endPosition.utf8Offset
          }
        }
      } else if let name = typeName(syntax) {
        typeNames.append(name)
      }
    }
    return ReferenceContext(
      typeName: typeNames.isEmpty ? nil : typeNames.reversed().joined(separator: "."),
      memberName: memberName, isStatic: isStatic,
      inPropertyInitializer: inPropertyInitializer)
  }

  public static func memberInfo(_ syntax: Syntax) -> (String, Bool)? {
    if let function = syntax.as(FunctionDeclSyntax.self) {
      let labels = function.signature.parameterClause.parameters.map { "\($0.firstName.text):" }.joined()
      return ("\(function.name.text)(\(labels))", function.modifiers.isStatic)
    }
    if let initializer = syntax.as(InitializerDeclSyntax.self) {
      let labels = initializer.signature.parameterClause.parameters.map { "\($0.firstName.text):" }.joined()
      return ("init(\(labels))", false)
    }
    if syntax.is(DeinitializerDeclSyntax.self) { return ("deinit", false) }
    if let variable = syntax.as(VariableDeclSyntax.self) {
      let names = variable.bindings.compactMap { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text }
      return (names.joined(separator: ", "), variable.modifiers.isStatic)
    }
    if let subscriptDecl = syntax.as(SubscriptDeclSyntax.self) { return ("subscript", subscriptDecl.modifiers.isStatic) }
    return nil
  }

  static func typeName(_ syntax: Syntax) -> String? {
    if let node = syntax.as(ClassDeclSyntax.self) { return node.name.text }
    if let node = syntax.as(StructDeclSyntax.self) { return node.name.text }
    if let node = syntax.as(EnumDeclSyntax.self) { return node.name.text }
    if let node = syntax.as(ActorDeclSyntax.self) { return node.name.text }
    if let node = syntax.as(ProtocolDeclSyntax.self) { return node.name.text }
    if let node = syntax.as(ExtensionDeclSyntax.self) { return node.extendedType.raw.trimmedText }
    return nil
  }
}
