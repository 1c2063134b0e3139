import DesingletonCore
import DesingletonIndex
import SwiftSyntax

/// The singleton's own instance code reading its accessor (`func reload() { Store.shared.bump() }`):
/// once the root owns the one instance, that instance is `self` there. A use stays a blocker where
/// `self` is not that instance or cannot be written: a static member, an init or a stored property's
/// initial value (`self` is not ready), a struct (a copy), a type the project only extends, a closure
/// that captures `self` weakly, a reassignment of the accessor.
enum SelfUses {
  static func canBeSelf(_ item: RemainingReference, singleton: Singleton, project: Project) throws -> Bool {
    let reference = item.reference
    guard item.kind == .singleton, !singleton.isForeign, [.class, .actor].contains(singleton.typeKind),
      !reference.context.isStatic, !reference.context.isAtInitTime, reference.context.memberName != nil, reference.alias == nil
    else { return false }
    switch reference.use {
    case .member, .instance, .alias, .keyPath: break
    default: return false
    }
    let file = try project.file(reference.range.path)
    guard let node = file.expression(at: reference.range.bytes) else { return false }
    var current = node.parent
    while let syntax = current {
      if let closure = syntax.as(ClosureExprSyntax.self),
        closure.signature?.capture?.items.contains(where: { $0.specifier?.specifier.tokenKind == .keyword(.weak) }) == true,
        !unwrapsSelf(closure, before: node)
      {
        return false
      }
      current = syntax.parent
    }
    return true
  }

  /// Whether `self` is the instance where `node` is in a closure that captures it weakly: a
  /// statement of the closure's body before the one holding `node` is `guard let self` (or
  /// `guard let self = self`), or `node` is in the body of an `if let self` among its statements.
  static func unwrapsSelf(_ closure: ClosureExprSyntax, before node: ExprSyntax) -> Bool {
    func bindsSelf(_ conditions: ConditionElementListSyntax) -> Bool {
      conditions.contains { element in
        guard case .optionalBinding(let binding) = element.condition,
          binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.tokenKind == .keyword(.self)
        else { return false }
        guard let value = binding.initializer?.value else { return true }
        return value.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self)
      }
    }
    let offset = node.positionAfterSkippingLeadingTrivia
    for item in closure.statements {
      if item.position <= offset, offset < item.endPosition {
        guard let ifExpr = item.item.as(ExpressionStmtSyntax.self)?.expression.as(IfExprSyntax.self) else { return false }
        return bindsSelf(ifExpr.conditions) && ifExpr.body.position <= offset && offset < ifExpr.body.endPosition
      }
      if let guardStmt = item.item.as(GuardStmtSyntax.self), bindsSelf(guardStmt.conditions) { return true }
    }
    return false
  }
}
