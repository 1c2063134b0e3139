import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftParser
import SwiftSyntax

/// Which members a body uses, and whether it uses `super`, `self` as a value, or writes a member.
final class BodyUseCollector: SyntaxVisitor {
  let names: Set<String>
  /// Whether a method of the name may mutate the value it is called on.
  let isMutating: (String) -> Bool
  var found: Set<String> = []
  var usesSuper = false
  var usesSelfDirectly = false
  var writes = false

  init(names: Set<String>, isMutating: @escaping (String) -> Bool = { _ in false }) {
    self.names = names
    self.isMutating = isMutating
    super.init(viewMode: .sourceAccurate)
  }

  override func visit(_ node: SuperExprSyntax) -> SyntaxVisitorContinueKind {
    usesSuper = true
    return .skipChildren
  }

  override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
    let name = node.baseName.text
    if node.baseName.tokenKind == .keyword(.self) || name == "Self" {
      let isBase = node.parent?.as(MemberAccessExprSyntax.self).map { $0.base?.id == node.id } ?? false
      if !isBase { usesSelfDirectly = true }
      return .visitChildren
    }
    guard names.contains(name) else { return .visitChildren }
    var accessed = Syntax(node)
    if let member = node.parent?.as(MemberAccessExprSyntax.self), member.declName.id == node.id {
      guard let base = member.base?.as(DeclReferenceExprSyntax.self), base.baseName.tokenKind == .keyword(.self) else {
        return .visitChildren
      }
      accessed = Syntax(member)
    }
    found.insert(name)
    if isWriteTarget(accessed) { writes = true }
    return .visitChildren
  }

  private func isWriteTarget(_ node: Syntax) -> Bool {
    var current = node
    while let parent = current.parent {
      // A method called on a value reached through a member may mutate it.
      if let call = parent.as(FunctionCallExprSyntax.self), call.calledExpression.id == current.id, current.id != node.id {
        let method = current.as(MemberAccessExprSyntax.self)?.declName.baseName.text ?? ""
        return isMutating(method)
      }
      if let member = parent.as(MemberAccessExprSyntax.self), member.base?.id == current.id {
        current = parent
        continue
      }
      if let subscriptCall = parent.as(SubscriptCallExprSyntax.self), subscriptCall.calledExpression.id == current.id {
        current = parent
        continue
      }
      break
    }
    guard let parent = current.parent else { return false }
    if parent.is(InOutExprSyntax.self) { return true }
    if let list = parent.as(ExprListSyntax.self) {
      let elements = Array(list)
      if let position = elements.firstIndex(where: { $0.id == current.id }), position + 1 < elements.count {
        let next = elements[position + 1]
        if next.is(AssignmentExprSyntax.self) { return true }
        if let op = next.as(BinaryOperatorExprSyntax.self)?.operator.text, op.hasSuffix("="),
          !["==", "!=", "<=", ">=", "===", "!=="].contains(op)
        {
          return true
        }
      }
    }
    return false
  }
}

/// Where a node names one of `names` on its own, as a type (`Event`) or a value (`Event(...)`,
/// `helper`), not as the member of something else (`x.helper`).
final class NameUseFinder: SyntaxVisitor {
  let names: Set<String>
  /// Each use: the name and the offset where it starts.
  var uses: [(name: String, offset: Int)] = []

  init(names: Set<String>) {
    self.names = names
    super.init(viewMode: .sourceAccurate)
  }

  var found: Set<String> { Set(uses.map(\.name)) }

  override func visit(_ node: IdentifierTypeSyntax) -> SyntaxVisitorContinueKind {
    if names.contains(node.name.text) { uses.append((node.name.text, node.positionAfterSkippingLeadingTrivia.utf8Offset)) }
    return .visitChildren
  }

  override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
    guard names.contains(node.baseName.text) else { return .visitChildren }
    if let member = node.parent?.as(MemberAccessExprSyntax.self), member.declName.id == node.id { return .visitChildren }
    uses.append((node.baseName.text, node.positionAfterSkippingLeadingTrivia.utf8Offset))
    return .visitChildren
  }
}
