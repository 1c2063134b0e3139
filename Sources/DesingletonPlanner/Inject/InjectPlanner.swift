import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftSyntax

public struct InjectOptions: Sendable {
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
/// Decide (`InjectPlanner.decide`: the index and options to an `InjectDesign`, or a refusal):
/// 1. `checkSingleton`: the singleton has protocols, its instance is never replaced, and consumers
///    would not hold diverging copies of a value.
/// 2. `chooseTargets`: the types named with `--type`, or every consumer that can be injected; types
///    the system creates are listed apart (with `--property-injection`, those configured after a
///    cast get properties), and types the singleton makes while it is made, or in a module that
///    cannot import the singleton's, are skipped.
/// 3. `analyse`: each consumer's references and the smallest set of protocols covering them.
/// 4. `findInitCalls`: every place that creates a consumer; a consumer created where no argument can
///    be added is refused (`--type`) or skipped (`--all`).
/// 5. `propagateNeeds`: a consumer that creates another one receives what that one needs.
/// 6. `nameProperties`: a property name per protocol that collides with nothing in scope.
/// 7. `shapeInits`: which inits gain parameters, which init is generated and how it calls `super`
///    (the inherited designated inits call sites use, re-declared; required inits kept).
/// 8. `matchCalls`: which init each creation site reaches and what it passes; a site in another
///    isolation than an isolated singleton's, or in a module that cannot import it, skips its consumer.
/// 9. `imports` and `configuredSites`: the imports call sites need, and what property-injected
///    types are set to where they are configured.
///
/// Every step that cannot handle a consumer throws a `ConsumerRefusal` with a `SkipReason`: with
/// `--type` it is the refusal, with `--all` the consumer is skipped and the steps run again.
///
/// Write (`InjectWriter`: the design to text edits): stored initial values that move into inits,
/// references, inits, call sites, configuration sites, imports, then the closures that must capture
/// the new properties.
public enum InjectPlanner {
  /// The plan and what was decided, for the summary and `--format json`.
  public static func run(singleton: Singleton, options: InjectOptions, project: Project) throws -> (plan: Plan, report: InjectReport) {
    let design = try decide(singleton: singleton, options: options, project: project)
    var writer = InjectWriter(design: design, project: project)
    var plan = try writer.write()
    plan.parts = design.parts(project: project)
    return (plan, design.report(project: project))
  }

  public static func plan(singleton: Singleton, options: InjectOptions, project: Project) throws -> Plan {
    let design = try decide(singleton: singleton, options: options, project: project)
    var writer = InjectWriter(design: design, project: project)
    return try writer.write()
  }

  static func decide(singleton: Singleton, options: InjectOptions, project: Project) throws -> InjectDesign {
    var designer = InjectDesigner(singleton: singleton, options: options, project: project)
    return try designer.design()
  }
}

/// What `inject` will do, decided before any text is written.
struct InjectDesign {
  let singleton: Singleton
  let options: InjectOptions
  /// The consumers to inject, in the order they are rewritten.
  let consumers: [Consumer]
  /// Creation sites to update, in file order.
  let callSites: [CallSite]
  /// Consumers left alone, each with its reason.
  let skipped: [SkippedConsumer]
  /// Consumers the system creates, which cannot take init parameters.
  let frameworkCreated: [SkippedConsumer]
  /// Composition roots that create other consumers: they keep the accessor until `finish`.
  let roots: [SkippedConsumer]
  /// Files in another module than the singleton's that now name it and must import its module.
  let imports: [String: String]
  /// Where property-injected consumers are configured, and what each place assigns.
  var configurations: [ConfigurationSite] = []
  /// Static methods that take the protocols of the consumers they create, and their calls.
  var factories: [Factory] = []
  var factorySites: [FactorySite] = []

  func consumer(_ typeName: String) -> Consumer? { consumers.first { $0.typeName == typeName } }

  /// More injected protocols than this into one type is a sign the type does too much.
  static let protocolWarningThreshold = 6

  /// Types that receive more protocols than a type should, as warnings.
  var warnings: [Diagnostic] {
    consumers.filter { $0.protocols.count > Self.protocolWarningThreshold }.map { consumer in
      .warning(
        "'\(consumer.typeName)' now receives \(consumer.protocols.count) protocols of '\(singleton.typeName)'; consider splitting it",
        at: consumer.primary.location)
    }
  }

  /// The summary's closing lines: the skipped consumers grouped by reason with their places, the
  /// types the system creates, and the warnings.
  func summary() -> [Note] {
    var lines: [Note] = []
    if !skipped.isEmpty {
      lines.append(Note(.skipped, "skipped \(skipped.count) consumer\(skipped.count == 1 ? "" : "s"):"))
      for reason in SkipReason.allCases {
        let group = skipped.filter { $0.reason == reason }
        guard !group.isEmpty else { continue }
        lines.append(Note(.skipped, "\(reason.title) (\(group.count)): \(group.map(\.typeName).joined(separator: ", "))", depth: 1))
        lines += group.flatMap(\.diagnostics).map { Note(.skipped, $0, depth: 2) }
      }
    }
    if !frameworkCreated.isEmpty {
      lines.append(
        Note(.kept, "created by the framework, not injected (\(frameworkCreated.count)): \(frameworkCreated.map(\.typeName).joined(separator: ", "))"))
      lines += frameworkCreated.flatMap(\.diagnostics).map { Note(.kept, $0, depth: 1) }
    }
    if !roots.isEmpty {
      lines.append(Note(.kept, "composition roots, keeping the accessor (\(roots.count)): \(roots.map(\.typeName).joined(separator: ", "))"))
      lines += roots.flatMap(\.diagnostics).map { Note(.kept, $0, depth: 1) }
    }
    lines += warnings.map { Note(.skipped, $0) }
    return lines
  }
}

/// The init a consumer without a designated init of its own gets.
enum GeneratedInit {
  /// A class's init, ending with `superCall` (nil: no init without the superclass's arguments is
  /// written, only `inherited` ones); `coderInit` adds `required init?(coder:)`; `inherited` are the
  /// superclass's designated inits that call sites use, each with the injected parameters first, and
  /// `required` the superclass's required inits the class must keep, which take the shared instance.
  case classInit(superCall: String?, coderInit: Bool, inherited: [InheritedInit] = [], required: [InheritedInit] = [])
  /// A struct's init taking the injected parameters and then its memberwise ones.
  case memberwise(parameters: [String], assignments: [String])
  /// An actor's or a root class's init.
  case plain
}

/// A designated init a class inherits and a generated init re-declares, forwarding to `super`.
struct InheritedInit: Equatable {
  /// The parameter list as the superclass writes it (`title: String, style: Style = .plain`).
  var parameters: String
  /// The arguments that forward the parameters (`title: title, style: style`).
  var arguments: String
  /// `?` for a failable init, else "".
  var failable: String
  /// ` throws`, ` async throws`, or "".
  var effects: String
  /// Argument labels and whether each has a default, to match call sites.
  var shape: [(label: String, hasDefault: Bool)]

  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.parameters == rhs.parameters && lhs.arguments == rhs.arguments && lhs.failable == rhs.failable
      && lhs.effects == rhs.effects
  }

  /// `super.init(...)`, with `try`/`await` as its effects need.
  var superCall: String {
    let prefix = (effects.contains("throws") ? "try " : "") + (effects.contains("async") ? "await " : "")
    return "\(prefix)super.init(\(arguments))"
  }
}

/// A place that configures an instance the system created (`let cell = ... as! Cell`): the
/// statement after which the injected properties are set.
struct ConfigurationSite {
  var path: String
  var typeName: String
  /// The local that holds the instance.
  var variable: String
  /// The statement to insert after.
  var statement: Syntax
  var context: ReferenceContext
  /// `cell.counting = value`, filled in when the design is made.
  var assignments: [String] = []
  var captured: [String] = []
}

/// A creation site and the arguments it gains.
struct CallSite {
  var call: InitCall
  /// `label: value`, in parameter order, then any arguments an inherited convenience init stood for.
  var arguments: [String]
  /// Values that are the creator's own properties, which its closures must capture.
  var captured: [String]
  /// Some argument is the accessor itself.
  var passesAccessor: Bool
  /// For a view that reads the slices from the environment: `.environment(\.key, value)` after the
  /// call, instead of arguments.
  var environment: [String] = []
  /// The singleton makes the consumer in a stored property's initial value and passes `self`: the
  /// property becomes lazy, so `self` exists when the value is made.
  var makesLazy = false
  /// `, label: value` inserted after an existing argument (by byte offset): a held parameter that
  /// lost its default, placed where the init declares it.
  var insertions: [(offset: Int, text: String)] = []
}

/// One consumer being injected.
struct Consumer {
  var typeName: String
  var declarations: [TypeDecl]
  var primary: TypeDecl
  /// Protocols it receives, in catalog order.
  var protocols: [String] = []
  /// Property name for each protocol.
  var names: [String: String] = [:]
  /// Protocols held by an existing alias property (`let session = X.shared` becomes `let session: P`).
  var aliasProperties: [String: Reference] = [:]
  /// Protocols held by an init parameter that already takes the instance (`init(store: X = X.shared)`,
  /// kept in a stored property): the parameter and the property take the protocol's type.
  var heldParameters: [String: Reference] = [:]
  /// Protocols it holds together in one new property, named here, because it hands them to a held
  /// parameter of a type it creates (`store: A & B`): one value has to carry them all.
  var combined: [(name: String, protocols: [String])] = []
  /// Local aliases used through several protocols: the declaration goes and each use names its property.
  var dissolvedAliases: [Reference] = []
  var references: [Reference] = []
  var staticReferences: [Reference] = []
  /// Which protocol each reference (by range) goes through.
  var referenceProtocol: [DesingletonIndex.SourceRange: String] = [:]
  /// The new properties are `private`: every use and every creation is in the type's own file.
  var propertiesArePrivate = false
  /// Nil when the type declares a designated init in its primary declaration.
  var generatedInit: GeneratedInit?
  /// The system creates it: it gets `var name: P!` properties that the places configuring it set.
  var propertyInjected = false
  /// A SwiftUI view that reads its protocols from the environment (`--swiftui-environment`).
  var readsEnvironment = false
  /// Protocols only the views it shows read from the environment: whoever shows it sets them too.
  var passedDown: [String] = []

  func name(of protocolName: String) -> String { names[protocolName] ?? lowerCamel(protocolName) }

  /// What the consumer's inits take for its protocols, in protocol order: one parameter per
  /// protocol, except that the protocols a held parameter keeps share it (`store: A & B`).
  var slots: [(name: String, type: String, protocols: [String])] {
    var result: [(name: String, type: String, protocols: [String])] = []
    var done: Set<String> = []
    for protocolName in protocols where !done.contains(protocolName) {
      if let together = combined.first(where: { $0.protocols.contains(protocolName) }), heldParameters[protocolName] == nil {
        let group = protocols.filter(together.protocols.contains)
        done.formUnion(group)
        result.append((name(of: protocolName), group.joined(separator: " & "), group))
        continue
      }
      guard let definition = heldParameters[protocolName] else {
        result.append((name(of: protocolName), protocolName, [protocolName]))
        continue
      }
      let group = protocols.filter { heldParameters[$0] == definition }
      done.formUnion(group)
      result.append((name(of: protocolName), group.joined(separator: " & "), group))
    }
    return result
  }
}

/// The decide steps, in order; each reads the index and the syntax of the files it names.
struct InjectDesigner {
  let singleton: Singleton
  let options: InjectOptions
  let project: Project
  let index: Index
  let catalog: ProtocolCatalog
  var consumers: [String: Consumer] = [:]
  var order: [String] = []
  var skipped: [SkippedConsumer] = []
  /// Consumers the system creates: they keep the accessor until a human wires them.
  var frameworkCreated: [SkippedConsumer] = []
  /// Composition roots that read the singleton and create other consumers: the instance comes from them.
  var roots: [SkippedConsumer] = []
  /// Types the system creates that get properties instead of init parameters.
  var propertyInjected: Set<String> = []
  /// The places that configure each of them.
  var configurationsByType: [String: [ConfigurationSite]] = [:]
  /// Static methods that create consumers and take what those need as parameters, by key.
  var factories: [String: Factory] = [:]
  /// Factories whose calls turned out unable to pass the parameters: left as they are.
  var unthreaded: Set<String> = []

  init(singleton: Singleton, options: InjectOptions, project: Project) {
    self.singleton = singleton
    self.options = options
    self.project = project
    self.index = project.index
    self.catalog = ProtocolCatalog(singleton: singleton, index: project.index)
  }

  var accessExpression: String { singleton.accessExpression }

  mutating func design() throws -> InjectDesign {
    do {
      return try designConsumers()
    } catch let refusal as ConsumerRefusal {
      throw Refusal(refusal.diagnostics)
    }
  }

  /// Records a consumer left alone; its diagnostics point at its declaration when they name no place.
  mutating func skip(_ typeName: String, _ reason: SkipReason, _ diagnostics: [Diagnostic]) {
    let place = index.primaryDeclaration(of: typeName)?.location
    let placed = diagnostics.map { diagnostic -> Diagnostic in
      var diagnostic = diagnostic
      if diagnostic.location == nil { diagnostic.location = place }
      return diagnostic
    }
    skipped.append(SkippedConsumer(typeName: typeName, reason: reason, diagnostics: placed))
  }

  mutating func designConsumers() throws -> InjectDesign {
    let analysis = try checkSingleton()
    let targets = try chooseTargets(analysis)
    try index.requireCoverage()
    // Every target is analysed; in --all mode one that cannot be injected is skipped with its reason.
    for typeName in targets {
      do {
        // A type whose every use an earlier run wrote (or a composition root) is no consumer now.
        guard let consumer = try analyse(typeName, references: analysis.references) else { continue }
        consumers[typeName] = consumer
        order.append(typeName)
      } catch let refusal as ConsumerRefusal where options.types == nil {
        skip(typeName, refusal.reason, refusal.diagnostics)
      } catch let refusal as Refusal where options.types == nil {
        skip(typeName, .declaration, refusal.diagnostics)
      }
    }
    for typeName in order where propertyInjected.contains(typeName) {
      configurationsByType[typeName] = configurationSites(of: typeName)
    }
    try index.requireCoverage()
    if options.types == nil && !options.defaultArgument { try promoteCreators() }
    try index.requireCoverage()
    // Steps 4-8 run again without the consumers they could not handle: with --type such a consumer
    // is a refusal, with --all it is skipped with its reason and everything else goes on.
    let analysed = consumers
    var factorySites: [FactorySite] = []
    while true {
      consumers = analysed.filter { order.contains($0.key) }
      let found = try findInitCalls()
      try index.requireCoverage()
      var problems = found.blocked
      var callSites: [CallSite] = []
      if problems.isEmpty {
        let calls = found.calls
        if options.swiftUIEnvironment { chooseEnvironmentViews(calls) }
        factories = options.types == nil && !options.defaultArgument ? try findFactories(calls) : [:]
        propagateNeeds(calls + forwardedCreations(calls))
        for typeName in order { try nameProperties(typeName) }
        for typeName in order {
          do {
            try shapeInits(typeName, calls: calls)
          } catch let refusal as ConsumerRefusal {
            problems[typeName, default: ConsumerRefusal(refusal.reason, [])].diagnostics += refusal.diagnostics
          } catch let refusal as Refusal {
            problems[typeName, default: ConsumerRefusal(.declaration, [])].diagnostics += refusal.diagnostics
          }
        }
        shapeFactories()
        try index.requireCoverage()
        if problems.isEmpty && !options.defaultArgument {
          guard let sites = matchFactoryCalls() else { continue }
          factorySites = sites
          (callSites, problems) = try matchCalls(calls)
        }
      }
      if problems.isEmpty {
        if options.strict && !skipped.isEmpty {
          throw Refusal(skipped.flatMap(\.diagnostics))
        }
        var design = InjectDesign(
          singleton: singleton, options: options, consumers: order.compactMap { consumers[$0] }, callSites: callSites,
          skipped: skipped, frameworkCreated: frameworkCreated, roots: roots, imports: try imports(for: callSites))
        design.configurations = configuredSites()
        design.factories = factories.values.filter { !$0.protocols.isEmpty }.sorted { $0.key < $1.key }
        design.factorySites = factorySites
        return design
      }
      let sorted = problems.sorted { $0.key < $1.key }
      if options.types != nil { throw Refusal(sorted.flatMap(\.value.diagnostics)) }
      for (typeName, refusal) in sorted {
        skip(typeName, refusal.reason, refusal.diagnostics)
        order.removeAll { $0 == typeName }
      }
    }
  }
}
