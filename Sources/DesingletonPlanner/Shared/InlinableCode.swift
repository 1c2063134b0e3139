import DesingletonIndex
import SwiftSyntax

/// Code other modules inline: an `@inlinable`, `@_alwaysEmitIntoClient` or `@_transparent`
/// function, accessor, init, subscript or property is part of its module's interface, and reads only
/// public and `@usableFromInline` declarations. A property such code reads is `@usableFromInline`,
/// and its type one that code can name (public or `@usableFromInline`).
enum InlinableCode {
  static let attributes: Set<String> = ["inlinable", "_alwaysEmitIntoClient", "_transparent"]

  /// The attribute that makes the code around `node` inlined into other modules; nil outside such code.
  static func attribute(around node: Syntax) -> String? {
    func attribute(in list: AttributeListSyntax?) -> String? {
      list?.compactMap { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription }.first(where: attributes.contains).map { "@" + $0 }
    }
    var current = node.parent
    while let syntax = current {
      if syntax.is(MemberBlockSyntax.self) || syntax.is(SourceFileSyntax.self) { return nil }
      let found: String? =
        if let function = syntax.as(FunctionDeclSyntax.self) { attribute(in: function.attributes) }
        else if let initializer = syntax.as(InitializerDeclSyntax.self) { attribute(in: initializer.attributes) }
        else if let accessor = syntax.as(AccessorDeclSyntax.self) { attribute(in: accessor.attributes) }
        else if let variable = syntax.as(VariableDeclSyntax.self) { attribute(in: variable.attributes) }
        else if let subscriptDecl = syntax.as(SubscriptDeclSyntax.self) { attribute(in: subscriptDecl.attributes) }
        else { nil }
      if let found { return found }
      current = syntax.parent
    }
    return nil
  }

  /// The first of `references` in code other modules inline, and the attribute that makes it so.
  static func firstUse(of references: [Reference], project: Project) throws -> (reference: Reference, attribute: String)? {
    for reference in references {
      let file = try project.file(reference.range.path)
      guard let token = file.tree.token(at: AbsolutePosition(utf8Offset: reference.range.bytes.lowerBound)),
        let attribute = attribute(around: Syntax(token))
      else { continue }
      return (reference, attribute)
    }
    return nil
  }
}

/// The access of a new property: a consumer's injected ones, the root's instance.
enum PropertyAccess: Comparable {
  /// Every use and every creation is in the type's own file.
  case `private`
  case `internal`
  /// Code other modules inline reads them (an `@inlinable` body): internal, and usable there.
  case usableFromInline

  /// What the declaration starts with.
  var written: String {
    switch self {
    case .private: return "private "
    case .internal: return ""
    case .usableFromInline: return "@usableFromInline "
    }
  }
}

extension PropertyAccess {
  /// The access of a new property declared in the file at `path` that `references` read (the
  /// root's instance): `@usableFromInline` where code other modules inline reads it (which names the
  /// property's type already), `private` where every read is in that file (an extension in another
  /// file cannot see a private member), else internal.
  static func of(readBy references: [Reference], declaredIn path: String, project: Project) throws -> PropertyAccess {
    if try InlinableCode.firstUse(of: references, project: project) != nil { return .usableFromInline }
    return references.allSatisfy { $0.range.path == path } ? .private : .internal
  }
}
