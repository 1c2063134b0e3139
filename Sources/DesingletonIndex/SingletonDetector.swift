import DesingletonCore

/// Finds the types that hand out one shared instance of themselves through a static accessor.
enum SingletonDetector {
  static func singletons(in declarations: [String: [TypeDecl]]) -> [Singleton] {
    var result: [Singleton] = []
    for (qualifiedName, decls) in declarations {
      // Most types have no static member with an accessor's name: rule them out without copying members.
      guard decls.contains(where: \.hasAccessorLikeStaticMember),
        let primary = decls.first(where: { !$0.isExtension }), primary.kind != .protocol
      else { continue }
      let members = decls.flatMap(\.members)
      let accessors = members.filter { isAccessor($0, of: primary) }
      guard let first = accessors.min(by: { preference($0) < preference($1) }) else { continue }
      let inits = members.filter { $0.kind == .initializer }
      let strict = !inits.isEmpty && inits.allSatisfy { ($0.access ?? .internal) <= .fileprivate }
      let backing = first.isStored && first.kind == .property ? nil : members.first { candidate in
        candidate.isStatic && candidate.isStored && candidate.kind == .property && candidate.name != first.name
          && (candidate.name.hasPrefix("_") || (candidate.access ?? .internal) <= .fileprivate)
          && (matchesType(candidate.typeText, primary) || initializerCreates(candidate.initializerText, primary))
      }?.name
      result.append(
        Singleton(
          typeName: qualifiedName, typeKind: primary.kind, accessor: first.name,
          accessors: accessors.filter { ($0.access ?? .internal) > .fileprivate || $0.name == first.name }.map(\.name).sorted(), shape: shape(of: first), backingStorage: backing,
          isStrict: strict, declaration: first.range))
    }
    return result.sorted { ($0.declaration.path, $0.declaration.bytes.lowerBound) < ($1.declaration.path, $1.declaration.bytes.lowerBound) }
  }

  /// `shared` before other names, then source order.
  private static func preference(_ member: MemberDecl) -> (Int, Int, String, Int) {
    ((member.access ?? .internal) <= .fileprivate ? 1 : 0, member.name == "shared" ? 0 : 1, member.range.path, member.range.bytes.lowerBound)
  }

  static func isAccessor(_ member: MemberDecl, of type: TypeDecl) -> Bool {
    guard member.isStatic, isAccessorLikeName(member.name) else { return false }
    switch member.kind {
    case .property:
      if let typeText = member.typeText { return matchesType(typeText, type) }
      return initializerCreates(member.initializerText, type)
    case .method:
      return member.labels.isEmpty && matchesType(member.typeText, type)
    default:
      return false
    }
  }

  static func matchesType(_ typeText: String?, _ type: TypeDecl) -> Bool {
    guard var text = typeText else { return false }
    if text.hasSuffix("!") { text.removeLast() }
    if let generic = text.firstIndex(of: "<") { text = String(text[..<generic]) }
    return text == "Self" || text == type.name || text == type.qualifiedName || text.hasSuffix("." + type.name)
  }

  static func initializerCreates(_ initializer: String?, _ type: TypeDecl) -> Bool {
    guard let text = initializer else { return false }
    for name in ["Self", type.name, type.qualifiedName] {
      if text.hasPrefix(name + "(") || text.hasPrefix(name + ".init(") { return true }
    }
    return false
  }

  static func shape(of member: MemberDecl) -> SingletonShape {
    if member.kind == .method { return .accessorMethod }
    if member.isClassMember { return .classVar }
    if !member.isStored { return .computed }
    guard let initializer = member.initializerText else { return .declaredOnly }
    if initializer.hasPrefix("{") && initializer.hasSuffix("()") { return .closureInitialized }
    return member.isLet ? .staticLet : .staticVar
  }
}
