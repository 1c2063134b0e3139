import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftSyntax

public struct InjectOptions: Sendable, Equatable {
  /// Consumer types to inject; nil takes every consumer that can be injected.
  public var types: [String]?
  /// Give the new init parameters the singleton as their default value and leave call sites alone.
  public var defaultArgument: Bool
  /// With `--all`, refuse (write nothing) when any consumer would be skipped.
  public var strict: Bool
  /// Give a type the system creates a `var slice: Slice!` property that the code configuring it
  /// (right after `dequeueReusableCell(...) as! Cell`) sets, instead of listing it.
  public var propertyInjection: Bool
  /// SwiftUI views read the slices from the environment instead of taking them through their inits.
  public var swiftUIEnvironment: Bool
  /// Consumers a build failed with, each with the compiler's first error: skipped with it.
  public var excluded: [String: CompilerError] = [:]
  /// Consumers whose injection would use the accessor more than before (`AccessorSpread`), each
  /// with the note saying where: skipped with it.
  public var spreading: [String: Diagnostic] = [:]
  /// Consumers whose creations inside the given consumers pass the accessor for what the creator
  /// does not use itself, instead of the creator taking it to hand down (which would cost more
  /// where the creator is made). A creator planned in later hands down as usual.
  public var passedDirectly: [String: Set<String>] = [:]

  public init(
    types: [String]? = nil, defaultArgument: Bool = false, strict: Bool = false, propertyInjection: Bool = false,
    swiftUIEnvironment: Bool = false
  ) {
    self.types = types
    self.defaultArgument = defaultArgument
    self.strict = strict
    self.propertyInjection = propertyInjection
    self.swiftUIEnvironment = swiftUIEnvironment
  }
}

/// Why `inject --all` leaves a consumer alone; the summary groups skipped consumers by it.
public enum SkipReason: String, Sendable, CaseIterable {
  /// The system creates it (an application delegate, a `@main` type, a cell): it cannot take init
  /// parameters. Listed apart from the skipped consumers: the accessor may stay there.
  case frameworkCreated = "framework-created"
  case synthesizedConformance = "synthesized-conformance"
  case objectiveC = "objective-c-creation"
  case instanceUse = "instance-use"
  case unreadableValue = "no-property-yet"
  case uncoveredMember = "uncovered-member"
  case creationSite = "creation-site"
  case superclassInit = "superclass-init"
  case isolation = "isolation"
  case moduleCycle = "module-cycle"
  case createdBySingleton = "created-by-singleton"
  /// A singleton the singleton reads while it is made: injected, each would need the other first.
  case creationCycle = "creation-cycle"
  case observedObject = "observed-object"
  case declaration = "declaration"
  case build = "build-failed"
  case spreads = "accessor-would-spread"
  /// A composition root that creates other consumers: the place the instance comes from. Listed
  /// apart from the skipped consumers: the accessor stays there until `finish`.
  case root = "composition-root"

  /// How the summary names the group.
  public var title: String {
    switch self {
    case .frameworkCreated: return "created by the framework"
    case .synthesizedConformance: return "a synthesized conformance would break"
    case .objectiveC: return "created by Objective-C code"
    case .instanceUse: return "uses the instance itself"
    case .unreadableValue: return "uses the accessor where an injected property cannot be read"
    case .uncoveredMember: return "uses a member no protocol covers"
    case .creationSite: return "created where no argument can be added"
    case .superclassInit: return "no superclass init to call"
    case .isolation: return "uses the accessor in another isolation"
    case .moduleCycle: return "would make a module cycle"
    case .createdBySingleton: return "created while the singleton is being made"
    case .creationCycle: return "a singleton the singleton needs while it is made"
    case .observedObject: return "observes the singleton with a SwiftUI property wrapper"
    case .declaration: return "its declaration cannot be rewritten"
    case .build: return "the build failed with it"
    case .spreads: return "injecting it would use the accessor more, not less"
    case .root: return "a composition root, where the instance comes from"
    }
  }
}

/// A consumer `inject` leaves alone, with the reason and the places that decide it.
public struct SkippedConsumer: Sendable, Equatable {
  public var typeName: String
  public var reason: SkipReason
  public var diagnostics: [Diagnostic]
}

/// A consumer the design cannot handle: refused with `--type`, skipped with `--all`.
struct ConsumerRefusal: Error {
  var reason: SkipReason
  var diagnostics: [Diagnostic]

  init(_ reason: SkipReason, _ diagnostics: [Diagnostic]) {
    self.reason = reason
    self.diagnostics = diagnostics
  }

  init(_ reason: SkipReason, _ message: String, at location: Location? = nil) {
    self.init(reason, [.error(message, at: location)])
  }
}

/// Gives consumers the singleton's slices through their initializers instead of the global accessor,
/// and updates every place that creates them.
///
/// ## Before
/// ```swift
/// final class ItemListViewController: UIViewController {
///   override func viewDidLoad() {
///     SessionController.sharedController.fetchAvailableItems()
///   }
/// }
/// // AppCoordinator
/// navigationController.pushViewController(ItemListViewController(), animated: true)
/// ```
/// ## After (`inject --type ItemListViewController`)
/// ```swift
/// final class ItemListViewController: UIViewController {
///   private let itemFetcher: ItemFetcher
///
///   init(itemFetcher: ItemFetcher) {
///     self.itemFetcher = itemFetcher
///     super.init(nibName: nil, bundle: nil)
///   }
///
///   required init?(coder: NSCoder) {
///     self.itemFetcher = SessionController.sharedController
///     super.init(coder: coder)
///   }
///
///   override func viewDidLoad() {
///     itemFetcher.fetchAvailableItems()
///   }
/// }
/// // AppCoordinator
/// navigationController.pushViewController(ItemListViewController(itemFetcher: SessionController.sharedController), animated: true)
/// ```
///
/// ## Steps
/// Decide (`InjectPlanner.decide`: the model and options to an `InjectDesign`, or a refusal) runs
/// the steps in `Steps/`, one file each, in the order `decide` lists with the reason for it. Each
/// is a method of `InjectContext` that takes what earlier steps decided and returns what it
/// decides. A step that cannot handle a consumer says so with a `ConsumerRefusal` and its
/// `SkipReason`: with `--type` that is the refusal, with `--all` the consumer is left out and
/// `decide(excluding:)` runs the steps after the analysis again without it.
///
/// Write (`InjectWriter`: the design to text edits): stored initial values that move into inits,
/// references, inits, call sites, configuration sites, imports, then the closures that must capture
/// the new properties.
public enum InjectPlanner {
  /// The plan and what was decided, for the summary and `--format json`.
  public static func run(singleton: Singleton, options: InjectOptions, project: Project) throws -> (plan: Plan, report: InjectReport) {
    let design = try decide(singleton: singleton, options: options, project: project)
    var plan = try InjectWriter.write(design, project: project)
    plan.parts = design.parts(project: project)
    return (plan, design.report(project: project))
  }

  public static func plan(singleton: Singleton, options: InjectOptions, project: Project) throws -> Plan {
    try InjectWriter.write(try decide(singleton: singleton, options: options, project: project), project: project)
  }

  /// The design, or the refusal: the analysis once, then attempts over the consumers, each leaving
  /// out what the one before could not handle, until one succeeds.
  static func decide(singleton: Singleton, options: InjectOptions, project: Project) throws -> InjectDesign {
    let context = InjectContext(singleton: singleton, options: options, project: project)
    do {
      let analysed = try context.analyse()
      var excluded = InjectExclusions()
      while true {
        switch try context.decide(analysed, excluding: excluded) {
        case .designed(let design):
          return design
        case .factoryLeftAlone(let key):
          excluded.factories.insert(key)
        case .refused(let problems):
          let sorted = problems.sorted { $0.key < $1.key }
          if options.types != nil { throw Refusal(sorted.flatMap(\.value.diagnostics)) }
          excluded.consumers += sorted.map { context.skipped($0.key, $0.value.reason, $0.value.diagnostics) }
        }
      }
    } catch let refusal as ConsumerRefusal {
      throw Refusal(refusal.diagnostics)
    }
  }
}

extension InjectContext {
  /// Steps 1 to 4, once per run: which consumers there are, what each uses, and (with `--all`)
  /// the creators that hand the slices down.
  func analyse() throws -> InjectDraft {
    // 1. Nothing else is worth asking when the singleton cannot be injected at all.
    let analysis = try checkSingleton()
    // 2. The consumers come from the singleton's analysis (1).
    let (targets, chosen) = try chooseTargets(analysis)
    try index.requireCoverage()
    // 3. Each target's references and protocols (2); one that cannot be injected is skipped.
    var draft = try analyseConsumers(targets, references: analysis.references, into: chosen)
    try index.requireCoverage()
    // 4. With `--all`, the types that create the consumers (3) join them, so that one run moves
    //    the accessor all the way up to the composition roots.
    if options.types == nil && !options.defaultArgument { draft = try promoteCreators(draft) }
    try index.requireCoverage()
    return draft
  }

  /// Steps 5 to 14 over the analysed consumers less those `excluded` leaves out: a design, or the
  /// consumers (or the factory) that this attempt could not handle.
  func decide(_ analysed: InjectDraft, excluding excluded: InjectExclusions) throws -> InjectAttempt {
    var draft = analysed.without(excluded)
    // 5. Where each consumer is created: everything after it asks what the creations pass.
    let found = try findCreations(draft)
    try index.requireCoverage()
    if !found.blocked.isEmpty { return .refused(found.blocked) }
    let calls = found.calls
    // 6. Which views read the environment, before needs travel (8): such a view's creator passes nothing.
    if options.swiftUIEnvironment { draft.consumers = chooseEnvironmentViews(calls, in: draft) }
    // 7. The static methods that create consumers (5): their calls are creations too (8).
    if options.types == nil && !options.defaultArgument {
      draft.factories = try findFactories(calls, in: draft, leavingAlone: excluded.factories)
    }
    // 8. A creator needs what the consumers it creates (5, 7) need.
    draft.consumers = propagateNeeds(calls + forwardedCreations(calls, through: draft.factories), in: draft)
    // 9. Names, once each consumer's protocols are final (8).
    for typeName in draft.order {
      if let consumer = draft.consumers[typeName] { draft.consumers[typeName] = try nameProperties(consumer) }
    }
    // 10. Inits, which take the named protocols (9); a consumer whose init cannot is left out.
    var problems: [String: ConsumerRefusal] = [:]
    (draft.consumers, problems) = try shapeInits(calls, in: draft)
    // 11. What each factory takes: what the consumers it creates take (8).
    draft.factories = shapeFactories(draft)
    try index.requireCoverage()
    if !problems.isEmpty { return .refused(problems) }
    var callSites: [CallSite] = []
    var factorySites: [FactorySite] = []
    if !options.defaultArgument {
      // 12. The arguments each factory call passes (11), named by the creator's properties (9).
      switch matchFactoryCalls(draft) {
      case .leftAlone(let key): return .factoryLeftAlone(key)
      case .sites(let sites): factorySites = sites
      }
      // 13. The init each creation reaches (10) and what it passes (9, 12).
      let matched = try matchCalls(calls, in: draft)
      if !matched.unmatched.isEmpty { return .refused(matched.unmatched) }
      callSites = matched.sites
    }
    if options.strict && !draft.skipped.isEmpty { throw Refusal(draft.skipped.flatMap(\.diagnostics)) }
    // 14. The imports the call sites (13) need, and what configured types are set to (9).
    var design = InjectDesign(
      singleton: singleton, options: options, consumers: draft.order.compactMap { draft.consumers[$0] }, callSites: callSites,
      skipped: draft.skipped, frameworkCreated: draft.frameworkCreated, roots: draft.roots, imports: try imports(for: callSites))
    design.configurations = configuredSites(draft)
    design.factories = draft.factories.values.filter { !$0.protocols.isEmpty }.sorted { $0.key < $1.key }
    design.factorySites = factorySites
    return .designed(design)
  }
}
