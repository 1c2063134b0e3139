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
  case observedObject = "observed-object"
  case declaration = "declaration"
  case build = "build-failed"
  case spreads = "accessor-would-spread"

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
    case .observedObject: return "observes the singleton with a SwiftUI property wrapper"
    case .declaration: return "its declaration cannot be rewritten"
    case .build: return "the build failed with it"
    case .spreads: return "injecting it would use the accessor more, not less"
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
  /// How a human wires a type the system creates.
  static let wiringHint =
    "give it a property that whoever configures it sets, or keep the accessor there until the root passes it on"

  /// The plan and what was decided, for the summary and `--format json`.
  public static func run(singleton: Singleton, options: InjectOptions, project: Project) throws -> (plan: Plan, report: InjectReport) {
    let design = try decide(singleton: singleton, options: options, project: project)
    var writer = InjectWriter(design: design, project: project)
    var plan = try writer.write()
    plan.parts = design.parts(project: project)
    return (plan, design.report(project: project))
  }

  /// `run`, planned again without the units that would use the accessor more than before
  /// (`AccessorSpread`) until none does, so that a migration never spreads it. `rewrite` gives the
  /// project with a plan applied; the report carries the accessor census before and after.
  public static func run(
    singleton: Singleton, options: InjectOptions, project: Project, rewrite: (Plan) throws -> Project
  ) throws -> (plan: Plan, report: InjectReport) {
    var options = options
    let before = try AccessorCensus(singleton: singleton, project: project)
    while true {
      var (plan, report) = try run(singleton: singleton, options: options, project: project)
      report.before = before
      let rewritten = try rewrite(plan)
      guard let after = rewritten.index.singletons.first(where: { $0.typeName == singleton.typeName }) else {
        return (plan, report)
      }
      // With --default-argument the accessor stays, by design, as each new parameter's default.
      if options.defaultArgument {
        report.after = try AccessorCensus(singleton: after, project: rewritten)
        return (plan, report)
      }
      report.after = try AccessorCensus(singleton: after, project: rewritten)
      let original = try project.sources(of: Array(plan.edits.keys))
      let spreading = AccessorSpread.units(
        plan: plan, before: before, after: report.after!, accessExpression: singleton.accessExpression, original: original
      ).filter { options.spreading[$0.key] == nil }
      if spreading.isEmpty { return (plan, report) }
      options.spreading.merge(spreading) { first, _ in first }
    }
  }

  public static func plan(singleton: Singleton, options: InjectOptions, project: Project) throws -> Plan {
    let design = try decide(singleton: singleton, options: options, project: project)
    var writer = InjectWriter(design: design, project: project)
    return try writer.write()
  }

  static func decide(singleton: Singleton, options: InjectOptions, project: Project) throws -> InjectDesign {
    var designer = Designer(singleton: singleton, options: options, project: project)
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
  /// Files in another module than the singleton's that now name it and must import its module.
  let imports: [String: String]
  /// Where property-injected consumers are configured, and what each place assigns.
  var configurations: [ConfigurationSite] = []

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
  func summary() -> [String] {
    var lines: [String] = []
    if !skipped.isEmpty {
      lines.append("skipped \(skipped.count) consumer\(skipped.count == 1 ? "" : "s"):")
      for reason in SkipReason.allCases {
        let group = skipped.filter { $0.reason == reason }
        guard !group.isEmpty else { continue }
        lines.append("  \(reason.title) (\(group.count)): \(group.map(\.typeName).joined(separator: ", "))")
        lines += group.flatMap(\.diagnostics).map { "    \($0)" }
      }
    }
    if !frameworkCreated.isEmpty {
      lines.append("created by the framework, not injected (\(frameworkCreated.count)): \(frameworkCreated.map(\.typeName).joined(separator: ", "))")
      lines += frameworkCreated.flatMap(\.diagnostics).map { "  \($0)" }
    }
    lines += warnings.map(\.description)
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

/// A stored property whose initial value creates a consumer that must be given the creator's own
/// properties: the value moves into the creator's inits (`self.name = value`), the declaration
/// keeps its type.
struct MovedInitialValue {
  var binding: PatternBindingSyntax
  var variable: VariableDeclSyntax
  var name: String

  /// The binding of the instance stored property whose initial value holds `node`, outside closures;
  /// nil for a lazy or static one, a local, or one of several bindings.
  init?(around node: Syntax) {
    var current = node.parent
    while let syntax = current {
      if syntax.is(ClosureExprSyntax.self) || syntax.is(CodeBlockSyntax.self) || syntax.is(AccessorBlockSyntax.self) {
        return nil
      }
      if let clause = syntax.as(InitializerClauseSyntax.self), let binding = clause.parent?.as(PatternBindingSyntax.self),
        let variable = binding.parent?.parent?.as(VariableDeclSyntax.self), variable.parent?.is(MemberBlockItemSyntax.self) == true,
        variable.bindings.count == 1, let pattern = binding.pattern.as(IdentifierPatternSyntax.self)
      {
        if variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.lazy) }) || variable.modifiers.isStatic { return nil }
        self.binding = binding
        self.variable = variable
        self.name = pattern.identifier.text
        return
      }
      if syntax.is(MemberBlockItemSyntax.self) { return nil }
      current = syntax.parent
    }
    return nil
  }

  func inferredType(_ index: Index) -> String? {
    binding.initializer.flatMap { FinishPlanner.writtenType(of: $0.value, index: index) }
  }

  /// The statement an init sets the property with: through the wrapper's storage for a SwiftUI
  /// wrapper (`self._model = StateObject(wrappedValue: value)`).
  func assignment(_ value: String, index: Index) -> String {
    (ViewProperty(variable, index: index) ?? .otherWrapper("")).assignment(name, value)
  }
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
}

/// The decide steps, in order; each reads the index and the syntax of the files it names.
private struct Designer {
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
  /// Types the system creates that get properties instead of init parameters.
  var propertyInjected: Set<String> = []
  /// The places that configure each of them.
  var configurationsByType: [String: [ConfigurationSite]] = [:]

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
    if options.types == nil && !options.defaultArgument { try promoteCreators() }
    // Steps 4-8 run again without the consumers they could not handle: with --type such a consumer
    // is a refusal, with --all it is skipped with its reason and everything else goes on.
    let analysed = consumers
    while true {
      consumers = analysed.filter { order.contains($0.key) }
      let found = try findInitCalls()
      var problems = found.blocked
      var callSites: [CallSite] = []
      if problems.isEmpty {
        let calls = found.calls
        if options.swiftUIEnvironment { chooseEnvironmentViews(calls) }
        propagateNeeds(calls)
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
        if problems.isEmpty && !options.defaultArgument {
          (callSites, problems) = try matchCalls(calls)
        }
      }
      if problems.isEmpty {
        if options.strict && !skipped.isEmpty {
          throw Refusal(skipped.flatMap(\.diagnostics))
        }
        var design = InjectDesign(
          singleton: singleton, options: options, consumers: order.compactMap { consumers[$0] }, callSites: callSites,
          skipped: skipped, frameworkCreated: frameworkCreated, imports: try imports(for: callSites))
        design.configurations = configuredSites()
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

  // MARK: 1. The singleton

  func checkSingleton() throws -> SingletonAnalysis {
    guard !catalog.entries.isEmpty else {
      throw Refusal(
        "'\(singleton.typeName)' conforms to no protocol declared in this code; run 'desingleton extract-protocol --singleton \(singleton.typeName)' first",
        at: singleton.declaration.start)
    }
    let analysis = try SingletonAnalysis(singleton: singleton, project: project)
    if let place = analysis.reassignments.first {
      throw Refusal(
        "'\(singleton.accessExpression)' is given a new instance here, so a consumer holding the instance it had would keep the old one; injecting it would change what the code does",
        at: place)
    }
    if let reason = copiesWouldDiverge() {
      throw Refusal(reason, at: singleton.declaration.start)
    }
    return analysis
  }

  // MARK: 2. Which types

  mutating func chooseTargets(_ analysis: SingletonAnalysis) throws -> [String] {
    var targets: [String] = []
    if let requested = options.types {
      for name in requested {
        let matches = index.types(named: name).filter { index.declarations(of: $0).contains { !$0.isExtension } }
        if matches.isEmpty { throw Refusal("no type named '\(name)'") }
        if matches.count > 1 { throw Refusal("'\(name)' is ambiguous: \(matches.joined(separator: ", "))") }
        if let error = options.excluded[matches[0]] {
          skip(matches[0], .build, [error.diagnostic])
          continue
        }
        if let note = options.spreading[matches[0]] {
          skip(matches[0], .spreads, [note])
          continue
        }
        if let (_, reason) = notInjectable(matches[0]) {
          throw Refusal("'\(matches[0])' cannot be injected: \(reason)", at: index.declarations(of: matches[0]).first?.location)
        }
        if !targets.contains(matches[0]) { targets.append(matches[0]) }
      }
    } else {
      // A consumer that only passes the instance on is a target too: it may be a creator an earlier
      // run left passing the accessor, or it is skipped with its reason.
      for usage in analysis.consumers where !(usage.reads + usage.writes + usage.calls).isEmpty || !usage.instanceUses.isEmpty {
        if let error = options.excluded[usage.typeName] {
          skip(usage.typeName, .build, [error.diagnostic])
        } else if let note = options.spreading[usage.typeName] {
          skip(usage.typeName, .spreads, [note])
        } else if let (kind, reason) = notInjectable(usage.typeName) {
          let usesMembers = !(usage.reads + usage.writes + usage.calls).isEmpty
          guard usesMembers, let kind else { continue }
          if kind == .frameworkCreated && options.propertyInjection && !configurationSites(of: usage.typeName).isEmpty {
            propertyInjected.insert(usage.typeName)
            targets.append(usage.typeName)
          } else if kind == .frameworkCreated {
            let place = index.primaryDeclaration(of: usage.typeName)?.location
            frameworkCreated.append(
              SkippedConsumer(
                typeName: usage.typeName, reason: kind,
                diagnostics: [.note("'\(usage.typeName)': \(reason); \(InjectPlanner.wiringHint)", at: place)]))
          } else {
            skip(usage.typeName, kind, [.error("'\(usage.typeName)': \(reason)")])
          }
        } else {
          targets.append(usage.typeName)
        }
      }
    }
    return targets
  }

  /// A value-type singleton whose shared instance can change: each consumer would hold a copy, and a
  /// change made through one copy would no longer be seen by the others.
  func copiesWouldDiverge() -> String? {
    guard singleton.typeKind == .struct || singleton.typeKind == .enum else { return nil }
    let storage = Set([singleton.accessor, singleton.backingStorage].compactMap { $0 })
    let mutable = index.members(of: singleton.typeName).contains { member in
      member.isStatic && member.kind == .property && storage.contains(member.name) && !member.isLet
        && (member.isStored || member.isSettable)
    }
    guard mutable else { return nil }
    return "'\(singleton.typeName)' is a \(singleton.typeKind.rawValue) whose shared instance is a 'static var': each consumer would hold its own copy, and changes made through one would no longer be seen by the others; make '\(singleton.typeName)' a class or an actor first"
  }


  /// The `extract-protocol` command that cuts a slice of one member, with a name the code does not
  /// use yet (`SliceNamer`), so that it can be run as printed.
  func sliceCommand(for member: String) -> String {
    let members = index.members(of: singleton.typeName).filter { $0.name == member && !$0.isStatic }
    let name = SliceNamer.name(for: members, typeName: singleton.simpleTypeName, wholeType: false) { candidate in
      !index.types(named: candidate).isEmpty || catalog.entries.contains { $0.name == candidate }
    }
    return "desingleton extract-protocol --singleton \(singleton.typeName) --slice \(name)=\(member)"
  }

  /// Why a type cannot be a consumer at all, and the group it is listed in (nil: not listed, as for
  /// the singleton itself, protocols and test cases).
  func notInjectable(_ typeName: String) -> (SkipReason?, String)? {
    let declarations = index.declarations(of: typeName)
    guard let primary = declarations.first(where: { !$0.isExtension }) else {
      return (.declaration, "its declaration is not in the given paths")
    }
    if typeName == singleton.typeName { return (nil, "it is the singleton itself") }
    switch primary.kind {
    case .enum: return (.declaration, "an enum cannot hold injected values")
    case .protocol: return (nil, "it is a protocol")
    default: break
    }
    if index.isTestType(typeName) { return (nil, "it is a test case") }
    if let place = createdWhileSingletonIsMade()[typeName], !singletonHandsSelf(to: typeName) {
      return (
        .createdBySingleton,
        "'\(singleton.typeName)' creates it while it is being made (\(place)), so '\(accessExpression)' does not exist yet where it would be passed; pass 'self' to it there by hand"
      )
    }
    if !canSeeSingleton(primary.path) {
      return (
        .moduleCycle,
        "its module '\(project.modules.module(of: primary.path) ?? "")' cannot import '\(singleton.typeName)'s module '\(project.modules.module(of: singleton.declaration.path) ?? "")' (that module depends on it), so it cannot name the protocols"
      )
    }
    if let reason = index.systemCreation(of: typeName) ?? InjectPlanner.interfaceBuilderCreation(of: typeName, project: project) {
      return (.frameworkCreated, "\(reason), so it cannot receive init parameters")
    }
    if let conformance = index.synthesizedConformance(of: typeName) {
      return (.synthesizedConformance, "its '\(conformance)' conformance is synthesized from its stored properties, which a protocol-typed property would break")
    }
    return nil
  }

  /// Whether code in the file can import the singleton's module (no module map: yes).
  func canSeeSingleton(_ path: String) -> Bool {
    guard let own = project.modules.module(of: singleton.declaration.path), let module = project.modules.module(of: path)
    else { return true }
    return project.modules.module(module, canSee: own)
  }

  /// Whether the singleton makes the type only in its own stored properties' initial values, and
  /// can make those lazy to pass `self` (`lazy var history = History(counting: self)`): it is an
  /// actor or isolated to a global actor, so a lazy property keeps it safe to share.
  func singletonHandsSelf(to typeName: String) -> Bool {
    guard singleton.typeKind == .actor || index.isolation(of: singleton.typeName) != nil else { return false }
    var found = false
    for declaration in index.declarations(of: singleton.typeName) {
      guard let file = try? project.file(declaration.path) else { return false }
      for member in declaration.members where member.kind == .initializer || (member.kind == .property && member.isStored) {
        guard let node = file.node(at: member.range.bytes) else { continue }
        let finder = CreationFinder(viewMode: .sourceAccurate)
        finder.walk(node)
        for (written, offset) in finder.created where index.resolveType(written) == typeName {
          guard member.kind == .property, !member.isStatic,
            let token = file.tree.token(at: AbsolutePosition(utf8Offset: offset)),
            MovedInitialValue(around: Syntax(token)) != nil
          else { return false }
          found = true
        }
      }
    }
    return found
  }

  func createdWhileSingletonIsMade() -> [String: Location] {
    InjectPlanner.createdWhileMade(singleton, project: project)
  }

  // MARK: 3. Analysis of one consumer

  func analyse(_ typeName: String, references all: [Reference]) throws -> Consumer? {
    // Objective-C creates it: those callers cannot pass the new init arguments.
    if ObjectiveCUses.isVisible(typeName, index: index) {
      let places = ObjectiveCUses.creations(of: typeName, in: project)
      if !places.isEmpty {
        throw ConsumerRefusal(.objectiveC, places.map {
          .error("Objective-C code creates '\(typeName)' here, and desingleton does not rewrite Objective-C, so it could not pass the new init arguments", at: $0)
        })
      }
    }
    let declarations = index.declarations(of: typeName)
    guard let primary = declarations.first(where: { !$0.isExtension }) else {
      throw Refusal("cannot find the declaration of '\(typeName)'")
    }
    var consumer = Consumer(typeName: typeName, declarations: declarations, primary: primary)
    consumer.propertyInjected = propertyInjected.contains(typeName)
    let members = declarations.flatMap(\.members)
    var reads: Set<String> = []
    var writes: Set<String> = []
    var problems: [(reason: SkipReason, diagnostic: Diagnostic)] = []
    var aliasDefinitions: [Reference] = []
    var passed: [(reference: Reference, protocolName: String)] = []
    for reference in all where index.enclosingType(of: reference) == typeName {
      if reference.context.isStatic {
        consumer.staticReferences.append(reference)
        continue
      }
      // What an earlier run wrote: the accessor as an injected argument or a coder-init fallback.
      var passedAs: String?
      if reference.use == .instance {
        switch try plumbing(of: reference) {
        case .kept: continue
        case .passed(let protocolName): passedAs = protocolName
        case .none: break
        }
      }
      // `use(.shared)` may be another type's: it stays, and the accessor stays with it until `finish`.
      if reference.use == .unresolvedImplicit { continue }
      if let passedAs {
        // A creation site that passes the accessor to a parameter of a protocol type: the creator
        // receives that protocol too and passes its own, so the accessor moves one level up. In a
        // stored property's initial value it stays (the property cannot be read there).
        if reference.context.inPropertyInitializer { continue }
        passed.append((reference, passedAs))
        continue
      }
      // A parameter's default value cannot read an injected property either.
      if try isInParameterDefault(reference) {
        problems.append((.unreadableValue, .error("'\(singleton.accessExpression)' is used in a default argument of '\(reference.context.memberName ?? typeName)', which cannot read an injected property; pass the value at the call sites instead", at: reference.location)))
        continue
      }
      // Stored property initial values cannot read injected properties.
      if reference.context.inPropertyInitializer, let memberName = reference.context.memberName,
        let stored = members.first(where: { $0.kind == .property && $0.name == memberName && $0.isStored && !$0.isStatic }),
        !stored.modifiers.contains("lazy")
      {
        let isAliasDefinition: Bool
        if case .alias(let name) = reference.use, name == memberName, reference.alias == nil { isAliasDefinition = true } else { isAliasDefinition = false }
        if !isAliasDefinition && reference.alias == nil {
          problems.append((.unreadableValue, .error("'\(singleton.accessExpression)' is used in the initial value of stored property '\(memberName)'; make it lazy or set it in an init", at: reference.location)))
          continue
        }
      }

      consumer.references.append(reference)
      switch reference.use {
      case .member(let name, let access):
        if access == .write { writes.insert(name) } else { reads.insert(name) }
      case .alias:
        aliasDefinitions.append(reference)
      case .reassignment:
        problems.append((.instanceUse, .error("'\(typeName)' replaces the shared instance", at: reference.location)))
      case .instance:
        problems.append((.instanceUse, .error("'\(typeName)' passes the instance '\(singleton.accessExpression)' itself, so it cannot be told which protocol it needs", at: reference.location)))
      case .keyPath:
        problems.append((.instanceUse, .error("'\(typeName)' applies a key path to '\(singleton.accessExpression)', so which member it needs cannot be told; use the member by name", at: reference.location)))
      case .unresolvedImplicit:
        break
      }
    }
    if let first = problems.first { throw ConsumerRefusal(first.reason, problems.map(\.diagnostic)) }
    // A `Sendable` type can store, and a `@Sendable` closure capture, only `Sendable` existentials.
    let sendable = try index.isCheckedSendable(typeName) || consumer.references.contains { try isInSendableClosure($0) }
    var calls: [String: [CallArguments]] = [:]
    for reference in consumer.references {
      if case .member(let name, .call) = reference.use, let arguments = reference.arguments {
        calls[name, default: []].append(arguments)
      }
    }
    let (chosen, uncovered) = catalog.cover(reads: reads, writes: writes, calls: calls, sendable: sendable)
    if let uncovered, sendable, catalog.cover(reads: reads, writes: writes, calls: calls).uncovered == nil {
      let location = consumer.references.first { if case .member(uncovered, _) = $0.use { return true } else { return false } }?.location
      throw ConsumerRefusal(
        .uncoveredMember, "'\(typeName)' needs a 'Sendable' protocol for '\(uncovered)' (it is Sendable, or uses it in a '@Sendable' closure), and no protocol of '\(singleton.typeName)' that covers it is 'Sendable'; add 'Sendable' to that protocol first",
        at: location)
    }
    if let uncovered, catalog.entries.contains(where: { $0.covers.contains(uncovered) }),
      let call = consumer.references.first(where: { reference in
        guard case .member(uncovered, .call) = reference.use, let arguments = reference.arguments else { return false }
        return !catalog.entries.contains { $0.covers(uncovered, calledWith: [arguments]) }
      }), let arguments = call.arguments
    {
      let written = "\(uncovered)(\(arguments.labels.map { "\($0):" }.joined()))"
      throw ConsumerRefusal(
        .uncoveredMember, "'\(typeName)' calls '\(written)', an overload no protocol of '\(singleton.typeName)' declares; run '\(sliceCommand(for: uncovered))' to cut one",
        at: call.location)
    }
    if let uncovered {
      let location = consumer.references.first { if case .member(uncovered, _) = $0.use { return true } else { return false } }?.location
      let written = writes.contains(uncovered)
      let message = written
        ? "'\(typeName)' sets '\(uncovered)', but no protocol of '\(singleton.typeName)' declares it '{ get set }'; run '\(sliceCommand(for: uncovered))' to cut one"
        : "'\(typeName)' uses '\(uncovered)', which no protocol of '\(singleton.typeName)' covers; run '\(sliceCommand(for: uncovered))' to cut one"
      throw ConsumerRefusal(.uncoveredMember, message, at: location)
    }
    // A type that only hands the instance on and that no code outside tests creates is a
    // composition root: it keeps passing the accessor, and `finish` makes it the owner.
    if consumer.references.isEmpty && !passed.isEmpty {
      if try !isCreatedOutsideTests(typeName) { passed = [] }
    }
    consumer.references += passed.map(\.reference)
    if consumer.references.isEmpty && options.types == nil { return nil }
    let order = Dictionary(uniqueKeysWithValues: catalog.entries.enumerated().map { ($1.name, $0) })
    consumer.protocols = Array(Set(chosen.map(\.name) + passed.map(\.protocolName)))
      .sorted { (order[$0] ?? 0) < (order[$1] ?? 0) }
    for (reference, protocolName) in passed { consumer.referenceProtocol[reference.range] = protocolName }
    // Each reference goes through the first chosen protocol that covers it.
    for reference in consumer.references {
      guard case .member(let name, let access) = reference.use else { continue }
      let arguments = reference.arguments.map { [$0] } ?? []
      if let entry = chosen.first(where: {
        $0.covers(name, calledWith: arguments) && (access != .write || $0.settable.contains(name))
      }) {
        consumer.referenceProtocol[reference.range] = entry.name
      }
    }
    // An alias goes through the one protocol that covers every member used through it.
    for definition in aliasDefinitions {
      guard case .alias(let aliasName) = definition.use else { continue }
      let property = definition.context.memberName == aliasName
        ? members.first(where: { $0.kind == .property && $0.name == aliasName && $0.isStored && !$0.isStatic }) : nil
      let isProperty = property != nil
      // `@ObservedObject var model: Store = .shared` observes a concrete `ObservableObject`: an
      // existential of a slice is none, so the property cannot take the protocol's type.
      if let property, let wrapper = property.attributes.first(where: ViewProperty.observingAttributes.contains) {
        throw ConsumerRefusal(
          .observedObject,
          "'\(typeName)' observes the singleton with '\(wrapper) var \(aliasName)', which needs a concrete ObservableObject type: a protocol type cannot be observed; it keeps the accessor",
          at: property.location)
      }
      let uses = consumer.references.filter {
        $0.alias == aliasName && $0.range.path == definition.range.path
          && (isProperty || $0.context.memberName == definition.context.memberName)
      }
      let protocolsUsed = Set(uses.compactMap { consumer.referenceProtocol[$0.range] })
      var target: String? = protocolsUsed.count == 1 ? protocolsUsed.first : nil
      if protocolsUsed.isEmpty { target = chosen.first?.name }
      if protocolsUsed.count > 1 {
        let members = uses.compactMap { use -> String? in if case .member(let name, _) = use.use { return name } else { return nil } }
        let coveringAll = chosen.first { entry in members.allSatisfy { entry.covers.contains($0) } }
        target = coveringAll?.name
      }
      guard let target else {
        // A local alias used through several protocols goes away: each use names its own property.
        if !isProperty, uses.allSatisfy({ if case .member = $0.use { return true } else { return false } }) {
          consumer.dissolvedAliases.append(definition)
          continue
        }
        throw ConsumerRefusal(.instanceUse, "alias '\(aliasName)' is used for members of several protocols (\(protocolsUsed.sorted().joined(separator: ", "))); split it by hand", at: definition.location)
      }
      for use in uses { consumer.referenceProtocol[use.range] = target }
      consumer.referenceProtocol[definition.range] = target
      if definition.context.memberName == aliasName,
        members.contains(where: { $0.kind == .property && $0.name == aliasName && $0.isStored && !$0.isStatic })
      {
        if consumer.aliasProperties[target] == nil { consumer.aliasProperties[target] = definition }
      }
    }
    return consumer
  }

  /// Whether a reference sits in the default value of a function's or an init's parameter.
  func isInParameterDefault(_ reference: Reference) throws -> Bool {
    guard let node = try project.file(reference.range.path).expression(at: reference.range.bytes) else { return false }
    return isInParameterDefault(Syntax(node))
  }

  func isInParameterDefault(_ node: Syntax) -> Bool {
    var current = node.parent
    while let syntax = current, !syntax.is(MemberBlockItemSyntax.self), !syntax.is(CodeBlockSyntax.self) {
      if syntax.is(InitializerClauseSyntax.self), syntax.parent?.is(FunctionParameterSyntax.self) == true { return true }
      current = syntax.parent
    }
    return false
  }

  /// Whether a reference sits in a closure marked `@Sendable`, inside its member.
  func isInSendableClosure(_ reference: Reference) throws -> Bool {
    guard let node = try project.file(reference.range.path).expression(at: reference.range.bytes) else { return false }
    var current = node.parent
    while let syntax = current, !syntax.is(MemberBlockItemSyntax.self) {
      if let closure = syntax.as(ClosureExprSyntax.self),
        closure.signature?.attributes.contains(where: { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "Sendable" }) == true
      {
        return true
      }
      current = syntax.parent
    }
    return false
  }

  /// A use of the instance that an earlier `inject` wrote: the shared instance assigned in
  /// `required init?(coder:)`, or given as an init parameter's default value.
  enum Plumbing {
    case none
    /// A coder-init fallback or a parameter's default value: it stays.
    case kept
    /// An argument for an init parameter of one of the singleton's protocols.
    case passed(String)
  }

  /// A use of the instance that an earlier `inject` wrote: given to an init parameter typed as one
  /// of the singleton's protocols, assigned in `required init?(coder:)`, or an init parameter's default.
  func plumbing(of reference: Reference) throws -> Plumbing {
    let file = try project.file(reference.range.path)
    guard let node = file.expression(at: reference.range.bytes) else { return .none }
    // Passed to an init parameter typed as one of the singleton's protocols: a creation site.
    if let argument = node.parent?.as(LabeledExprSyntax.self), let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self) {
      var called = call.calledExpression
      if let member = called.as(MemberAccessExprSyntax.self), member.declName.baseName.tokenKind == .keyword(.`init`), let base = member.base {
        called = base
      }
      if let written = called.typeReferenceText {
        let label = argument.label?.text ?? "_"
        for member in index.members(of: index.resolveType(written)) where member.kind == .initializer && member.labels.contains(label) {
          guard let initializer = try project.file(member.range.path).node(at: member.range.bytes)?.as(InitializerDeclSyntax.self),
            let parameter = initializer.signature.parameterClause.parameters.first(where: { $0.firstName.text == label })
          else { continue }
          var type = parameter.type
          if let some = type.as(SomeOrAnyTypeSyntax.self) { type = some.constraint }
          if let entry = catalog.entry(named: index.resolveType(type.trimmedDescription)) { return .passed(entry.name) }
        }
      }
    }
    // `view.environment(\.counting, X.shared)`, setting the environment `--swiftui-environment` reads.
    if FinishPlanner.isEnvironmentValue(node),
      let keyPath = node.parent?.parent?.as(LabeledExprListSyntax.self)?.first?.expression.as(KeyPathExprSyntax.self),
      keyPath.root == nil, keyPath.components.count == 1,
      let key = keyPath.components.first?.component.as(KeyPathPropertyComponentSyntax.self)?.declName.baseName.text,
      let entry = catalog.entries.first(where: { lowerCamel($0.name) == key })
    {
      return .passed(entry.name)
    }
    // `cell.counting = X.shared`, setting a property `--property-injection` gave a type the system creates.
    if let sequence = node.parent?.as(ExprListSyntax.self)?.parent?.as(SequenceExprSyntax.self) {
      let elements = Array(sequence.elements)
      if elements.count == 3, elements[1].is(AssignmentExprSyntax.self), elements[2].positionAfterSkippingLeadingTrivia == node.positionAfterSkippingLeadingTrivia,
        let target = elements[0].as(MemberAccessExprSyntax.self),
        // Another instance's property: `self.x = X.shared` is the type's own (a coder init's fallback).
        let base = target.base?.as(DeclReferenceExprSyntax.self), base.baseName.tokenKind != .keyword(.self)
      {
        let name = target.declName.baseName.text
        let declared = index.allTypeNames.lazy.flatMap { index.members(of: $0) }
          .first { $0.kind == .property && !$0.isStatic && $0.name == name && $0.typeText?.hasSuffix("!") == true }
        if let typeText = declared?.typeText, let entry = catalog.entry(named: index.resolveType(String(typeText.dropLast()))) {
          return .passed(entry.name)
        }
      }
    }
    var current = node.parent
    while let syntax = current {
      if syntax.is(InitializerClauseSyntax.self), syntax.parent?.is(FunctionParameterSyntax.self) == true { return .kept }
      if let initializer = syntax.as(InitializerDeclSyntax.self) {
        // A required init (`init?(coder:)`, or one a project superclass requires) takes the shared instance.
        let isRequired = initializer.modifiers.contains { $0.name.tokenKind == .keyword(.required) }
        return isRequired ? .kept : .none
      }
      if syntax.is(MemberBlockItemSyntax.self) { return .none }
      current = syntax.parent
    }
    return .none
  }

  // MARK: 4-6. Creation sites, needs, names

  /// Every call of an init of a consumer, or of a subclass that inherits its inits; and, for each
  /// consumer created somewhere no argument can be added, why.
  func findInitCalls() throws -> (calls: [InitCall], blocked: [String: ConsumerRefusal]) {
    let initInjected = order.filter { !propertyInjected.contains($0) }
    var created: Set<String> = Set(initInjected)
    var superOf: [String: String] = [:]
    for type in initInjected.flatMap({ index.subclasses(of: $0) }) {
      let declarations = index.declarations(of: type)
      guard let parent = declarations.first(where: { !$0.isExtension })?.inherited.first.map(index.resolveType),
        order.contains(parent)
      else { continue }
      superOf[type] = parent
      // A subclass without designated inits of its own inherits the consumer's.
      if !declarations.flatMap(\.members).contains(where: { $0.kind == .initializer && !$0.modifiers.contains("convenience") }) {
        created.insert(type)
      }
    }
    let names = Set(created.map { $0.split(separator: ".").last.map(String.init) ?? $0 } + superOf.keys.map { $0.split(separator: ".").last.map(String.init) ?? $0 })
    var files: [ParsedFile] = []
    let needles = names.sorted().map { Array($0.utf8) }
    for path in index.allPaths {
      guard let bytes = project.bytes(path), containsAny(needles, in: bytes) else { continue }
      files.append(try project.file(path))
    }
    var subclassParents: [String: String] = [:]
    for (subclass, parent) in superOf { subclassParents[subclass] = parent }
    let found = InitCallFinder.calls(of: created, superclassOf: subclassParents, in: files, index: index)
    let calls = found.calls.map { call in
      var call = call
      // Calls of an inheriting subclass's init stand for the consumer's.
      if !order.contains(call.typeName), let parent = superOf[call.typeName] { call.typeName = parent }
      return call
    }
    var blocked: [String: ConsumerRefusal] = [:]
    for creation in found.unrewritable {
      guard let file = files.first(where: { $0.path == creation.path }) else { continue }
      let location = file.source.location(ofOffset: creation.offset)
      switch creation.kind {
      case .functionReference:
        guard let created = creation.typeName else { continue }
        let typeName = order.contains(created) ? created : superOf[created] ?? created
        let written = "\(created.split(separator: ".").last.map(String.init) ?? created).init"
        blocked[typeName, default: ConsumerRefusal(.creationSite, [])].diagnostics.append(
          .error("'\(written)' is used as a function here, so no argument can be added to it; call it in a closure first", at: location))
      case .ambiguous:
        guard let created = creation.typeName else { continue }
        let typeName = order.contains(created) ? created : superOf[created] ?? created
        let simple = created.split(separator: ".").last.map(String.init) ?? created
        blocked[typeName, default: ConsumerRefusal(.creationSite, [])].diagnostics.append(
          .error("'\(simple)(...)' here may create '\(created)' or another type of that name, and which one cannot be told; qualify the name first", at: location))
      case .implicitMember:
        // Which consumer `.init(...)` creates is unknown: each consumer the file names whose inits
        // take these labels may be the one.
        for typeName in order {
          let simple = typeName.split(separator: ".").last.map(String.init) ?? typeName
          guard containsAny([Array(simple.utf8)], in: file.source.bytes) else { continue }
          let inits = index.designatedInits(of: typeName) + index.members(of: typeName).filter { $0.kind == .initializer && $0.modifiers.contains("convenience") }
          var signatures = inits.map { $0.labels.map { (label: $0, hasDefault: true) } }
          if inits.isEmpty { signatures = [memberwiseLabels(typeName)] }
          let labelsMatch = signatures.contains {
            InitCallFinder.matches(labels: creation.labels, trailingClosures: creation.trailingClosures, parameters: $0)
          }
          guard labelsMatch else { continue }
          let written = ".init(\(creation.labels.map { "\($0):" }.joined()))"
          blocked[typeName, default: ConsumerRefusal(.creationSite, [])].diagnostics.append(
            .error("'\(written)' may create '\(typeName)', and the code does not say which type it creates; write '\(simple)(...)' or annotate the type there first", at: location))
        }
      }
    }
    return (calls, blocked)
  }

  /// The labels of the init a type without inits has: none for a class, a struct's memberwise ones
  /// (a `let` with a value takes none; a value or an optional `var` makes its argument optional).
  func memberwiseLabels(_ typeName: String) -> [(label: String, hasDefault: Bool)] {
    guard let primary = index.primaryDeclaration(of: typeName), primary.kind == .struct else { return [] }
    return primary.members.compactMap { member in
      guard member.kind == .property, member.isStored, !member.isStatic,
        !(member.isLet && member.initializerText != nil)
      else { return nil }
      let optional = !member.isLet && (member.typeText?.hasSuffix("?") ?? false)
      return (label: member.name, hasDefault: member.initializerText != nil || optional)
    }
  }

  /// With `--all`, a type that creates a consumer receives what that consumer needs and hands it
  /// down, even if it does not use the singleton itself, so that one run moves the accessor all the
  /// way up to the composition roots (types only tests create, or nothing in the project does),
  /// types the system creates, and static contexts; a second run then has nothing left to do.
  mutating func promoteCreators() throws {
    var rejected: Set<String> = []
    while true {
      var promoted: [String] = []
      for call in try findInitCalls().calls where !call.context.isStatic && !call.isSelfInit && !call.isSuperInit {
        guard let creator = call.context.typeName.map(index.resolveType), consumers[creator] == nil,
          !rejected.contains(creator), !promoted.contains(creator), creator != call.typeName,
          // A consumer already skipped with its reason is not taken back as a creator.
          !skipped.contains(where: { $0.typeName == creator }),
          !isInStoredPropertyInitializer(call, of: creator)
        else { continue }
        // A creator left out before (its build failed, or handing down would spread the accessor).
        if let error = options.excluded[creator] {
          skip(creator, .build, [error.diagnostic])
          continue
        }
        if let note = options.spreading[creator] {
          skip(creator, .spreads, [note])
          continue
        }
        guard let primary = index.primaryDeclaration(of: creator), [.class, .struct, .actor].contains(primary.kind),
          notInjectable(creator) == nil, canSeeSingleton(primary.path),
          // Objective-C callers could not pass the new arguments.
          !(ObjectiveCUses.isVisible(creator, index: index) && !ObjectiveCUses.creations(of: creator, in: project).isEmpty),
          try isCreatedOutsideTests(creator)
        else {
          rejected.insert(creator)
          continue
        }
        promoted.append(creator)
      }
      if promoted.isEmpty { return }
      for creator in promoted.sorted() {
        guard let primary = index.primaryDeclaration(of: creator) else { continue }
        consumers[creator] = Consumer(typeName: creator, declarations: index.declarations(of: creator), primary: primary)
        order.append(creator)
      }
    }
  }

  /// Whether some code outside tests creates the type: a type nothing else creates, or only tests
  /// do, is a composition root.
  func isCreatedOutsideTests(_ typeName: String) throws -> Bool {
    try !FinishPlanner.isCompositionRoot(typeName, project: project)
  }

  /// A consumer that creates another consumer hands down what that one needs, so it needs it too.
  mutating func propagateNeeds(_ calls: [InitCall]) {
    guard !options.defaultArgument else { return }
    var changed = true
    var rounds = 0
    while changed && rounds < 32 {
      changed = false
      rounds += 1
      let creations = calls.filter { !$0.context.isStatic && !isInStoredPropertyInitializer($0, of: $0.context.typeName.map(index.resolveType) ?? "") }
        .map { ($0.context.typeName, $0.typeName) }
        + configurationsByType.values.flatMap { $0 }.filter { !$0.context.isStatic }.map { ($0.context.typeName, $0.typeName) }
      for (creatorName, createdName) in creations {
        guard let creator = creatorName.map(index.resolveType), creator != createdName,
          let created = consumers[createdName], var holder = consumers[creator]
        else { continue }
        // A view that reads the environment gets it from the views around it.
        let shown = created.readsEnvironment ? created.protocols + created.passedDown : created.protocols
        if created.readsEnvironment && holder.readsEnvironment {
          for needed in shown where !holder.protocols.contains(needed) && !holder.passedDown.contains(needed) {
            holder.passedDown.append(needed)
            changed = true
          }
          consumers[creator] = holder
          continue
        }
        for needed in shown where !holder.protocols.contains(needed) && !holds(creator, needed) {
          holder.protocols.append(needed)
          changed = true
        }
        let order = Dictionary(uniqueKeysWithValues: catalog.entries.enumerated().map { ($1.name, $0) })
        holder.protocols.sort { (order[$0] ?? 0) < (order[$1] ?? 0) }
        consumers[creator] = holder
      }
    }
  }

  /// A creation in a stored property's initial value that cannot become an assignment in the
  /// creator's inits: there it can only pass the accessor.
  func isInStoredPropertyInitializer(_ call: InitCall, of type: String) -> Bool {
    guard let memberName = call.context.memberName else { return false }
    let stored = index.members(of: type).contains { $0.kind == .property && $0.name == memberName && $0.isStored && !$0.modifiers.contains("lazy") }
    return stored && movedInitialValue(of: call, creator: type) == nil
  }

  /// The stored property of a class or actor whose initial value creates a consumer, when that value
  /// can move into the creator's inits (so that it can pass the creator's own properties): the
  /// property's type is written or certain, and no closure holds the creation.
  func movedInitialValue(of call: InitCall, creator: String) -> MovedInitialValue? {
    guard let primary = index.primaryDeclaration(of: creator), [.class, .actor, .struct].contains(primary.kind),
      primary.path == call.path, let moved = MovedInitialValue(around: Syntax(call.call))
    else { return nil }
    if moved.binding.typeAnnotation == nil, moved.inferredType(index) == nil { return nil }
    // A struct's `var` with a value is a memberwise parameter its callers may pass; a `let`, or a
    // SwiftUI wrapper that takes the value (`@StateObject var model = Model()`), is set by the init.
    if primary.kind == .struct {
      if let wrapper = ViewProperty(moved.variable, index: index) {
        guard wrapper.takesMovedValue else { return nil }
      } else if moved.variable.bindingSpecifier.tokenKind != .keyword(.let) {
        return nil
      }
    }
    return moved
  }

  /// An existing stored property of `type` declared with the protocol as its type.
  func heldProperty(_ type: String, _ protocolName: String) -> String? {
    index.members(of: type).first { member in
      member.kind == .property && !member.isStatic && member.isStored
        && (member.typeText == protocolName || member.typeText == "any \(protocolName)")
    }?.name
  }

  func holds(_ type: String, _ protocolName: String) -> Bool { heldProperty(type, protocolName) != nil }

  mutating func nameProperties(_ typeName: String) throws {
    guard var consumer = consumers[typeName] else { return }
    // Names used or declared anywhere in the type, and its superclasses' members.
    var taken = Set(consumer.declarations.flatMap(\.members).map(\.name))
    for step in index.superclassChain(of: typeName) {
      if case .project(let name) = step { taken.formUnion(index.members(of: name).map(\.name)) }
    }
    let nodes = try consumer.declarations.compactMap { declaration in
      try project.file(declaration.path).node(at: declaration.range.bytes)
    }
    taken.formUnion(NamesInScope.names(in: nodes))
    for protocolName in consumer.protocols {
      if let alias = consumer.aliasProperties[protocolName], case .alias(let name) = alias.use {
        consumer.names[protocolName] = name
        continue
      }
      var name = lowerCamel(protocolName)
      if taken.contains(name) {
        var counter = 2
        while taken.contains("\(name)\(counter)") { counter += 1 }
        name = "\(name)\(counter)"
      }
      taken.insert(name)
      consumer.names[protocolName] = name
    }
    consumers[typeName] = consumer
  }

  // MARK: 7. Inits

  /// With `--swiftui-environment`: the SwiftUI views whose references and creations are all read
  /// where the environment is set (a body or another member, never an init or a stored property's
  /// initial value) take their protocols from the environment.
  mutating func chooseEnvironmentViews(_ calls: [InitCall]) {
    for typeName in order {
      guard var consumer = consumers[typeName], !consumer.propertyInjected, consumer.primary.kind == .struct,
        index.declarations(of: typeName).contains(where: { $0.inherited.contains { FrameworkTypes.lastComponent($0) == "View" } })
      else { continue }
      func atInitTime(_ context: ReferenceContext) -> Bool {
        context.inPropertyInitializer || (context.memberName?.hasPrefix("init(") ?? false)
      }
      let creations = calls.filter { $0.context.typeName.map(index.resolveType) == typeName && !$0.isSelfInit && !$0.isSuperInit }
      let stored = Set(consumer.primary.members.filter { $0.kind == .property && $0.isStored && !$0.isStatic }.map(\.name))
      let createsAtInit = creations.contains { call in
        atInitTime(call.context) || call.context.memberName.map(stored.contains) == true
      }
      guard !createsAtInit, !consumer.references.contains(where: { atInitTime($0.context) }) else { continue }
      consumer.readsEnvironment = true
      consumers[typeName] = consumer
    }
  }

  mutating func shapeInits(_ typeName: String, calls: [InitCall]) throws {
    guard var consumer = consumers[typeName], !consumer.protocols.isEmpty else { return }
    if consumer.readsEnvironment {
      consumer.propertiesArePrivate = true
      consumers[typeName] = consumer
      return
    }
    if consumer.propertyInjected {
      consumer.propertiesArePrivate = false
      consumers[typeName] = consumer
      return
    }
    try checkDefaultArgumentIsolation(consumer)
    consumer.propertiesArePrivate = consumer.references.allSatisfy { $0.range.path == consumer.primary.path }
      && calls.allSatisfy { call in
        call.isSelfInit || call.context.typeName.map(index.resolveType) != typeName || call.path == consumer.primary.path
      }
    let inits = consumer.declarations.flatMap(\.members).filter { $0.kind == .initializer }
    for member in inits where try project.file(member.range.path).node(at: member.range.bytes)?.is(InitializerDeclSyntax.self) != true {
      throw ConsumerRefusal(.declaration, "cannot read this initializer", at: member.location)
    }
    // A public init cannot take an internal protocol.
    if let first = inits.first(where: { ($0.access ?? .internal) >= .public && !$0.modifiers.contains("required") }) {
      let hidden = consumer.protocols.filter { name in
        (index.primaryDeclaration(of: name)?.access ?? .internal) < .public
      }
      if !hidden.isEmpty {
        throw ConsumerRefusal(
          .declaration,
          "'\(typeName)' has a public init, which cannot take \(hidden.map { "'\($0)'" }.joined(separator: ", ")), not public; make \(hidden.count == 1 ? "it" : "them") public or the init internal first",
          at: first.location)
      }
    }
    // An init cannot take a parameter of a type less visible than itself.
    for member in inits {
      let level = min(member.access ?? .internal, .public)
      for protocolName in consumer.protocols {
        let declared = index.declarations(of: index.resolveType(protocolName)).first { $0.kind == .protocol }
        let protocolLevel = min(declared?.access ?? .internal, .public)
        if level > protocolLevel {
          throw Refusal(
            "its init is \(level.keyword), and '\(protocolName)' is \(protocolLevel.keyword), so the init cannot take it",
            at: member.location)
        }
      }
    }
    let initInPrimary = inits.contains { $0.range.path == consumer.primary.path && consumer.primary.members.contains($0) }
    if !initInPrimary {
      switch consumer.primary.kind {
      case .struct:
        let (parameters, assignments) = try memberwiseParameters(consumer, calls: calls)
        consumer.generatedInit = .memberwise(parameters: parameters, assignments: assignments)
      case .class:
        let coderInit = needsCoderInit(consumer) && !inits.contains { $0.labels == ["coder"] }
        let required = try requiredInherited(consumer)
        let used = try usedInheritedInits(consumer, calls: calls)
        if used.isEmpty {
          consumer.generatedInit = .classInit(
            superCall: try superInitCall(consumer), coderInit: coderInit, required: required)
        } else {
          // Calls without arguments keep an init that takes only the injected values.
          let plain = calls.contains { $0.typeName == typeName && !$0.isSuperInit && !$0.isSelfInit && $0.labels.isEmpty && $0.trailingClosures == 0 }
          consumer.generatedInit = .classInit(
            superCall: plain ? try superInitCall(consumer) : nil, coderInit: coderInit, inherited: used, required: required)
        }
      default:
        consumer.generatedInit = .plain
      }
    }
    consumers[typeName] = consumer
  }

  func checkDefaultArgumentIsolation(_ consumer: Consumer) throws {
    guard options.defaultArgument, let actor = index.isolation(of: singleton.typeName) else { return }
    if index.isolation(of: consumer.typeName) != actor {
      throw ConsumerRefusal(
        .isolation, "cannot use '\(accessExpression)' as a default argument of '\(consumer.typeName)'s init: '\(singleton.typeName)' is \(actor)-isolated and the init is not, so Swift rejects the default value (SE-0411); mark '\(consumer.typeName)' \(actor) or inject without --default-argument",
        at: consumer.primary.location)
    }
  }

  /// The `super.init(...)` a generated designated init of a class consumer ends with: the first
  /// superclass up the chain with designated inits decides. Nil for a class with no superclass.
  func superInitCall(_ consumer: Consumer) throws -> String? {
    for step in index.superclassChain(of: consumer.typeName) {
      switch step {
      case .project(let name):
        let inits = index.designatedInits(of: name)
        // A class without designated inits of its own inherits its superclass's.
        if inits.isEmpty { continue }
        if inits.contains(where: { $0.labels.isEmpty }) { return "super.init()" }
        if inits.contains(where: { $0.labels == ["nibName", "bundle"] }) { return "super.init(nibName: nil, bundle: nil)" }
        if inits.contains(where: { $0.labels == ["frame"] }) { return "super.init(frame: .zero)" }
        throw ConsumerRefusal(
          .superclassInit, "'\(consumer.typeName)' has no init and its superclass '\(name)' has no init without arguments; add an init to '\(consumer.typeName)' first",
          at: consumer.primary.location)
      case .framework(let name):
        guard let known = FrameworkTypes.class(named: name), !known.defaultSuperInit.isEmpty else {
          throw ConsumerRefusal(
            .superclassInit, "'\(consumer.typeName)' has no init and '\(name)' has no init without arguments; add an init to '\(consumer.typeName)' first",
            at: consumer.primary.location)
        }
        return known.defaultSuperInit
      case .unknown(let written):
        throw ConsumerRefusal(
          .superclassInit, "'\(consumer.typeName)' has no init and inherits from '\(written)', which is not declared in the given paths: desingleton cannot tell whether it is a class and which init to call; add an init to '\(consumer.typeName)' first or include the paths that declare '\(written)'",
          at: consumer.primary.location)
      }
    }
    return nil
  }

  /// The designated inits a class without its own inherits: those of the nearest superclass that
  /// declares some (a project class, or a framework class whose inits the table knows); empty when
  /// they cannot be told.
  func inheritedDesignatedInits(_ typeName: String) throws -> (owner: String, inits: [InheritedInit])? {
    for step in index.superclassChain(of: typeName) {
      switch step {
      case .project(let name):
        let members = index.designatedInits(of: name).filter { !($0.modifiers.contains("required") && $0.labels == ["coder"]) }
        if index.designatedInits(of: name).isEmpty { continue }
        var result: [InheritedInit] = []
        for member in members where !member.modifiers.contains("private") && !member.modifiers.contains("fileprivate") {
          guard let node = try project.file(member.range.path).node(at: member.range.bytes)?.as(InitializerDeclSyntax.self) else { continue }
          result.append(inheritedInit(node))
        }
        return (name, result)
      case .framework(let name):
        guard let known = FrameworkTypes.class(named: name) else { return nil }
        let inits = known.designatedInits.filter { $0 != ["coder"] }.compactMap { labels -> InheritedInit? in
          guard let written = FrameworkTypes.overridableInit(labels: labels) else { return nil }
          return InheritedInit(
            parameters: written.parameters, arguments: written.arguments, failable: "", effects: "",
            shape: labels.map { (label: $0, hasDefault: false) })
        }
        return (name, inits)
      case .unknown:
        return nil
      }
    }
    return nil
  }

  func inheritedInit(_ node: InitializerDeclSyntax) -> InheritedInit {
    let parameters = node.signature.parameterClause.parameters
    let arguments = parameters.map { parameter -> String in
      let inner = (parameter.secondName ?? parameter.firstName).text
      let value = parameter.ellipsis != nil ? inner : inner
      return parameter.firstName.tokenKind == .wildcard ? value : "\(parameter.firstName.text): \(value)"
    }
    let effects = node.signature.effectSpecifiers.map { " " + $0.trimmedDescription } ?? ""
    return InheritedInit(
      parameters: parameters.map { $0.trimmed.with(\.trailingComma, nil).description }.joined(separator: ", "),
      arguments: arguments.joined(separator: ", "),
      failable: node.optionalMark?.text ?? "",
      effects: effects,
      shape: parameters.map { (label: $0.firstName.text, hasDefault: $0.defaultValue != nil) })
  }

  /// The inherited designated inits (with arguments) some call site of the consumer uses. A call
  /// that reaches an inherited convenience init is refused: a class that declares a designated init
  /// no longer inherits its superclass's convenience inits.
  func usedInheritedInits(_ consumer: Consumer, calls: [InitCall]) throws -> [InheritedInit] {
    let creations = calls.filter { $0.typeName == consumer.typeName && !$0.isSelfInit && !$0.isSuperInit }
    guard creations.contains(where: { !$0.labels.isEmpty || $0.trailingClosures > 0 }),
      let (owner, inherited) = try inheritedDesignatedInits(consumer.typeName)
    else { return [] }
    var used: [InheritedInit] = []
    var problems: [Diagnostic] = []
    let ownerIsProject = index.primaryDeclaration(of: owner) != nil
    for call in creations {
      let plain = call.labels.isEmpty && call.trailingClosures == 0
      if let match = inherited.first(where: {
        InitCallFinder.matches(labels: call.labels, trailingClosures: call.trailingClosures, parameters: $0.shape)
      }) {
        // A call without arguments gets the init that takes only the injected values.
        if !plain && !used.contains(match) { used.append(match) }
        continue
      }
      // `T()` of a framework class reaches its convenience `init()`, which the generated init stands for.
      if plain && !ownerIsProject { continue }
      let location = try project.file(call.path).source.location(ofOffset: call.call.positionAfterSkippingLeadingTrivia.utf8Offset)
      let written = "init(\(call.labels.map { "\($0):" }.joined()))"
      problems.append(
        .error(
          "this call reaches '\(owner).\(written)', which '\(consumer.typeName)' would no longer inherit once it declares an init with the injected values; give '\(consumer.typeName)' that init first",
          at: location))
    }
    if !problems.isEmpty { throw ConsumerRefusal(.creationSite, problems) }
    return used
  }

  /// The required inits (other than `init?(coder:)`) of the project superclasses, which a class that
  /// declares a designated init must implement.
  func requiredInherited(_ consumer: Consumer) throws -> [InheritedInit] {
    let own = consumer.declarations.flatMap(\.members).filter { $0.kind == .initializer }.map(\.labels)
    var result: [InheritedInit] = []
    var seen: Set<[String]> = []
    for step in index.superclassChain(of: consumer.typeName) {
      guard case .project(let name) = step else { break }
      for member in index.members(of: name)
      where member.kind == .initializer && member.modifiers.contains("required") && member.labels != ["coder"]
        && !own.contains(member.labels) && seen.insert(member.labels).inserted
      {
        guard let node = try project.file(member.range.path).node(at: member.range.bytes)?.as(InitializerDeclSyntax.self) else { continue }
        result.append(inheritedInit(node))
      }
    }
    return result
  }

  /// A class that gains a designated init must implement `required init?(coder:)` when a superclass requires it.
  func needsCoderInit(_ consumer: Consumer) -> Bool {
    for step in index.superclassChain(of: consumer.typeName) {
      switch step {
      case .project(let name):
        if index.members(of: name).contains(where: { $0.kind == .initializer && $0.modifiers.contains("required") && $0.labels == ["coder"] }) {
          return true
        }
      case .framework(let name):
        return FrameworkTypes.class(named: name)?.requiresCoderInit == true
      case .unknown:
        return false
      }
    }
    return false
  }

  /// The parameters and assignments of a struct's memberwise init, written out. SwiftUI's wrappers
  /// follow `ViewProperty`: `@State`/`@StateObject`/`@ObservedObject` are parameters only when
  /// callers pass them (or they have no value), `@Binding` takes a binding, the values SwiftUI
  /// provides are never parameters; a property whose initial value moves into the init is none.
  func memberwiseParameters(_ consumer: Consumer, calls: [InitCall]) throws -> ([String], [String]) {
    var parameters: [String] = []
    var assignments: [String] = []
    let file = try project.file(consumer.primary.path)
    let creations = calls.filter { $0.typeName == consumer.typeName && !$0.isSelfInit && !$0.isSuperInit }
    let passedLabels = Set(creations.flatMap(\.labels))
    let moved = Set(
      calls.filter { $0.context.typeName.map(index.resolveType) == consumer.typeName }
        .compactMap { movedInitialValue(of: $0, creator: consumer.typeName)?.name })
    let injectedNames = Set(consumer.protocols.map { consumer.name(of: $0) })
    for member in consumer.primary.members where member.kind == .property && member.isStored && !member.isStatic {
      guard let node = file.node(at: member.range.bytes)?.as(VariableDeclSyntax.self),
        let binding = node.bindings.first(where: { $0.pattern.as(IdentifierPatternSyntax.self).map { unquoted($0.identifier.text) } == member.name })
      else { continue }
      if moved.contains(member.name) { continue }
      // A `let` with an initial value is not a memberwise parameter.
      if member.isLet && binding.initializer != nil { continue }
      let wrapper = ViewProperty(node, index: index)
      switch wrapper {
      case .provided?: continue
      case .state?, .stateObject?, .observedObject?:
        // Its own value stays unless a caller passes one today.
        if binding.initializer != nil && !passedLabels.contains(member.name) { continue }
      default: break
      }
      var type = binding.typeAnnotation?.type.trimmedDescription ?? member.typeText
      if type == nil, let value = binding.initializer?.value {
        type = RequirementBuilder(typeName: consumer.typeName, nestedTypeNames: [], isValueType: true, index: index).inferType(of: value)
          ?? FinishPlanner.writtenType(of: value, index: index)
      }
      guard let type else {
        let written = wrapper.map { _ in "wrapped property" } ?? "property"
        throw ConsumerRefusal(
          .declaration,
          "cannot tell the type of \(written) '\(member.name)' from its initial value to write '\(consumer.typeName)'s init; add a type annotation",
          at: member.location)
      }
      // A default value cannot name another parameter of the same init.
      if let value = binding.initializer?.value {
        let named = value.tokens(viewMode: .sourceAccurate).filter {
          if case .identifier = $0.tokenKind { return true } else { return false }
        }.map(\.text)
        if let clash = named.first(where: injectedNames.contains) {
          throw ConsumerRefusal(
            .declaration,
            "the initial value of '\(member.name)' names '\(clash)', which would be a parameter of the same init, so it cannot be the parameter's default value",
            at: member.location)
        }
      }
      // A closure-typed parameter must be `@escaping` to be stored; an optional one already escapes.
      let escaping = binding.typeAnnotation.map { isFunctionType($0.type) } ?? false
      var parameter: String
      var value = member.name
      switch wrapper {
      case .binding?: parameter = "\(member.name): Binding<\(type)>"
      case .stateObject?:
        parameter = "\(member.name): @autoclosure @escaping () -> \(type)"
        value = "\(member.name)()"
      default: parameter = "\(member.name): \(escaping ? "@escaping " : "")\(type)"
      }
      if let initial = binding.initializer?.value {
        parameter += " = \(initial.trimmedDescription)"
      } else if binding.typeAnnotation?.type.is(OptionalTypeSyntax.self) == true && !member.isLet && wrapper == nil {
        parameter += " = nil"
      }
      parameters.append(parameter)
      assignments.append((wrapper ?? .otherWrapper("")).assignment(member.name, value))
    }
    return (parameters, assignments)
  }

  // MARK: 8. Call sites

  /// The init each creation site reaches and what it passes: the creator's own property when it
  /// holds the protocol, else the accessor.
  func matchCalls(_ calls: [InitCall]) throws -> (sites: [CallSite], unmatched: [String: ConsumerRefusal]) {
    var problems: [String: ConsumerRefusal] = [:]
    var sites: [CallSite] = []
    for call in calls {
      guard let consumer = consumers[call.typeName], !consumer.protocols.isEmpty else { continue }
      let file = try project.file(call.path)
      if consumer.readsEnvironment {
        let creator = call.context.typeName.map(index.resolveType)
        // Inside a view that reads the environment, the environment already holds the values.
        if let creator, consumers[creator]?.readsEnvironment == true { continue }
        if call.isSelfInit || call.isSuperInit { continue }
        let rank = Dictionary(uniqueKeysWithValues: catalog.entries.enumerated().map { ($1.name, $0) })
        let needed = (consumer.protocols + consumer.passedDown).sorted { (rank[$0] ?? 0) < (rank[$1] ?? 0) }
        let values = needed.map { value(for: $0, at: call, creator: creator, label: consumer.name(of: $0)) }
        let passesAccessor = values.contains(accessExpression)
        if passesAccessor, let actor = index.isolation(of: singleton.typeName),
          isolation(at: Syntax(call.call), in: creator) != actor
        {
          problems[call.typeName, default: ConsumerRefusal(.isolation, [])].diagnostics.append(
            .error(
              "'\(accessExpression)' is \(actor)-isolated and this call is not, so it cannot put it in the environment here; make the caller \(actor) first",
              at: file.source.location(ofOffset: call.call.positionAfterSkippingLeadingTrivia.utf8Offset)))
          continue
        }
        sites.append(
          CallSite(
            call: call, arguments: [], captured: values.filter { $0 != accessExpression }, passesAccessor: passesAccessor,
            environment: zip(needed, values).map { ".environment(\\.\(lowerCamel($0)), \($1))" }))
        continue
      }
      let declarations = consumer.declarations
      let inits = declarations.flatMap(\.members).filter { $0.kind == .initializer }
      // Which init the call reaches, before the rewrite.
      var reached: MemberDecl?
      for member in inits {
        guard let node = try project.file(member.range.path).node(at: member.range.bytes)?.as(InitializerDeclSyntax.self) else { continue }
        let parameters = node.signature.parameterClause.parameters.map { ($0.firstName.text, $0.defaultValue != nil) }
        if InitCallFinder.matches(labels: call.labels, trailingClosures: call.trailingClosures, parameters: parameters.map { (label: $0.0, hasDefault: $0.1) }) {
          reached = member
          break
        }
      }
      let designatedInPrimary = inits.contains { consumer.primary.members.contains($0) }
      if let reached, reached.modifiers.contains("required") { continue }
      // `T()` reaching UIKit's inherited convenience `init()`, which calls `init(frame: .zero)` or `init(nibName: nil, bundle: nil)`.
      var extraArguments: [String] = []
      if reached == nil, call.labels.isEmpty, call.trailingClosures == 0, !call.isSuperInit {
        if inits.contains(where: { $0.labels == ["frame"] && !$0.modifiers.contains("convenience") }) {
          extraArguments = ["frame: .zero"]
        } else if inits.contains(where: { $0.labels == ["nibName", "bundle"] && !$0.modifiers.contains("convenience") }) {
          extraArguments = ["nibName: nil", "bundle: nil"]
        }
      }
      var reachesInherited = false
      if reached == nil, case .classInit(_, _, let inherited, _) = consumer.generatedInit, !call.isSuperInit {
        reachesInherited = inherited.contains {
          InitCallFinder.matches(labels: call.labels, trailingClosures: call.trailingClosures, parameters: $0.shape)
        }
      }
      if reached == nil && extraArguments.isEmpty && !reachesInherited {
        let memberwise = consumer.primary.kind == .struct && !designatedInPrimary
        if !(designatedInPrimary == false && (call.labels.isEmpty || memberwise)) {
          let location = file.source.location(ofOffset: call.call.positionAfterSkippingLeadingTrivia.utf8Offset)
          problems[call.typeName, default: ConsumerRefusal(.creationSite, [])].diagnostics.append(.error("this call of an init of '\(call.typeName)' cannot be matched to one of its inits; update it by hand or give '\(call.typeName)' an init first", at: location))
          continue
        }
      }
      // Inside the consumer's own inits, `self.init(...)` forwards the parameters.
      let creator = call.context.typeName.map(index.resolveType)
      let arguments = consumer.protocols.map { protocolName -> String in
        let label = consumer.names[protocolName] ?? lowerCamel(protocolName)
        return "\(label): \(value(for: protocolName, at: call, creator: creator, label: label))"
      }
      let captured = consumer.protocols.compactMap { protocolName -> String? in
        let passed = value(for: protocolName, at: call, creator: creator, label: consumer.name(of: protocolName))
        return passed == accessExpression ? nil : passed
      }
      let passesAccessor = captured.count < consumer.protocols.count
      let location = { file.source.location(ofOffset: call.call.positionAfterSkippingLeadingTrivia.utf8Offset) }
      // The call's file must be able to import the singleton's module.
      if !canSeeSingleton(call.path) {
        problems[call.typeName, default: ConsumerRefusal(.moduleCycle, [])].diagnostics.append(
          .error(
            "this call is in module '\(project.modules.module(of: call.path) ?? "")', which cannot import '\(singleton.typeName)'s module '\(project.modules.module(of: singleton.declaration.path) ?? "")' without a module cycle",
            at: location()))
        continue
      }
      // The accessor moves to the call: it must be isolated as the singleton is.
      if passesAccessor, let actor = index.isolation(of: singleton.typeName),
        isolation(at: Syntax(call.call), in: call.context.typeName.map(index.resolveType)) != actor
      {
        problems[call.typeName, default: ConsumerRefusal(.isolation, [])].diagnostics.append(
          .error(
            "'\(accessExpression)' is \(actor)-isolated and this call is not, so it cannot pass it here; make the caller \(actor) first",
            at: location()))
        continue
      }
      sites.append(
        CallSite(
          call: call, arguments: arguments + extraArguments, captured: captured.filter { $0 != "self" },
          passesAccessor: passesAccessor,
          makesLazy: creator == singleton.typeName && singletonHandsSelf(to: call.typeName)))
    }
    return (sites, problems)
  }

  /// The global actor code at `node` runs on: the nearest closure, member or type that says, else
  /// the enclosing type's isolation; nil when it is not isolated (or `nonisolated`).
  func isolation(at node: Syntax, in typeName: String?) -> String? {
    func actor(in attributes: AttributeListSyntax?) -> String? {
      attributes?.compactMap { $0.as(AttributeSyntax.self).map { "@" + $0.attributeName.trimmedDescription } }
        .first(where: index.isGlobalActorAttribute)
    }
    func isNonisolated(_ modifiers: DeclModifierListSyntax) -> Bool {
      modifiers.contains { $0.name.tokenKind == .keyword(.nonisolated) }
    }
    var current = node.parent
    while let syntax = current {
      if let closure = syntax.as(ClosureExprSyntax.self) {
        if let found = actor(in: closure.signature?.attributes) { return found }
        // `MainActor.run { ... }`, `MainActor.assumeIsolated { ... }`.
        var call = closure.parent
        if call?.is(LabeledExprSyntax.self) == true { call = call?.parent?.parent }
        if let called = call?.as(FunctionCallExprSyntax.self)?.calledExpression.as(MemberAccessExprSyntax.self),
          let base = called.base?.trimmedDescription, index.isGlobalActorAttribute("@" + base),
          ["run", "assumeIsolated"].contains(called.declName.baseName.text)
        {
          return "@" + base
        }
      }
      if let function = syntax.as(FunctionDeclSyntax.self) {
        if let found = actor(in: function.attributes) { return found }
        if isNonisolated(function.modifiers) { return nil }
        break
      }
      if let initializer = syntax.as(InitializerDeclSyntax.self) {
        if let found = actor(in: initializer.attributes) { return found }
        if isNonisolated(initializer.modifiers) { return nil }
        break
      }
      // A stored property's initial value runs as the property is isolated; a local is no boundary.
      if let variable = syntax.as(VariableDeclSyntax.self), syntax.parent?.is(MemberBlockItemSyntax.self) == true {
        if let found = actor(in: variable.attributes) { return found }
        if isNonisolated(variable.modifiers) { return nil }
        break
      }
      if syntax.is(MemberBlockItemSyntax.self) { break }
      current = syntax.parent
    }
    return typeName.flatMap { index.isolation(of: $0) }
  }

  // MARK: Property injection

  /// The places that configure an instance of a type the system created: a local bound to a cast
  /// to it (`let cell = tableView.dequeueReusableCell(withIdentifier: "id", for: indexPath) as! Cell`,
  /// `guard let cell = ... as? Cell else { ... }`).
  func configurationSites(of typeName: String) -> [ConfigurationSite] {
    let simple = typeName.split(separator: ".").last.map(String.init) ?? typeName
    var sites: [ConfigurationSite] = []
    for path in index.allPaths {
      guard let bytes = project.bytes(path), containsAny([Array(simple.utf8)], in: bytes),
        let file = try? project.file(path)
      else { continue }
      let finder = CastFinder(viewMode: .sourceAccurate)
      finder.walk(file.tree)
      for (cast, type) in finder.casts where index.resolveType(type.trimmedDescription) == typeName {
        guard let clause = cast.parent?.as(InitializerClauseSyntax.self) else { continue }
        var statement: Syntax?
        var variable: String?
        // `let cell = ... as! Cell` as a statement, or `guard let cell = ... as? Cell else { ... }`.
        if let binding = clause.parent?.as(PatternBindingSyntax.self),
          let declaration = binding.parent?.parent?.as(VariableDeclSyntax.self), declaration.parent?.is(CodeBlockItemSyntax.self) == true
        {
          statement = Syntax(declaration)
          variable = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
        }
        if let condition = clause.parent?.as(OptionalBindingConditionSyntax.self),
          let guardStatement = condition.parent?.parent?.parent?.as(GuardStmtSyntax.self)
        {
          statement = Syntax(guardStatement)
          variable = condition.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
        }
        guard let variable else { continue }
        guard let statement, statement.parent?.is(CodeBlockItemSyntax.self) == true || statement.parent?.parent?.is(CodeBlockItemSyntax.self) == true else { continue }
        sites.append(
          ConfigurationSite(
            path: path, typeName: typeName, variable: variable, statement: statement,
            context: ReferenceContext(
              typeName: enclosingTypeName(of: cast), memberName: nil, isStatic: isInStaticMember(cast))))
      }
      _ = bytes
    }
    return sites
  }

  /// The qualified name of the type declaration or extension around a node.
  func enclosingTypeName(of node: Syntax) -> String? {
    var names: [String] = []
    var current = node.parent
    while let syntax = current {
      if let decl = syntax.asProtocol(NamedDeclSyntax.self), syntax.is(ClassDeclSyntax.self) || syntax.is(StructDeclSyntax.self)
        || syntax.is(ActorDeclSyntax.self) || syntax.is(EnumDeclSyntax.self)
      {
        names.insert(decl.name.text, at: 0)
      }
      if let extensionDecl = syntax.as(ExtensionDeclSyntax.self) {
        names.insert(extensionDecl.extendedType.trimmedDescription, at: 0)
      }
      current = syntax.parent
    }
    return names.isEmpty ? nil : index.resolveType(names.joined(separator: "."))
  }

  func isInStaticMember(_ node: Syntax) -> Bool {
    var current = node.parent
    while let syntax = current {
      if let function = syntax.as(FunctionDeclSyntax.self) {
        return function.modifiers.contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }
      }
      if syntax.is(MemberBlockItemSyntax.self) { return false }
      current = syntax.parent
    }
    return true
  }

  /// Each configuration site with what it assigns: the creator's own property when it holds the
  /// protocol, else the accessor.
  func configuredSites() -> [ConfigurationSite] {
    var result: [ConfigurationSite] = []
    for typeName in order {
      guard let consumer = consumers[typeName], consumer.propertyInjected else { continue }
      for var site in configurationsByType[typeName] ?? [] {
        for protocolName in consumer.protocols {
          var value = accessExpression
          if !site.context.isStatic, let creator = site.context.typeName {
            if let holder = consumers[creator], holder.protocols.contains(protocolName), let name = holder.names[protocolName] {
              value = name
            } else if let held = heldProperty(creator, protocolName) {
              value = held
            }
          }
          site.assignments.append("\(site.variable).\(consumer.name(of: protocolName)) = \(value)")
          if value != accessExpression { site.captured.append(value) }
        }
        result.append(site)
      }
    }
    return result
  }

  // MARK: 9. Imports

  /// A creation site in another module than the singleton's that now passes the accessor names the
  /// singleton's type: its file imports the singleton's module if it does not already.
  func imports(for sites: [CallSite]) throws -> [String: String] {
    guard let module = project.modules.module(of: singleton.declaration.path) else { return [:] }
    var result: [String: String] = [:]
    for site in sites where site.passesAccessor {
      let path = site.call.path
      // A file compiled in some module together with the singleton's file (an iOS and a Mac target
      // sharing both) needs no import.
      guard result[path] == nil, project.modules.crossesModules(path, singleton.declaration.path) else { continue }
      let imported = try project.file(path).tree.statements.contains { item in
        item.item.as(ImportDeclSyntax.self)?.path.first?.name.text == module
      }
      if !imported { result[path] = module }
    }
    return result
  }

  /// What a creator passes: its own property or parameter when it holds the protocol, the shared instance otherwise.
  func value(for protocolName: String, at call: InitCall, creator: String?, label: String) -> String {
    guard !call.context.isStatic, let creator else { return accessExpression }
    // The singleton hands itself to what it makes, in a property it makes lazy.
    if creator == singleton.typeName, singletonHandsSelf(to: call.typeName) { return "self" }
    // A stored property's initial value and a parameter's default cannot read the creator's own properties.
    if isInStoredPropertyInitializer(call, of: creator) || isInParameterDefault(Syntax(call.call)) { return accessExpression }
    if call.typeName == creator, let consumer = consumers[creator], let name = consumer.names[protocolName] {
      return name
    }
    if let holder = consumers[creator], holder.protocols.contains(protocolName), let name = holder.names[protocolName] {
      return name
    }
    if let held = heldProperty(creator, protocolName) { return held }
    return accessExpression
  }

}

/// A function type, possibly with attributes (`@Sendable () -> Void`), but not an optional one.
func isFunctionType(_ type: TypeSyntax) -> Bool {
  if let attributed = type.as(AttributedTypeSyntax.self) { return isFunctionType(attributed.baseType) }
  return type.is(FunctionTypeSyntax.self)
}

/// `ItemFetcher` → `itemFetcher`, `URLLoader` → `urlLoader`.
func lowerCamel(_ name: String) -> String {
  let characters = Array(name)
  var upperRun = 0
  while upperRun < characters.count && characters[upperRun].isUppercase { upperRun += 1 }
  if upperRun == 0 { return name }
  if upperRun == 1 || upperRun == characters.count { return characters.prefix(upperRun).map { $0.lowercased() }.joined() + String(characters.dropFirst(upperRun)) }
  return characters.prefix(upperRun - 1).map { $0.lowercased() }.joined() + String(characters.dropFirst(upperRun - 1))
}

enum InitBodyScanner {
  /// Whether an init delegates to another init of its own type: its body calls `self.init(...)`
  /// (a call in the syntax tree, not the text in a comment or a string).
  static func delegatesToSelf(_ node: InitializerDeclSyntax) -> Bool {
    node.body.map(delegatesToSelf) ?? false
  }

  static func delegatesToSelf(_ body: CodeBlockSyntax) -> Bool {
    let finder = SelfInitFinder(viewMode: .sourceAccurate)
    finder.walk(body)
    return finder.found
  }

  private final class SelfInitFinder: SyntaxVisitor {
    var found = false

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
      if let member = node.calledExpression.as(MemberAccessExprSyntax.self),
        member.declName.baseName.tokenKind == .keyword(.`init`),
        member.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self)
      {
        found = true
        return .skipChildren
      }
      return found ? .skipChildren : .visitChildren
    }

    // A nested function or type has its own `self`.
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
  }
}

extension ParsedFile {
  /// The outermost expression whose trimmed range is exactly `range`.
  func expression(at range: Range<Int>) -> ExprSyntax? {
    guard let token = tree.token(at: AbsolutePosition(utf8Offset: range.lowerBound)) else { return nil }
    var node: Syntax? = Syntax(token)
    var found: ExprSyntax?
    while let current = node {
      if current.trimmedByteRange == range, let expression = current.as(ExprSyntax.self) { found = expression }
      if current.trimmedByteRange.upperBound > range.upperBound || current.trimmedByteRange.lowerBound < range.lowerBound { break }
      node = current.parent
    }
    return found
  }
}

extension InjectPlanner {
  /// Types created while the singleton is made: in its inits, its stored properties' initial values
  /// and its accessor's, and, through those, in the inits and initial values of the types they
  /// create, each with the place it is created. Such a type receiving the accessor would read the
  /// accessor while it is being set up.
  /// Worked out once per project.
  public static func createdWhileMade(_ singleton: Singleton, project: Project) -> [String: Location] {
    project.answer("created while \(singleton.typeName) is made") { findCreatedWhileMade(singleton, project: project) }
  }

  private static func findCreatedWhileMade(_ singleton: Singleton, project: Project) -> [String: Location] {
    let index = project.index
    var found: [String: Location] = [:]
    var queue = [singleton.typeName]
    var seen: Set<String> = [singleton.typeName]
    while let type = queue.popLast() {
      for declaration in index.declarations(of: type) {
        guard let file = try? project.file(declaration.path) else { continue }
        for member in declaration.members {
          let isInit = member.kind == .initializer
          let isStoredValue = member.kind == .property && member.isStored && !member.modifiers.contains("lazy")
            && (!member.isStatic || (type == singleton.typeName && singleton.accessors.contains(member.name)))
          guard isInit || isStoredValue, let node = file.node(at: member.range.bytes) else { continue }
          let finder = CreationFinder(viewMode: .sourceAccurate)
          finder.walk(node)
          for (written, offset) in finder.created {
            let created = index.resolveType(written)
            guard index.primaryDeclaration(of: created) != nil, seen.insert(created).inserted else { continue }
            found[created] = file.source.location(ofOffset: offset)
            queue.append(created)
          }
        }
      }
    }
    return found
  }
}

extension InjectPlanner {
  /// Storyboard and nib loading the code cannot pass arguments to.
  static let storyboardInstantiation: Set<String> = [
    "instantiateViewController", "instantiateInitialViewController", "instantiateController",
    "instantiateInitialController",
  ]

  /// How a storyboard or nib creates a class, where the code tells: a cast of what a storyboard
  /// instantiates (`storyboard.instantiateViewController(withIdentifier: "About") as! AboutViewController`),
  /// or a class with Interface Builder outlets or actions whose only init is `init?(coder:)` and
  /// that no code creates. Nil when the code does not say.
  public static func interfaceBuilderCreation(of typeName: String, project: Project) -> String? {
    let index = project.index
    guard let primary = index.primaryDeclaration(of: typeName), primary.kind == .class else { return nil }
    let simple = typeName.split(separator: ".").last.map(String.init) ?? typeName
    var files: [ParsedFile] = []
    for path in index.allPaths {
      guard let bytes = project.bytes(path), containsAny([Array(simple.utf8)], in: bytes),
        let file = try? project.file(path)
      else { continue }
      files.append(file)
      let finder = CastFinder(viewMode: .sourceAccurate)
      finder.walk(file.tree)
      for (cast, type) in finder.casts where index.resolveType(type.trimmedDescription) == typeName {
        let operand: ExprSyntax? = cast.as(SequenceExprSyntax.self)?.elements.first ?? cast.as(AsExprSyntax.self)?.expression
        var expression = operand
        // `storyboard.instantiateViewController(withIdentifier: "x")`, possibly force-unwrapped.
        if let unwrapped = expression?.as(ForceUnwrapExprSyntax.self) { expression = unwrapped.expression }
        if let unwrapped = expression?.as(OptionalChainingExprSyntax.self) { expression = unwrapped.expression }
        guard let call = expression?.as(FunctionCallExprSyntax.self),
          let name = call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text,
          storyboardInstantiation.contains(name)
        else { continue }
        let location = file.source.location(ofOffset: cast.positionAfterSkippingLeadingTrivia.utf8Offset)
        return "a storyboard creates it ('\(name)' at \(location.path):\(location.line))"
      }
    }
    let members = index.declarations(of: typeName).flatMap(\.members)
    let usesInterfaceBuilder = members.contains { $0.attributes.contains("@IBOutlet") || $0.attributes.contains("@IBAction") }
    let onlyCoder = index.designatedInits(of: typeName).allSatisfy { $0.labels == ["coder"] }
    guard usesInterfaceBuilder, onlyCoder else { return nil }
    let created = InitCallFinder.calls(of: [typeName], superclassOf: [:], in: files, index: index).calls
      .contains { !$0.isSelfInit && !$0.isSuperInit }
    if created || !InitCallFinder.calls(of: [typeName], superclassOf: [:], in: files, index: index).unrewritable.isEmpty {
      return nil
    }
    return "a storyboard or nib creates it (it has Interface Builder outlets or actions, no init but 'init?(coder:)', and no code creates it)"
  }
}

/// The project types an expression creates by name (`Logger()`, `Logger.init(...)`), with the
/// offset of each creation.
private final class CreationFinder: SyntaxVisitor {
  var created: [(String, Int)] = []

  override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
    var called = node.calledExpression
    if let member = called.as(MemberAccessExprSyntax.self), member.declName.baseName.tokenKind == .keyword(.`init`),
      let base = member.base
    {
      called = base
    }
    if let written = called.typeReferenceText {
      created.append((written, node.positionAfterSkippingLeadingTrivia.utf8Offset))
    }
    return .visitChildren
  }
}

/// Every `x as! T` and `x as? T` that is a whole expression (the parser leaves casts unfolded:
/// `x`, `as!`, `T` in a sequence).
private final class CastFinder: SyntaxVisitor {
  var casts: [(node: Syntax, type: TypeSyntax)] = []

  override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
    let elements = Array(node.elements)
    if elements.count == 3, let cast = elements[1].as(UnresolvedAsExprSyntax.self), cast.questionOrExclamationMark != nil,
      let type = elements[2].as(TypeExprSyntax.self)?.type
    {
      casts.append((Syntax(node), type))
    }
    return .visitChildren
  }

  override func visit(_ node: AsExprSyntax) -> SyntaxVisitorContinueKind {
    if node.questionOrExclamationMark != nil { casts.append((Syntax(node), node.type)) }
    return .visitChildren
  }
}
