/// What the code means, answered once for every stage: what kind of type a name is, a class's
/// superclass chain, the protocols a type conforms to, its isolation, its designated inits, and whether a
/// type is test code. Each question has one function here; planners call these instead of reading
/// declarations or spellings themselves. To add a rule, add it to the function that answers its
/// question (or a new function here), and give it a planner or index test.
///
/// The answers come from the project's declarations first and then from `FrameworkTypes`; a name in
/// neither is `.unknown`, never guessed from its spelling.
extension Index {
  /// What a type named in code is.
  public enum TypeKindAnswer: Equatable, Sendable {
    /// Declared in the project (the kind of its primary declaration).
    case project(TypeDecl.Kind)
    case frameworkClass
    case frameworkProtocol
    case unknown

    public var isProtocol: Bool { self == .project(.protocol) || self == .frameworkProtocol }
  }

  /// Whether the file at `path` is an Objective-C header, read as its Swift interface
  /// (`ObjectiveCImporter`): declarations there are Swift's view of it, and nothing there is rewritten.
  public func isObjectiveC(_ path: String) -> Bool { imported.interfaces[path] != nil }

  /// Why a member declared in Objective-C has no exact Swift declaration, or nil when it has one
  /// (every Swift member has). A name the importer may shorten (`ImportedMember.nameOnly`) is
  /// settled by the project's Swift code calling it through the accessor of `typeName` by that name
  /// and labels: code that compiles calls a member that exists.
  public func importProblem(of member: MemberDecl, in typeName: String) -> String? {
    guard let imported = member.imported, let problem = imported.problem else { return nil }
    guard imported.nameOnly else { return problem }
    let parameters = member.labels.map { (label: $0, hasDefault: false) }
    let called = (singleton(typeName: typeName).map(references(to:)) ?? []).contains { reference in
      guard case .member(let name, .call) = reference.use, name == member.name, let arguments = reference.arguments else {
        return false
      }
      return arguments.canCall(parameters)
    }
    return called ? nil : problem
  }

  /// The primary declaration (not an extension) of a type, by qualified name.
  public func primaryDeclaration(of qualifiedName: String) -> TypeDecl? {
    declarations(of: qualifiedName).first { !$0.isExtension }
  }

  /// The kind of the type a name written in code (in an inheritance clause, a type annotation) means.
  public func kind(ofWritten written: String) -> TypeKindAnswer {
    tables.kind(ofWritten: written)
  }

  /// Whether a type written in a declaration inside `scope` (the type or extension around it; nil
  /// at the top level) may stand for a type the code does not write there: `Self`, a generic
  /// parameter or an associated type (`T` in `extension Box`). `TypeTables.mayNameGenericParameter`.
  public func mayNameGenericParameter(_ written: String, in scope: String?) -> Bool {
    tables.mayNameGenericParameter(written, in: scope)
  }

  /// Whether a type written in code is one the project declares `~Copyable` (its values can be
  /// borrowed or moved, never copied: a mock cannot record them).
  public func isNoncopyable(written: String) -> Bool {
    outlineDeclarations(of: resolveType(written)).contains { declaration in
      !declaration.isExtension && declaration.inherited.contains { $0.filter { !$0.isWhitespace } == "~Copyable" }
    }
  }

  /// What a type's superclass is, read from its primary declaration's first inherited type.
  public enum SuperclassAnswer: Equatable, Sendable {
    /// Not a class, or a class whose first inherited type is a protocol or that inherits nothing.
    case none
    /// A class declared in the project (qualified name).
    case project(String)
    /// A framework class the model knows.
    case framework(String)
    /// The first inherited type is neither declared in the project nor known: it may be a class or a protocol.
    case unknown(String)
  }

  public func superclass(of qualifiedName: String) -> SuperclassAnswer {
    tables.superclass(of: qualifiedName)
  }

  /// One step of a superclass chain: a project class or a framework class.
  public enum ClassStep: Equatable, Sendable {
    case project(String)
    case framework(String)
    /// The chain continues into a type the model does not know.
    case unknown(String)
  }

  /// The superclasses of a type, nearest first, through project and framework classes.
  public func superclassChain(of qualifiedName: String) -> [ClassStep] {
    var chain: [ClassStep] = []
    var seen: Set<String> = [qualifiedName]
    var answer = superclass(of: qualifiedName)
    while true {
      switch answer {
      case .none:
        return chain
      case .project(let name):
        guard seen.insert(name).inserted else { return chain }
        chain.append(.project(name))
        answer = superclass(of: name)
      case .framework(let name):
        var current: String? = name
        while let name = current, seen.insert(name).inserted, let known = FrameworkTypes.class(named: name) {
          chain.append(.framework(name))
          current = known.superclass
        }
        return chain
      case .unknown(let written):
        chain.append(.unknown(written))
        return chain
      }
    }
  }

  /// Every protocol a type conforms to as written on its declarations and extensions, with the
  /// protocols those refine, resolved to qualified names for project protocols; each once, nearest first.
  public func conformances(of qualifiedName: String) -> [String] {
    var result: [String] = []
    var seen: Set<String> = []
    var queue: [String] = []
    var types = [qualifiedName]
    for step in superclassChain(of: qualifiedName) {
      if case .project(let name) = step { types.append(name) }
    }
    for type in types {
      for declaration in declarations(of: type) {
        for written in declaration.inherited where kind(ofWritten: written).isProtocol {
          queue.append(written)
        }
      }
    }
    while !queue.isEmpty {
      let written = queue.removeFirst()
      let resolved = kind(ofWritten: written) == .frameworkProtocol ? FrameworkTypes.lastComponent(written) : resolveType(written)
      guard seen.insert(resolved).inserted else { continue }
      result.append(resolved)
      for declaration in declarations(of: resolved) where declaration.kind == .protocol {
        queue.append(contentsOf: declaration.inherited)
      }
    }
    return result
  }

  /// Whether an attribute written on a declaration (`@MainActor`, `@DatabaseActor`) names a global actor.
  public func isGlobalActorAttribute(_ attribute: String) -> Bool {
    guard attribute.hasPrefix("@") else { return false }
    let name = String(attribute.dropFirst())
    if name == "MainActor" { return true }
    return primaryDeclaration(of: resolveType(name))?.attributes.contains("@globalActor") == true
  }

  /// The global actor a type is isolated to: its own attribute, else its superclass chain's (project
  /// classes' attributes, framework classes' table), else a main-actor framework protocol it conforms to.
  public func isolation(of qualifiedName: String) -> String? {
    let primary = primaryDeclaration(of: qualifiedName)
    if let own = primary?.attributes.first(where: isGlobalActorAttribute) { return own }
    // An extension of a main-actor framework protocol (`extension View`): its members are isolated.
    if primary == nil, FrameworkTypes.isMainActorProtocol(qualifiedName) { return "@MainActor" }
    for step in superclassChain(of: qualifiedName) {
      switch step {
      case .project(let name):
        if let actor = primaryDeclaration(of: name)?.attributes.first(where: isGlobalActorAttribute) { return actor }
      case .framework(let name):
        if FrameworkTypes.class(named: name)?.isMainActor == true { return "@MainActor" }
      case .unknown:
        break
      }
    }
    if conformances(of: qualifiedName).contains(where: FrameworkTypes.isMainActorProtocol) { return "@MainActor" }
    return nil
  }

  /// Whether a type is declared `Sendable` (checked): written in its inheritance clause or one of its
  /// protocols refines `Sendable`. `@unchecked Sendable` is not checked, so it does not count.
  public func isCheckedSendable(_ qualifiedName: String) -> Bool {
    conformances(of: qualifiedName).contains("Sendable")
      && !declarations(of: qualifiedName).contains { $0.inherited.contains("@unchecked Sendable") }
  }

  /// Whether a project protocol is `Sendable`: it or a protocol it refines inherits `Sendable` or `Actor`.
  public func protocolIsSendable(_ qualifiedName: String) -> Bool {
    var seen: Set<String> = []
    var queue = [qualifiedName]
    while let name = queue.popLast() {
      guard seen.insert(name).inserted else { continue }
      if name == "Sendable" || name == "Actor" { return true }
      for declaration in declarations(of: name) where declaration.kind == .protocol {
        queue.append(contentsOf: declaration.inherited.map { kind(ofWritten: $0) == .frameworkProtocol ? $0 : resolveType($0) })
      }
    }
    return false
  }

  /// Why the system, not the project's code, creates instances of a type, if it does: an entry point
  /// (`@main`), an application or scene delegate, an intent, a subclass of a framework class the
  /// system instantiates (cells, managed objects), a property wrapper (the compiler calls its
  /// `init(wrappedValue:)` for each property it wraps), or a `Decodable` type (a decoder calls its
  /// `init(from:)`). Such a type cannot receive init parameters.
  public func systemCreation(of qualifiedName: String) -> String? {
    let declarations = declarations(of: qualifiedName)
    if let attribute = declarations.flatMap(\.attributes).first(where: FrameworkTypes.entryPointAttributes.contains) {
      return "the system creates it (\(attribute))"
    }
    if declarations.flatMap(\.attributes).contains("@propertyWrapper") {
      return "the compiler creates it for each property it wraps (@propertyWrapper)"
    }
    if let written = conformances(of: qualifiedName).first(where: { ["Decodable", "Codable"].contains(FrameworkTypes.lastComponent($0)) }) {
      return "a decoder creates it through 'init(from:)' (it conforms to '\(written)')"
    }
    if let written = conformances(of: qualifiedName).first(where: FrameworkTypes.isSystemCreatedProtocol) {
      return "the system creates it (it conforms to '\(written)')"
    }
    for step in superclassChain(of: qualifiedName) {
      if case .framework(let name) = step, FrameworkTypes.class(named: name)?.isSystemInstantiated == true {
        return "the system creates it (a '\(name)')"
      }
    }
    return nil
  }

  /// A conformance the compiler synthesizes from a type's stored properties (`Equatable`, `Codable`),
  /// which a new stored property of a protocol type would break: the first one the type does not
  /// implement by hand.
  public func synthesizedConformance(of qualifiedName: String) -> String? {
    let members = members(of: qualifiedName)
    for written in conformances(of: qualifiedName) {
      guard let implementedBy = FrameworkTypes.synthesizedConformances[written] else { continue }
      let implemented = implementedBy.allSatisfy { name in
        members.contains { $0.name == name || $0.displayName == name }
      }
      if !implemented { return written }
    }
    return nil
  }

  /// The designated inits of a type's own declarations (not convenience inits).
  public func designatedInits(of qualifiedName: String) -> [MemberDecl] {
    inits(of: qualifiedName).filter { !$0.modifiers.contains("convenience") }
  }

  /// The inits a type's declarations declare, designated and convenience, in declaration order.
  /// Only the inits are copied: a type can have hundreds of members, and creations ask this often.
  public func inits(of qualifiedName: String) -> [MemberDecl] {
    var inits: [MemberDecl] = []
    for declaration in declarations(of: qualifiedName) {
      for member in declaration.members where member.kind == .initializer { inits.append(member) }
    }
    return inits
  }
}
