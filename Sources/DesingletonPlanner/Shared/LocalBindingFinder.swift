import SwiftSyntax

/// Whether a local named `name` is declared in a code block enclosing `node`, before it.
enum LocalBindingFinder {
  static func declares(_ name: String, before node: Syntax) -> Bool {
    var current = node.parent
    while let syntax = current {
      if let block = syntax.as(CodeBlockItemListSyntax.self) {
        for item in block where item.endPosition <= node.position {
          guard let variable = item.item.as(VariableDeclSyntax.self) else { continue }
          if variable.bindings.contains(where: { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name }) {
            return true
          }
        }
      }
      if let function = syntax.as(FunctionDeclSyntax.self), declares(name, in: function.signature.parameterClause) { return true }
      if let initializer = syntax.as(InitializerDeclSyntax.self), declares(name, in: initializer.signature.parameterClause) {
        return true
      }
      if syntax.is(MemberBlockItemSyntax.self) { return false }
      current = syntax.parent
    }
    return false
  }

  private static func declares(_ name: String, in clause: FunctionParameterClauseSyntax) -> Bool {
    clause.parameters.contains { ($0.secondName ?? $0.firstName).text == name }
  }
}
