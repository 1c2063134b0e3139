import DesingletonCore

/// Finds the types that hand out one shared instance of themselves through a static accessor.
///
/// Not singletons: a computed accessor or accessor method that makes a new value on every access
/// (`static var defaults: Self { Self() }`), a value type's `static let` (a constant: nobody can
/// change it), method or get-only property (each hands out a copy), and types declared in generated
/// files. A value type's settable `static var` is one only when code changes it through the
/// accessor; `Index` decides that once references are known (`needsWrites`).
enum SingletonDetector {
  static func singletons(
    in declarations: [String: [TypeDecl]], accessors names: AccessorNames = .standard,
    generatedPaths: Set<String> = [], coverage: NameCoverage? = nil
  ) -> [Singleton] {
    var result: [Singleton] = []
    for (qualifiedName, decls) in declarations {
      // Most types have no static member that can be an accessor: rule them out without copying
      // members (and without asking for the type's other declarations).
      guard decls.contains(where: { decl in decl.members.indices.contains { canBeAccessor(decl.members[$0], of: decl.name, names: names) } })
      else { continue }
      // Whether it is a singleton depends on all its declarations and their members.
      coverage.needMembers(qualifiedName)
      let primary = decls.first(where: { !$0.isExtension })
      if let primary, primary.kind == .protocol || generatedPaths.contains(primary.path) { continue }
      // A type the project only extends (`extension UserDefaults { static let shared = ... }`).
      // Only a class is shared state; a value type's static member is a constant (`Color.defaultTint`).
      let isForeign = primary == nil
      if isForeign && !FrameworkTypes.isClass(qualifiedName) { continue }
      guard let reference = primary ?? decls.first(where: { !generatedPaths.contains($0.path) }) else { continue }
      let members = decls.filter { !generatedPaths.contains($0.path) }.flatMap(\.members)
      let conformances = Set(decls.flatMap(\.inherited).map(simpleName))
      let accessors = members.filter {
        isAccessor($0, of: reference, names: names) || protocolTyped($0, of: reference, names: names, conformances: conformances, declarations: declarations, coverage: coverage) != nil
      }
      guard let first = accessors.min(by: { preference($0) < preference($1) }) else { continue }
      let accessorProtocol = protocolTyped(first, of: reference, names: names, conformances: conformances, declarations: declarations, coverage: coverage)
      let inits = members.filter { $0.kind == .initializer }
      let strict = !inits.isEmpty && inits.allSatisfy { ($0.access ?? .internal) <= .fileprivate }
      let backing = first.isStored && first.kind == .property ? nil : members.first { candidate in
        candidate.isStatic && candidate.isStored && candidate.kind == .property && candidate.name != first.name
          && (candidate.name.hasPrefix("_") || (candidate.access ?? .internal) <= .fileprivate)
          && (matchesType(candidate.typeText, reference) || initializerCreates(candidate.initializerText, reference))
      }?.name
      result.append(
        Singleton(
          typeName: qualifiedName, typeKind: primary?.kind ?? .extension, accessor: first.name,
          accessors: accessors.filter { ($0.access ?? .internal) > .fileprivate || $0.name == first.name }.map(\.name).sorted(), shape: shape(of: first), backingStorage: backing,
          isStrict: strict, declaration: first.range, isForeign: isForeign, accessorProtocol: accessorProtocol))
    }
    return result.sorted { ($0.declaration.path, $0.declaration.bytes.lowerBound) < ($1.declaration.path, $1.declaration.bytes.lowerBound) }
  }

  /// Whether a member can be an accessor of the type of this simple name, whatever its other
  /// declarations say (`isAccessor` and `protocolTyped` never hold for a member this rejects): a
  /// static member with an accessor's name, typed as the type, or whose initial value makes one.
  static func canBeAccessor(_ member: MemberDecl, of simpleName: String, names: AccessorNames) -> Bool {
    guard member.isStatic, names.matches(member.name) else { return false }
    switch member.kind {
    case .property:
      if let typeText = member.typeText, matchesType(typeText, simpleName: simpleName) { return true }
      guard let initializer = member.initializerText else { return false }
      // `Self(`, `Name(`, `Outer.Name(` and their `.init(` forms.
      return ["Self", simpleName].contains { initializer.hasPrefix($0 + "(") || initializer.hasPrefix($0 + ".init(") }
        || initializer.contains("." + simpleName + "(") || initializer.contains("." + simpleName + ".init(")
    case .method:
      return member.labels.isEmpty && matchesType(member.typeText, simpleName: simpleName)
    default:
      return false
    }
  }

  /// `matchesType` for any type of this simple name: its qualified name ends with it.
  private static func matchesType(_ typeText: String?, simpleName: String) -> Bool {
    guard var text = typeText else { return false }
    if text.hasSuffix("!") { text.removeLast() }
    if let generic = text.firstIndex(of: "<") { text = String(text[..<generic]) }
    return text == "Self" || text == simpleName || text.hasSuffix("." + simpleName)
  }

  /// A value type's singleton is one only if code changes its shared value (a `static var`).
  static func needsWrites(_ singleton: Singleton) -> Bool {
    [.struct, .enum].contains(singleton.typeKind)
  }

  /// `shared` before other names, then source order.
  private static func preference(_ member: MemberDecl) -> (Int, Int, String, Int) {
    ((member.access ?? .internal) <= .fileprivate ? 1 : 0, member.name == "shared" ? 0 : 1, member.range.path, member.range.bytes.lowerBound)
  }

  static func isAccessor(_ member: MemberDecl, of type: TypeDecl, names: AccessorNames = .standard) -> Bool {
    guard member.isStatic, names.matches(member.name), !isFactory(member, of: type), !isConstant(member, of: type)
    else { return false }
    // An Objective-C class method is an accessor when its implementation returns a `static`
    // instance (`ObjectiveCImporter` says which): a header alone does not tell a factory.
    if member.imported != nil && member.returnedText == nil { return false }
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

  /// The protocol a stored accessor is typed as when the type conforms to it and the initial value
  /// is the type's instance: `static var shared: ServiceLocating = ServiceLocator()`.
  static func protocolTyped(
    _ member: MemberDecl, of type: TypeDecl, names: AccessorNames, conformances: Set<String>,
    declarations: [String: [TypeDecl]], coverage: NameCoverage? = nil
  ) -> String? {
    guard member.isStatic, member.kind == .property, member.isStored, names.matches(member.name),
      var written = member.typeText, initializerCreates(member.initializerText, type)
    else { return nil }
    if written.hasPrefix("any ") { written.removeFirst(4) }
    // A type it inherits from, and not a class: a protocol (declared in a file not read yet, when only
    // the files naming the singleton are).
    guard conformances.contains(simpleName(written)) else { return nil }
    coverage.needType(written)
    guard declarations[written]?.first(where: { !$0.isExtension }).map({ $0.kind == .protocol }) ?? true
    else { return nil }
    return written
  }

  /// A computed accessor or accessor method whose body makes a new instance: each access gets its own.
  static func isFactory(_ member: MemberDecl, of type: TypeDecl) -> Bool {
    guard !(member.kind == .property && member.isStored), let returned = member.returnedText else { return false }
    return initializerCreates(returned, type) || returned.hasPrefix(".init(")
  }

  /// A value type's member through which no code can change a shared value: a `static let` (a
  /// constant), a method or a computed property without a setter (each access hands out a copy,
  /// which code cannot change in place: it is an immutable value). Not shared mutable state.
  static func isConstant(_ member: MemberDecl, of type: TypeDecl) -> Bool {
    guard [.struct, .enum].contains(type.kind) else { return false }
    switch member.kind {
    case .property: return !member.isSettable
    case .method: return true
    default: return false
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

  private static func simpleName(_ written: String) -> String {
    written.lastComponent(separatedBy: UInt8(ascii: ".")).map(String.init) ?? written
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
