import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftParser
import SwiftSyntax

/// The access a slice's protocol needs, and the members that cannot have it.
///
/// A consumer of the slice in another module (tests aside: they see internal declarations through
/// `@testable import`) needs the protocol `public`, or `package` when every such module is a target
/// of the singleton's own package (tools version 5.9 or later); a member less visible than that
/// cannot be in it and stays on the singleton with the reason, instead of lowering the protocol.
/// Where all members are public the protocol is public, so that a public init can take it. Otherwise the protocol
/// is as visible as the singleton and all its members allow. A member whose signature names a type
/// private to its file cannot be a requirement in another file at all; one that names a type less
/// visible than the protocol lowers it, or stays when the protocol must be public.
struct SliceVisibility {
  var access: AccessLevel
  var excluded: [(member: MemberDecl, reason: String)] = []

  /// The one answer for `extract-protocol` and for the suggestion `scan` prints: a member that
  /// cannot have the access is left out of a suggested slice with the reason, and refused in one
  /// named with `--slice`.
  init(slice: Slice, members: [MemberDecl], analysis: SingletonAnalysis, primary: TypeDecl, project: Project) throws {
    var outside: Demand?
    let homes = ProtocolHome.modules(primary: primary, references: analysis.references, project: project)
    // A consumer that can never hold the slice (`Holders`) keeps the accessor and asks nothing of it.
    for consumer in analysis.receivers where !consumer.members.isDisjoint(with: slice.members) {
      guard let demand = Self.demand(of: consumer, homes: homes, project: project) else { continue }
      if outside == nil || demand.floor == .public { outside = demand }
    }
    // A class declared in Objective-C is public to Swift wherever it is imported: its protocols,
    // declared among the Swift code, are as open as their consumers need and no more.
    var level = project.index.isObjectiveC(primary.path) ? .internal : min(primary.access ?? .internal, .public)
    for member in members {
      let exposure = try Self.exposure(of: member, project: project)
      if let hidden = exposure.hidden, hidden.access <= .fileprivate {
        excluded.append((member, "its signature names '\(hidden.name)', which is \(hidden.access.keyword) to its file"))
        continue
      }
      if let outside, let reason = Self.misfit(exposure, outside, slice: "'\(slice.name)'") {
        excluded.append((member, reason))
        continue
      }
      level = min(level, exposure.level)
    }
    // Public where everything allows it (a public init may then take the protocol), else `package`.
    access = outside.map { max(level, $0.floor) } ?? max(level, .internal)
  }

  /// Why a member exposed as `exposure` cannot be in a slice (`slice` names it) that `outside` needs,
  /// or nil when it can.
  static func misfit(_ exposure: Exposure, _ outside: Demand, slice: String) -> String? {
    guard exposure.level < outside.floor else { return nil }
    let what = exposure.hidden.map { "its signature names '\($0.name)', which is \($0.access.keyword)" }
      ?? "it is \(exposure.level.keyword)"
    return "\(what), and \(slice) must be \(outside.floor.keyword): '\(outside.consumer)' in module '\(outside.module)' uses it"
  }

  /// What a consumer outside the singleton's modules asks of every slice it uses: `public`, or
  /// `package` when every such module is a target of the singleton's own package.
  struct Demand: Equatable {
    var floor: AccessLevel
    var consumer: String
    var module: String
  }

  /// The access a consumer needs of the slices it uses, or nil when it shares a module with the
  /// singleton (tests aside: they see internal declarations through `@testable import`). A file can
  /// be in several targets (an iOS and a Mac app): a consumer is outside when it shares none of the
  /// singleton file's modules.
  /// `homes`: the modules the protocols are declared in (`ProtocolHome.modules`).
  static func demand(of consumer: ConsumerUsage, homes: Set<String>, project: Project) -> Demand? {
    let modules = project.modules
    guard !homes.isEmpty else { return nil }
    var demand: Demand?
    for reference in consumer.references {
      let owners = modules.modules(of: reference.range.path)
      guard let module = owners.first, homes.isDisjoint(with: owners),
        !modules.targets(named: module).contains(where: \.isTest), !project.index.isInTest(reference)
      else { continue }
      if demand == nil { demand = Demand(floor: .package, consumer: consumer.typeName, module: module) }
      if !homes.contains(where: { modules.module(module, sharesPackageWith: $0) }) {
        demand = Demand(floor: .public, consumer: consumer.typeName, module: module)
      }
    }
    return demand
  }

  /// The most a member can be exposed as: its own access (at most `public`), lowered by the least
  /// visible type its signature names (`hidden`).
  struct Exposure {
    var level: AccessLevel
    var hidden: (name: String, access: AccessLevel)?
  }

  static func exposure(of member: MemberDecl, project: Project) throws -> Exposure {
    let index = project.index
    func capped(_ level: AccessLevel?) -> AccessLevel { min(level ?? .internal, .public) }
    var exposure = Exposure(level: capped(member.access))
    let file = try project.file(member.range.path)
    guard let node = file.node(at: member.range.bytes) else { return exposure }
    // A generic parameter (of the member or of a type around it) is no type of the code; nor is
    // a private or file-private type of another file, which this file cannot see.
    let generics = Self.genericParameterNames(around: node)
    for name in Self.signatureTypeNames(of: node) where !generics.contains(name) {
      let declarations = index.types(named: name).flatMap { index.declarations(of: $0) }.filter {
        !$0.isExtension && ($0.path == member.range.path || ($0.access ?? .internal) > .fileprivate)
      }
      for declaration in declarations {
        let declared = capped(declaration.access)
        if declared < exposure.level || (declared <= .fileprivate && exposure.hidden == nil) {
          exposure.level = min(exposure.level, declared)
          exposure.hidden = (name, declared)
        }
      }
    }
    return exposure
  }

  /// The type names a member's declaration (not its body) spells: property types, parameter and
  /// result types, generic constraints; each once, in the order they are written (so that a reason
  /// names the same type on every run: the first written of the least visible).
  static func signatureTypeNames(of node: Syntax) -> [String] {
    var roots: [Syntax] = []
    if let variable = node.as(VariableDeclSyntax.self) {
      roots = variable.bindings.compactMap { binding -> Syntax? in binding.typeAnnotation.map { Syntax($0) } }
    } else if let function = node.as(FunctionDeclSyntax.self) {
      roots = [Syntax(function.signature)]
      if let generics = function.genericParameterClause { roots.append(Syntax(generics)) }
      if let constraints = function.genericWhereClause { roots.append(Syntax(constraints)) }
    } else if let subscriptDecl = node.as(SubscriptDeclSyntax.self) {
      roots = [Syntax(subscriptDecl.parameterClause), Syntax(subscriptDecl.returnClause)]
    }
    let finder = TypeNameFinder(viewMode: .sourceAccurate)
    for root in roots { finder.walk(root) }
    return finder.names
  }

  /// The generic parameters a declaration's signature can name: its own, and those of the types
  /// and extensions around it.
  static func genericParameterNames(around node: Syntax) -> Set<String> {
    var names: Set<String> = []
    var current: Syntax? = node
    while let syntax = current {
      let clause: GenericParameterClauseSyntax?
      if let function = syntax.as(FunctionDeclSyntax.self) {
        clause = function.genericParameterClause
      } else if let subscriptDecl = syntax.as(SubscriptDeclSyntax.self) {
        clause = subscriptDecl.genericParameterClause
      } else if let type = syntax.asProtocol(WithGenericParametersSyntax.self) {
        clause = type.genericParameterClause
      } else {
        clause = nil
      }
      for parameter in clause?.parameters ?? [] { names.insert(parameter.name.text) }
      current = syntax.parent
    }
    return names
  }

  private final class TypeNameFinder: SyntaxVisitor {
    private(set) var names: [String] = []
    private var seen: Set<String> = []
    private func add(_ token: TokenSyntax) {
      let name = token.text.trimmingCharacters(in: CharacterSet(charactersIn: "`"))
      if seen.insert(name).inserted { names.append(name) }
    }
    override func visit(_ node: IdentifierTypeSyntax) -> SyntaxVisitorContinueKind {
      add(node.name)
      return .visitChildren
    }
    override func visit(_ node: MemberTypeSyntax) -> SyntaxVisitorContinueKind {
      add(node.name)
      return .visitChildren
    }
    // Default values are not part of the signature's types.
    override func visit(_ node: InitializerClauseSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
  }
}
