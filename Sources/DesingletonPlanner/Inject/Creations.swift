import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftSyntax

/// Decide steps 4 to 6: where consumers are created, what their creators hand down, and the names of the new properties.
extension InjectDesigner {
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
    let found = try InitCallFinder.calls(of: created, superclassOf: superOf, project: project)
    let calls = found.calls.map { call in
      var call = call
      // Calls of an inheriting subclass's init stand for the consumer's.
      if !order.contains(call.typeName), let parent = superOf[call.typeName] { call.typeName = parent }
      return call
    }
    var blocked: [String: ConsumerRefusal] = [:]
    for creation in found.unrewritable {
      let file = try project.file(creation.path)
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
        // take these labels may be the one, unless it is an argument whose parameter the callee's
        // declarations type otherwise (`listRowInsets(.init())`, `Model(data: .init())`). Asked
        // here, where it would block a consumer: the answer may parse more files.
        var argumentType: InitCallFinder.ContextualType?
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
          if let slot = creation.argument {
            if argumentType == nil { argumentType = InitCallFinder.argumentType(of: slot, index: index) }
            switch argumentType {
            case .notProject?: continue
            case .named(let created)? where created != typeName: continue
            default: break
            }
          }
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
      // Each round walks the creators' files again: a run whose answers are incomplete stops here.
      try index.requireCoverage()
      let calls = try findInitCalls().calls
      factories = try findFactories(calls, promoting: true)
      for call in calls + forwardedCreations(calls) where !call.context.isStatic && !call.isSelfInit && !call.isSuperInit {
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
    try !CompositionRoots.isCompositionRoot(typeName, project: project)
  }

  /// A consumer that creates another consumer hands down what that one needs, so it needs it too.
  mutating func propagateNeeds(_ calls: [InitCall]) {
    guard !options.defaultArgument else { return }
    // A creation that reaches a required init keeping its signature passes nothing: that init takes the instance.
    let handing = calls.filter { call in
      !call.context.isStatic && !isInStoredPropertyInitializer(call, of: call.context.typeName.map(index.resolveType) ?? "")
        && !(consumers[call.typeName].map { reachesRequiredInitThatKeepsItsSignature(call, of: $0) } ?? false)
    }
    .map { ($0.context.typeName, $0.typeName) }
    var changed = true
    var rounds = 0
    while changed && rounds < 32 {
      changed = false
      rounds += 1
      let creations = handing
        + configurationsByType.values.flatMap { $0 }.filter { !$0.context.isStatic }.map { ($0.context.typeName, $0.typeName) }
      for (creatorName, createdName) in creations {
        guard let creator = creatorName.map(index.resolveType), creator != createdName,
          let created = consumers[createdName], var holder = consumers[creator],
          options.passedDirectly[createdName]?.contains(creator) != true
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
        // A held parameter of several protocols takes one value: the creator holds them together.
        if !holder.readsEnvironment && !holder.propertyInjected && holder.heldParameters.isEmpty && holder.aliasProperties.isEmpty {
          for slot in created.slots where slot.protocols.count > 1 {
            guard let definition = created.heldParameters[slot.protocols[0]], case .held(let name) = definition.use else { continue }
            let taken = holder.combined.flatMap(\.protocols)
            guard !slot.protocols.contains(where: taken.contains), slot.protocols.allSatisfy(holder.protocols.contains),
              !slot.protocols.contains(where: { holds(creator, $0) })
            else { continue }
            holder.combined.append((name, slot.protocols))
            changed = true
          }
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

  /// An existing stored property of `type` declared with the protocol as its type, or with a strict
  /// singleton's own type (`let store: Store`, `@EnvironmentObject var store: Store`,
  /// `@Environment(Store.self) var store`): no code outside a strict singleton makes another
  /// instance, so what the property holds is the one instance, which conforms to every slice.
  func heldProperty(_ type: String, _ protocolName: String) -> String? {
    index.members(of: type).first { member in
      guard member.kind == .property, !member.isStatic, member.isStored, let written = member.typeText else { return false }
      return written == protocolName || written == "any \(protocolName)" || holdsTheInstance(written)
    }?.name
  }

  /// A type written as a strict singleton's own (`Store`, `App.Store`, an alias of it): its value is the instance.
  func holdsTheInstance(_ written: String) -> Bool {
    guard singleton.isStrict, !singleton.isForeign, singleton.accessorProtocol == nil else { return false }
    return index.resolveType(written) == singleton.typeName
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
    var groupNames: [Int: String] = [:]
    for protocolName in consumer.protocols {
      if let alias = consumer.aliasProperties[protocolName], case .alias(let name) = alias.use {
        consumer.names[protocolName] = name
        continue
      }
      if let held = consumer.heldParameters[protocolName], case .held(let name) = held.use {
        consumer.names[protocolName] = name
        continue
      }
      // Protocols held together take one name, the held parameter's they go to.
      let group = consumer.combined.firstIndex { $0.protocols.contains(protocolName) }
      if let group, let name = groupNames[group] {
        consumer.names[protocolName] = name
        continue
      }
      var name = group.map { consumer.combined[$0].name } ?? lowerCamel(protocolName)
      if taken.contains(name) {
        var counter = 2
        while taken.contains("\(name)\(counter)") { counter += 1 }
        name = "\(name)\(counter)"
      }
      taken.insert(name)
      consumer.names[protocolName] = name
      if let group { groupNames[group] = name }
    }
    consumers[typeName] = consumer
  }
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
    binding.initializer.flatMap { InitCallFinder.writtenType(of: $0.value, index: index) }
  }

  /// The statement an init sets the property with: through the wrapper's storage for a SwiftUI
  /// wrapper (`self._model = StateObject(wrappedValue: value)`).
  func assignment(_ value: String, index: Index) -> String {
    (ViewProperty(variable, index: index) ?? .otherWrapper("")).assignment(name, value)
  }
}
