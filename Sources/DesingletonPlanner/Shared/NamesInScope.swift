import SwiftSyntax

/// Every name a new member of a type could collide with inside that type's declarations: names it
/// declares anywhere (members, parameters and their labels, locals, closure parameters, pattern
/// bindings) and names its code refers to (globals, inherited members). A property named like any of
/// them could shadow a local (`currentCart.cart == Shop.shared.cart` would compare a value with
/// itself) or redeclare a parameter.
enum NamesInScope {
  static func names(in nodes: [Syntax]) -> Set<String> {
    let visitor = Visitor(viewMode: .sourceAccurate)
    for node in nodes { visitor.walk(node) }
    return visitor.names
  }

  /// The names declared for a while inside the nodes' code: parameters (their internal names),
  /// closure parameters, and locals (a pattern inside a body or a closure, not a stored property),
  /// but a local whose initial value starts at one of `skipping` (byte offsets).
  static func declaredLocally(in nodes: [Syntax], skipping: Set<Int> = []) -> Set<String> {
    var names: Set<String> = []
    for node in nodes {
      for token in node.tokens(viewMode: .sourceAccurate) {
        guard case .identifier = token.tokenKind else { continue }
        guard let parent = token.parent else { continue }
        if let parameter = parent.as(FunctionParameterSyntax.self) {
          if token.id == (parameter.secondName ?? parameter.firstName).id { names.insert(token.text) }
        } else if let parameter = parent.as(ClosureParameterSyntax.self) {
          if token.id == (parameter.secondName ?? parameter.firstName).id { names.insert(token.text) }
        } else if parent.is(ClosureShorthandParameterSyntax.self) {
          names.insert(token.text)
        } else if parent.is(IdentifierPatternSyntax.self), isInsideCode(parent) {
          let value = parent.parent?.as(PatternBindingSyntax.self)?.initializer?.value
          if let value, skipping.contains(value.positionAfterSkippingLeadingTrivia.utf8Offset) { continue }
          names.insert(token.text)
        }
      }
    }
    return names
  }

  /// Whether a node sits in a body or a closure rather than directly in a type's members.
  private static func isInsideCode(_ node: Syntax) -> Bool {
    var current = node.parent
    while let syntax = current {
      if syntax.is(CodeBlockSyntax.self) || syntax.is(ClosureExprSyntax.self) || syntax.is(AccessorBlockSyntax.self) { return true }
      if syntax.is(MemberBlockItemSyntax.self) { return false }
      current = syntax.parent
    }
    return false
  }

  /// `preferred`, else the first of `others` not in `taken`, else `preferred` numbered from 2
  /// (`counter2`): a name for a new property or local that collides with nothing there.
  static func free(_ preferred: String, or others: [String] = [], taken: Set<String>) -> String {
    if let name = ([preferred] + others).first(where: { !taken.contains($0) }) { return name }
    var counter = 2
    while taken.contains("\(preferred)\(counter)") { counter += 1 }
    return "\(preferred)\(counter)"
  }

  private final class Visitor: SyntaxVisitor {
    var names: Set<String> = ["newValue", "oldValue", "error"]

    override func visit(_ node: FunctionParameterSyntax) -> SyntaxVisitorContinueKind {
      names.insert(node.firstName.text)
      if let second = node.secondName { names.insert(second.text) }
      return .visitChildren
    }

    override func visit(_ node: ClosureParameterSyntax) -> SyntaxVisitorContinueKind {
      names.insert(node.firstName.text)
      if let second = node.secondName { names.insert(second.text) }
      return .visitChildren
    }

    override func visit(_ node: ClosureShorthandParameterSyntax) -> SyntaxVisitorContinueKind {
      names.insert(node.name.text)
      return .visitChildren
    }

    override func visit(_ node: IdentifierPatternSyntax) -> SyntaxVisitorContinueKind {
      names.insert(node.identifier.text)
      return .visitChildren
    }

    override func visit(_ node: OptionalBindingConditionSyntax) -> SyntaxVisitorContinueKind {
      if let name = node.pattern.as(IdentifierPatternSyntax.self) { names.insert(name.identifier.text) }
      return .visitChildren
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
      // `x.name` names a member of something else, which a new property cannot shadow.
      if let member = node.parent?.as(MemberAccessExprSyntax.self), member.declName.id == node.id, member.base != nil {
        return .visitChildren
      }
      names.insert(node.baseName.text)
      return .visitChildren
    }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
      names.insert(node.name.text)
      return .visitChildren
    }

    override func visit(_ node: EnumCaseElementSyntax) -> SyntaxVisitorContinueKind {
      names.insert(node.name.text)
      return .visitChildren
    }
  }
}
