import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftSyntax

/// Step 3: what each consumer uses, through which protocols, and whether it can be injected.
extension InjectContext {
  /// Each target's references and the smallest set of protocols covering them; in `--all` mode a
  /// target that cannot be injected is skipped with its reason. The places that configure the
  /// property-injected ones are looked up here too.
  func analyseConsumers(_ targets: [String], references: [Reference], into chosen: InjectDraft) throws -> InjectDraft {
    var draft = chosen
    // Each reference is written in one type: sorted out once, in order, not searched per consumer.
    var written: [String: [Reference]] = [:]
    if !targets.isEmpty {
      for reference in references {
        if let owner = index.enclosingType(of: reference) { written[owner, default: []].append(reference) }
      }
    }
    for typeName in targets {
      do {
        // A type whose every use an earlier run wrote (or a composition root) is no consumer now.
        guard
          var consumer = try analyse(
            typeName, references: written[typeName] ?? [], propertyInjected: draft.propertyInjected.contains(typeName))
        else { continue }
        consumer.setAfterCreation = draft.setAfterCreation.contains(typeName)
        draft.consumers[typeName] = consumer
        draft.order.append(typeName)
      } catch let refusal as ConsumerRefusal where options.types == nil {
        draft.skipped.append(skipped(typeName, refusal.reason, refusal.diagnostics))
      } catch let refusal as Refusal where options.types == nil {
        draft.skipped.append(skipped(typeName, .declaration, refusal.diagnostics))
      }
    }
    for typeName in draft.order where draft.propertyInjected.contains(typeName) && !draft.setAfterCreation.contains(typeName) {
      draft.configurationsByType[typeName] = configurationSites(of: typeName)
    }
    return draft
  }

  /// One consumer's uses and protocols, from the references written in it; nil when it has none
  /// left to inject.
  func analyse(_ typeName: String, references own: [Reference], propertyInjected: Bool) throws -> Consumer? {
    try refuseObjectiveCCreation(of: typeName)
    let declarations = index.declarations(of: typeName)
    guard let primary = declarations.first(where: { !$0.isExtension }) else {
      throw Refusal("cannot find the declaration of '\(typeName)'")
    }
    var consumer = Consumer(typeName: typeName, declarations: declarations, primary: primary)
    consumer.propertyInjected = propertyInjected
    let members = declarations.flatMap(\.members)
    var uses = ConsumerUses()
    for reference in own {
      try classify(reference, members: members, into: &uses, consumer: &consumer)
    }
    if let first = uses.problems.first { throw ConsumerRefusal(first.reason, uses.problems.map(\.diagnostic)) }
    let chosen = try chooseProtocols(for: consumer, uses: uses)
    var passed = uses.passed
    // A type that only hands the instance on and that no code outside tests creates is a
    // composition root: it keeps passing the accessor, and `finish` makes it the owner.
    if consumer.references.isEmpty && !passed.isEmpty {
      if try !isCreatedOutsideTests(typeName) { passed = [] }
    }
    consumer.references += passed.map(\.reference)
    if consumer.references.isEmpty && options.types == nil { return nil }
    consumer.protocols = inCatalogOrder(Set(chosen.map(\.name) + passed.map(\.protocolName)))
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
    try routeAliases(uses.aliasDefinitions, in: &consumer, chosen: chosen)
    for (definition, declared) in uses.heldDefinitions { try holdParameter(definition, declared: declared, in: &consumer, chosen: chosen) }
    return consumer
  }

  /// What a consumer's own uses of the accessor say, before any protocol is chosen.
  struct ConsumerUses {
    var reads: Set<String> = []
    var writes: Set<String> = []
    var problems: [(reason: SkipReason, diagnostic: Diagnostic)] = []
    var aliasDefinitions: [Reference] = []
    var heldDefinitions: [(Reference, [String]?)] = []
    var passed: [(reference: Reference, protocolName: String)] = []
  }

  /// Objective-C creates it: those callers cannot pass the new init arguments.
  func refuseObjectiveCCreation(of typeName: String) throws {
    if ObjectiveCUses.isVisible(typeName, index: index) {
      let places = ObjectiveCUses.creations(of: typeName, in: project)
      if !places.isEmpty {
        throw ConsumerRefusal(.objectiveC, places.map {
          .error("Objective-C code creates '\(typeName)' here, and desingleton does not rewrite Objective-C, so it could not pass the new init arguments", at: $0)
        })
      }
    }
  }

  /// One use of the accessor in the consumer's code: a member read or written, an alias, a value
  /// handed on, a default parameter, or a problem that keeps the consumer as it is.
  func classify(_ reference: Reference, members: [MemberDecl], into uses: inout ConsumerUses, consumer: inout Consumer) throws {
    let typeName = consumer.typeName
    if reference.context.isStatic {
      consumer.staticReferences.append(reference)
      return
    }
    // `init(store: Store = Store.shared)`: the type already receives the instance (see `holdParameter`).
    if case .held = reference.use {
      (uses.heldDefinitions, consumer.references) = (uses.heldDefinitions + [(reference, nil)], consumer.references + [reference])
      return
    }
    // What an earlier run wrote: the accessor as an injected argument or a coder-init fallback.
    var passedAs: String?
    if reference.use == .instance {
      switch try plumbing(of: reference) {
      case .kept:
        // A default like those `--default-argument` writes goes without it (see `typedDefault`).
        if let (held, names) = try typedDefault(of: reference) {
          (uses.heldDefinitions, consumer.references) = (uses.heldDefinitions + [(held, names)], consumer.references + [held])
        }
        return
      case .passed(let protocolName): passedAs = protocolName
      case .none: break
      }
    }
    // `use(.shared)` may be another type's: it stays, and the accessor stays with it until `finish`.
    if reference.use == .unresolvedImplicit { return }
    if let passedAs {
      // A creation site that passes the accessor to a parameter of a protocol type: the creator
      // receives that protocol too and passes its own, so the accessor moves one level up. In a
      // stored property's initial value or a parameter's default it stays (the creator's property
      // cannot be read there), as the creation sites were written (`MatchCalls`).
      if try reference.context.inPropertyInitializer || isInParameterDefault(reference) { return }
      uses.passed.append((reference, passedAs))
      return
    }
    // A parameter's default value cannot read an injected property either.
    if try isInParameterDefault(reference) {
      uses.problems.append((.unreadableValue, .error("'\(singleton.accessExpression)' is used in a default argument of '\(reference.context.memberName ?? typeName)', which cannot read an injected property; pass the value at the call sites instead", at: reference.location)))
      return
    }
    // Stored property initial values cannot read injected properties.
    if reference.context.inPropertyInitializer, let memberName = reference.context.memberName,
      let stored = members.first(where: { $0.kind == .property && $0.name == memberName && $0.isStored && !$0.isStatic }),
      !stored.modifiers.contains("lazy")
    {
      let isAliasDefinition: Bool
      if case .alias(let name) = reference.use, name == memberName, reference.alias == nil { isAliasDefinition = true } else { isAliasDefinition = false }
      if !isAliasDefinition && reference.alias == nil {
        uses.problems.append((.unreadableValue, .error("'\(singleton.accessExpression)' is used in the initial value of stored property '\(memberName)'; make it lazy or set it in an init", at: reference.location)))
        return
      }
    }

    consumer.references.append(reference)
    switch reference.use {
    case .member(let name, let access):
      if access == .write { uses.writes.insert(name) } else { uses.reads.insert(name) }
    case .alias:
      uses.aliasDefinitions.append(reference)
    case .reassignment:
      uses.problems.append((.instanceUse, .error("'\(typeName)' replaces the shared instance", at: reference.location)))
    case .instance:
      uses.problems.append((.instanceUse, .error("'\(typeName)' passes the instance '\(singleton.accessExpression)' itself, so it cannot be told which protocol it needs", at: reference.location)))
    case .keyPath:
      uses.problems.append((.instanceUse, .error("'\(typeName)' applies a key path to '\(singleton.accessExpression)', so which member it needs cannot be told; use the member by name", at: reference.location)))
    case .unresolvedImplicit, .held:
      break
    }
  }

  /// The protocols that cover what the consumer reads, writes and calls, or the refusal naming the
  /// member no protocol covers (a `Sendable` consumer needs `Sendable` protocols).
  func chooseProtocols(for consumer: Consumer, uses: ConsumerUses) throws -> [ProtocolCatalog.Entry] {
    let typeName = consumer.typeName
    // A `Sendable` type can store, and a `@Sendable` closure capture, only `Sendable` existentials.
    let sendable = try index.isCheckedSendable(typeName) || consumer.references.contains { try isInSendableClosure($0) }
    let calls = callArguments(consumer.references)
    let (chosen, uncovered) = catalog.cover(reads: uses.reads, writes: uses.writes, calls: calls, sendable: sendable)
    if let uncovered, sendable, catalog.cover(reads: uses.reads, writes: uses.writes, calls: calls).uncovered == nil {
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
        .uncoveredMember, "'\(typeName)' calls '\(written)', an overload no protocol of '\(singleton.typeName)' declares; \(sliceAdvice(for: uncovered))",
        at: call.location)
    }
    if let uncovered {
      let location = consumer.references.first { if case .member(uncovered, _) = $0.use { return true } else { return false } }?.location
      let written = uses.writes.contains(uncovered)
      let message = written
        ? "'\(typeName)' sets '\(uncovered)', but no protocol of '\(singleton.typeName)' declares it '{ get set }'; \(sliceAdvice(for: uncovered))"
        : "'\(typeName)' uses '\(uncovered)', which no protocol of '\(singleton.typeName)' covers; \(sliceAdvice(for: uncovered))"
      throw ConsumerRefusal(.uncoveredMember, message, at: location)
    }
    return chosen
  }

  /// An alias goes through the one protocol that covers every member used through it; a local
  /// alias used through several protocols is dissolved.
  func routeAliases(_ aliasDefinitions: [Reference], in consumer: inout Consumer, chosen: [ProtocolCatalog.Entry]) throws {
    let typeName = consumer.typeName
    let members = consumer.declarations.flatMap(\.members)
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
        throw ConsumerRefusal(
          .instanceUse,
          protocolsUsed.isEmpty
            ? "alias '\(aliasName)' is used only in ways no protocol of '\(singleton.typeName)' declares (a binding, or the value itself); change it by hand"
            : "alias '\(aliasName)' is used for members of several protocols (\(protocolsUsed.sorted().joined(separator: ", "))); split it by hand",
          at: definition.location)
      }
      for use in uses { consumer.referenceProtocol[use.range] = target }
      consumer.referenceProtocol[definition.range] = target
      if definition.context.memberName == aliasName,
        members.contains(where: { $0.kind == .property && $0.name == aliasName && $0.isStored && !$0.isStatic })
      {
        if consumer.aliasProperties[target] == nil { consumer.aliasProperties[target] = definition }
      }
    }
  }

  /// A held parameter (`init(store: Store = Store.shared) { self.store = store }`) takes the one
  /// protocol that covers every member used through its property: the parameter and the property
  /// are retyped to it, and the parameter loses its default unless `--default-argument` keeps it.
  func holdParameter(_ definition: Reference, declared: [String]? = nil, in consumer: inout Consumer, chosen: [ProtocolCatalog.Entry]) throws {
    guard case .held(let property) = definition.use else { return }
    let typeName = consumer.typeName
    let uses = consumer.references.filter { $0.alias == property && $0.range.path == definition.range.path }
    let members = uses.compactMap { use -> String? in if case .member(let name, _) = use.use { return name } else { return nil } }
    let protocolsUsed = Set(uses.compactMap { consumer.referenceProtocol[$0.range] })
    // One protocol that covers them all, else the composition of those used (`A & B`).
    var targets = protocolsUsed.count == 1 ? Array(protocolsUsed) : []
    if protocolsUsed.count > 1 {
      if let covering = chosen.first(where: { entry in members.allSatisfy { entry.covers.contains($0) } })?.name {
        targets = [covering]
      } else {
        targets = chosen.map(\.name).filter(protocolsUsed.contains)
      }
    }
    // A parameter typed as a protocol already keeps it.
    if let declared {
      targets = declared
      consumer.protocols = inCatalogOrder(Set(consumer.protocols + declared))
    }
    guard !targets.isEmpty else {
      throw ConsumerRefusal(
        .instanceUse, "'\(typeName)' keeps the instance in '\(property)' but uses no member of it, so which protocol it needs cannot be told; change it by hand",
        at: definition.location)
    }
    // The init that takes the parameter must be the only one that sets the property.
    for declaration in consumer.declarations {
      for member in declaration.members where member.kind == .initializer && !member.modifiers.contains("convenience") && !member.modifiers.contains("required") {
        guard member.range.path != definition.range.path || !member.range.bytes.contains(definition.range.bytes.lowerBound) else { continue }
        guard let other = try project.file(member.range.path).node(at: member.range.bytes)?.as(InitializerDeclSyntax.self),
          InitBodyScanner.delegatesToSelf(other)
        else {
          throw ConsumerRefusal(
            .instanceUse, "'\(typeName)' keeps the instance in '\(property)', and another init sets it too; give it one init that takes it, or change it by hand",
            at: member.location)
        }
      }
    }
    if targets.count == 1 {
      for use in uses { consumer.referenceProtocol[use.range] = targets[0] }
    }
    consumer.referenceProtocol[definition.range] = targets[0]
    for target in targets { consumer.heldParameters[target] = definition }
  }

  /// The accessor as the default of an init parameter typed as one of the singleton's protocols and
  /// kept in a stored property of that type, when `--default-argument` is off: the reference as a
  /// held parameter, and the protocol.
  func typedDefault(of reference: Reference) throws -> (Reference, [String])? {
    guard !options.defaultArgument, let node = try project.file(reference.range.path).expression(at: reference.range.bytes),
      let (property, type) = HeldParameter.typedDefault(node)
    else { return nil }
    // `Counting`, or a composition of the singleton's protocols (`Counting & Adding`).
    let entries = type.split(separator: "&").map { catalog.entry(named: index.resolveType($0.trimmingCharacters(in: .whitespaces))) }
    guard !entries.isEmpty, !entries.contains(where: { $0 == nil }) else { return nil }
    var held = reference
    held.use = .held(property)
    return (held, entries.compactMap { $0?.name })
  }

  /// The argument labels of each method the references call, which tell overloads apart.
  func callArguments(_ references: [Reference]) -> [String: [CallArguments]] {
    var calls: [String: [CallArguments]] = [:]
    for reference in references {
      if case .member(let name, .call) = reference.use, let arguments = reference.arguments {
        calls[name, default: []].append(arguments)
      }
    }
    return calls
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

  /// What a call can reach by the type it names: the inits of `T(...)` and `T.init(...)`, and the
  /// static methods of `T.make(...)`.
  private func calledMembers(_ call: FunctionCallExprSyntax) -> [MemberDecl] {
    var called = call.calledExpression
    if let member = called.as(MemberAccessExprSyntax.self), member.declName.baseName.tokenKind == .keyword(.`init`), let base = member.base {
      called = base
    }
    var members: [MemberDecl] = []
    if let written = called.typeReferenceText {
      members += index.members(of: index.resolveType(written)).filter { $0.kind == .initializer }
    }
    if let member = call.calledExpression.as(MemberAccessExprSyntax.self), let written = member.base?.typeReferenceText {
      let name = member.declName.baseName.text
      members += index.members(of: index.resolveType(written)).filter { $0.kind == .method && $0.isStatic && $0.name == name }
    }
    return members
  }

  /// A use of the instance that an earlier `inject` wrote: given to an init parameter typed as one
  /// of the singleton's protocols, assigned in `required init?(coder:)`, or an init parameter's default.
  func plumbing(of reference: Reference) throws -> Plumbing {
    let file = try project.file(reference.range.path)
    guard let node = file.expression(at: reference.range.bytes) else { return .none }
    // Passed to a parameter typed as one of the singleton's protocols: an init's at a creation site,
    // or a static factory method's as `inject --all` writes it (`ScreenFactory.make(counting: Store.shared)`).
    if let argument = node.parent?.as(LabeledExprSyntax.self), let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self) {
      let label = argument.label?.text ?? "_"
      for member in calledMembers(call) where member.labels.contains(label) {
        let declaration = try project.file(member.range.path).node(at: member.range.bytes)
        guard let clause = declaration?.as(InitializerDeclSyntax.self)?.signature.parameterClause
          ?? declaration?.as(FunctionDeclSyntax.self)?.signature.parameterClause,
          let parameter = clause.parameters.first(where: { $0.firstName.text == label })
        else { continue }
        var type = parameter.type
        if let some = type.as(SomeOrAnyTypeSyntax.self) { type = some.constraint }
        if let entry = catalog.entry(named: index.resolveType(type.trimmedDescription)) { return .passed(entry.name) }
      }
    }
    // `view.environment(\.counting, X.shared)`, setting the environment `--swiftui-environment` reads.
    if InitCallFinder.isEnvironmentValue(node),
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
        let declared = project.typeNames(inFilesMentioning: [name]).lazy.flatMap { index.members(of: $0) }
          .first { $0.kind == .property && !$0.isStatic && $0.name == name && $0.typeText?.hasSuffix("!") == true }
        if let typeText = declared?.typeText, let entry = catalog.entry(named: index.resolveType(String(typeText.dropLast()))) {
          return .passed(entry.name)
        }
      }
    }
    // `lazy var reporting: Reporting = X.shared`, the property a type in a creation cycle gets: it
    // is set after creation by whoever makes both, and reads the accessor until then.
    if let binding = node.parent?.as(InitializerClauseSyntax.self)?.parent?.as(PatternBindingSyntax.self),
      let type = binding.typeAnnotation?.type, isSetAfterCreationProperty(binding, type, instance: node),
      catalog.entry(named: index.resolveType(type.trimmedDescription)) != nil
    {
      return .kept
    }
    var current = node.parent
    while let syntax = current {
      if syntax.is(InitializerClauseSyntax.self), syntax.parent?.is(FunctionParameterSyntax.self) == true { return .kept }
      if let initializer = syntax.as(InitializerDeclSyntax.self) {
        // A required init that keeps its signature (`init?(coder:)`, one a superclass declares), or
        // an init a protocol declares, takes the shared instance.
        let member = index.enclosingType(of: reference).flatMap { owner in
          project.enclosingInit(of: reference, in: owner).map { ($0, owner) }
        }
        let isRequired = initializer.modifiers.contains { $0.name.tokenKind == .keyword(.required) }
        guard let (found, owner) = member else { return isRequired ? .kept : .none }
        return project.requiredInitKeepsItsSignature(found, of: owner) ? .kept : .none
      }
      if syntax.is(MemberBlockItemSyntax.self) { return .none }
      current = syntax.parent
    }
    return .none
  }

  /// What to do about a member no protocol covers: run the `extract-protocol` command that cuts a
  /// slice of it, with a name the code does not use yet (`SliceNamer`), so that it can be run as
  /// printed; or, where no protocol beside the singleton can require it (an extension in a module
  /// the singleton's cannot see declares it), why.
  func sliceAdvice(for member: String) -> String {
    let members = index.members(of: singleton.typeName).filter { $0.name == member && !$0.isStatic }
    // A property wrapper's projection (`$phase`) is no member a slice can name.
    if members.isEmpty {
      return member.hasPrefix("$")
        ? "'\(member)' is a property wrapper's projection, which no slice can name; keep the accessor here, or write a requirement for it by hand"
        : "no member '\(member)' of '\(singleton.typeName)' can be named in a slice; keep the accessor here"
    }
    if
      let unseen = members.first(where: { !SingletonAnalysis.isSeenByItsModule($0, singleton: singleton, modules: project.modules) })
    {
      let module = project.modules.modules(of: unseen.range.path).first.map { " in module '\($0)'" } ?? ""
      return "it is declared\(module), which the module of '\(singleton.typeName)' cannot see, so no protocol beside '\(singleton.typeName)' can require it; "
        + "move it into the module of '\(singleton.typeName)', or keep the accessor here"
    }
    // What no protocol can require, as extract-protocol decides it (a type the declaration does not tell).
    if let analysis = try? singletonAnalysis() {
      let builder = RequirementBuilder(for: analysis, index: index)
      let reasons = members.compactMap { builder.obstacleReason(for: $0, project: project) }
      if reasons.count == members.count, let first = reasons.first { return "it cannot be in a protocol: \(first)" }
    }
    let name = sliceName(members)
    // The access the slice would need, as extract-protocol decides it: a member that cannot have it
    // (internal, or naming an internal type, used from another module) would be refused.
    if let primary = index.primaryDeclaration(of: singleton.typeName),
      let analysis = try? singletonAnalysis(),
      let visibility = try? SliceVisibility(
        slice: Slice(name: name, members: [member]), members: members, analysis: analysis, primary: primary, project: project),
      let first = visibility.excluded.first, visibility.excluded.count == members.count
    {
      return "it cannot be in a protocol of its own: " + first.reason.replacingOccurrences(of: "'\(name)' must be", with: "that protocol must be")
    }
    return "run 'desingleton extract-protocol \(project.singletonFlags(singleton.typeName)) --slice \(shellWord("\(name)=\(member)"))' to cut one"
  }

  private func sliceName(_ members: [MemberDecl]) -> String {
    SliceNamer.name(for: members, typeName: singleton.simpleTypeName, wholeType: false) { candidate in
      !index.types(named: candidate).isEmpty || catalog.entries.contains { $0.name == candidate }
    }
  }
}
