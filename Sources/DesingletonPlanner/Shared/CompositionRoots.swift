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
  /// `candidates` in that case listing the entry points first.
  /// `perProgram`: when the several are in different programs (an app and its widget extension,
  /// each a process with its own `static let`), and each program has one of them (or one it starts
  /// in), those roots, one per program: each can own its program's instance.
  public static func proposedRoot(
    singleton: Singleton, project: Project
  ) throws -> (root: String?, candidates: [String], perProgram: [String]) {
    let index = project.index
    func isEntryPoint(_ type: String) -> Bool { CompositionRoots.isEntryPoint(type, index: index) }
    var using: [String] = []
    for item in remainingReferences(singleton: singleton, root: nil, project: project) {
      guard let owner = item.typeName, !using.contains(owner) else { continue }
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
    // Several: the entry points first, as the likeliest owners.
    if !using.isEmpty {
      return (nil, using.filter(isEntryPoint) + using.filter { !isEntryPoint($0) }, onePerProgram(using, project: project) ?? [])
    }
    // An entry point carries its attribute or conforms to an application delegate protocol.
    let entryPoints = project.typeNames(inFilesMentioning: FrameworkTypes.entryPointAttributes.sorted() + ["ApplicationDelegate"])
      .filter { !index.isTestType($0) && isEntryPoint($0) }
    let start = startingPoint(of: entryPoints, index: index)
    return (start, entryPoints, start == nil ? onePerProgram(entryPoints, project: project) ?? [] : [])
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
  /// needs is passed there. The one answer every command uses.
  public static func isCompositionRoot(_ type: String, project: Project) throws -> Bool {
    guard let primary = project.index.primaryDeclaration(of: type), [.class, .struct, .actor].contains(primary.kind) else {
      return false
    }
    guard try creators(of: type, project: project).allSatisfy(project.index.isTestType) else { return false }
    return try isEntryPoint(type, index: project.index) || !createsItselfStatically(type, project: project)
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
