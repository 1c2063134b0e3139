import DesingletonCore
import DesingletonIndex
import SwiftSyntax

/// Where the one instance comes from: the composition roots and entry points every command asks about.
public enum CompositionRoots {
  /// How a human wires a type the system creates.
  static let wiringHint =
    "give it a property that whoever configures it sets, or keep the accessor there until the root passes it on"

  /// Every remaining reference to the accessor, classified.
  public static func remainingReferences(singleton: Singleton, root: String?, project: Project) -> [RemainingReference] {
    let index = project.index
    return index.references(to: singleton).map { reference in
      let owner = index.enclosingType(of: reference)
      let kind: RemainingReference.Kind
      if index.isInTest(reference) {
        kind = .test
      } else if owner == nil {
        kind = .topLevel
      } else if reference.context.isStatic {
        // The singleton's own static members too: there is no instance to read.
        kind = .staticContext
      } else if owner == singleton.typeName {
        kind = .singleton
      } else if owner == root {
        kind = .root
      } else if reference.context.memberName == "init(coder:)" {
        kind = .coderInit
      } else if let owner, isInRequiredInitKeepingItsSignature(reference, of: owner, project: project) {
        kind = .requiredInit
      } else if let owner, index.systemCreation(of: owner) != nil {
        kind = .frameworkCreated
      } else {
        kind = .consumer
      }
      return RemainingReference(reference: reference, kind: kind, typeName: owner)
    }
  }

  /// A use in a required init that keeps its signature (`Project.requiredInitKeepsItsSignature`):
  /// `inject` gives it the shared instance, since what creates the type through that init passes nothing.
  static func isInRequiredInitKeepingItsSignature(_ reference: Reference, of owner: String, project: Project) -> Bool {
    guard reference.context.memberName?.hasPrefix("init(") == true,
      let member = project.enclosingInit(of: reference, in: owner)
    else { return false }
    return project.requiredInitKeepsItsSignature(member, of: owner)
  }

  /// The composition root `finish` takes when none is named: the one root (or application entry
  /// point) whose code still uses the accessor; of several, the one entry point among them, or the
  /// one the program starts in (`@main`) of several; else the one entry point of the code (`@main`,
  /// an application delegate). Nil when there is no such type or several: the caller names them,
  /// `candidates` in that case listing the likeliest owner first.
  /// `perProgram`: when the several are in different programs (an app and its widget extension,
  /// each a process with its own `static let`), and each program has one of them (or one it starts
  /// in), those roots, one per program: each can own its program's instance.
  /// `together`: the other singletons finished in the same run, whose uses of this one the root's
  /// making of them all replaces (`MadeTogether.isMadeTogether`).
  public static func proposedRoot(
    singleton: Singleton, project: Project, together: Set<String> = []
  ) throws -> (root: String?, candidates: [String], perProgram: [String]) {
    let index = project.index
    func isEntryPoint(_ type: String) -> Bool { CompositionRoots.isEntryPoint(type, index: index) }
    var using: [String] = []
    for item in remainingReferences(singleton: singleton, root: nil, project: project) {
      guard let owner = item.typeName, !using.contains(owner) else { continue }
      if try MadeTogether.isMadeTogether(item, with: together, project: project) { continue }
      switch item.kind {
      case .consumer, .coderInit, .requiredInit:
        if try isCompositionRoot(owner, project: project) { using.append(owner) }
      case .frameworkCreated:
        if isEntryPoint(owner) { using.append(owner) }
      default: continue
      }
    }
    if using.count == 1 { return (using[0], using, []) }
    // Of several, the application's entry point is where an app's objects are made.
    if let entryPoint = startingPoint(of: using.filter(isEntryPoint), index: index) { return (entryPoint, using, []) }
    // Several: the likeliest owners first, entry points before other types, and last the types
    // that receive the instance through an init (they are created where it is held).
    if !using.isEmpty {
      let receiving = try Set(using.filter { try instanceParameter(of: $0, singleton: singleton, project: project) != nil })
      let owners = using.filter { !receiving.contains($0) }
      let ordered = owners.filter(isEntryPoint) + owners.filter { !isEntryPoint($0) } + using.filter(receiving.contains)
      return (nil, ordered, onePerProgram(using, project: project) ?? [])
    }
    // An entry point carries its attribute or conforms to an application delegate protocol; one
    // whose code cannot name the singleton's type cannot hold its instance.
    let entryPoints = project.typeNames(inFilesMentioning: FrameworkTypes.entryPointAttributes.sorted() + ["ApplicationDelegate"])
      .filter { type in
        guard !index.isTestType(type), let path = index.primaryDeclaration(of: type)?.path,
          project.file(path, canName: singleton.typeName)
        else { return false }
        return isEntryPoint(type)
      }
    let start = startingPoint(of: entryPoints, index: index)
    return (start, entryPoints, start == nil ? onePerProgram(entryPoints, project: project) ?? [] : [])
  }

  /// The init of `type` with a parameter that takes the instance (the singleton's type or a
  /// protocol it conforms to), and where that parameter is: such a type is created by what holds
  /// the instance, so it is never the composition root. Nil when it has none.
  public static func instanceParameter(
    of type: String, singleton: Singleton, project: Project
  ) throws -> (member: MemberDecl, location: Location)? {
    let index = project.index
    let accepted = typesHoldingTheInstance(singleton, index: index)
    for member in index.members(of: type) where member.kind == .initializer && !member.isStatic {
      let file = try project.file(member.range.path)
      guard let initializer = file.node(at: member.range.bytes)?.as(InitializerDeclSyntax.self) else { continue }
      for parameter in initializer.signature.parameterClause.parameters
      where namedTypes(in: parameter.type).contains(where: { accepted.contains(index.resolveType($0)) }) {
        return (member, file.source.location(ofOffset: parameter.positionAfterSkippingLeadingTrivia.utf8Offset))
      }
    }
    return nil
  }

  /// The singleton's type and every protocol it conforms to, with what those refine.
  public static func typesHoldingTheInstance(_ singleton: Singleton, index: Index) -> Set<String> {
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

  /// One root per program, when every candidate is compiled into exactly one program, there are
  /// two programs or more, and each has one candidate or one it starts in; nil otherwise.
  private static func onePerProgram(_ candidates: [String], project: Project) -> [String]? {
    let index = project.index
    var byProgram: [String: [String]] = [:]
    for candidate in candidates {
      guard let path = index.primaryDeclaration(of: candidate)?.path else { return nil }
      let programs = project.modules.programs(of: path)
      guard programs.count == 1 else { return nil }
      byProgram[programs[0], default: []].append(candidate)
    }
    guard byProgram.count > 1 else { return nil }
    var roots: [String] = []
    for program in byProgram.keys.sorted() {
      let group = byProgram[program] ?? []
      guard let root = group.count == 1
        ? group[0] : startingPoint(of: group.filter { isEntryPoint($0, index: index) }, index: index)
      else { return nil }
      roots.append(root)
    }
    return roots
  }

  /// The one of these entry points; of several, the one the program starts in (`@main`): an
  /// application delegate beside it is one the framework makes for it (`@UIApplicationDelegateAdaptor`).
  private static func startingPoint(of entryPoints: [String], index: Index) -> String? {
    if entryPoints.count == 1 { return entryPoints[0] }
    let marked = entryPoints.filter { type in
      index.declarations(of: type).flatMap(\.attributes).contains(where: FrameworkTypes.entryPointAttributes.contains)
    }
    return marked.count == 1 ? marked[0] : nil
  }

  /// An application's entry point, which the system creates and where its objects are made: a
  /// `@main` (or `@UIApplicationMain`, `@NSApplicationMain`) type or an application delegate.
  public static func isEntryPoint(_ type: String, index: Index) -> Bool {
    index.declarations(of: type).flatMap(\.attributes).contains(where: FrameworkTypes.entryPointAttributes.contains)
      || index.conformances(of: type).contains { FrameworkTypes.lastComponent($0).hasSuffix("ApplicationDelegate") }
  }

  /// A composition root: a class, struct or actor that no code outside tests creates (nothing in
  /// the project does, or only tests do). An enum's values come from its cases and a protocol's
  /// code runs in what conforms to it, so neither is ever a root; nor is a type that makes its own
  /// instance in a static member (another singleton's `static let shared = Tracker()`, a static
  /// factory), unless it is an entry point: it is made wherever that member is read, and what it
  /// needs is passed there. A subclass's instance is one of its superclass's too: a class whose
  /// subclasses code creates is created there. The one answer every command uses.
  public static func isCompositionRoot(_ type: String, project: Project) throws -> Bool {
    guard let primary = project.index.primaryDeclaration(of: type), [.class, .struct, .actor].contains(primary.kind) else {
      return false
    }
    for made in madeAs(type, index: project.index) {
      guard try creators(of: made, project: project).allSatisfy(project.index.isTestType) else { return false }
    }
    return try isEntryPoint(type, index: project.index) || !createsItselfStatically(type, project: project)
  }

  /// The types whose creation makes an instance of `type`: itself and its subclasses, to any depth.
  static func madeAs(_ type: String, index: Index) -> [String] {
    var found = [type]
    var next = 0
    while next < found.count {
      for subclass in index.subclasses(of: found[next]) where !found.contains(subclass) { found.append(subclass) }
      next += 1
    }
    return found
  }

  /// Whether a static member of `type` (outside tests) creates an instance of it.
  static func createsItselfStatically(_ type: String, project: Project) throws -> Bool {
    try project.answer("static creations of \(type) by itself") {
      try InitCallFinder.calls(of: [type], superclassOf: [:], project: project).calls.contains { call in
        !call.isSelfInit && !call.isSuperInit && call.context.isStatic && !Index.isTestPath(call.path)
          && call.context.typeName.map(project.index.resolveType) == type
      }
    }
  }

  /// The types whose code creates `type`, and the top-level functions outside tests that do, in file order.
  static func creators(of type: String, project: Project) throws -> [String] {
    try project.answer("creators of \(type)") { try findCreators(of: type, project: project) }
  }

  private static func findCreators(of type: String, project: Project) throws -> [String] {
    let index = project.index
    var result: [String] = []
    for call in try InitCallFinder.calls(of: [type], superclassOf: [:], project: project).calls
    where !call.isSelfInit && !call.isSuperInit {
      // A top-level function outside tests is a factory some code calls, and a global variable's
      // initial value (`var modules: [Module] = [CPU(), ...]`) is made when it is first read: both
      // create the type too, where top-level statements (a `main.swift`) are the program's entry.
      let isMainFile = call.path == "main.swift" || call.path.hasSuffix("/main.swift")
      let global = call.context.typeName == nil
        && (call.context.memberName?.hasSuffix(")") == true || (call.context.inPropertyInitializer && !isMainFile))
      let function = global && !Index.isTestPath(call.path) ? call.context.memberName : nil
      guard let owner = call.context.typeName.map(index.resolveType) ?? function, owner != type, !result.contains(owner)
      else { continue }
      result.append(owner)
    }
    return result
  }
}
