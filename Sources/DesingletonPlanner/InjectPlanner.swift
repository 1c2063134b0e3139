import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftSyntax

public struct InjectOptions: Sendable {
  /// Consumer types to inject; nil takes every consumer that can be injected.
  public var types: [String]?
  /// Give the new init parameters the singleton as their default value and leave call sites alone.
  public var defaultArgument: Bool

  public init(types: [String]? = nil, defaultArgument: Bool = false) {
    self.types = types
    self.defaultArgument = defaultArgument
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
public enum InjectPlanner {
  public static func plan(singleton: Singleton, options: InjectOptions, project: Project) throws -> Plan {
    var planner = try Run(singleton: singleton, options: options, project: project)
    return try planner.plan()
  }
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
}

private struct Run {
  let singleton: Singleton
  let options: InjectOptions
  let project: Project
  let index: Index
  let catalog: ProtocolCatalog
  var output = Plan()
  var consumers: [String: Consumer] = [:]
  var order: [String] = []
  var skipped: [String] = []
  /// The closures that must capture injected properties.
  var captures = CaptureCollector()

  init(singleton: Singleton, options: InjectOptions, project: Project) throws {
    self.singleton = singleton
    self.options = options
    self.project = project
    self.index = project.index
    self.catalog = ProtocolCatalog(singleton: singleton, index: project.index)
  }

  var accessExpression: String { singleton.accessExpression }

  mutating func plan() throws -> Plan {
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
    var targets: [String] = []
    if let requested = options.types {
      for name in requested {
        let matches = index.types(named: name).filter { index.declarations(of: $0).contains { !$0.isExtension } }
        if matches.isEmpty { throw Refusal("no type named '\(name)'") }
        if matches.count > 1 { throw Refusal("'\(name)' is ambiguous: \(matches.joined(separator: ", "))") }
        if let reason = notInjectable(matches[0]) {
          throw Refusal("'\(matches[0])' cannot be injected: \(reason)", at: index.declarations(of: matches[0]).first?.location)
        }
        if !targets.contains(matches[0]) { targets.append(matches[0]) }
      }
    } else {
      for usage in analysis.consumers where !(usage.reads + usage.writes + usage.calls).isEmpty {
        if let reason = notInjectable(usage.typeName) {
          skipped.append("\(usage.typeName): \(reason)")
        } else {
          targets.append(usage.typeName)
        }
      }
    }
    // Every target is analysed; in --all mode one that cannot be injected is skipped with its reason.
    for typeName in targets {
      do {
        consumers[typeName] = try analyse(typeName, references: analysis.references)
        order.append(typeName)
      } catch let refusal as Refusal where options.types == nil {
        skipped.append("\(typeName): " + refusal.diagnostics.map(\.description).joined(separator: "; "))
      }
    }
    let calls = try findInitCalls()
    propagateNeeds(calls)
    for typeName in order { try nameProperties(typeName) }
    for typeName in order where consumers[typeName]?.protocols.isEmpty == false {
      try rewriteReferences(typeName)
      try rewriteInits(typeName, calls: calls)
    }
    if !options.defaultArgument {
      try rewriteCalls(calls)
    }
    emitCaptures()
    for line in skipped { output.notes.append("skipped \(line)") }
    return output
  }

  // MARK: Which types

  func notInjectable(_ typeName: String) -> String? {
    let declarations = index.declarations(of: typeName)
    guard let primary = declarations.first(where: { !$0.isExtension }) else { return "its declaration is not in the given paths" }
    if typeName == singleton.typeName { return "it is the singleton itself" }
    switch primary.kind {
    case .enum: return "an enum cannot hold injected values"
    case .protocol: return "it is a protocol"
    default: break
    }
    if isTestCase(typeName) { return "it is a test case" }
    return nil
  }

  func isTestCase(_ typeName: String) -> Bool {
    var current = typeName
    var seen: Set<String> = []
    while seen.insert(current).inserted {
      let declarations = index.declarations(of: current)
      if declarations.contains(where: { $0.attributes.contains("@Suite") || $0.members.contains { $0.attributes.contains("@Test") } }) {
        return true
      }
      guard let parent = declarations.flatMap(\.inherited).first else { return false }
      if parent == "XCTestCase" || parent.hasSuffix(".XCTestCase") { return true }
      current = index.resolveType(parent)
    }
    return false
  }

  // MARK: Analysis of one consumer

  func analyse(_ typeName: String, references all: [Reference]) throws -> Consumer {
    let declarations = index.declarations(of: typeName)
    guard let primary = declarations.first(where: { !$0.isExtension }) else {
      throw Refusal("cannot find the declaration of '\(typeName)'")
    }
    var consumer = Consumer(typeName: typeName, declarations: declarations, primary: primary)
    let members = declarations.flatMap(\.members)
    var reads: Set<String> = []
    var writes: Set<String> = []
    var problems: [Diagnostic] = []
    var aliasDefinitions: [Reference] = []
    for reference in all where index.enclosingType(of: reference) == typeName {
      if reference.context.isStatic {
        consumer.staticReferences.append(reference)
        continue
      }
      if reference.use == .instance, try isInjectionPlumbing(reference) { continue }
      // `use(.shared)` may be another type's: it stays, and the accessor stays with it until `finish`.
      if reference.use == .unresolvedImplicit { continue }
      // Stored property initial values cannot read injected properties.
      if let memberName = reference.context.memberName,
        let stored = members.first(where: { $0.kind == .property && $0.name == memberName && $0.isStored && !$0.isStatic }),
        !stored.modifiers.contains("lazy")
      {
        let isAliasDefinition: Bool
        if case .alias(let name) = reference.use, name == memberName, reference.alias == nil { isAliasDefinition = true } else { isAliasDefinition = false }
        if !isAliasDefinition && reference.alias == nil {
          problems.append(.error("'\(singleton.accessExpression)' is used in the initial value of stored property '\(memberName)'; make it lazy or set it in an init", at: reference.location))
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
        problems.append(.error("'\(typeName)' replaces the shared instance", at: reference.location))
      case .instance:
        problems.append(.error("'\(typeName)' passes the instance '\(singleton.accessExpression)' itself, so it cannot be told which protocol it needs", at: reference.location))
      case .keyPath:
        problems.append(.error("'\(typeName)' applies a key path to '\(singleton.accessExpression)', so which member it needs cannot be told; use the member by name", at: reference.location))
      case .unresolvedImplicit:
        break
      }
    }
    if !problems.isEmpty { throw Refusal(problems) }
    let (chosen, uncovered) = catalog.cover(reads: reads, writes: writes)
    if let uncovered {
      let location = consumer.references.first { if case .member(uncovered, _) = $0.use { return true } else { return false } }?.location
      let written = writes.contains(uncovered)
      let message = written
        ? "'\(typeName)' sets '\(uncovered)', but no protocol of '\(singleton.typeName)' declares it '{ get set }'; run 'desingleton extract-protocol --singleton \(singleton.typeName) --slice NAME=\(uncovered)' to cut one"
        : "'\(typeName)' uses '\(uncovered)', which no protocol of '\(singleton.typeName)' covers; run 'desingleton extract-protocol --singleton \(singleton.typeName) --slice NAME=\(uncovered)' to cut one"
      throw Refusal(message, at: location)
    }
    consumer.protocols = chosen.map(\.name)
    // Each reference goes through the first chosen protocol that covers it.
    for reference in consumer.references {
      guard case .member(let name, let access) = reference.use else { continue }
      if let entry = chosen.first(where: { $0.covers.contains(name) && (access != .write || $0.settable.contains(name)) }) {
        consumer.referenceProtocol[reference.range] = entry.name
      }
    }
    // An alias goes through the one protocol that covers every member used through it.
    for definition in aliasDefinitions {
      guard case .alias(let aliasName) = definition.use else { continue }
      let isProperty = definition.context.memberName == aliasName
        && members.contains(where: { $0.kind == .property && $0.name == aliasName && $0.isStored && !$0.isStatic })
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
        throw Refusal("alias '\(aliasName)' is used for members of several protocols (\(protocolsUsed.sorted().joined(separator: ", "))); split it by hand", at: definition.location)
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

  /// A use of the instance that an earlier `inject` wrote: the shared instance assigned in
  /// `required init?(coder:)`, or given as an init parameter's default value.
  func isInjectionPlumbing(_ reference: Reference) throws -> Bool {
    let file = try project.file(reference.range.path)
    guard let node = file.expression(at: reference.range.bytes) else { return false }
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
          let type = parameter.type.trimmedDescription.replacingOccurrences(of: "any ", with: "")
          if catalog.entry(named: index.resolveType(type)) != nil { return true }
        }
      }
    }
    var current = node.parent
    while let syntax = current {
      if syntax.is(InitializerClauseSyntax.self), syntax.parent?.is(FunctionParameterSyntax.self) == true { return true }
      if let initializer = syntax.as(InitializerDeclSyntax.self) {
        let labels = initializer.signature.parameterClause.parameters.map(\.firstName.text)
        return initializer.modifiers.contains { $0.name.tokenKind == .keyword(.required) } && labels == ["coder"]
      }
      if syntax.is(MemberBlockItemSyntax.self) { return false }
      current = syntax.parent
    }
    return false
  }

  // MARK: Creation sites

  /// Every call of an init of a consumer, or of a subclass that inherits its inits.
  func findInitCalls() throws -> [InitCall] {
    var created: Set<String> = Set(order)
    var superOf: [String: String] = [:]
    for type in order.flatMap({ index.subclasses(of: $0) }) {
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
    return InitCallFinder.calls(of: created, superclassOf: subclassParents, in: files, index: index).map { call in
      var call = call
      // Calls of an inheriting subclass's init stand for the consumer's.
      if !order.contains(call.typeName), let parent = superOf[call.typeName] { call.typeName = parent }
      return call
    }
  }

  /// A consumer that creates another consumer hands down what that one needs, so it needs it too.
  mutating func propagateNeeds(_ calls: [InitCall]) {
    guard !options.defaultArgument else { return }
    var changed = true
    var rounds = 0
    while changed && rounds < 32 {
      changed = false
      rounds += 1
      for call in calls where !call.context.isStatic {
        guard let creator = call.context.typeName.map(index.resolveType), creator != call.typeName,
          !isInStoredPropertyInitializer(call, of: creator),
          let created = consumers[call.typeName], var holder = consumers[creator]
        else { continue }
        for needed in created.protocols where !holder.protocols.contains(needed) && !holds(creator, needed) {
          holder.protocols.append(needed)
          changed = true
        }
        let order = Dictionary(uniqueKeysWithValues: catalog.entries.enumerated().map { ($1.name, $0) })
        holder.protocols.sort { (order[$0] ?? 0) < (order[$1] ?? 0) }
        consumers[creator] = holder
      }
    }
  }

  func isInStoredPropertyInitializer(_ call: InitCall, of type: String) -> Bool {
    guard let memberName = call.context.memberName else { return false }
    return index.members(of: type).contains { $0.kind == .property && $0.name == memberName && $0.isStored && !$0.modifiers.contains("lazy") }
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
    var taken = Set(consumer.declarations.flatMap(\.members).map(\.name))
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

  // MARK: Rewriting a consumer

  mutating func rewriteReferences(_ typeName: String) throws {
    guard let consumer = consumers[typeName] else { return }
    for definition in consumer.dissolvedAliases {
      guard case .alias(let aliasName) = definition.use else { continue }
      let file = try project.file(definition.range.path)
      guard let node = file.expression(at: definition.range.bytes),
        let variable = node.parent?.parent?.parent?.parent?.as(VariableDeclSyntax.self), variable.bindings.count == 1
      else {
        throw Refusal("cannot remove alias '\(aliasName)'", at: definition.location)
      }
      output.add(TextEdit(range: file.source.removalRange(of: variable), replacement: ""), in: file.path)
      for use in consumer.references where use.alias == aliasName && use.range.path == definition.range.path
        && use.context.memberName == definition.context.memberName
      {
        guard let protocolName = consumer.referenceProtocol[use.range], let name = consumer.names[protocolName] else { continue }
        output.add(TextEdit(range: use.range.bytes, replacement: name), in: file.path)
        if let useNode = file.expression(at: use.range.bytes) { capture(name, at: Syntax(useNode), in: file.path) }
      }
    }
    for reference in consumer.references where reference.alias == nil && !consumer.dissolvedAliases.contains(reference) {
      guard let protocolName = consumer.referenceProtocol[reference.range], let name = consumer.names[protocolName] else { continue }
      let file = try project.file(reference.range.path)
      if case .alias(let aliasName) = reference.use, consumer.aliasProperties[protocolName] == reference {
        // `let session = X.shared` becomes `let session: P`.
        guard let node = file.expression(at: reference.range.bytes),
          let binding = node.parent?.parent?.as(PatternBindingSyntax.self)
        else { continue }
        output.add(TextEdit(range: binding.trimmedByteRange, replacement: "\(aliasName): \(protocolName)"), in: file.path)
        continue
      }
      output.add(TextEdit(range: reference.range.bytes, replacement: name), in: file.path)
      if let node = file.expression(at: reference.range.bytes) { capture(name, at: Syntax(node), in: file.path) }
    }
    var notes = "\(typeName): " + consumer.protocols.compactMap { p in consumer.names[p].map { "\($0): \(p)" } }.joined(separator: ", ")
    notes += "; \(consumer.references.count) reference\(consumer.references.count == 1 ? "" : "s") rewritten"
    output.notes.append(notes)
    for reference in consumer.staticReferences {
      output.notes.append("  \(reference.location.path):\(reference.location.line): left alone: static context '\(reference.context.memberName ?? "")' cannot hold injected values")
    }
  }

  /// Records that `name` is used at `node`: every closure between it and its member captures it,
  /// so no closure gains a strong capture of `self`.
  mutating func capture(_ name: String, at node: Syntax, in path: String) {
    captures.capture(name, at: node, in: path)
  }

  mutating func emitCaptures() {
    for (path, edit) in captures.edits() { output.add(edit, in: path) }
  }

  // MARK: Inits

  mutating func rewriteInits(_ typeName: String, calls: [InitCall]) throws {
    guard let consumer = consumers[typeName] else { return }
    let primaryFile = try project.file(consumer.primary.path)
    let source = primaryFile.source
    let lineEnding = source.lineEnding
    let unit = source.indentUnit
    let memberIndent = consumer.primary.members.first.map { source.indentation(at: $0.range.bytes.lowerBound) }
      ?? source.indentation(at: consumer.primary.range.bytes.lowerBound) + unit
    let newProtocols = consumer.protocols.filter { consumer.aliasProperties[$0] == nil }
    let allPrivate = consumer.references.allSatisfy { $0.range.path == consumer.primary.path }
      && calls.allSatisfy { call in
        call.isSelfInit || call.context.typeName.map(index.resolveType) != typeName || call.path == consumer.primary.path
      }
    var inserted: [String] = newProtocols.map { protocolName in
      "\(memberIndent)\(allPrivate ? "private " : "")let \(consumer.names[protocolName] ?? lowerCamel(protocolName)): \(protocolName)"
    }
    let parameters = consumer.protocols.map { protocolName -> String in
      let name = consumer.names[protocolName] ?? lowerCamel(protocolName)
      return "\(name): \(protocolName)" + (options.defaultArgument ? " = \(accessExpression)" : "")
    }
    let assignments = consumer.protocols.map { protocolName -> String in
      let name = consumer.names[protocolName] ?? lowerCamel(protocolName)
      return "self.\(name) = \(name)"
    }
    let singletonAssignments = consumer.protocols.map { protocolName -> String in
      "self.\(consumer.names[protocolName] ?? lowerCamel(protocolName)) = \(accessExpression)"
    }
    try checkDefaultArgumentIsolation(consumer)

    let inits = try consumer.declarations.flatMap { declaration in
      try declaration.members.filter { $0.kind == .initializer }.map { member -> (MemberDecl, ParsedFile, InitializerDeclSyntax) in
        let file = try project.file(member.range.path)
        guard let node = file.node(at: member.range.bytes)?.as(InitializerDeclSyntax.self) else {
          throw Refusal("cannot read this initializer", at: member.location)
        }
        return (member, file, node)
      }
    }
    let isClass = consumer.primary.kind == .class
    let designatedInPrimary = inits.contains { $0.0.range.path == consumer.primary.path && consumer.primary.members.contains($0.0) }
    var requiredNotes: [String] = []
    for (member, file, node) in inits {
      let delegates = InitBodyScanner.delegatesToSelf(node)
      if member.modifiers.contains("required") {
        // Storyboards and other callers that cannot pass arguments keep working with the shared instance.
        guard let body = node.body else { continue }
        insertStatements(singletonAssignments, atStartOf: body, in: file)
        requiredNotes.append("\(member.location.path):\(member.location.line): required init\(member.isFailable ? "?" : "")(\(member.labels.map { "\($0):" }.joined())) takes '\(accessExpression)'")
        continue
      }
      insertParameters(parameters, into: node.signature.parameterClause, in: file)
      if let override = node.modifiers.first(where: { $0.name.tokenKind == .keyword(.override) }) {
        output.add(TextEdit(range: override.positionAfterSkippingLeadingTrivia.utf8Offset..<override.endPosition.utf8Offset, replacement: ""), in: file.path)
      }
      guard let body = node.body else { continue }
      if member.modifiers.contains("convenience") || delegates {
        // Forwarded to the init it delegates to.
        continue
      }
      insertStatements(assignments, atStartOf: body, in: file)
    }
    if !designatedInPrimary {
      var lines: [String] = []
      let inner = memberIndent + unit
      if consumer.primary.kind == .struct {
        let (memberwise, body) = try memberwiseParameters(consumer)
        lines.append("\(memberIndent)init(\((parameters + memberwise).joined(separator: ", "))) {")
        lines += (assignments + body).map { inner + $0 }
        lines.append("\(memberIndent)}")
      } else {
        let superCall = isClass ? try superInitCall(consumer) : nil
        lines.append("\(memberIndent)init(\(parameters.joined(separator: ", "))) {")
        lines += assignments.map { inner + $0 }
        if let superCall { lines.append(inner + superCall) }
        lines.append("\(memberIndent)}")
        if isClass, needsCoderInit(consumer), !inits.contains(where: { $0.0.labels == ["coder"] }) {
          lines.append("")
          lines.append("\(memberIndent)required init?(coder: NSCoder) {")
          lines += singletonAssignments.map { inner + $0 }
          lines.append(inner + "super.init(coder: coder)")
          lines.append("\(memberIndent)}")
          requiredNotes.append("\(consumer.primary.location.path):\(consumer.primary.location.line): required init?(coder:) takes '\(accessExpression)'")
        }
      }
      if !inserted.isEmpty { inserted.append("") }
      inserted += lines
    }
    if !inserted.isEmpty {
      let open = consumer.primary.bodyOpen
      let nextLine = source.lineEnd(of: open)
      let blankFollows = nextLine < source.bytes.count && source.isBlank(nextLine..<source.lineEnd(of: nextLine))
      let closesRightAway = source.isBlank(open..<consumer.primary.bodyClose)
      var text = lineEnding + inserted.map { $0.isEmpty ? "" : $0 }.joined(separator: lineEnding)
      if !blankFollows && !closesRightAway { text += lineEnding }
      if closesRightAway { text += lineEnding }
      output.add(.insert(text, at: open), in: consumer.primary.path)
    }
    output.notes.append(contentsOf: requiredNotes.map { "  " + $0 })
  }

  func checkDefaultArgumentIsolation(_ consumer: Consumer) throws {
    guard options.defaultArgument, let actor = index.declarations(of: singleton.typeName).first(where: { !$0.isExtension })?.attributes.first(where: isGlobalActorAttribute) else { return }
    if isolation(of: consumer.typeName) != actor {
      throw Refusal(
        "cannot use '\(accessExpression)' as a default argument of '\(consumer.typeName)'s init: '\(singleton.typeName)' is \(actor)-isolated and the init is not, so Swift rejects the default value (SE-0411); mark '\(consumer.typeName)' \(actor) or inject without --default-argument",
        at: consumer.primary.location)
    }
  }

  /// The global actor a type is isolated to, by its own attribute or its superclass's; UIKit's views and controllers are `@MainActor`.
  func isolation(of typeName: String) -> String? {
    var current = typeName
    var seen: Set<String> = []
    while seen.insert(current).inserted {
      let declarations = index.declarations(of: current)
      if let actor = declarations.first(where: { !$0.isExtension })?.attributes.first(where: isGlobalActorAttribute) { return actor }
      guard let parent = declarations.first(where: { !$0.isExtension })?.inherited.first else { return nil }
      if !index.declarations(of: index.resolveType(parent)).contains(where: { !$0.isExtension }) {
        return parent.hasPrefix("UI") ? "@MainActor" : nil
      }
      current = index.resolveType(parent)
    }
    return nil
  }

  /// The superclass, if the first inherited type is a class.
  func superclass(of consumer: Consumer) -> String? {
    guard let first = consumer.primary.inherited.first else { return nil }
    let resolved = index.resolveType(first)
    let declarations = index.declarations(of: resolved)
    if let declaration = declarations.first(where: { !$0.isExtension }) { return declaration.kind == .class ? resolved : nil }
    let protocolSuffixes = ["Delegate", "DataSource", "Protocol", "ing", "able", "ible", "Type", "Representable", "Convertible"]
    if (first.hasPrefix("UI") || first.hasPrefix("NS")) && !protocolSuffixes.contains(where: { first.hasSuffix($0) }) { return first }
    return nil
  }

  func superInitCall(_ consumer: Consumer) throws -> String? {
    guard let parent = superclass(of: consumer) else { return nil }
    var current = parent
    var seen: Set<String> = []
    while seen.insert(current).inserted {
      let declarations = index.declarations(of: current)
      guard let primary = declarations.first(where: { !$0.isExtension }) else {
        if current.hasSuffix("ViewController") || current == "UINavigationController" { return "super.init(nibName: nil, bundle: nil)" }
        if current.hasPrefix("UI") { return "super.init(frame: .zero)" }
        return "super.init()"
      }
      let inits = declarations.flatMap(\.members).filter { $0.kind == .initializer && !$0.modifiers.contains("convenience") }
      if inits.isEmpty, let next = primary.inherited.first {
        current = index.resolveType(next)
        continue
      }
      if inits.isEmpty || inits.contains(where: { $0.labels.isEmpty }) { return "super.init()" }
      if inits.contains(where: { $0.labels == ["nibName", "bundle"] }) { return "super.init(nibName: nil, bundle: nil)" }
      if inits.contains(where: { $0.labels == ["frame"] }) { return "super.init(frame: .zero)" }
      throw Refusal(
        "'\(consumer.typeName)' has no init and its superclass '\(parent)' has no init without arguments; add an init to '\(consumer.typeName)' first",
        at: consumer.primary.location)
    }
    return "super.init()"
  }

  func needsCoderInit(_ consumer: Consumer) -> Bool {
    var current = superclass(of: consumer)
    var seen: Set<String> = []
    while let name = current, seen.insert(name).inserted {
      let declarations = index.declarations(of: name)
      guard let primary = declarations.first(where: { !$0.isExtension }) else { return name.hasPrefix("UI") }
      if declarations.flatMap(\.members).contains(where: { $0.kind == .initializer && $0.modifiers.contains("required") && $0.labels == ["coder"] }) {
        return true
      }
      current = primary.inherited.first.map(index.resolveType)
    }
    return false
  }

  /// The parameters and assignments of a struct's memberwise init, written out.
  func memberwiseParameters(_ consumer: Consumer) throws -> ([String], [String]) {
    var parameters: [String] = []
    var assignments: [String] = []
    let file = try project.file(consumer.primary.path)
    for member in consumer.primary.members where member.kind == .property && member.isStored && !member.isStatic {
      guard let node = file.node(at: member.range.bytes)?.as(VariableDeclSyntax.self),
        let binding = node.bindings.first(where: { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == member.name })
      else { continue }
      // A `let` with an initial value is not a memberwise parameter.
      if member.isLet && binding.initializer != nil { continue }
      var type = binding.typeAnnotation?.type.trimmedDescription ?? member.typeText
      if type == nil, let value = binding.initializer?.value {
        type = RequirementBuilder(typeName: consumer.typeName, nestedTypeNames: [], isValueType: true, index: index).inferType(of: value)
      }
      guard let type else {
        throw Refusal("cannot infer the type of '\(member.name)' to write '\(consumer.typeName)'s memberwise init; add a type annotation", at: member.location)
      }
      var parameter = "\(member.name): \(type)"
      if let value = binding.initializer?.value { parameter += " = \(value.trimmedDescription)" }
      else if type.hasSuffix("?") && !member.isLet { parameter += " = nil" }
      if type.contains("->") && !type.hasPrefix("(") == false && !type.hasSuffix("?") { parameter = "\(member.name): @escaping \(type)" }
      parameters.append(parameter)
      assignments.append("self.\(member.name) = \(member.name)")
    }
    return (parameters, assignments)
  }

  mutating func insertParameters(_ parameters: [String], into clause: FunctionParameterClauseSyntax, in file: ParsedFile) {
    let open = clause.leftParen.endPositionBeforeTrailingTrivia.utf8Offset
    guard let first = clause.parameters.first else {
      output.add(.insert(parameters.joined(separator: ", "), at: open), in: file.path)
      return
    }
    let firstStart = first.positionAfterSkippingLeadingTrivia.utf8Offset
    let multiline = file.source.lineStart(of: firstStart) != file.source.lineStart(of: open)
    if multiline {
      let indent = file.source.indentation(at: firstStart)
      let text = parameters.map { $0 + "," + file.source.lineEnding + indent }.joined()
      output.add(.insert(text, at: firstStart), in: file.path)
    } else {
      output.add(.insert(parameters.joined(separator: ", ") + ", ", at: firstStart), in: file.path)
    }
  }

  mutating func insertStatements(_ statements: [String], atStartOf body: CodeBlockSyntax, in file: ParsedFile) {
    guard !statements.isEmpty else { return }
    let source = file.source
    let open = body.leftBrace.endPositionBeforeTrailingTrivia.utf8Offset
    let close = body.rightBrace.positionAfterSkippingLeadingTrivia.utf8Offset
    let unit = source.indentUnit
    if let first = body.statements.first {
      let start = first.positionAfterSkippingLeadingTrivia.utf8Offset
      if source.lineStart(of: start) != source.lineStart(of: open) {
        let indent = source.indentation(at: start)
        output.add(.insert(statements.map { $0 + source.lineEnding + indent }.joined(), at: start), in: file.path)
      } else {
        let indent = source.indentation(at: open) + unit
        let text = statements.map { source.lineEnding + indent + $0 }.joined() + source.lineEnding + indent
        output.add(TextEdit(range: open..<start, replacement: text), in: file.path)
      }
    } else {
      let indent = source.indentation(at: open) + unit
      let closeIndent = source.indentation(at: open)
      let text = statements.map { source.lineEnding + indent + $0 }.joined() + source.lineEnding + closeIndent
      output.add(TextEdit(range: open..<close, replacement: text), in: file.path)
    }
  }

  // MARK: Call sites

  mutating func rewriteCalls(_ calls: [InitCall]) throws {
    var problems: [Diagnostic] = []
    var updated: [String: [String]] = [:]
    for call in calls {
      guard let consumer = consumers[call.typeName], !consumer.protocols.isEmpty else { continue }
      let file = try project.file(call.path)
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
      if reached == nil && extraArguments.isEmpty {
        let memberwise = consumer.primary.kind == .struct && !designatedInPrimary
        if !(designatedInPrimary == false && (call.labels.isEmpty || memberwise)) {
          let location = file.source.location(ofOffset: call.call.positionAfterSkippingLeadingTrivia.utf8Offset)
          problems.append(.error("this call of an init of '\(call.typeName)' cannot be matched to one of its inits; update it by hand or give '\(call.typeName)' an init first", at: location))
          continue
        }
      }
      // Inside the consumer's own inits, `self.init(...)` forwards the parameters.
      let creator = call.context.typeName.map(index.resolveType)
      let arguments = consumer.protocols.map { protocolName -> String in
        let label = consumer.names[protocolName] ?? lowerCamel(protocolName)
        return "\(label): \(value(for: protocolName, at: call, creator: creator, label: label))"
      }
      insertArguments(arguments + extraArguments, into: call.call, in: file)
      for protocolName in consumer.protocols {
        let label = consumer.names[protocolName] ?? lowerCamel(protocolName)
        let passed = value(for: protocolName, at: call, creator: creator, label: label)
        if passed != accessExpression { capture(passed, at: Syntax(call.call), in: call.path) }
      }
      let location = file.source.location(ofOffset: call.call.positionAfterSkippingLeadingTrivia.utf8Offset)
      updated[call.typeName, default: []].append("\(location.path):\(location.line)")
    }
    if !problems.isEmpty { throw Refusal(problems) }
    for (type, places) in updated.sorted(by: { $0.key < $1.key }) {
      output.notes.append("  \(type): \(places.count) call site\(places.count == 1 ? "" : "s") updated (\(places.joined(separator: ", ")))")
    }
  }

  /// What a creator passes: its own property or parameter when it holds the protocol, the shared instance otherwise.
  func value(for protocolName: String, at call: InitCall, creator: String?, label: String) -> String {
    guard !call.context.isStatic, let creator else { return accessExpression }
    // A stored property's initial value cannot read the creator's own properties.
    if isInStoredPropertyInitializer(call, of: creator) { return accessExpression }
    if call.typeName == creator, let consumer = consumers[creator], let name = consumer.names[protocolName] {
      return name
    }
    if let holder = consumers[creator], holder.protocols.contains(protocolName), let name = holder.names[protocolName] {
      return name
    }
    if let held = heldProperty(creator, protocolName) { return held }
    return accessExpression
  }

  mutating func insertArguments(_ arguments: [String], into call: FunctionCallExprSyntax, in file: ParsedFile) {
    let text = arguments.joined(separator: ", ")
    guard let leftParen = call.leftParen else {
      output.add(.insert("(\(text))", at: call.calledExpression.endPositionBeforeTrailingTrivia.utf8Offset), in: file.path)
      return
    }
    guard let first = call.arguments.first else {
      output.add(.insert(text, at: leftParen.endPositionBeforeTrailingTrivia.utf8Offset), in: file.path)
      return
    }
    let start = first.positionAfterSkippingLeadingTrivia.utf8Offset
    if file.source.lineStart(of: start) != file.source.lineStart(of: leftParen.positionAfterSkippingLeadingTrivia.utf8Offset) {
      let indent = file.source.indentation(at: start)
      output.add(.insert(arguments.map { $0 + "," + file.source.lineEnding + indent }.joined(), at: start), in: file.path)
    } else {
      output.add(.insert(text + ", ", at: start), in: file.path)
    }
  }
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
  /// Whether an init delegates to another init of its own type (`self.init(...)`).
  static func delegatesToSelf(_ node: InitializerDeclSyntax) -> Bool {
    guard let body = node.body else { return false }
    return body.statements.contains { item in
      item.description.contains("self.init(")
    }
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
