import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftSyntax

/// Which required inits `inject` leaves as they are (giving them the shared instance), asked by
/// `inject` (call sites, inits, what an earlier run wrote) and by `finish` (why the accessor stays).
extension Project {
  /// Whether a `required` init must keep its signature, so that `inject` leaves its parameters as
  /// they are and gives it the shared instance: `init?(coder:)`; one a project superclass declares,
  /// or any when a superclass is a framework's or a type the model does not know; any when a
  /// project subclass may override it;
  /// one a protocol the class conforms to requires or may require; and any init of a class that
  /// code may create through a metatype (`Panel.self`, `Panel.Type`, a generic constrained to it,
  /// `Self()` or `type(of:)` in its own code), which only a required init serves. A class's own
  /// required init that none of these asks for is reached only by naming the class: an init like
  /// any other. An init without `required` keeps its signature where a protocol the type conforms
  /// to declares it (the project's, or a requirement the framework model knows).
  /// The init whose body holds a reference, among the members of the type it is in.
  func enclosingInit(of reference: Reference, in owner: String) -> MemberDecl? {
    let start = reference.range.bytes.lowerBound
    return index.members(of: owner).first { member in
      member.kind == .initializer && member.range.path == reference.range.path && member.range.bytes.contains(start)
    }
  }

  func requiredInitKeepsItsSignature(_ member: MemberDecl, of typeName: String) -> Bool {
    guard member.kind == .initializer else { return false }
    guard member.modifiers.contains("required") else {
      // A value type's or a final class's init that a protocol it conforms to declares (`protocol
      // Screen { init() }`): only the project's protocols and the framework's known requirements,
      // since any init may conform to a protocol the model does not know.
      return index.conformances(of: typeName).contains { conformance in
        guard let declaration = index.primaryDeclaration(of: conformance), declaration.kind == .protocol else {
          return FrameworkTypes.initRequirements(of: conformance)?.contains(member.labels) == true
        }
        return declaration.members.contains { $0.kind == .initializer && $0.labels == member.labels }
      }
    }
    if member.labels == ["coder"] { return true }
    if !index.subclasses(of: typeName).isEmpty { return true }
    for step in index.superclassChain(of: typeName) {
      guard case .project(let name) = step else { return true }
      let declares = index.members(of: name).contains { other in
        other.kind == .initializer && other.modifiers.contains("required") && other.labels == member.labels
      }
      if declares { return true }
    }
    for conformance in index.conformances(of: typeName) {
      guard let declaration = index.primaryDeclaration(of: conformance), declaration.kind == .protocol else {
        if FrameworkTypes.initRequirements(of: conformance)?.contains(member.labels) != false { return true }
        continue
      }
      if declaration.members.contains(where: { $0.kind == .initializer && $0.labels == member.labels }) { return true }
    }
    return answer("metatype-creation \(typeName)") { mayCreateThroughMetatype(typeName) }
  }

  /// Whether code may name the class's metatype: `Panel.self`, `Panel.Type`, a generic parameter or
  /// requirement constrained to it (`<T: Panel>`, `where T == Panel`), or, in a file declaring it,
  /// `Self(...)`, `Self.init` or `type(of:)`. The files whose bytes can hold one are read as syntax,
  /// so a comment or a string is not a metatype; a file that does not parse counts as one.
  private func mayCreateThroughMetatype(_ typeName: String) -> Bool {
    // The type's name or an alias's (`Made.self` after `typealias Made = Panel`).
    let names = InitCallFinder.writtenNames(of: typeName, index: index)
    // What each shape needs in the bytes: `Panel.self`, `Panel.Type`, `: Panel` or `== Panel`.
    let hints = names.flatMap { simple in
      [".self", ".Type", ": ", ":", "== ", "=="].map { Array(($0.hasPrefix(".") ? simple + $0 : $0 + simple).utf8) }
    }
    let own = ["Self", "type"].map { Array($0.utf8) }
    let declared = Set(index.declarations(of: typeName).map(\.path))
    for path in InitCallFinder.paths(naming: typeName, project: self) {
      guard let bytes = bytes(path) else { continue }
      let declaresIt = declared.contains(path)
      guard containsAny(hints, in: bytes) || (declaresIt && containsAny(own, in: bytes)) else { continue }
      guard let file = try? file(path) else { return true }
      let finder = MetatypeUseFinder(simpleNames: Set(names), ownCode: declaresIt)
      finder.walk(file.tree)
      if finder.found { return true }
    }
    return false
  }
}

/// Finds a use of a type's metatype in a file (`MetatypeUseFinder.found`): the metatype as a value
/// or a type, a generic constrained to the type, and with `ownCode` (the file declares the type)
/// `Self(...)`, `Self.init` or `type(of:)`. `simpleNames`: the type's name and its aliases'.
final class MetatypeUseFinder: SyntaxVisitor {
  let simpleNames: Set<String>
  let ownCode: Bool
  private(set) var found = false

  init(simpleNames: Set<String>, ownCode: Bool) {
    self.simpleNames = simpleNames
    self.ownCode = ownCode
    super.init(viewMode: .sourceAccurate)
  }

  /// `Panel`, `Module.Panel`, `Panel<T>`: a type written with the name last.
  private func names(_ type: TypeSyntax) -> Bool {
    if let identifier = type.as(IdentifierTypeSyntax.self) { return simpleNames.contains(identifier.name.text) }
    if let member = type.as(MemberTypeSyntax.self) { return simpleNames.contains(member.name.text) }
    if let attributed = type.as(AttributedTypeSyntax.self) { return names(attributed.baseType) }
    return false
  }

  private func names(_ expression: ExprSyntax) -> Bool {
    if let reference = expression.as(DeclReferenceExprSyntax.self) { return simpleNames.contains(reference.baseName.text) }
    if let member = expression.as(MemberAccessExprSyntax.self) { return simpleNames.contains(member.declName.baseName.text) }
    if let specialized = expression.as(GenericSpecializationExprSyntax.self) { return names(specialized.expression) }
    return false
  }

  private func saw(_ condition: Bool) -> SyntaxVisitorContinueKind {
    if condition { found = true }
    return found ? .skipChildren : .visitChildren
  }

  override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
    let name = node.declName.baseName.text
    if (name == "self" || name == "Type"), let base = node.base, names(base) { return saw(true) }
    if ownCode, name == "init", node.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "Self" { return saw(true) }
    return saw(false)
  }

  override func visit(_ node: MetatypeTypeSyntax) -> SyntaxVisitorContinueKind { saw(names(node.baseType)) }

  override func visit(_ node: GenericParameterSyntax) -> SyntaxVisitorContinueKind {
    saw(node.inheritedType.map(names) ?? false)
  }

  override func visit(_ node: ConformanceRequirementSyntax) -> SyntaxVisitorContinueKind { saw(names(node.rightType)) }

  override func visit(_ node: SameTypeRequirementSyntax) -> SyntaxVisitorContinueKind {
    let sides: [TypeSyntax?] = [Syntax(node.leftType).as(TypeSyntax.self), Syntax(node.rightType).as(TypeSyntax.self)]
    return saw(sides.contains { side in side.map { names($0) } ?? false })
  }

  override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
    guard ownCode, let called = node.calledExpression.as(DeclReferenceExprSyntax.self) else { return saw(false) }
    let name = called.baseName.text
    return saw(name == "Self" || (name == "type" && node.arguments.first?.label?.text == "of"))
  }
}
