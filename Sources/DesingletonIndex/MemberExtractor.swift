import DesingletonCore
import SwiftSyntax

/// Turns one declaration in a member block into the members it declares.
enum MemberExtractor {
  static func members(of decl: DeclSyntax, in source: SourceText) -> [MemberDecl] {
    let range = decl.sourceRange(in: source)
    if let variable = decl.as(VariableDeclSyntax.self) {
      return properties(of: variable, range: range, source: source)
    }
    if let function = decl.as(FunctionDeclSyntax.self) {
      let modifiers = ModifierSummary(function.modifiers)
      return [
        MemberDecl(
          name: function.name.text, kind: .method, isStatic: modifiers.isStatic, isClassMember: modifiers.isClass,
          access: modifiers.access, attributes: function.attributes.names(in: source), modifiers: modifiers.others,
          typeText: function.signature.returnClause?.type.text(in: source),
          labels: function.signature.parameterClause.parameters.map { $0.firstName.text }, range: range)
      ]
    }
    if let initializer = decl.as(InitializerDeclSyntax.self) {
      let modifiers = ModifierSummary(initializer.modifiers)
      return [
        MemberDecl(
          name: "init", kind: .initializer, access: modifiers.access,
          attributes: initializer.attributes.names(in: source), modifiers: modifiers.others,
          labels: initializer.signature.parameterClause.parameters.map { $0.firstName.text },
          isFailable: initializer.optionalMark != nil, range: range)
      ]
    }
    if let subscriptDecl = decl.as(SubscriptDeclSyntax.self) {
      var settable = false
      if case .accessors(let accessors) = subscriptDecl.accessorBlock?.accessors {
        settable = accessors.contains { $0.accessorSpecifier.tokenKind == .keyword(.set) }
      }
      let modifiers = ModifierSummary(subscriptDecl.modifiers)
      return [
        MemberDecl(
          name: "subscript", kind: .subscript, isStatic: modifiers.isStatic, isSettable: settable,
          setterAccess: modifiers.setterAccess, access: modifiers.access,
          attributes: subscriptDecl.attributes.names(in: source), modifiers: modifiers.others,
          typeText: subscriptDecl.returnClause.type.text(in: source),
          labels: subscriptDecl.parameterClause.parameters.map { $0.firstName.text }, range: range)
      ]
    }
    if let alias = decl.as(TypeAliasDeclSyntax.self) {
      return [
        MemberDecl(
          name: alias.name.text, kind: .typeAlias, access: ModifierSummary(alias.modifiers).access,
          typeText: alias.initializer.value.text(in: source), range: range)
      ]
    }
    if let associated = decl.as(AssociatedTypeDeclSyntax.self) {
      return [MemberDecl(name: associated.name.text, kind: .associatedType, range: range)]
    }
    if let enumCase = decl.as(EnumCaseDeclSyntax.self) {
      return enumCase.elements.map { MemberDecl(name: $0.name.text, kind: .enumCase, isStatic: true, range: range) }
    }
    if let name = nestedTypeName(decl) {
      return [MemberDecl(name: name, kind: .nestedType, range: range)]
    }
    return []
  }

  static func nestedTypeName(_ decl: DeclSyntax) -> String? {
    if let node = decl.as(ClassDeclSyntax.self) { return node.name.text }
    if let node = decl.as(StructDeclSyntax.self) { return node.name.text }
    if let node = decl.as(EnumDeclSyntax.self) { return node.name.text }
    if let node = decl.as(ActorDeclSyntax.self) { return node.name.text }
    if let node = decl.as(ProtocolDeclSyntax.self) { return node.name.text }
    return nil
  }

  private static func properties(of variable: VariableDeclSyntax, range: SourceRange, source: SourceText) -> [MemberDecl] {
    let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
    let modifiers = ModifierSummary(variable.modifiers)
    let attributes = variable.attributes.names(in: source)
    var result: [MemberDecl] = []
    // `var a, b: Int` gives both names the annotation written after the last one.
    var pendingType: String?
    for binding in variable.bindings.reversed() {
      let annotation = binding.typeAnnotation.map { $0.type.text(in: source) }
      if let annotation { pendingType = annotation }
      guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else { continue }
      var isStored = true
      var hasSetter = false
      switch binding.accessorBlock?.accessors {
      case .getter:
        isStored = false
      case .accessors(let accessors):
        let specifiers = accessors.map { $0.accessorSpecifier.tokenKind }
        let observers: [TokenKind] = [.keyword(.willSet), .keyword(.didSet)]
        if !specifiers.allSatisfy({ observers.contains($0) }) {
          isStored = false
          hasSetter = specifiers.contains(.keyword(.set)) || specifiers.contains(.keyword(._modify))
            || specifiers.contains(.keyword(.unsafeMutableAddress))
        }
      case nil:
        break
      }
      let initializer = binding.initializer
      let settable = !isLet && (isStored || hasSetter)
      result.append(
        MemberDecl(
          name: pattern.identifier.text, kind: .property, isStatic: modifiers.isStatic,
          isClassMember: modifiers.isClass, isLet: isLet, isStored: isStored, isSettable: settable,
          setterAccess: modifiers.setterAccess, access: modifiers.access, attributes: attributes,
          modifiers: modifiers.others,
          typeText: annotation ?? (initializer == nil ? pendingType : nil),
          initializerText: modifiers.isStatic ? initializer?.value.text(in: source) : nil, range: range))
    }
    return result.reversed()
  }
}
