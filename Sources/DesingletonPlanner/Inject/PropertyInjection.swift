import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftSyntax

/// Types the system creates get properties that the places configuring them set (`--property-injection`).
extension InjectContext {
  // MARK: Property injection

  /// The places that configure an instance of a type the system created: a local bound to a cast
  /// to it (`let cell = tableView.dequeueReusableCell(withIdentifier: "id", for: indexPath) as! Cell`,
  /// `guard let cell = ... as? Cell else { ... }`).
  func configurationSites(of typeName: String) -> [ConfigurationSite] {
    var sites: [ConfigurationSite] = []
    // A cast names the type or an alias of it (`as! Row` after `typealias Row = Cell`).
    for path in InitCallFinder.paths(naming: typeName, project: project) {
      guard let file = try? project.file(path) else { continue }
      let finder = CastFinder(viewMode: .sourceAccurate)
      finder.walk(file.tree)
      for (cast, type) in finder.casts where index.resolveType(type.trimmedDescription) == typeName {
        guard let clause = cast.parent?.as(InitializerClauseSyntax.self) else { continue }
        var statement: Syntax?
        var variable: String?
        // `let cell = ... as! Cell` as a statement, or `guard let cell = ... as? Cell else { ... }`.
        if let binding = clause.parent?.as(PatternBindingSyntax.self),
          let declaration = binding.parent?.parent?.as(VariableDeclSyntax.self), declaration.parent?.is(CodeBlockItemSyntax.self) == true
        {
          statement = Syntax(declaration)
          variable = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
        }
        if let condition = clause.parent?.as(OptionalBindingConditionSyntax.self),
          let guardStatement = condition.parent?.parent?.parent?.as(GuardStmtSyntax.self)
        {
          statement = Syntax(guardStatement)
          variable = condition.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
        }
        guard let variable else { continue }
        guard let statement, statement.parent?.is(CodeBlockItemSyntax.self) == true || statement.parent?.parent?.is(CodeBlockItemSyntax.self) == true else { continue }
        sites.append(
          ConfigurationSite(
            path: path, typeName: typeName, variable: variable, statement: statement,
            context: ReferenceContext(
              typeName: enclosingTypeName(of: cast), memberName: nil, isStatic: isInStaticMember(cast))))
      }
    }
    return sites
  }

  /// The qualified name of the type declaration or extension around a node.
  func enclosingTypeName(of node: Syntax) -> String? {
    var names: [String] = []
    var current = node.parent
    while let syntax = current {
      if let decl = syntax.asProtocol(NamedDeclSyntax.self), syntax.is(ClassDeclSyntax.self) || syntax.is(StructDeclSyntax.self)
        || syntax.is(ActorDeclSyntax.self) || syntax.is(EnumDeclSyntax.self)
      {
        names.insert(decl.name.text, at: 0)
      }
      if let extensionDecl = syntax.as(ExtensionDeclSyntax.self) {
        names.insert(extensionDecl.extendedType.trimmedDescription, at: 0)
      }
      current = syntax.parent
    }
    return names.isEmpty ? nil : index.resolveType(names.joined(separator: "."))
  }

  func isInStaticMember(_ node: Syntax) -> Bool {
    var current = node.parent
    while let syntax = current {
      if let function = syntax.as(FunctionDeclSyntax.self) {
        return function.modifiers.contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }
      }
      if syntax.is(MemberBlockItemSyntax.self) { return false }
      current = syntax.parent
    }
    return true
  }
}
