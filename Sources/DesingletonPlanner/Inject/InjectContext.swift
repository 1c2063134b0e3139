import DesingletonCore
import DesingletonIndex
import SwiftSyntax

/// What every step of `inject` reads and none changes: the singleton, the options, the model, and
/// the singleton's protocols. The steps are its methods; each takes what the earlier steps decided
/// as arguments and returns what it decides.
struct InjectContext {
  let singleton: Singleton
  let options: InjectOptions
  let project: Project
  let index: Index
  let catalog: ProtocolCatalog

  init(singleton: Singleton, options: InjectOptions, project: Project) {
    self.singleton = singleton
    self.options = options
    self.project = project
    self.index = project.index
    self.catalog = ProtocolCatalog(singleton: singleton, index: project.index)
  }

  var accessExpression: String { singleton.accessExpression }

  /// A consumer left alone; its diagnostics point at its declaration when they name no place.
  func skipped(_ typeName: String, _ reason: SkipReason, _ diagnostics: [Diagnostic]) -> SkippedConsumer {
    let place = index.primaryDeclaration(of: typeName)?.location
    let placed = diagnostics.map { diagnostic -> Diagnostic in
      var diagnostic = diagnostic
      if diagnostic.location == nil { diagnostic.location = place }
      return diagnostic
    }
    return SkippedConsumer(typeName: typeName, reason: reason, diagnostics: placed)
  }

  /// The protocols in catalog order.
  func inCatalogOrder(_ protocols: some Sequence<String>) -> [String] {
    let rank = Dictionary(uniqueKeysWithValues: catalog.entries.enumerated().map { ($1.name, $0) })
    return protocols.sorted { (rank[$0] ?? 0) < (rank[$1] ?? 0) }
  }
}

/// The consumers as the steps have shaped them so far: a value each step takes and returns changed.
struct InjectDraft {
  /// The consumers, by type name.
  var consumers: [String: Consumer] = [:]
  /// The consumers, in the order they are rewritten.
  var order: [String] = []
  /// Types the system creates that get properties instead of init parameters.
  var propertyInjected: Set<String> = []
  /// Those of them the singleton needs while it is made: their properties are set after creation.
  var setAfterCreation: Set<String> = []
  /// The places that configure each of them.
  var configurationsByType: [String: [ConfigurationSite]] = [:]
  /// Static methods that create consumers and take what those need as parameters, by key.
  var factories: [String: Factory] = [:]
  /// Consumers left alone, in the order the steps left them out.
  var skipped: [SkippedConsumer] = []
  /// Consumers the system creates: they keep the accessor until a human wires them.
  var frameworkCreated: [SkippedConsumer] = []
  /// Composition roots that read the singleton and create other consumers: the instance comes from them.
  var roots: [SkippedConsumer] = []

  /// The draft less the consumers `excluded` leaves out, which join the skipped ones.
  func without(_ excluded: InjectExclusions) -> InjectDraft {
    var draft = self
    draft.skipped += excluded.consumers
    let names = Set(excluded.consumers.map(\.typeName))
    draft.order.removeAll { names.contains($0) }
    draft.consumers = draft.consumers.filter { draft.order.contains($0.key) }
    return draft
  }

  /// A SwiftUI view that reads the environment, or a type configured after the system creates it:
  /// neither takes init parameters.
  func readsEnvironmentOrConfigured(_ typeName: String) -> Bool {
    consumers[typeName]?.readsEnvironment == true || propertyInjected.contains(typeName)
  }

  /// The factory whose parameters a creation inside it passes.
  func factory(around call: InitCall) -> Factory? {
    guard call.context.isStatic else { return nil }
    return factories.values.first { $0.contains(call) }
  }
}

/// What `decide(excluding:)` leaves out of a new attempt: the consumers an earlier attempt could not
/// handle, each with its reason, and the factories whose calls could not pass their parameters.
struct InjectExclusions {
  var consumers: [SkippedConsumer] = []
  var factories: Set<String> = []
}

/// How one attempt over the consumers ends.
enum InjectAttempt {
  case designed(InjectDesign)
  /// These consumers cannot be handled: with `--type` that is the refusal, with `--all` they are
  /// left out and the steps run again.
  case refused([String: ConsumerRefusal])
  /// A factory one of whose calls cannot pass its parameters: it is left as it is, and the steps run again.
  case factoryLeftAlone(String)
}

/// Who holds what: asked by the steps that hand the slices down and pass them.
extension InjectContext {
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

  /// An existing stored property of `type` declared with the protocol as its type, or with a strict
  /// singleton's own type (`let store: Store`, `@EnvironmentObject var store: Store`,
  /// `@Environment(Store.self) var store`): no code outside a strict singleton makes another
  /// instance, so what the property holds is the one instance, which conforms to every slice.
  func heldProperty(_ type: String, _ protocolName: String) -> String? {
    heldProperty(type, ofOneOf: [protocolName])
  }

  /// The first stored property of `type` that holds one of `protocolNames` (or the instance itself).
  func heldProperty(_ type: String, ofOneOf protocolNames: Set<String>) -> String? {
    guard !protocolNames.isEmpty else { return nil }
    return index.members(of: type).first { member in
      guard member.kind == .property, !member.isStatic, member.isStored, let written = member.typeText else { return false }
      let named = written.hasPrefix("any ") ? String(written.dropFirst(4)) : written
      return protocolNames.contains(named) || holdsTheInstance(written)
    }?.name
  }

  /// A type written as a strict singleton's own (`Store`, `App.Store`, an alias of it): its value is the instance.
  func holdsTheInstance(_ written: String) -> Bool {
    guard singleton.isStrict, !singleton.isForeign, singleton.accessorProtocol == nil else { return false }
    return index.resolveType(written) == singleton.typeName
  }

  func holds(_ type: String, _ protocolName: String) -> Bool { heldProperty(type, protocolName) != nil }
}
