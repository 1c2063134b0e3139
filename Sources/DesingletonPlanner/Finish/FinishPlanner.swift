import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftSyntax

public struct FinishOptions: Sendable {
  /// The composition root that will own the one instance.
  public var root: String
  /// Let tests create their own instance instead of refusing while they use the accessor.
  public var includeTests: Bool
  /// Hand the instance to a dependency container instead of creating it in the root.
  public var container: ContainerKind?
  /// With swift-dependencies: consumers read their protocols with `@Dependency` instead of taking them in their init.
  public var dependencyWrapper: Bool
  /// The roots of the other programs, which own their own instances: their uses are theirs
  /// (`FinishPlanner.runPerProgram`).
  public var otherRoots: Set<String> = []
  /// The other singletons finished in the same run (`finish --singleton A --singleton B`): their
  /// accessors' creations and their properties set after creation may use this one's accessor, and
  /// the root makes them all together (`FinishTogether.swift`).
  public var together: Set<String> = []
  /// A refusal that finds another singleton made with this one suggests finishing both together,
  /// once planning that succeeds; false while planning it (so the check does not recurse).
  public var suggestsTogether = true
  /// What a refusal suggests for the consumers that still read the accessor, asked once for all of
  /// them and checked by whoever composes the commands (`NextCommand.injectTypes`); nil suggests
  /// nothing. `finish` never plans another command itself.
  public var nextStep: ConsumerNextStep?

  public init(
    root: String, includeTests: Bool = false, container: ContainerKind? = nil, dependencyWrapper: Bool = false,
    nextStep: ConsumerNextStep? = nil
  ) {
    self.nextStep = nextStep
    self.root = root
    self.includeTests = includeTests
    self.container = container
    self.dependencyWrapper = dependencyWrapper
  }
}

/// The command to suggest for each consumer still reading the accessor, with the reason it is that
/// one: `"; run 'desingleton inject ... --all'"` or `"... --type T'"`, or why it cannot take it yet
/// (a consumer left out says nothing more). `rewrite` gives the project with a plan applied, when
/// the command can make one.
public typealias ConsumerNextStep = @Sendable (
  _ consumers: [String], _ singleton: Singleton, _ project: Project, _ rewrite: ((Plan) throws -> Project)?
) throws -> [String: String]

/// A remaining use of the accessor, and what kind of place it is.
public struct RemainingReference: Sendable, Hashable {
  public enum Kind: String, Sendable {
    case root = "the composition root"
    case test = "a test"
    case consumer = "a consumer not yet injected"
    case staticContext = "a static context"
    case topLevel = "top-level code"
    case singleton = "the singleton itself"
    /// `required init?(coder:)`, which `inject` gives the shared instance because storyboards cannot pass arguments.
    case coderInit = "a required init?(coder:)"
    /// A required init another declaration needs as it is (a superclass's, a protocol's, a creation
    /// through the type): `inject` gives it the shared instance, and it keeps it.
    case requiredInit = "a required init that must keep its parameters, in"
    /// A type the system creates (an application delegate, a cell): it cannot take init parameters.
    case frameworkCreated = "a type the system creates"
  }

  public var reference: Reference
  public var kind: Kind
  public var typeName: String?
}

/// Deletes the singleton's static accessor once only the composition root (and, if asked, tests)
/// still use it; the root then owns the one instance.
///
/// Steps, in order: classify the remaining references; refuse a root that receives the instance
/// through its init (its creator is the root); refuse what blocks (consumers, static and top-level
/// code, tests without `--include-tests`, tests that inspect the shared instance rather than hand it
/// to what they create); give the root its instance, assigning in its inits the stored properties
/// whose initial value used the accessor; give each test function its own instance; make coder
/// inits fail; remove the accessor and widen private inits.
///
/// ## Before
/// ```swift
/// final class SessionController {
///   static let sharedController = SessionController()
///   private init() {}
/// }
/// final class AppCoordinator {
///   func showCart() { push(CartViewController(currentCart: SessionController.sharedController)) }
/// }
/// ```
/// ## After (`finish --root AppCoordinator`)
/// ```swift
/// final class SessionController {
///   init() {}
/// }
/// final class AppCoordinator {
///   private let sessionController = SessionController()
///   func showCart() { push(CartViewController(currentCart: sessionController)) }
/// }
/// ```
public enum FinishPlanner {
  /// Objective-C sees the accessor: it is `@objc` (or the type is `@objcMembers`) on a class it can see.
  static func accessorIsVisibleToObjectiveC(_ singleton: Singleton, index: Index) -> Bool {
    if index.isObjectiveC(singleton.declaration.path) { return true }
    guard ObjectiveCUses.isVisible(singleton.typeName, index: index) else { return false }
    if index.primaryDeclaration(of: singleton.typeName)?.attributes.contains("@objcMembers") == true { return true }
    return index.members(of: singleton.typeName).contains {
      $0.isStatic && singleton.accessors.contains($0.name) && $0.attributes.contains("@objc")
    }
  }

  public static func plan(singleton: Singleton, options: FinishOptions, project: Project) throws -> Plan {
    try run(singleton: singleton, options: options, project: project).plan
  }

  /// The plan and what it decided (`--format json`).
  /// `rewrite` gives the project with a plan applied: with it, a suggested `inject --type` is one
  /// whose plan, made as `inject` makes it (never spreading the accessor), changes something.
  public static func run(
    singleton: Singleton, options: FinishOptions, project: Project, rewrite: ((Plan) throws -> Project)? = nil
  ) throws -> (plan: Plan, report: FinishReport) {
    let design = try decide(singleton: singleton, options: options, project: project, rewrite: rewrite)
    return try write(design, project: project)
  }

  /// One root per program (`CompositionRoots.proposedRoot`'s `perProgram`): each run gives its root
  /// its program's instance, leaving the other roots' uses to theirs, and the plans are merged: the
  /// edits they share (the accessor's removal, tests) once, and a refusal when two runs would change
  /// the same code differently.
  public static func runPerProgram(
    singleton: Singleton, roots: [String], options: FinishOptions, project: Project, rewrite: ((Plan) throws -> Project)? = nil
  ) throws -> (plan: Plan, reports: [FinishReport]) {
    var merged = Plan()
    var reports: [FinishReport] = []
    var notes: Set<Note> = []
    for root in roots {
      var rootOptions = options
      rootOptions.root = root
      rootOptions.otherRoots = Set(roots).subtracting([root])
      let (plan, report) = try run(singleton: singleton, options: rootOptions, project: project, rewrite: rewrite)
      reports.append(report)
      try add(
        plan, to: &merged, notes: &notes,
        conflict: "the roots of two programs, \(roots.map { "'\($0)'" }.joined(separator: " and ")), would change this code differently; name one with --root")
    }
    return (merged, reports)
  }

  /// One run's plan added to plans made with it (per program, or per singleton finished together):
  /// the edits they share once, each note once, and a refusal saying `conflict` where two would
  /// change the same code (or create the same file) differently.
  static func add(_ plan: Plan, to merged: inout Plan, notes: inout Set<Note>, conflict: String) throws {
    for (path, edits) in plan.edits {
      var all = merged.edits[path] ?? []
      for edit in edits where !all.contains(edit) {
        if all.contains(where: { $0.range.overlaps(edit.range) || ($0.range.isEmpty && $0.range.lowerBound == edit.range.lowerBound) }) {
          throw Refusal(conflict, at: Location(path: path, line: 1, column: 1))
        }
        all.append(edit)
      }
      merged.edits[path] = all
    }
    for (path, text) in plan.newFiles {
      if let other = merged.newFiles[path], other != text { throw Refusal(conflict, at: Location(path: path, line: 1, column: 1)) }
      merged.newFiles[path] = text
    }
    for (path, companion) in plan.companions { merged.companions[path] = companion }
    for note in plan.notes where notes.insert(note).inserted { merged.notes.append(note) }
  }

  /// Steps 1–2: the root, the remaining references and a refusal when any blocks; then how the
  /// root creates and names the instance, and the container's design.
  static func decide(
    singleton: Singleton, options: FinishOptions, project: Project, rewrite: ((Plan) throws -> Project)?
  ) throws -> FinishDesign {
    let index = project.index
    let rootMatches = index.types(named: options.root).filter { index.declarations(of: $0).contains { !$0.isExtension } }
    guard rootMatches.count == 1, let root = rootMatches.first,
      let rootDecl = index.declarations(of: root).first(where: { !$0.isExtension })
    else {
      throw Refusal(rootMatches.isEmpty ? "no type named '\(options.root)'" : "'\(options.root)' is ambiguous: \(rootMatches.joined(separator: ", "))")
    }
    var remaining = CompositionRoots.remainingReferences(singleton: singleton, root: root, project: project)
      .filter { item in item.typeName.map { !options.otherRoots.contains($0) } ?? true }
    // What the singletons finished with it make of it, the root's making of them all replaces.
    let madeTogether = try remaining.filter { try MadeTogether.isMadeTogether($0, with: options.together, project: project) }
    remaining.removeAll { madeTogether.contains($0) }
    try index.requireCoverage()
    try checkRootDoesNotReceiveTheInstance(singleton, root: root, project: project)
    try checkAccessorIsNoRequirement(singleton, project: project)
    let testRefusals = options.includeTests
      ? try testReferencesToRefuse(remaining.filter { $0.kind == .test }, root: root, project: project) : [:]
    let owner = options.container == nil
      ? try ownerProperty(among: remaining.filter { $0.kind == .root }, singleton: singleton, root: root, project: project) : nil
    let selfUses = Set(try remaining.filter { try SelfUses.canBeSelf($0, singleton: singleton, project: project) }.map(\.reference))
    let blocking = remaining.filter { item in
      // `.shared` of a type that cannot be told may be this accessor: it cannot be deleted under it.
      if item.reference.use == .unresolvedImplicit { return true }
      switch item.kind {
      case .singleton: return !selfUses.contains(item.reference)
      // A use through the root's own local or property holding the instance needs no change.
      case .root: return false
      case .test: return !options.includeTests || testRefusals[item.reference] != nil
      case .coderInit: return false
      default: return true
      }
    }
    // Objective-C code that sends the accessor message would stop compiling once it is deleted.
    let objectiveC = accessorIsVisibleToObjectiveC(singleton, index: index)
      ? ObjectiveCUses.messages(to: singleton.typeName, selectors: accessorSelectors(singleton, index: index), in: project) : []
    try index.requireCoverage()
    if !blocking.isEmpty || !objectiveC.isEmpty {
      let blockers = Blockers(
        singleton: singleton, project: project, rewrite: rewrite, nextStep: options.nextStep, remaining: remaining,
        blocking: blocking, testRefusals: testRefusals, options: options)
      throw Refusal(try blockers.diagnostics(objectiveC: objectiveC))
    }
    // Asked last: it walks every file naming the root, which a refusal above does not need (the
    // first of several candidate roots is often an entry point named in many files).
    try checkRootIsMadeOnce(root, singleton: singleton, project: project)

    let members = index.declarations(of: singleton.typeName).flatMap(\.members)
    let source = try project.file(rootDecl.path).source
    // A name nothing in the root declares or refers to: a parameter named like it would take the
    // uses of the accessor the property replaces (`merge(guest cart: Cart)`).
    let taken = try rootNames(root, remaining: remaining, project: project)
    let name = owner?.name
      ?? NamesInScope.free(lowerCamel(singleton.simpleTypeName), or: ["shared" + singleton.simpleTypeName], taken: taken)
    // An Objective-C singleton's accessor stays in its header: a strict one's instance can only
    // come from it; another's the root makes (`[[X alloc] init]`, `X()` in Swift). Typed, since an
    // init the header leaves unannotated is imported as `init!`.
    let keepsAccessor = index.isObjectiveC(singleton.declaration.path)
    let creation: (expression: String, type: String?) = keepsAccessor
      ? (singleton.isStrict ? singleton.accessExpression : "\(singleton.typeName)()", singleton.typeName)
      : try instanceExpression(singleton, members: members, project: project)
    let propertyAccess = try PropertyAccess.of(readBy: remaining.filter { $0.kind == .root }.map(\.reference), declaredIn: rootDecl.path, project: project)
    // The root owns the instance, or gets it from the container.
    let container = try options.container.map { kind in
      ContainerWriter(
        design: try ContainerPlanner.design(
          kind, singleton: singleton, root: rootDecl, rootReferences: remaining.filter { $0.kind == .root }.map(\.reference),
          creation: creation.expression, instanceName: name,
          wrapping: options.dependencyWrapper ? remaining.filter { $0.kind == .root || $0.kind == .test } : nil, project: project),
        unit: source.indentUnit, lineEnding: source.lineEnding, propertyAccess: propertyAccess)
    }
    // A root in another module than the singleton's can call only a public init.
    let access = project.modules.crossesModules(rootDecl.path, singleton.declaration.path) ? "public" : "internal"
    return FinishDesign(
      singleton: singleton, root: root, rootDecl: rootDecl, remaining: remaining, name: name, creation: creation,
      container: container, initAccess: access, propertyAccess: propertyAccess, owner: owner?.reference, selfUses: selfUses,
      keepsAccessor: keepsAccessor, madeTogether: madeTogether)
  }

  /// Refuses a root declared twice, not as an extension (each app target's `AppDelegate` where the
  /// build files do not tell the targets apart, or one per `#if` branch): each declaration is a root
  /// of its own, and the property would go into one of them.
  static func checkRootIsDeclaredOnce(_ root: String, index: Index) throws {
    let primaries = index.declarations(of: root).filter { !$0.isExtension }
    guard primaries.count > 1, let first = primaries.first else { return }
    let others = primaries.dropFirst().map { "\($0.location.path):\($0.location.line):\($0.location.column)" }
    throw Refusal(
      "'\(root)' is declared more than once (here and at \(others.joined(separator: ", "))): each declaration is a root of its own "
        + "(a type of each app target, or of each '#if' branch), which one property cannot serve; give each its own instance by "
        + "hand, or name another root with --root",
      at: first.location)
  }

  /// The names Objective-C code sends the accessor by: its Swift names and, for a class declared in
  /// Objective-C, its selectors (`sharedLogger` for Swift's `shared`).
  static func accessorSelectors(_ singleton: Singleton, index: Index) -> Set<String> {
    Set(singleton.accessors + singleton.accessors.compactMap { objectiveCSelector(of: $0, of: singleton, index: index) })
  }

  /// The selector Objective-C sends for the accessor named `accessor` of a class it declares (`sharedLogger`
  /// for Swift's `shared`); nil for a Swift singleton.
  static func objectiveCSelector(of accessor: String, of singleton: Singleton, index: Index) -> String? {
    index.members(of: singleton.typeName).first { $0.isStatic && $0.name == accessor }?.imported?.selector
  }
}

/// What `finish` decided: the root that owns the instance, the references left to rewrite, how the
/// instance is created and named, and the container that hands it out (if any).
struct FinishDesign {
  var singleton: Singleton
  var root: String
  var rootDecl: TypeDecl
  var remaining: [RemainingReference]
  /// The root's property (and each test's local) holding the instance.
  var name: String
  var creation: (expression: String, type: String?)
  var container: ContainerWriter?
  /// The access the singleton's inits get: `public` when the root is in another module.
  var initAccess: String
  /// The root's property holding the instance: `private`, internal where an extension in another
  /// file reads it, `@usableFromInline` where code other modules inline reads it.
  var propertyAccess = PropertyAccess.private
  /// The root's stored property whose initial value was the accessor (`@State var store = Store.shared`):
  /// that value becomes the creation, and the property (`name`) holds the instance.
  var owner: Reference? = nil
  /// The singleton's own instance code's uses of the accessor, which become `self` (`SelfUses`).
  var selfUses: Set<Reference> = []
  /// The singleton is declared in Objective-C: its accessor and inits stay as they are (desingleton
  /// does not rewrite Objective-C); Swift code stops using it.
  var keepsAccessor = false
  /// Uses in the accessors and the properties set after creation of the singletons finished with
  /// it: the root's making of them all replaces them (`FinishTogether.swift`).
  var madeTogether: [RemainingReference] = []
  /// The root's declaration of the instance is written for all the singletons finished together.
  var declaredTogether = false

  /// Uses of the accessor that go with the arguments of consumers that now read `@Dependency`.
  var wrapped: Set<Reference> { container?.design.wrappedReferences ?? [] }
}

/// Why `finish` cannot delete the accessor yet: one error per use that blocks it, with what the user
/// can do (only an `inject --type` that would change something is suggested), and a note per use that does not.
struct Blockers {
  let singleton: Singleton
  let project: Project
  let rewrite: ((Plan) throws -> Project)?
  let nextStep: ConsumerNextStep?
  let remaining: [RemainingReference]
  let blocking: [RemainingReference]
  let testRefusals: [Reference: String]
  let options: FinishOptions

  func diagnostics(objectiveC: [Location]) throws -> [Diagnostic] {
    // A class declared in Objective-C is named there as Objective-C spells its accessor.
    let selector = FinishPlanner.objectiveCSelector(of: singleton.accessor, of: singleton, index: project.index)
    let spelled = selector.map { "[\(singleton.simpleTypeName) \($0)]" } ?? singleton.accessExpression
    var diagnostics = objectiveC.map { place in
      Diagnostic.error(
        "Objective-C code uses '\(spelled)' here, and desingleton does not rewrite Objective-C; pass the instance to it from Swift first",
        at: place)
    }
    var togetherCommands: [String: String?] = [:]
    // Another singleton's accessor or property set after creation: the two are finished together.
    var together: [Reference: Singleton] = [:]
    for item in blocking where item.reference.use != .unresolvedImplicit {
      if let owner = item.typeName, owner != singleton.typeName, let other = project.index.singleton(typeName: owner),
        try MadeTogether.isMadeTogether(item, with: [owner], project: project)
      {
        together[item.reference] = other
      }
    }
    // What each consumer's first use suggests, planned for them all at once.
    var consumers: [String] = []
    var listed: Set<String> = []
    for item in blocking where item.kind == .consumer && item.reference.use != .unresolvedImplicit && together[item.reference] == nil {
      if let type = item.typeName, listed.insert(type).inserted { consumers.append(type) }
    }
    var suggestions: [String: String] = [:]
    if let nextStep, !consumers.isEmpty {
      suggestions = try nextStep(consumers, singleton, project, rewrite)
      try project.index.requireCoverage()
    }
    for item in blocking {
      if item.reference.use == .unresolvedImplicit {
        diagnostics.append(.error("'.\(item.reference.accessor)' may be '\(singleton.accessExpression)', and which type it belongs to cannot be told; write the type out", at: item.reference.location))
        continue
      }
      var message = "'\(singleton.accessExpression)' is still used by \(item.kind.rawValue)\(item.typeName.map { " '\($0)'" } ?? "")"
      if let owner = item.typeName, let other = together[item.reference] {
        message = "'\(singleton.accessExpression)' is used by '\(owner)', a singleton made with it (in its accessor, or a property set after creation)"
        // Planned once per singleton, however many of its uses block.
        if togetherCommands[owner] == nil { togetherCommands[owner] = .some(try togetherCommand(with: other)) }
        if let command = togetherCommands[owner] ?? nil {
          message += "; finish them together: '\(command)'"
        } else {
          message += ": they can only be finished together, once nothing else blocks either"
        }
        diagnostics.append(.error(message, at: item.reference.location))
        continue
      }
      switch item.kind {
      case .consumer:
        // The consumer's first use carries it, its others do not repeat it.
        if let type = item.typeName, let suggestion = suggestions.removeValue(forKey: type) { message += suggestion }
      case .frameworkCreated:
        message += "; it cannot take init parameters: \(CompositionRoots.wiringHint)"
      case .test:
        if let reason = testRefusals[item.reference] {
          message = "'\(singleton.accessExpression)' is used by a test\(item.typeName.map { " '\($0)'" } ?? "")"
            + (item.reference.context.memberName.map { " in '\($0)'" } ?? "") + " " + reason
        } else {
          message += "; pass --include-tests to let tests create their own instance"
        }
      case .requiredInit:
        message += "; a superclass, a subclass, a protocol or a creation through the type needs that init as it is, "
          + "so it takes the shared instance: pass the instance where the type is created that way, or change it by hand"
      default: message += "; it cannot receive an injected value, change it by hand"
      }
      diagnostics.append(.error(message, at: item.reference.location))
    }
    let blocked = Set(blocking)
    for item in remaining where !blocked.contains(item) {
      diagnostics.append(.note("'\(singleton.accessExpression)' is used by \(item.kind.rawValue)\(item.typeName.map { " '\($0)'" } ?? "")", at: item.reference.location))
    }
    return diagnostics
  }

  /// The command that finishes this singleton with `other`, made with it, when planning it succeeds
  /// (with this run's root and options); nil when it would be refused, or while one is being checked.
  func togetherCommand(with other: Singleton) throws -> String? {
    guard options.suggestsTogether else { return nil }
    var together = FinishOptions(root: options.root, includeTests: options.includeTests, container: options.container)
    together.suggestsTogether = false
    let pair = [singleton, other].sorted { $0.typeName < $1.typeName }
    do {
      _ = try FinishPlanner.runTogether(singletons: pair, options: together, project: project)
    } catch is Refusal {
      return nil
    }
    var flags = pair.map { "--singleton \(shellWord($0.typeName))" } + ["--root \(shellWord(options.root))"]
    if options.includeTests { flags.append("--include-tests") }
    if let container = options.container { flags.append("--container \(container.rawValue)") }
    return "desingleton finish " + flags.joined(separator: " ")
  }
}
