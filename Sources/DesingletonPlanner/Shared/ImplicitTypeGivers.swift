import DesingletonCore
import DesingletonIndex
import SwiftSyntax

/// What can give `.init(...)` a type in a file that never spells the type: a property declared
/// with it, assigned to or compared with (`self.part = .init()`), or a parameter of a callable
/// the call names (`Holder(part: .init())`, `use(.init())`, an enum case's payload). A
/// declaration that gives a value a type spells the type, so these are read from the files that
/// name it; the files that hold an implicit `.init` and write one of them are the others a
/// creation of the type can be in (`InitCallFinder.calls`).
struct ImplicitTypeGivers: Hashable, Sendable {
  /// Properties (and locals) declared with the type.
  var properties: Set<String> = []
  /// A parameter's callee as a call names it (a function's or enum case's name, an init's type),
  /// with the parameter's argument label (nil: none).
  var parameters: Set<Parameter> = []

  struct Parameter: Hashable, Sendable {
    var callee: String
    var label: String?
  }

  mutating func formUnion(_ other: ImplicitTypeGivers) {
    properties.formUnion(other.properties)
    parameters.formUnion(other.parameters)
  }

  var isEmpty: Bool { properties.isEmpty && parameters.isEmpty }

  /// Whether an implicit member where `slot` says (nil: a place no slot tells, such as `a ?? .init()`)
  /// can get its type from one of them: the property it is assigned to or compared with, or the
  /// parameter its label (or, without one, its callee) names. `label`: the argument's label where
  /// the callee is not told (`connection: .init(exceptions: .init())`).
  func canGive(_ slot: ImplicitArgumentSlot?, label: String?) -> Bool {
    guard let slot else {
      guard let label, label != "_" else { return true }
      return parameters.contains { $0.label == label }
    }
    if let peer = slot.peer { return peer.steps.last.map(properties.contains) ?? true }
    let callee = slot.function ?? slot.initializedType.map(FrameworkTypes.lastComponent)
    return parameters.contains { parameter in
      (slot.label == "_" ? parameter.label == nil : parameter.label == slot.label)
        && (callee == nil || slot.enclosingInit != nil || parameter.callee == callee)
    }
  }

  /// The words a file must hold for one of them to be written there: each property's name and
  /// each callee (a label alone is not a call).
  var words: [String] { (properties.union(parameters.map(\.callee))).sorted() }

  /// Whether the text can write one of them: a property's name before `=`, `==`, `!=` or `??`
  /// (what stands between is blank, `?` or `!`; a comment there may hide one), or a callee's name
  /// with the label of its parameter, if it has one (`FileWords`, which a shared hash can only
  /// make say yes more often).
  func written(in words: FileWords) -> Bool {
    properties.contains { words.assigns(FileWords.hash($0)) }
      || parameters.contains { parameter in
        words.contains(FileWords.hash(parameter.callee)) && (parameter.label.map { words.contains(FileWords.hash($0)) } ?? true)
      }
  }

  /// What in `file` gives a value one of `names` (simple names of a type and its aliases) as its
  /// type, written alone or within another (`Part?`, `[Part]`, `(Part) -> Void`: more than
  /// needed only walks more files).
  static func of(_ names: [String], in file: ParsedFile) -> ImplicitTypeGivers {
    let offsets = wordOccurrences(of: names.map { Array($0.utf8) }, in: file.source.bytes)
    var result = ImplicitTypeGivers()
    for token in ReferenceCollector.tokens(at: offsets, in: Syntax(file.tree)) {
      guard case .identifier = token.tokenKind else { continue }
      var node = Syntax(token)
      // A closure's parameter (`var handler: (Part) -> Void`): calling it names the property.
      var inFunctionType = false
      while let parent = node.parent, !parent.is(CodeBlockItemSyntax.self), !parent.is(MemberBlockItemSyntax.self) {
        if parent.is(FunctionTypeSyntax.self) { inFunctionType = true }
        if let annotation = parent.as(TypeAnnotationSyntax.self) {
          if let binding = annotation.parent?.as(PatternBindingSyntax.self) {
            // A struct's property is also its memberwise init's parameter (`Box(part: .init())`).
            let structName = binding.parent?.parent?.parent?.parent?.parent?.parent?.as(StructDeclSyntax.self)
              .map { unquoted($0.name.text) }
            for name in binding.pattern.tokens(viewMode: .sourceAccurate) {
              guard case .identifier = name.tokenKind else { continue }
              result.properties.insert(unquoted(name.text))
              if inFunctionType { result.parameters.insert(Parameter(callee: unquoted(name.text), label: nil)) }
              if let structName { result.parameters.insert(Parameter(callee: structName, label: unquoted(name.text))) }
            }
          }
          break
        }
        if let parameter = parent.as(FunctionParameterSyntax.self) {
          if let callee = callee(of: parameter) {
            let label = parameter.firstName.tokenKind == .wildcard ? nil : unquoted(parameter.firstName.text)
            result.parameters.insert(Parameter(callee: callee, label: label))
          }
          break
        }
        if let parameter = parent.as(EnumCaseParameterSyntax.self) {
          if let element = parameter.parent?.parent?.parent?.as(EnumCaseElementSyntax.self) {
            let label = parameter.firstName.flatMap { $0.tokenKind == .wildcard ? nil : unquoted($0.text) }
            result.parameters.insert(Parameter(callee: unquoted(element.name.text), label: label))
          }
          break
        }
        node = parent
      }
    }
    return result
  }

  /// What a call of the function, init or subscript a parameter belongs to names: the function's
  /// name, an init's type (`self.init`, `super.init` are written where the type is named). A
  /// subscript's is its type's, which a file calling it need not name (`holder[.init()]`): not told.
  private static func callee(of parameter: FunctionParameterSyntax) -> String? {
    var node = parameter.parent
    while let syntax = node {
      if let function = syntax.as(FunctionDeclSyntax.self) { return unquoted(function.name.text) }
      if syntax.is(SubscriptDeclSyntax.self) || syntax.is(InitializerDeclSyntax.self) {
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
      node = syntax.parent
    }
    return nil
  }
}
