import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftSyntax

/// Step 13: which init each creation reaches and what it passes.
extension InjectContext {
  /// The init each creation site reaches and what it passes: the creator's own property when it
  /// holds the protocol, else the accessor; a site in another isolation than an isolated
  /// singleton's, or in a module that cannot import it, leaves its consumer out.
  func matchCalls(_ calls: [InitCall], in draft: InjectDraft) throws -> (sites: [CallSite], unmatched: [String: ConsumerRefusal]) {
    var problems: [String: ConsumerRefusal] = [:]
    var sites: [CallSite] = []
    for call in calls {
      guard let consumer = draft.consumers[call.typeName], !consumer.protocols.isEmpty else { continue }
      let file = try project.file(call.path)
      let site =
        consumer.readsEnvironment
        ? environmentSite(call, of: consumer, in: file, draft: draft, problems: &problems)
        : try initSite(call, of: consumer, in: file, draft: draft, problems: &problems)
      if let site { sites.append(site) }
    }
    return (sites, problems)
  }

  /// A view that reads its protocols from the environment: the creation puts them there.
  func environmentSite(
    _ call: InitCall, of consumer: Consumer, in file: ParsedFile, draft: InjectDraft, problems: inout [String: ConsumerRefusal]
  ) -> CallSite? {
    let creator = call.context.typeName.map(index.resolveType)
    // Inside a view that reads the environment, the environment already holds the values.
    if let creator, draft.consumers[creator]?.readsEnvironment == true { return nil }
    if call.isSelfInit || call.isSuperInit { return nil }
    let needed = inCatalogOrder(consumer.protocols + consumer.passedDown)
    let values = needed.map { value(for: $0, at: call, creator: creator, label: consumer.name(of: $0), in: draft) }
    let passesAccessor = values.contains(accessExpression)
    if passesAccessor, let actor = index.isolation(of: singleton.typeName),
      isolation(at: Syntax(call.call), in: creator) != actor
    {
      problems[call.typeName, default: ConsumerRefusal(.isolation, [])].diagnostics.append(
        .error(
          "'\(accessExpression)' is \(actor)-isolated and this call is not, so it cannot put it in the environment here; make the caller \(actor) first",
          at: file.source.location(ofOffset: call.call.positionAfterSkippingLeadingTrivia.utf8Offset)))
      return nil
    }
    return CallSite(
      call: call, arguments: [], captured: values.filter { $0 != accessExpression }, passesAccessor: passesAccessor,
      environment: zip(needed, values).map { ".environment(\\.\(lowerCamel($0)), \($1))" })
  }

  /// Which init a creation reaches, before the rewrite, and the arguments UIKit's inherited
  /// convenience `init()` would have passed; nil for a call that is left alone or cannot be matched.
  /// The declared init a creation reaches, before the rewrite; nil when it reaches none declared.
  func declaredInit(reachedBy call: InitCall, of consumer: Consumer) throws -> MemberDecl? {
    let inits = consumer.declarations.flatMap(\.members).filter { $0.kind == .initializer }
    for member in inits {
      guard let node = try project.file(member.range.path).node(at: member.range.bytes)?.as(InitializerDeclSyntax.self) else { continue }
      let parameters = node.signature.parameterClause.parameters.map { ($0.firstName.text, $0.defaultValue != nil) }
      if InitCallFinder.matches(
        labels: call.labels, trailingClosures: call.trailingClosures, parameters: parameters.map { (label: $0.0, hasDefault: $0.1) },
        variadic: member.variadicPositions)
      {
        return member
      }
    }
    return nil
  }

  /// Whether a creation reaches a required init that keeps its signature: it passes nothing, and
  /// that init takes the shared instance.
  func reachesRequiredInitThatKeepsItsSignature(_ call: InitCall, of consumer: Consumer) -> Bool {
    guard let reached = try? declaredInit(reachedBy: call, of: consumer) else { return false }
    return project.requiredInitKeepsItsSignature(reached, of: consumer.typeName)
  }

  func reachedInit(
    _ call: InitCall, of consumer: Consumer, in file: ParsedFile, problems: inout [String: ConsumerRefusal]
  ) throws -> (reached: MemberDecl?, extraArguments: [String])? {
    let inits = consumer.declarations.flatMap(\.members).filter { $0.kind == .initializer }
    // Which init the call reaches, before the rewrite.
    let reached = try declaredInit(reachedBy: call, of: consumer)
    let designatedInPrimary = inits.contains { consumer.primary.members.contains($0) }
    if let reached, project.requiredInitKeepsItsSignature(reached, of: consumer.typeName) { return nil }
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
        return nil
      }
    }
    return (reached, extraArguments)
  }

  /// A creation through an init: the arguments it passes for the protocols.
  func initSite(
    _ call: InitCall, of consumer: Consumer, in file: ParsedFile, draft: InjectDraft, problems: inout [String: ConsumerRefusal]
  ) throws -> CallSite? {
    guard let (reached, extraArguments) = try reachedInit(call, of: consumer, in: file, problems: &problems) else { return nil }
    // Inside the consumer's own inits, `self.init(...)` forwards the parameters.
    let creator = call.context.typeName.map(index.resolveType)
    let (passed, held) = try heldArguments(of: consumer, at: call, reaching: reached)
    if passed.isEmpty && held.isEmpty { return nil }
    guard let (arguments, insertions, captured, allPassed) = values(passed: passed, held: held, at: call, creator: creator, in: file, draft: draft, problems: &problems) else { return nil }
    let passesAccessor = captured.count < allPassed.count
    let location = { file.source.location(ofOffset: call.call.positionAfterSkippingLeadingTrivia.utf8Offset) }
    // The call's file must be able to import the singleton's module.
    if !canSeeSingleton(call.path) {
      problems[call.typeName, default: ConsumerRefusal(.moduleCycle, [])].diagnostics.append(
        .error(
          "this call is in module '\(project.modules.module(of: call.path) ?? "")', which cannot import '\(singleton.typeName)'s module '\(project.modules.module(of: singleton.declaration.path) ?? "")' without a module cycle",
          at: location()))
      return nil
    }
    // The accessor moves to the call: it must be isolated as the singleton is.
    if passesAccessor, let actor = index.isolation(of: singleton.typeName),
      isolation(at: Syntax(call.call), in: call.context.typeName.map(index.resolveType)) != actor
    {
      problems[call.typeName, default: ConsumerRefusal(.isolation, [])].diagnostics.append(
        .error(
          "'\(accessExpression)' is \(actor)-isolated and this call is not, so it cannot pass it here; make the caller \(actor) first",
          at: location()))
      return nil
    }
    return CallSite(
      call: call, arguments: arguments + extraArguments, captured: call.context.isStatic ? [] : captured.filter { $0 != "self" },
      passesAccessor: passesAccessor,
      makesLazy: creator == singleton.typeName && singletonHandsSelf(to: call.typeName), insertions: insertions)
  }

  typealias Slot = (name: String, type: String, protocols: [String])
  typealias HeldArgument = (slot: Slot, label: String, after: Int?, position: Int)

  /// The slots a call passes first, and the held parameters of the init it reaches that it leaves
  /// out and must now pass (none under `--default-argument`, which keeps their defaults), each with
  /// its label and the argument it follows.
  func heldArguments(of consumer: Consumer, at call: InitCall, reaching reached: MemberDecl?) throws -> (passed: [Slot], held: [HeldArgument]) {
    var passed = consumer.slots
    var held: [HeldArgument] = []
    guard !consumer.heldParameters.isEmpty, let reached,
      let node = try project.file(reached.range.path).node(at: reached.range.bytes)?.as(InitializerDeclSyntax.self)
    else { return (passed, held) }
    let parameters = Array(node.signature.parameterClause.parameters)
    for slot in passed {
      guard let definition = consumer.heldParameters[slot.protocols[0]], reached.range.path == definition.range.path,
        reached.range.bytes.contains(definition.range.bytes.lowerBound)
      else { continue }
      passed.removeAll { $0.name == slot.name }
      guard !options.defaultArgument,
        let position = parameters.firstIndex(where: { $0.defaultValue?.trimmedByteRange.contains(definition.range.bytes.lowerBound) ?? false }),
        !call.labels.contains(parameters[position].firstName.text)
      else { continue }
      let before = Set(parameters[..<position].map(\.firstName.text))
      let after = Array(call.call.arguments).enumerated().reversed().first { before.contains($0.element.label?.text ?? "_") }?.offset
      held.append((slot, parameters[position].firstName.text, after, position))
    }
    return (passed, held.sorted { $0.position < $1.position })
  }

  /// What a call passes for each slot: the arguments that go first, those that follow an existing
  /// argument, and the creator's own properties among them. Nil, with the problem recorded, when
  /// the protocols of one slot would come from different values.
  func values(
    passed: [Slot], held: [HeldArgument], at call: InitCall, creator: String?, in file: ParsedFile, draft: InjectDraft,
    problems: inout [String: ConsumerRefusal]
  ) -> (arguments: [String], insertions: [(offset: Int, text: String)], captured: [String], passed: [String])? {
    // The protocols of one parameter must come from one value.
    var values: [String: String] = [:]
    var mixed = false
    for slot in passed + held.map(\.slot) {
      let each = Set(slot.protocols.map { value(for: $0, at: call, creator: creator, label: slot.name, in: draft) })
      if each.count > 1 { mixed = true }
      values[slot.name] = each.sorted().first
    }
    if mixed {
      problems[call.typeName, default: ConsumerRefusal(.creationSite, [])].diagnostics.append(
        .error(
          "the creator here holds the protocols '\(call.typeName)' keeps together in separate properties, so it has no one value to pass; pass it by hand",
          at: file.source.location(ofOffset: call.call.positionAfterSkippingLeadingTrivia.utf8Offset)))
      return nil
    }
    let argument = { (label: String, name: String) -> String in
      (label == "_" ? "" : "\(label): ") + (values[name] ?? accessExpression)
    }
    let arguments = passed.map { argument($0.name, $0.name) } + held.filter { $0.after == nil }.map { argument($0.label, $0.slot.name) }
    let existing = Array(call.call.arguments)
    // Held arguments after the same existing one go in one insertion, in parameter order.
    var insertions: [(offset: Int, text: String)] = []
    for entry in held {
      guard let after = entry.after else { continue }
      let offset = existing[after].expression.endPositionBeforeTrailingTrivia.utf8Offset
      let text = ", " + argument(entry.label, entry.slot.name)
      if let last = insertions.indices.last, insertions[last].offset == offset {
        insertions[last].text += text
      } else {
        insertions.append((offset, text))
      }
    }
    let allPassed = passed.map(\.name) + held.map(\.slot.name)
    let captured = allPassed.compactMap { name -> String? in
      let passed = values[name] ?? accessExpression
      return passed == accessExpression ? nil : passed
    }
    return (arguments, insertions, captured, allPassed)
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
        // `#Preview { ... }`: the macro's body is `@MainActor`.
        let macro = closure.parent?.as(MacroExpansionDeclSyntax.self)?.macroName
          ?? closure.parent?.as(MacroExpansionExprSyntax.self)?.macroName
        if macro?.text == "Preview" { return "@MainActor" }
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
      // A stored property's or a global variable's initial value runs as the variable is isolated
      // (`@MainActor var panels = [Panel()]`); a local is no boundary.
      if let variable = syntax.as(VariableDeclSyntax.self),
        syntax.parent?.is(MemberBlockItemSyntax.self) == true || syntax.parent?.parent?.parent?.is(SourceFileSyntax.self) == true
      {
        if let found = actor(in: variable.attributes) { return found }
        if isNonisolated(variable.modifiers) { return nil }
        break
      }
      if syntax.is(MemberBlockItemSyntax.self) { break }
      current = syntax.parent
    }
    // `@MainActor extension X { ... }` isolates its members.
    var group = node.parent
    while let candidate = group, !candidate.isProtocol(DeclGroupSyntax.self) { group = candidate.parent }
    if let found = actor(in: group?.as(ExtensionDeclSyntax.self)?.attributes) { return found }
    return typeName.flatMap { index.isolation(of: $0) }
  }

  /// What a creator passes: its own property or parameter when it holds the protocol, the shared instance otherwise.
  func value(for protocolName: String, at call: InitCall, creator: String?, label: String, in draft: InjectDraft) -> String {
    // A factory passes its own parameters.
    if call.context.isStatic, let factory = draft.factory(around: call), factory.protocols.contains(protocolName) {
      return factory.parameterName(protocolName)
    }
    guard !call.context.isStatic, let creator else { return accessExpression }
    // The singleton hands itself to what it makes, in a property it makes lazy.
    if creator == singleton.typeName, singletonHandsSelf(to: call.typeName) { return "self" }
    // A stored property's initial value and a parameter's default cannot read the creator's own properties.
    if isInStoredPropertyInitializer(call, of: creator) || isInParameterDefault(Syntax(call.call)) { return accessExpression }
    if call.typeName == creator, let consumer = draft.consumers[creator], let name = consumer.names[protocolName] {
      return name
    }
    if let holder = draft.consumers[creator], holder.protocols.contains(protocolName), let name = holder.names[protocolName] {
      return name
    }
    if let held = heldProperty(creator, protocolName) { return held }
    return accessExpression
  }
}
