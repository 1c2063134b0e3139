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
