import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftSyntax

extension FinishPlanner {
  /// A root that receives the instance through one of its inits is itself created by the real root
  /// (after `inject --all` moved the accessor up to its creator): owning another instance would split
  /// the state between two of them.
  static func checkRootDoesNotReceiveTheInstance(_ singleton: Singleton, root: String, project: Project) throws {
    let index = project.index
    let accepted = typesHoldingTheInstance(singleton, index: index)
    for member in index.members(of: root) where member.kind == .initializer && !member.isStatic {
      let file = try project.file(member.range.path)
      guard let initializer = file.node(at: member.range.bytes)?.as(InitializerDeclSyntax.self) else { continue }
      for parameter in initializer.signature.parameterClause.parameters {
        guard namedTypes(in: parameter.type).contains(where: { accepted.contains(index.resolveType($0)) }) else { continue }
        let creators = try CompositionRoots.creators(of: root, project: project).filter { !index.isTestType($0) }
        var message = "'\(root)' receives the instance through '\(member.displayName)', so it is not the composition root: "
          + "a second instance would change behaviour; run 'desingleton finish' with the type that creates it as --root"
        if !creators.isEmpty { message += ": " + creators.map { "'\($0)'" }.joined(separator: ", ") }
        throw Refusal(message, at: file.source.location(ofOffset: parameter.positionAfterSkippingLeadingTrivia.utf8Offset))
      }
    }
  }

  /// The singleton's type and every protocol it conforms to, with what those refine.
  static func typesHoldingTheInstance(_ singleton: Singleton, index: Index) -> Set<String> {
    var result: Set<String> = [singleton.typeName]
    // What the singleton's own declarations list counts even when a command did not index the
    // protocol's file; the standard protocols every type may list do not.
    let standard: Set<String> = ["AnyObject", "Sendable", "Equatable", "Hashable", "Codable", "NSObject", "NSObjectProtocol"]
    let direct = index.declarations(of: singleton.typeName).flatMap(\.inherited).map(index.resolveType)
    result.formUnion(direct.filter { !standard.contains($0) })
    var pending = direct
    while let name = pending.popLast() {
      let protocols = index.declarations(of: name).filter { $0.kind == .protocol }
      let refined = protocols.flatMap(\.inherited).map(index.resolveType).filter { !standard.contains($0) && !result.contains($0) }
      result.formUnion(refined)
      pending.append(contentsOf: refined)
    }
    return result
  }

  /// The type names a parameter's type is made of: `Counting`, `any Counting`, `(any A & B)?`.
  static func namedTypes(in type: TypeSyntax) -> [String] {
    if let identifier = type.as(IdentifierTypeSyntax.self) { return [identifier.name.text] }
    if let member = type.as(MemberTypeSyntax.self) { return [member.trimmedDescription] }
    if let existential = type.as(SomeOrAnyTypeSyntax.self) { return namedTypes(in: existential.constraint) }
    if let optional = type.as(OptionalTypeSyntax.self) { return namedTypes(in: optional.wrappedType) }
    if let optional = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return namedTypes(in: optional.wrappedType) }
    if let attributed = type.as(AttributedTypeSyntax.self) { return namedTypes(in: attributed.baseType) }
    if let tuple = type.as(TupleTypeSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
      return namedTypes(in: only.type)
    }
    if let composition = type.as(CompositionTypeSyntax.self) { return composition.elements.flatMap { namedTypes(in: $0.type) } }
    return []
  }
}

// MARK: - Tests

extension FinishPlanner {
  /// The test references a fresh instance per test function cannot stand for, with the reason. A
  /// fresh instance keeps a test's behaviour only where the test hands it to what it creates
  /// (`Screen(counting: Store.shared)`); a test that reads or calls the shared instance itself checks
  /// the state code under test left in it, which a fresh instance would not have.
  static func testReferencesToRefuse(_ items: [RemainingReference], project: Project) throws -> [Reference: String] {
    let index = project.index
    var reasons: [Reference: String] = [:]
    var membersByType: [String: Set<String>] = [:]
    var outsideTests: [(reference: Reference, type: String)] = []
    for item in items {
      let file = try project.file(item.reference.range.path)
      guard let node = file.expression(at: item.reference.range.bytes) else { continue }
      guard item.reference.alias == nil, isInitializerArgument(node, index: index) || InitCallFinder.isEnvironmentValue(node) else {
        reasons[item.reference] = "other than as an argument of an initializer: a fresh instance there would not be "
          + "the one the code under test uses; change the test by hand"
        continue
      }
      let type = item.typeName ?? file.path
      let function = enclosingFunction(of: Syntax(node))
      let member = function.map { "\($0.position.utf8Offset)" } ?? (item.reference.context.memberName ?? "")
      membersByType[type, default: []].insert(member)
      if !(function.map(isTestFunction) ?? false) { outsideTests.append((item.reference, type)) }
    }
    // A helper, `setUp()` or a property gets its own instance, which another member's would not be.
    for (reference, type) in outsideTests where (membersByType[type]?.count ?? 0) > 1 {
      reasons[reference] = "outside a test function while other members of '\(type)' use it too: one fresh "
        + "instance cannot stand for all of them; change the test by hand"
    }
    return reasons
  }

  /// `T(label: <expression>)` or `T.init(label: <expression>)` where `T` is a type the index declares.
  static func isInitializerArgument(_ expression: ExprSyntax, index: Index) -> Bool {
    guard let argument = expression.parent?.as(LabeledExprSyntax.self), argument.expression.id == expression.id,
      let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self), call.arguments.id == argument.parent?.id
    else { return false }
    var called = call.calledExpression
    if let member = called.as(MemberAccessExprSyntax.self), member.declName.baseName.tokenKind == .keyword(.`init`),
      let base = member.base
    {
      called = base
    }
    // A command may index only the files naming the singleton and the root: a type it does not see is
    // still created by `T(...)`, and only a protocol cannot be.
    guard let written = called.typeReferenceText, written != "Self" else { return false }
    return !index.declarations(of: index.resolveType(written)).contains { $0.kind == .protocol }
  }

  /// A Swift Testing `@Test` function, or an XCTest method (`test...()`, which XCTest finds by its name).
  static func isTestFunction(_ function: FunctionDeclSyntax) -> Bool {
    let isAttributed = function.attributes.contains {
      $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "Test"
    }
    return isAttributed
      || (function.name.text.hasPrefix("test") && function.signature.parameterClause.parameters.isEmpty)
  }

  static func enclosingFunction(of node: Syntax) -> FunctionDeclSyntax? {
    var current = node.parent
    while let syntax = current {
      if let function = syntax.as(FunctionDeclSyntax.self) { return function }
      if syntax.is(MemberBlockItemSyntax.self) { return nil }
      current = syntax.parent
    }
    return nil
  }
}

// MARK: - The root's stored properties
