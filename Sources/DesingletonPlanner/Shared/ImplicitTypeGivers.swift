import DesingletonCore
import DesingletonIndex
import SwiftSyntax

/// The names through which `.init(...)` can create a type in a file that never spells the type:
/// a property declared with it (`self.part = .init()`), a parameter's argument label
/// (`Holder(part: .init())`) or, for a parameter without one, its callee (`use(.init())`,
/// `Holder(.init())`, an enum case). A declaration that gives a value a type spells the type, so
/// these are read from the files that name it; the files holding an implicit `.init` and one of
/// these names are the others a creation of the type can be in (`InitCallFinder.calls`).
enum ImplicitTypeGivers {
  /// The names in `file` that give a value one of `names` (simple names of a type and its
  /// aliases) as its type, written alone or within another (`Part?`, `[Part]`, `(Part) -> Void`:
  /// more names than needed only walk more files).
  static func names(giving names: [String], in file: ParsedFile) -> Set<String> {
    let offsets = wordOccurrences(of: names.map { Array($0.utf8) }, in: file.source.bytes)
    var result: Set<String> = []
    for token in ReferenceCollector.tokens(at: offsets, in: Syntax(file.tree)) {
      guard case .identifier = token.tokenKind else { continue }
      var node = Syntax(token)
      while let parent = node.parent, !parent.is(CodeBlockItemSyntax.self), !parent.is(MemberBlockItemSyntax.self) {
        if let annotation = parent.as(TypeAnnotationSyntax.self) {
          // A property's or a local's type: the name an assignment writes.
          if let binding = annotation.parent?.as(PatternBindingSyntax.self) {
            for name in binding.pattern.tokens(viewMode: .sourceAccurate) {
              if case .identifier = name.tokenKind { result.insert(unquoted(name.text)) }
            }
          }
          break
        }
        if let parameter = parent.as(FunctionParameterSyntax.self) {
          if parameter.firstName.tokenKind != .wildcard {
            result.insert(unquoted(parameter.firstName.text))
          } else if let callee = callee(of: parameter) {
            result.insert(callee)
          }
          break
        }
        if let parameter = parent.as(EnumCaseParameterSyntax.self) {
          if let label = parameter.firstName, label.tokenKind != .wildcard { result.insert(unquoted(label.text)) }
          if let element = parameter.parent?.parent?.parent?.as(EnumCaseElementSyntax.self) {
            result.insert(unquoted(element.name.text))
          }
          break
        }
        node = parent
      }
    }
    return result
  }

  /// What a call of the function, init or subscript a parameter belongs to names: the function's
  /// name, an init's type, `subscript`.
  private static func callee(of parameter: FunctionParameterSyntax) -> String? {
    var node = parameter.parent
    while let syntax = node {
      if let function = syntax.as(FunctionDeclSyntax.self) { return unquoted(function.name.text) }
      if syntax.is(SubscriptDeclSyntax.self) { return "subscript" }
      if syntax.is(InitializerDeclSyntax.self) {
        var around = syntax.parent
        while let outer = around {
          if let type = outer.asProtocol(NamedDeclSyntax.self) { return unquoted(type.name.text) }
          if let extended = outer.as(ExtensionDeclSyntax.self) {
            return extended.extendedType.trimmedDescription.split(separator: ".").last.map(String.init)
          }
          around = outer.parent
        }
        return nil
      }
      if syntax.is(ClosureExprSyntax.self) { return nil }
      node = syntax.parent
    }
    return nil
  }
}
