import DesingletonCore
import DesingletonIndex
import SwiftSyntax

/// Writes an `InjectDesign` as text edits: each consumer's references and inits, then the creation
/// sites, then the capture lists of the closures that now use an injected property. Every decision
/// (which protocols, names, inits, arguments) is in the design; this only places text. The writer
/// keeps nothing: each function adds its edits to the `InjectEdits` it is handed.
struct InjectWriter {
  let design: InjectDesign
  let project: Project

  var options: InjectOptions { design.options }
  var accessExpression: String { design.singleton.accessExpression }

  /// The design's edits, with the summary's notes.
  static func write(_ design: InjectDesign, project: Project) throws -> Plan {
    try InjectWriter(design: design, project: project).edits().plan
  }

  /// Stored initial values that move into inits, each consumer's references and inits, call sites,
  /// factories, configuration sites, imports, environment keys, then the capture lists.
  func edits() throws -> InjectEdits {
    var edits = InjectEdits()
    let moves = try moveInitialValues(to: &edits)
    for consumer in design.consumers where !consumer.protocols.isEmpty {
      try rewriteReferences(consumer, to: &edits)
      try rewriteInits(consumer, moved: moves.statements[consumer.typeName] ?? [], to: &edits)
    }
    try writeCallSites(skipping: moves.sites, to: &edits)
    try writeFactories(to: &edits)
    try writeConfigurations(to: &edits)
    try writeImports(to: &edits)
    try writeEnvironmentKeys(to: &edits)
    for (path, edit) in edits.captures.edits() { edits.plan.add(edit, in: path) }
    edits.plan.notes += design.summary()
    return edits
  }

  // MARK: References

  func rewriteReferences(_ consumer: Consumer, to edits: inout InjectEdits) throws {
    let typeName = consumer.typeName
    for definition in consumer.dissolvedAliases {
      guard case .alias(let aliasName) = definition.use else { continue }
      let file = try project.file(definition.range.path)
      guard let node = file.expression(at: definition.range.bytes),
        let variable = node.parent?.parent?.parent?.parent?.as(VariableDeclSyntax.self), variable.bindings.count == 1
      else {
        throw Refusal("cannot remove alias '\(aliasName)'", at: definition.location)
      }
      edits.plan.add(TextEdit(range: file.source.removalRange(of: variable), replacement: ""), in: file.path)
      for use in consumer.references where use.alias == aliasName && use.range.path == definition.range.path
        && use.context.memberName == definition.context.memberName
      {
        guard let protocolName = consumer.referenceProtocol[use.range], let name = consumer.names[protocolName] else { continue }
        edits.plan.add(TextEdit(range: use.range.bytes, replacement: name), in: file.path)
        if let useNode = file.expression(at: use.range.bytes) { capture(name, at: Syntax(useNode), in: file.path, to: &edits) }
      }
    }
    for reference in consumer.references where reference.alias == nil && !consumer.dissolvedAliases.contains(reference) {
      // A held parameter's default: its init is rewritten with the others.
      if case .held = reference.use { continue }
      guard let protocolName = consumer.referenceProtocol[reference.range], let name = consumer.names[protocolName] else { continue }
      let file = try project.file(reference.range.path)
      if case .alias(let aliasName) = reference.use, consumer.aliasProperties[protocolName] == reference {
        // `let session = X.shared` becomes `let session: P`.
        guard let node = file.expression(at: reference.range.bytes),
          let binding = node.parent?.parent?.as(PatternBindingSyntax.self)
        else { continue }
        edits.plan.add(TextEdit(range: binding.trimmedByteRange, replacement: "\(aliasName): \(protocolName)"), in: file.path)
        // A lazy property needs its initial value: assigned in the init instead, it is a plain one.
        if let variable = binding.parent?.parent?.as(VariableDeclSyntax.self),
          let lazy = variable.modifiers.first(where: { $0.name.tokenKind == .keyword(.lazy) })
        {
          edits.plan.add(TextEdit(range: lazy.positionAfterSkippingLeadingTrivia.utf8Offset..<lazy.endPosition.utf8Offset, replacement: ""), in: file.path)
        }
        continue
      }
      edits.plan.add(TextEdit(range: reference.range.bytes, replacement: name), in: file.path)
      if let node = file.expression(at: reference.range.bytes) { capture(name, at: Syntax(node), in: file.path, to: &edits) }
    }
    var note = "\(typeName): " + consumer.slots.map { "\($0.name): \($0.type)" }.joined(separator: ", ")
    if consumer.readsEnvironment { note += " from the environment" }
    if consumer.setAfterCreation {
      note += ", lazy properties set after creation ('\(design.singleton.typeName)' needs it while it is made; 'finish' with both singletons sets them)"
    }
    note += "; \(consumer.references.count) reference\(consumer.references.count == 1 ? "" : "s") rewritten"
    edits.plan.notes.append(Note(.changed, note))
    for reference in consumer.staticReferences {
      edits.plan.notes.append(
        Note(
          .kept, "left alone: static context '\(reference.context.memberName ?? "")' cannot hold injected values",
          at: Note.Place(line: reference.location), depth: 1))
    }
  }

  /// Records that `name` is used at `node`: every closure between it and its member captures it,
  /// so no closure gains a strong capture of `self`.
  func capture(_ name: String, at node: Syntax, in path: String, to edits: inout InjectEdits) {
    // In a struct or an enum a closure holds a copy of the value, never a strong `self`: no capture
    // is needed, and a view builder's closures stay as they are.
    if isInValueType(node) { return }
    edits.captures.capture(name, at: node, in: path)
  }

  /// Whether the nearest type around a node is a struct or an enum (directly or through an extension).
  func isInValueType(_ node: Syntax) -> Bool {
    var current = node.parent
    while let syntax = current {
      if syntax.is(StructDeclSyntax.self) || syntax.is(EnumDeclSyntax.self) { return true }
      if syntax.is(ClassDeclSyntax.self) || syntax.is(ActorDeclSyntax.self) || syntax.is(ProtocolDeclSyntax.self) { return false }
      if let extensionDecl = syntax.as(ExtensionDeclSyntax.self) {
        let kind = project.index.primaryDeclaration(of: project.index.resolveType(extensionDecl.extendedType.trimmedDescription))?.kind
        return kind == .struct || kind == .enum
      }
      current = syntax.parent
    }
    return false
  }

  // MARK: Inits

  /// Creations in stored properties' initial values that pass the creator's own properties: the
  /// value, with its new arguments, becomes `self.name = value` in the creator's inits, and the
  /// declaration keeps only its type. Returns the statements per creator and the sites written here.
  func moveInitialValues(to edits: inout InjectEdits) throws -> (statements: [String: [String]], sites: Set<FilePlace>) {
    var byBinding: [FilePlace: (creator: String, moved: MovedInitialValue, sites: [CallSite])] = [:]
    for site in design.callSites where !site.captured.isEmpty {
      guard let creator = site.call.context.typeName.map(project.index.resolveType),
        let holder = design.consumer(creator), !holder.protocols.isEmpty, !holder.propertyInjected,
        let moved = MovedInitialValue(around: Syntax(site.call.call))
      else { continue }
      let key = FilePlace(path: site.call.path, offset: moved.binding.positionAfterSkippingLeadingTrivia.utf8Offset)
      byBinding[key, default: (creator, moved, [])].sites.append(site)
    }
    var statements: [String: [String]] = [:]
    var sites: Set<FilePlace> = []
    for key in byBinding.keys.sorted() {
      guard let (creator, moved, group) = byBinding[key], let initializer = moved.binding.initializer else { continue }
      let path = group[0].call.path
      let file = try project.file(path)
      let value = initializer.value
      let start = value.positionAfterSkippingLeadingTrivia.utf8Offset
      let end = value.endPositionBeforeTrailingTrivia.utf8Offset
      var text = Array(file.source.bytes[start..<end])
      let argumentEdits = group.flatMap { site in
        (site.arguments.isEmpty ? [] : [argumentEdit(site.arguments, into: site.call.call, in: file)])
          + site.insertions.map { TextEdit.insert($0.text, at: $0.offset) }
      }.sorted { $0.range.lowerBound > $1.range.lowerBound }
      for edit in argumentEdits {
        text.replaceSubrange((edit.range.lowerBound - start)..<(edit.range.upperBound - start), with: Array(edit.replacement.utf8))
      }
      statements[creator, default: []].append(moved.assignment(String(decoding: text, as: UTF8.self), index: project.index))
      let declarationEnd = initializer.endPositionBeforeTrailingTrivia.utf8Offset
      if let annotation = moved.binding.typeAnnotation {
        edits.plan.add(TextEdit(range: annotation.endPositionBeforeTrailingTrivia.utf8Offset..<declarationEnd, replacement: ""), in: path)
      } else if let type = moved.inferredType(project.index) {
        edits.plan.add(TextEdit(range: moved.binding.pattern.endPositionBeforeTrailingTrivia.utf8Offset..<declarationEnd, replacement: ": \(type)"), in: path)
      }
      for site in group { sites.insert(FilePlace(path: path, offset: site.call.call.positionAfterSkippingLeadingTrivia.utf8Offset)) }
      let location = file.source.location(ofOffset: key.offset)
      edits.plan.notes.append(
        Note(
          .moved, "'\(moved.name)' is now assigned in the inits of '\(creator)', where its value can use the injected properties",
          at: Note.Place(line: location), depth: 1))
    }
    return (statements, sites)
  }

  func rewriteInits(_ consumer: Consumer, moved: [String] = [], to edits: inout InjectEdits) throws {
    let source = try project.file(consumer.primary.path).source
    let unit = source.indentUnit
    let memberIndent = consumer.primary.members.first.map { source.indentation(at: $0.range.bytes.lowerBound) }
      ?? source.indentation(at: consumer.primary.range.bytes.lowerBound) + unit
    var inserted = newPropertyLines(consumer, indent: memberIndent)
    let texts = InitTexts(
      parameters: consumer.slots.map { slot -> String in
        "\(slot.name): \(slot.type)" + (options.defaultArgument ? " = \(accessExpression)" : "")
      },
      assignments: consumer.slots.map { "self.\($0.name) = \($0.name)" } + moved,
      // A held property is set by the inits that set it already.
      singletonAssignments: consumer.slots.filter { consumer.heldParameters[$0.protocols[0]] == nil }
        .map { "self.\($0.name) = \(accessExpression)" } + moved)
    var requiredNotes: [Note] = []
    try rewriteDeclaredInits(consumer, texts, moved: moved, notes: &requiredNotes, to: &edits)
    if let generated = consumer.generatedInit {
      let lines = generatedInitLines(generated, of: consumer, texts, indent: memberIndent, unit: unit, notes: &requiredNotes)
      if !inserted.isEmpty { inserted.append("") }
      inserted += lines
    }
    insertMembers(inserted, into: consumer.primary, source: source, to: &edits)
    edits.plan.notes.append(contentsOf: requiredNotes)
  }

  /// What an init of a consumer gains: its parameters, the assignments from them, and the assignments
  /// from the accessor in the inits callers cannot pass arguments to.
  struct InitTexts {
    var parameters: [String]
    var assignments: [String]
    var singletonAssignments: [String]
  }

  /// The consumer's own inits take the parameters (or, `required` ones, the accessor); the held init
  /// is retyped; convenience and delegating inits forward to the one they call.
  func rewriteDeclaredInits(_ consumer: Consumer, _ texts: InitTexts, moved: [String], notes requiredNotes: inout [Note], to edits: inout InjectEdits) throws {
    let (parameters, assignments, singletonAssignments) = (texts.parameters, texts.assignments, texts.singletonAssignments)
    let heldInit = try heldInit(of: consumer)
    for declaration in consumer.declarations where !consumer.propertyInjected && !consumer.readsEnvironment {
      for member in declaration.members where member.kind == .initializer {
        let file = try project.file(member.range.path)
        // The design checked that every init can be read.
        guard let node = file.node(at: member.range.bytes)?.as(InitializerDeclSyntax.self) else { continue }
        if project.requiredInitKeepsItsSignature(member, of: consumer.typeName) {
          // Callers that cannot pass arguments get the shared instance; an init that stops needs none.
          guard let body = node.body, !InitBodyScanner.stopsBeforeSelf(body) else { continue }
          insertStatements(singletonAssignments, atStartOf: body, in: file, to: &edits)
          // One a protocol declares (`protocol Page { init() }`) is not written `required` in a
          // final class or a value type.
          let kind = node.modifiers.contains { $0.name.tokenKind == .keyword(.required) } ? "required init" : "init"
          requiredNotes.append(
            Note(
              .kept, "\(kind)\(member.isFailable ? "?" : "")(\(member.labels.map { "\($0):" }.joined())) takes '\(accessExpression)'",
              at: Note.Place(line: member.location), depth: 1))
          continue
        }
        if let heldInit, heldInit.id == node.id {
          try rewriteHeldInit(consumer, node, in: file, moved: moved, to: &edits)
          continue
        }
        insertParameters(parameters, into: node.signature.parameterClause, in: file, to: &edits)
        if let override = node.modifiers.first(where: { $0.name.tokenKind == .keyword(.override) }) {
          edits.plan.add(TextEdit(range: override.positionAfterSkippingLeadingTrivia.utf8Offset..<override.endPosition.utf8Offset, replacement: ""), in: file.path)
        }
        guard let body = node.body else { continue }
        if member.modifiers.contains("convenience") || InitBodyScanner.delegatesToSelf(node) {
          // Forwarded to the init it delegates to.
          continue
        }
        insertStatements(assignments, atStartOf: body, in: file, to: &edits)
      }
    }
  }

  /// The declarations of the properties the consumer gains, one per slot it does not hold already.
  func newPropertyLines(_ consumer: Consumer, indent memberIndent: String) -> [String] {
    let newSlots = consumer.slots.filter { consumer.aliasProperties[$0.protocols[0]] == nil && consumer.heldParameters[$0.protocols[0]] == nil }
    return newSlots.flatMap { slot -> [String] in
      let protocolName = slot.type
      // The singleton needs this consumer while it is made: the property reads the accessor at its
      // first use, after both exist, and whoever makes both sets it instead.
      if consumer.setAfterCreation {
        return [
          memberIndent + MadeTogether.setAfterCreationComment(needing: design.singleton.typeName, owner: consumer.primary.name),
          "\(memberIndent)lazy var \(slot.name): \(protocolName) = \(accessExpression)",
        ]
      }
      // A view that reads the environment: SwiftUI sets the property before it asks for the body.
      if consumer.readsEnvironment {
        return ["\(memberIndent)@Environment(\\.\(lowerCamel(protocolName))) private var \(slot.name): (any \(protocolName))!"]
      }
      // A type the system creates is configured after it is made: the property is set from outside.
      return consumer.propertyInjected
        ? ["\(memberIndent)\(consumer.propertyAccess.written)var \(slot.name): \(protocolName)!"]
        : ["\(memberIndent)\(consumer.propertyAccess.written)let \(slot.name): \(protocolName)"]
    }
  }

  /// Lines put first in a type's body, a blank line after them unless one follows or the body is empty.
  func insertMembers(_ inserted: [String], into primary: TypeDecl, source: SourceText, to edits: inout InjectEdits) {
    let lineEnding = source.lineEnding
    if !inserted.isEmpty {
      let open = primary.bodyOpen
      let nextLine = source.lineEnd(of: open)
      let blankFollows = nextLine < source.bytes.count && source.isBlank(nextLine..<source.lineEnd(of: nextLine))
      let closesRightAway = source.isBlank(open..<primary.bodyClose)
      var text = lineEnding + inserted.map { $0.isEmpty ? "" : $0 }.joined(separator: lineEnding)
      if !blankFollows && !closesRightAway { text += lineEnding }
      if closesRightAway { text += lineEnding }
      edits.plan.add(.insert(text, at: open), in: primary.path)
    }
  }

  /// The init that takes a held parameter, if the consumer has one.
  func heldInit(of consumer: Consumer) throws -> InitializerDeclSyntax? {
    guard let definition = consumer.heldParameters.values.first,
      let node = try project.file(definition.range.path).expression(at: definition.range.bytes)
    else { return nil }
    var current = Syntax(node).parent
    while let syntax = current, !syntax.is(MemberBlockItemSyntax.self) {
      if let found = syntax.as(InitializerDeclSyntax.self) { return found }
      current = syntax.parent
    }
    return nil
  }

  /// The init that takes the instance: the held parameters take their protocols' types, and only
  /// the other protocols are new.
  func rewriteHeldInit(_ consumer: Consumer, _ node: InitializerDeclSyntax, in file: ParsedFile, moved: [String], to edits: inout InjectEdits) throws {
    try retypeHeld(consumer, in: node, file: file, to: &edits)
    let unheld = consumer.slots.filter { consumer.heldParameters[$0.protocols[0]] == nil }
    let added = unheld.map { "\($0.name): \($0.type)" + (options.defaultArgument ? " = \(accessExpression)" : "") }
    if !added.isEmpty {
      insertParameters(added, into: node.signature.parameterClause, in: file, to: &edits)
      if let override = node.modifiers.first(where: { $0.name.tokenKind == .keyword(.override) }) {
        edits.plan.add(TextEdit(range: override.positionAfterSkippingLeadingTrivia.utf8Offset..<override.endPosition.utf8Offset, replacement: ""), in: file.path)
      }
    }
    if let body = node.body {
      insertStatements(unheld.map { "self.\($0.name) = \($0.name)" } + moved, atStartOf: body, in: file, to: &edits)
    }
  }

  /// `init(store: Store = Store.shared)` and `let store: Store` become `init(store: P)` (with the
  /// default under `--default-argument`) and `let store: P`.
  func retypeHeld(_ consumer: Consumer, in initializer: InitializerDeclSyntax, file: ParsedFile, to edits: inout InjectEdits) throws {
    for slot in consumer.slots {
      guard let definition = consumer.heldParameters[slot.protocols[0]] else { continue }
      guard case .held(let property) = definition.use,
        let parameter = initializer.signature.parameterClause.parameters.first(where: { parameter in
          parameter.defaultValue.map { $0.value.trimmedByteRange.contains(definition.range.bytes.lowerBound) } ?? false
        }), let defaultValue = parameter.defaultValue
      else { throw Refusal("cannot find the parameter that takes '\(accessExpression)'", at: definition.location) }
      let start = parameter.type.positionAfterSkippingLeadingTrivia.utf8Offset
      let end = options.defaultArgument ? parameter.type.endPositionBeforeTrailingTrivia.utf8Offset : defaultValue.endPositionBeforeTrailingTrivia.utf8Offset
      edits.plan.add(TextEdit(range: start..<end, replacement: slot.type), in: file.path)
      let stored = consumer.primary.members.first { $0.kind == .property && $0.name == property && $0.isStored && !$0.isStatic }
      guard let stored, let variable = try project.file(stored.range.path).node(at: stored.range.bytes)?.as(VariableDeclSyntax.self),
        let type = variable.bindings.first?.typeAnnotation?.type
      else { throw Refusal("cannot find the stored property '\(property)'", at: definition.location) }
      if type.trimmedDescription != slot.type {
        edits.plan.add(TextEdit(range: type.trimmedByteRange, replacement: slot.type), in: stored.range.path)
      }
    }
  }

  func insertParameters(_ parameters: [String], into clause: FunctionParameterClauseSyntax, in file: ParsedFile, to edits: inout InjectEdits) {
    let open = clause.leftParen.endPositionBeforeTrailingTrivia.utf8Offset
    guard let first = clause.parameters.first else {
      edits.plan.add(.insert(parameters.joined(separator: ", "), at: open), in: file.path)
      return
    }
    let firstStart = first.positionAfterSkippingLeadingTrivia.utf8Offset
    let multiline = file.source.lineStart(of: firstStart) != file.source.lineStart(of: open)
    if multiline {
      let indent = file.source.indentation(at: firstStart)
      let text = parameters.map { $0 + "," + file.source.lineEnding + indent }.joined()
      edits.plan.add(.insert(text, at: firstStart), in: file.path)
    } else {
      edits.plan.add(.insert(parameters.joined(separator: ", ") + ", ", at: firstStart), in: file.path)
    }
  }

  func insertStatements(_ statements: [String], atStartOf body: CodeBlockSyntax, in file: ParsedFile, to edits: inout InjectEdits) {
    guard !statements.isEmpty else { return }
    let source = file.source
    let open = body.leftBrace.endPositionBeforeTrailingTrivia.utf8Offset
    let close = body.rightBrace.positionAfterSkippingLeadingTrivia.utf8Offset
    let unit = source.indentUnit
    if let first = body.statements.first {
      let start = first.positionAfterSkippingLeadingTrivia.utf8Offset
      if source.lineStart(of: start) != source.lineStart(of: open) {
        let indent = source.indentation(at: start)
        edits.plan.add(.insert(statements.map { $0 + source.lineEnding + indent }.joined(), at: start), in: file.path)
      } else {
        let indent = source.indentation(at: open) + unit
        let text = statements.map { source.lineEnding + indent + $0 }.joined() + source.lineEnding + indent
        edits.plan.add(TextEdit(range: open..<start, replacement: text), in: file.path)
      }
    } else {
      let indent = source.indentation(at: open) + unit
      let closeIndent = source.indentation(at: open)
      let text = statements.map { source.lineEnding + indent + $0 }.joined() + source.lineEnding + closeIndent
      edits.plan.add(TextEdit(range: open..<close, replacement: text), in: file.path)
    }
  }

  // MARK: Configuration sites

  /// `cell.counting = value` right after the statement that binds the instance the system made.
  func writeConfigurations(to edits: inout InjectEdits) throws {
    var updated: [String: [String]] = [:]
    for site in design.configurations where !site.assignments.isEmpty {
      let file = try project.file(site.path)
      let source = file.source
      let start = site.statement.positionAfterSkippingLeadingTrivia.utf8Offset
      let end = site.statement.endPositionBeforeTrailingTrivia.utf8Offset
      let indent = source.indentation(at: start)
      let text = site.assignments.map { source.lineEnding + indent + $0 }.joined()
      edits.plan.add(.insert(text, at: end), in: site.path)
      for passed in site.captured { capture(passed, at: site.statement, in: site.path, to: &edits) }
      let location = source.location(ofOffset: start)
      updated[site.typeName, default: []].append("\(location.path):\(location.line)")
    }
    for (type, places) in updated.sorted(by: { $0.key < $1.key }) {
      edits.plan.notes.append(Note(.changed, "\(type): set where it is configured (\(places.joined(separator: ", ")))", depth: 1))
    }
  }

  // MARK: Imports

  /// `import Module` after a file's last top-level import, or before its first statement.
  func writeImports(to edits: inout InjectEdits) throws {
    for (path, module) in design.imports.sorted(by: { $0.key < $1.key }) {
      let file = try project.file(path)
      let source = file.source
      let statements = file.tree.statements
      // A file that spells its imports' access (`internal import Foo`) gets the same spelling: the
      // singleton's module is named in bodies only, so `internal` suffices.
      let spellsAccess = statements.contains { item in
        item.item.as(ImportDeclSyntax.self)?.modifiers.contains { AccessLevel(keyword: $0.name.text) != nil } ?? false
      }
      let line = (spellsAccess ? "internal " : "") + "import \(module)"
      if let last = statements.last(where: { $0.item.is(ImportDeclSyntax.self) }) {
        let end = last.endPositionBeforeTrailingTrivia.utf8Offset
        edits.plan.add(.insert(source.lineEnding + line, at: end), in: path)
      } else if let first = statements.first {
        let start = first.positionAfterSkippingLeadingTrivia.utf8Offset
        edits.plan.add(.insert(line + source.lineEnding + source.lineEnding, at: start), in: path)
      }
      edits.plan.notes.append(Note(.changed, "imports '\(module)', whose '\(design.singleton.typeName)' it now names", at: Note.Place(path: path), depth: 1))
    }
  }

  // MARK: Call sites

  func writeCallSites(skipping moved: Set<FilePlace> = [], to edits: inout InjectEdits) throws {
    var updated: [String: [String]] = [:]
    for site in design.callSites {
      let file = try project.file(site.call.path)
      if !site.environment.isEmpty {
        // `.environment(\.key, value)` on the view made here.
        edits.plan.add(.insert(site.environment.joined(), at: site.call.call.endPositionBeforeTrailingTrivia.utf8Offset), in: file.path)
        for passed in site.captured { capture(passed, at: Syntax(site.call.call), in: site.call.path, to: &edits) }
      } else if !moved.contains(FilePlace(path: site.call.path, offset: site.call.call.positionAfterSkippingLeadingTrivia.utf8Offset)) {
        if site.makesLazy, let property = MovedInitialValue(around: Syntax(site.call.call)) {
          makeLazy(property.variable, in: file, to: &edits)
        }
        if !site.arguments.isEmpty {
          insertArguments(site.arguments, into: site.call.call, in: file, to: &edits)
          dropOverride(ofInitCalling: site.call, in: file, to: &edits)
        }
        for insertion in site.insertions { edits.plan.add(.insert(insertion.text, at: insertion.offset), in: file.path) }
        for passed in site.captured { capture(passed, at: Syntax(site.call.call), in: site.call.path, to: &edits) }
      }
      let location = file.source.location(ofOffset: site.call.call.positionAfterSkippingLeadingTrivia.utf8Offset)
      updated[site.call.typeName, default: []].append("\(location.path):\(location.line)")
    }
    for (type, places) in updated.sorted(by: { $0.key < $1.key }) {
      edits.plan.notes.append(Note(.changed, "\(type): \(places.count) call site\(places.count == 1 ? "" : "s") updated (\(places.joined(separator: ", ")))", depth: 1))
    }
  }

  /// `override init() { super.init() }` in a subclass the plan leaves as it is, calling an init of
  /// an injected superclass that now takes the slices: the init it overrode is gone, so it is an
  /// init of its own. (An injected subclass's own inits lose `override` with their new parameters.)
  func dropOverride(ofInitCalling call: InitCall, in file: ParsedFile, to edits: inout InjectEdits) {
    guard call.isSuperInit,
      let enclosing = sequence(first: Syntax(call.call), next: \.parent).lazy.compactMap({ $0.as(InitializerDeclSyntax.self) }).first,
      let override = enclosing.modifiers.first(where: { $0.name.tokenKind == .keyword(.override) }),
      !enclosing.modifiers.contains(where: { $0.name.tokenKind == .keyword(.required) }),
      let owner = call.context.typeName.map(project.index.resolveType),
      design.consumers.first(where: { $0.typeName == owner })?.protocols.isEmpty ?? true,
      let parent = design.consumers.first(where: { $0.typeName == call.typeName }), !parent.protocols.isEmpty
    else { return }
    // The superclass's init of these labels takes the slices now, or it had none and its implicit
    // `init()` became the generated one.
    let labels = enclosing.signature.parameterClause.parameters.map(\.firstName.text)
    let inits = parent.declarations.flatMap(\.members).filter { $0.kind == .initializer }
    let overridden = inits.first { $0.labels == labels }
    let changed: Bool
    if let overridden { changed = !project.requiredInitKeepsItsSignature(overridden, of: parent.typeName) } else { changed = inits.isEmpty && labels.isEmpty }
    guard changed else { return }
    edits.plan.add(
      TextEdit(range: override.positionAfterSkippingLeadingTrivia.utf8Offset..<override.endPosition.utf8Offset, replacement: ""), in: file.path)
  }

  /// Each factory's new parameters, first in its list, and the arguments its calls pass for them.
  func writeFactories(to edits: inout InjectEdits) throws {
    for factory in design.factories {
      let file = try project.file(factory.path)
      insertParameters(factory.protocols.map { "\(factory.parameterName($0)): \($0)" }, into: factory.declaration.signature.parameterClause, in: file, to: &edits)
      let sites = design.factorySites.filter { $0.factory == factory.key }
      var places: [String] = []
      for site in sites {
        let callFile = try project.file(site.call.path)
        insertArguments(site.arguments, into: site.call.call, in: callFile, to: &edits)
        for passed in site.captured { capture(passed, at: Syntax(site.call.call), in: site.call.path, to: &edits) }
        let location = callFile.source.location(ofOffset: site.call.call.positionAfterSkippingLeadingTrivia.utf8Offset)
        places.append("\(location.path):\(location.line)")
      }
      let taken = factory.protocols.map { "\(factory.parameterName($0)): \($0)" }.joined(separator: ", ")
      edits.plan.notes.append(
        Note(
          .changed,
          "\(factory.title): takes \(taken); \(places.count) call site\(places.count == 1 ? "" : "s") updated\(places.isEmpty ? "" : " (\(places.joined(separator: ", ")))")",
          depth: 1))
    }
  }

  /// `let history = History()` becomes `private(set) lazy var history = History()`: made on first
  /// use, when `self` exists, and still set by nothing outside the type.
  func makeLazy(_ variable: VariableDeclSyntax, in file: ParsedFile, to edits: inout InjectEdits) {
    let specifier = variable.bindingSpecifier
    let range = specifier.positionAfterSkippingLeadingTrivia.utf8Offset..<specifier.endPositionBeforeTrailingTrivia.utf8Offset
    if specifier.tokenKind == .keyword(.var) {
      edits.plan.add(TextEdit(range: range, replacement: "lazy var"), in: file.path)
      return
    }
    let narrow = variable.modifiers.contains {
      [.keyword(.private), .keyword(.fileprivate)].contains($0.name.tokenKind) && $0.detail == nil
    }
    edits.plan.add(TextEdit(range: range, replacement: (narrow ? "" : "private(set) ") + "lazy var"), in: file.path)
  }

  func insertArguments(_ arguments: [String], into call: FunctionCallExprSyntax, in file: ParsedFile, to edits: inout InjectEdits) {
    edits.plan.add(argumentEdit(arguments, into: call, in: file), in: file.path)
  }

  /// The insertion that puts `arguments` first in a call.
  func argumentEdit(_ arguments: [String], into call: FunctionCallExprSyntax, in file: ParsedFile) -> TextEdit {
    let text = arguments.joined(separator: ", ")
    guard let leftParen = call.leftParen else {
      return .insert("(\(text))", at: call.calledExpression.endPositionBeforeTrailingTrivia.utf8Offset)
    }
    guard let first = call.arguments.first else {
      return .insert(text, at: leftParen.endPositionBeforeTrailingTrivia.utf8Offset)
    }
    let start = first.positionAfterSkippingLeadingTrivia.utf8Offset
    if file.source.lineStart(of: start) != file.source.lineStart(of: leftParen.positionAfterSkippingLeadingTrivia.utf8Offset) {
      let indent = file.source.indentation(at: start)
      return .insert(arguments.map { $0 + "," + file.source.lineEnding + indent }.joined(), at: start)
    }
    return .insert(text + ", ", at: start)
  }
}

/// What the writer has written so far: the plan's edits and notes, and the closures that must
/// capture injected properties (their lists are written last, once every use is known).
struct InjectEdits {
  var plan = Plan()
  var captures = CaptureCollector()
}
