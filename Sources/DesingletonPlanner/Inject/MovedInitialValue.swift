import DesingletonIndex
import SwiftSyntax

/// A stored property whose initial value creates a consumer that must be given the creator's own
/// properties: the value moves into the creator's inits (`self.name = value`), the declaration
/// keeps its type.
struct MovedInitialValue {
  var binding: PatternBindingSyntax
  var variable: VariableDeclSyntax
  var name: String

  /// The binding of the instance stored property whose initial value holds `node`, outside closures;
  /// nil for a lazy or static one, a local, or one of several bindings.
  init?(around node: Syntax) {
    var current = node.parent
    while let syntax = current {
      if syntax.is(ClosureExprSyntax.self) || syntax.is(CodeBlockSyntax.self) || syntax.is(AccessorBlockSyntax.self) {
        return nil
      }
      if let clause = syntax.as(InitializerClauseSyntax.self), let binding = clause.parent?.as(PatternBindingSyntax.self),
        let variable = binding.parent?.parent?.as(VariableDeclSyntax.self), variable.parent?.is(MemberBlockItemSyntax.self) == true,
        variable.bindings.count == 1, let pattern = binding.pattern.as(IdentifierPatternSyntax.self)
      {
        if variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.lazy) }) || variable.modifiers.isStatic { return nil }
        // Moved into the inits, outside the `#if` it is declared under, it would be assigned in
        // every configuration, once per clause.
        if Self.isUnderIfConfig(variable) { return nil }
        self.binding = binding
        self.variable = variable
        self.name = pattern.identifier.text
        return
      }
      if syntax.is(MemberBlockItemSyntax.self) { return nil }
      current = syntax.parent
    }
    return nil
  }

  /// Whether a member is declared inside an `#if` clause of its type's body.
  static func isUnderIfConfig(_ member: VariableDeclSyntax) -> Bool {
    var current = member.parent
    while let syntax = current, !syntax.is(MemberBlockSyntax.self) {
      if syntax.is(IfConfigClauseSyntax.self) { return true }
      current = syntax.parent
    }
    return false
  }

  func inferredType(_ index: Index) -> String? {
    binding.initializer.flatMap { InitCallFinder.writtenType(of: $0.value, index: index) }
  }

  /// The statement an init sets the property with: through the wrapper's storage for a SwiftUI
  /// wrapper (`self._model = StateObject(wrappedValue: value)`).
  func assignment(_ value: String, index: Index) -> String {
    (ViewProperty(variable, index: index) ?? .otherWrapper("")).assignment(name, value)
  }
}
