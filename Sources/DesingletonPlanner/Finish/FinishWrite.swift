import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftSyntax

extension FinishPlanner {
  /// Step 3: the root owns the instance (or gets it from the container); each test function creates
  /// its own; coder inits fail; the accessor goes and private inits widen.
  static func write(_ design: FinishDesign, project: Project) throws -> (plan: Plan, report: FinishReport) {
    var plan = Plan()
    var report = FinishReport(singleton: design.singleton.typeName, root: design.root, references: design.remaining)
    for item in design.remaining {
      plan.notes.append(Note(.changed, "\(item.kind.rawValue)\(item.typeName.map { " '\($0)'" } ?? "")", at: Note.Place(line: item.reference.location)))
    }
    try writeRoot(design, project: project, plan: &plan)
    let testValues = try writeTests(design, project: project, plan: &plan, report: &report)
    if let container = design.container {
      for (path, edit) in try container.wrapperEdits(value: { testValues[$0] ?? design.creation.expression }, project: project) {
        plan.add(edit, in: path)
      }
      for consumer in container.design.wrapped {
        plan.notes.append(Note(.changed, "'\(consumer.typeName)' reads \(consumer.parameters.map { "'\\.\($0.slice.property)'" }.joined(separator: ", ")) with @Dependency instead of taking \(consumer.parameters.count == 1 ? "it" : "them") in its init"))
      }
      plan.notes += container.design.kept.map { Note(.kept, $0) }
    }
    try writeCoderInits(design, project: project, plan: &plan, report: &report)
    for reference in design.selfUses.sorted(by: { $0.location < $1.location }) {
      plan.add(TextEdit(range: reference.range.bytes, replacement: "self"), in: reference.range.path)
    }
    if design.keepsAccessor {
      let kept = design.singleton.isStrict ? "; '\(design.root)' takes the instance from it, the only way a strict one is made" : ""
      plan.notes.append(
        Note(.kept, "'\(design.singleton.accessExpression)' stays in the Objective-C header, which desingleton does not rewrite\(kept)"))
    } else {
      try writeRemovals(design, project: project, plan: &plan, report: &report)
    }
    if design.keepsAccessor {
      plan.notes.append(Note(.summary, "Swift code no longer reaches for '\(design.singleton.accessExpression)'; '\(design.root)' owns the instance as '\(design.name)'"))
    } else if let container = design.container {
      plan.notes.append(Note(.summary, container.summary(root: design.root)))
    } else {
      plan.notes.append(Note(.summary, "'\(design.singleton.accessExpression)' removed; '\(design.root)' owns the instance as '\(design.name)'"))
    }
    report.instanceName = design.name
    report.initAccess = design.initAccess
    return (plan, report)
  }

  /// The root's property holding the instance, and its uses of the accessor replaced by it; stored
  /// properties whose initial value used the accessor are assigned in the root's inits.
  static func writeRoot(_ design: FinishDesign, project: Project, plan: inout Plan) throws {
    let (rootDecl, name, container, wrapped) = (design.rootDecl, design.name, design.container, design.wrapped)
    let rootFile = try project.file(rootDecl.path)
    let source = rootFile.source
    let rootReferences = design.remaining.filter { $0.kind == .root }
    if let container {
      plan.newFiles[container.design.path] = container.fileText
      if rootReferences.contains(where: { !wrapped.contains($0.reference) }), let edit = container.importEdit(in: rootFile) {
        plan.add(edit, in: rootDecl.path)
      }
    }
    guard rootReferences.contains(where: { !wrapped.contains($0.reference) }) else { return }
    if let owner = design.owner {
      // The property that held the shared instance creates it.
      plan.add(TextEdit(range: owner.range.bytes, replacement: design.creation.expression), in: owner.range.path)
    }
    let memberIndent = rootDecl.members.first.map { source.indentation(at: $0.range.bytes.lowerBound) }
      ?? source.indentation(at: rootDecl.range.bytes.lowerBound) + source.indentUnit
    let declaration = container?.rootProperties.map { memberIndent + $0 }.joined(separator: source.lineEnding)
      ?? "\(memberIndent)\(design.propertyAccess.written)let \(name)\(design.creation.type.map { ": \($0)" } ?? "") = \(design.creation.expression)"
    let open = rootDecl.bodyOpen
    let nextLine = source.lineEnd(of: open)
    let blankFollows = nextLine < source.bytes.count && source.isBlank(nextLine..<source.lineEnd(of: nextLine))
    if design.owner == nil && !design.declaredTogether {
      plan.add(.insert(source.lineEnding + declaration + (blankFollows ? "" : source.lineEnding), at: open), in: rootDecl.path)
    }
    var capturer = CaptureCollector()
    var moved: [MovedProperty] = []
    // What goes through a local or property holding the instance keeps reading it there.
    for item in rootReferences
    where !wrapped.contains(item.reference) && item.reference != design.owner && item.reference.alias == nil {
      let file = try project.file(item.reference.range.path)
      guard let node = file.expression(at: item.reference.range.bytes) else { continue }
      if let property = try storedProperty(around: Syntax(node), item: item, singleton: design.singleton) {
        if let position = moved.firstIndex(where: { $0.binding.id == property.binding.id }) {
          moved[position].references.append(item.reference)
        } else {
          moved.append(MovedProperty(binding: property.binding, name: property.name, references: [item.reference]))
        }
        continue
      }
      let replacement = container?.replacement(for: item.reference) ?? name
      // `let store = store` would read the local being declared.
      if case .alias(let local) = item.reference.use, local == replacement, !item.reference.context.isStatic {
        plan.add(TextEdit(range: item.reference.range.bytes, replacement: "self." + replacement), in: item.reference.range.path)
        continue
      }
      plan.add(TextEdit(range: item.reference.range.bytes, replacement: replacement), in: item.reference.range.path)
      capturer.capture(replacement, at: Syntax(node), in: file.path)
    }
    for edit in capturer.edits() { plan.add(edit.1, in: edit.0) }
    if !moved.isEmpty {
      try assignInInits(
        moved, root: rootDecl, instanceName: name, replacement: { container?.replacementInInit(for: $0) ?? name },
        singleton: design.singleton, project: project, plan: &plan)
    }
  }

  /// Tests create their own instance, one per test function; returns the value each use now has.
  static func writeTests(
    _ design: FinishDesign, project: Project, plan: inout Plan, report: inout FinishReport
  ) throws -> [Reference: String] {
    let (name, creation, wrapped) = (design.name, design.creation, design.wrapped)
    let unit = try project.file(design.rootDecl.path).source.indentUnit
    var testValues: [Reference: String] = [:]
    var localsAdded: Set<String> = []
    /// Each test function's local: named like the root's property unless the function has that name.
    var localNames: [String: String] = [:]
    var testCaptures = CaptureCollector()
    for item in design.remaining where item.kind == .test {
      let file = try project.file(item.reference.range.path)
      guard let node = file.expression(at: item.reference.range.bytes) else { continue }
      guard let body = enclosingFunctionBody(of: Syntax(node)) else {
        testValues[item.reference] = creation.expression
        if wrapped.contains(item.reference) { continue }
        plan.add(TextEdit(range: item.reference.range.bytes, replacement: creation.expression), in: file.path)
        continue
      }
      let key = "\(file.path):\(body.position.utf8Offset)"
      if localsAdded.insert(key).inserted {
        let local = NamesInScope.free(
          name, or: ["shared" + design.singleton.simpleTypeName], taken: NamesInScope.names(in: [Syntax(body)]))
        localNames[key] = local
        let start = body.statements.first?.positionAfterSkippingLeadingTrivia.utf8Offset ?? body.rightBrace.positionAfterSkippingLeadingTrivia.utf8Offset
        let indent = body.statements.first.map { _ in file.source.indentation(at: start) } ?? file.source.indentation(at: body.leftBrace.positionAfterSkippingLeadingTrivia.utf8Offset) + unit
        let declaration = "let \(local)\(creation.type.map { ": \($0)" } ?? "") = \(creation.expression)"
        plan.add(.insert(declaration + file.source.lineEnding + indent, at: start), in: file.path)
      }
      let local = localNames[key] ?? name
      testValues[item.reference] = local
      if wrapped.contains(item.reference) { continue }
      plan.add(TextEdit(range: item.reference.range.bytes, replacement: local), in: file.path)
      testCaptures.capture(local, at: Syntax(node), in: file.path, stopAt: Syntax(body))
    }
    for edit in testCaptures.edits() { plan.add(edit.1, in: edit.0) }
    report.testFunctions = localsAdded.count
    return testValues
  }

  /// With no shared instance left, decoding cannot supply the dependencies: the coder init fails.
  static func writeCoderInits(_ design: FinishDesign, project: Project, plan: inout Plan, report: inout FinishReport) throws {
    var coderInits: Set<String> = []
    for item in design.remaining where item.kind == .coderInit {
      let file = try project.file(item.reference.range.path)
      guard let node = file.expression(at: item.reference.range.bytes),
        let initializer = enclosingInitializer(of: Syntax(node)), let body = initializer.body,
        let first = body.statements.first, let last = body.statements.last,
        coderInits.insert("\(file.path):\(initializer.position.utf8Offset)").inserted
      else { continue }
      let statement = initializer.optionalMark != nil
        ? "return nil"
        : "fatalError(\"init(coder:) is not supported: '\(item.typeName ?? "")' receives its dependencies through its init\")"
      let range = first.positionAfterSkippingLeadingTrivia.utf8Offset..<last.endPositionBeforeTrailingTrivia.utf8Offset
      plan.add(TextEdit(range: range, replacement: statement), in: file.path)
      plan.notes.append(
        Note(
          .changed,
          "'\(item.typeName ?? "")' init(coder:) now \(initializer.optionalMark != nil ? "returns nil" : "stops"): there is no shared instance to decode with",
          at: Note.Place(line: item.reference.location)))
      report.coderInits.append(
        FinishReport.CoderInit(typeName: item.typeName ?? "", place: item.reference.location, returnsNil: initializer.optionalMark != nil))
    }
  }

  /// The accessor goes, with a backing variable nothing else uses; a strict singleton's private init
  /// becomes internal (public for a root in another module); copy()/mutableCopy() overrides returning
  /// self go. Declarations removed together are removed as one block.
  static func writeRemovals(_ design: FinishDesign, project: Project, plan: inout Plan, report: inout FinishReport) throws {
    let singleton = design.singleton
    let declarations = project.index.declarations(of: singleton.typeName)
    let members = declarations.flatMap(\.members)
    var removals: [String: [Syntax]] = [:]
    for member in members where singleton.accessors.contains(member.name) && member.isStatic {
      let file = try project.file(member.range.path)
      guard let node = file.node(at: member.range.bytes) else { continue }
      removals[file.path, default: []].append(Syntax(node))
      report.removed.append(member.name)
    }
    if let backing = singleton.backingStorage, let member = members.first(where: { $0.name == backing && $0.isStatic }) {
      let users = try staticMembersUsing(backing, of: singleton, members: members, project: project).filter { !singleton.accessors.contains($0) }
      if users.isEmpty {
        let file = try project.file(member.range.path)
        if let node = file.node(at: member.range.bytes) {
          removals[file.path, default: []].append(Syntax(node))
          report.removed.append(member.name)
        }
      } else {
        report.keptBacking = backing
        plan.notes.append(
          Note(
            .kept,
            "kept '\(backing)': \(users.joined(separator: ", ")) still use\(users.count == 1 ? "s" : "") it; nothing can reach that instance any more, so delete \(users.count == 1 ? "it" : "them") by hand"))
      }
    }
    try widenInits(of: declarations, to: design.initAccess, removals: &removals, plan: &plan, project: project)
    for member in members where member.kind == .method && ["copy", "mutableCopy"].contains(member.name) && member.isOverride {
      let file = try project.file(member.range.path)
      guard let node = file.node(at: member.range.bytes)?.as(FunctionDeclSyntax.self), returnsSelf(node) else { continue }
      removals[file.path, default: []].append(Syntax(node))
      report.removed.append(member.name + "()")
      plan.notes.append(Note(.removed, "removed '\(member.name)()', which returned the shared instance", at: Note.Place(line: member.location)))
    }
    for (path, nodes) in removals.sorted(by: { $0.key < $1.key }) {
      let source = try project.file(path).source
      for range in source.removalRanges(of: nodes) { plan.add(TextEdit(range: range, replacement: ""), in: path) }
    }
  }
}

extension FinishPlanner {
  /// How the root creates the instance: the accessor's own initializer where there is one, with the
  /// singleton's own name (and `Self`) qualified, since the root may sit outside the types that
  /// enclose a nested singleton, and `Self` there would be the root.
  /// `replacing`: byte ranges of the accessor's file inside its initializer, and their new text.
  static func instanceExpression(
    _ singleton: Singleton, members: [MemberDecl], project: Project, replacing extra: [(Range<Int>, String)] = []
  ) throws -> (expression: String, type: String?) {
    // An accessor declared once per build configuration (`#if DEBUG` ... `#else`) with different
    // values: the root would make one of them in every configuration.
    let declared = members.filter { $0.name == singleton.accessor && $0.isStatic && $0.kind == .property }
    if declared.count > 1 {
      let values = try declared.map { member in
        try project.file(member.range.path).node(at: member.range.bytes)?.as(VariableDeclSyntax.self)?.bindings.first?.initializer?.value
          .trimmedDescription
      }
      if Set(values.map { $0 ?? "" }).count > 1 {
        throw Refusal(
          "'\(singleton.accessExpression)' is declared \(declared.count) times, with a different value under each '#if' clause: "
            + "the root would make one of them in every build configuration; finish it by hand",
          at: declared[1].location)
      }
    }
    let accessor = members.first { $0.name == singleton.accessor && $0.isStatic }
    let backing = singleton.backingStorage.flatMap { name in members.first { $0.name == name && $0.isStatic } }
    for candidate in [accessor, backing].compactMap({ $0 }) where candidate.kind == .property {
      let file = try project.file(candidate.range.path)
      guard let declaration = file.node(at: candidate.range.bytes)?.as(VariableDeclSyntax.self),
        let binding = declaration.bindings.first(where: {
          $0.pattern.as(IdentifierPatternSyntax.self).map { unquoted($0.identifier.text) } == candidate.name
        }),
        let value = binding.initializer?.value
      else { continue }
      // The names the initializer reaches unqualified in the type (`FeatureFlags(environment:
      // defaultEnvironment)`): its static members and nested types, which the root would not see
      // or would take for its own.
      let own = Set(members.filter(\.isStatic).map(\.name))
      return qualified(
        value, singleton: singleton, source: file.source, replacing: extra,
        ownNames: { own.contains($0) || project.index.hasType(singleton.typeName + "." + $0) })
    }
    return ("\(singleton.typeName)()", nil)
  }

  /// The text of `value` with the singleton's simple name and `Self` replaced by its qualified name,
  /// and a leading `.init(...)` or `.member` given the type; a closure called in place keeps a type
  /// annotation.
  /// `ownNames`: whether a name written alone is one the singleton's type gives (a static member, a
  /// nested type): it is written after the qualified name (`FeatureFlags.defaultEnvironment`),
  /// unless the value declares it (a closure's parameter or local).
  static func qualified(
    _ value: ExprSyntax, singleton: Singleton, source: SourceText, replacing extra: [(Range<Int>, String)] = [],
    ownNames: (String) -> Bool = { _ in false }
  ) -> (expression: String, type: String?) {
    let names: Set<String> = ["Self", singleton.simpleTypeName]
    let declaredInside = NamesInScope.declaredLocally(in: [Syntax(value)])
    var replacements: [(Range<Int>, String)] = extra
    func replace(_ token: TokenSyntax, with text: String) {
      replacements.append((token.positionAfterSkippingLeadingTrivia.utf8Offset..<token.endPositionBeforeTrailingTrivia.utf8Offset, text))
    }
    for token in value.tokens(viewMode: .sourceAccurate) {
      guard let parent = token.parent else { continue }
      let own = !names.contains(token.text) && !declaredInside.contains(token.text) && ownNames(token.text)
      guard names.contains(token.text) || own else { continue }
      let text = own ? singleton.typeName + "." + token.text : singleton.typeName
      if let reference = parent.as(DeclReferenceExprSyntax.self) {
        // `Outer.Store` is already qualified: its last component is a member access's name.
        if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id { continue }
        replace(token, with: text)
      } else if let type = parent.as(IdentifierTypeSyntax.self), type.name.id == token.id {
        replace(token, with: text)
      }
    }
    var type: String?
    var head = value
    if let call = value.as(FunctionCallExprSyntax.self) { head = call.calledExpression }
    if let member = head.as(MemberAccessExprSyntax.self), member.base == nil {
      let start = member.positionAfterSkippingLeadingTrivia.utf8Offset
      if member.declName.baseName.tokenKind == .keyword(.`init`) {
        replacements.append((start..<member.endPositionBeforeTrailingTrivia.utf8Offset, singleton.typeName))
      } else {
        replacements.append((start..<start, singleton.typeName))
      }
    } else if let call = value.as(FunctionCallExprSyntax.self), call.calledExpression.is(ClosureExprSyntax.self) {
      type = singleton.typeName
    }
    let range = value.positionAfterSkippingLeadingTrivia.utf8Offset..<value.endPositionBeforeTrailingTrivia.utf8Offset
    return (source.text(range, replacing: replacements), type)
  }

  /// The singleton's other static members that use its static member `name` (`name`, `Self.name`,
  /// `Store.name`): found in their syntax, never in their text (`Self._sharedDefaults` is another name).
  static func staticMembersUsing(_ name: String, of singleton: Singleton, members: [MemberDecl], project: Project) throws -> [String] {
    var users: [String] = []
    let bases: Set<String> = ["Self", singleton.simpleTypeName, singleton.typeName]
    for member in members where member.isStatic && member.name != name {
      let file = try project.file(member.range.path)
      guard let node = file.node(at: member.range.bytes) else { continue }
      if MemberUseCollector.names(in: node, among: [name], throughTypes: bases).contains(name) {
        users.append(member.displayName)
      }
    }
    return users
  }

  static func returnsSelf(_ function: FunctionDeclSyntax) -> Bool {
    guard let statements = function.body?.statements, statements.count == 1, let item = statements.first else { return false }
    let text = item.item.trimmedDescription
    return text == "self" || text == "return self"
  }

  static func enclosingInitializer(of node: Syntax) -> InitializerDeclSyntax? {
    var current = node.parent
    while let syntax = current {
      if let initializer = syntax.as(InitializerDeclSyntax.self) { return initializer }
      current = syntax.parent
    }
    return nil
  }

  static func enclosingFunctionBody(of node: Syntax) -> CodeBlockSyntax? {
    var current = node.parent
    while let syntax = current {
      if let function = syntax.as(FunctionDeclSyntax.self) { return function.body }
      if syntax.is(MemberBlockItemSyntax.self) { return nil }
      current = syntax.parent
    }
    return nil
  }
}

/// Collects the closures a name must be captured in, then writes the capture-list edits.
struct CaptureCollector {
  private var entries: [SyntaxIdentifier: (path: String, closure: ClosureExprSyntax, names: [String])] = [:]

  mutating func capture(_ name: String, at node: Syntax, in path: String, stopAt stop: Syntax? = nil) {
    var current = node.parent
    while let syntax = current {
      if let stop, syntax.id == stop.id { break }
      // The member (or, at top level, the statement) the use sits in bounds the closures to change.
      if syntax.is(MemberBlockItemSyntax.self) { break }
      if syntax.is(CodeBlockItemSyntax.self) && syntax.parent?.parent?.is(SourceFileSyntax.self) == true { break }
      if let closure = syntax.as(ClosureExprSyntax.self) {
        let already = closure.signature?.capture?.items.contains { $0.name.text == name } ?? false
        if !already {
          var entry = entries[closure.id] ?? (path, closure, [])
          if !entry.names.contains(name) { entry.names.append(name) }
          entries[closure.id] = entry
        }
      }
      current = syntax.parent
    }
  }

  func edits() -> [(String, TextEdit)] {
    entries.values.sorted { ($0.path, $0.closure.position.utf8Offset) < ($1.path, $1.closure.position.utf8Offset) }.map { entry in
      (entry.path, captureEdit(for: entry.closure, names: entry.names))
    }
  }
}

/// The edit that adds `names` to a closure's capture list, making one if it has none.
func captureEdit(for closure: ClosureExprSyntax, names: [String]) -> TextEdit {
  let list = names.joined(separator: ", ")
  if let capture = closure.signature?.capture {
    return .insert((capture.items.isEmpty ? "" : ", ") + list, at: capture.rightSquare.positionAfterSkippingLeadingTrivia.utf8Offset)
  }
  if let signature = closure.signature {
    if signature.attributes.isEmpty {
      return .insert("[\(list)] ", at: signature.positionAfterSkippingLeadingTrivia.utf8Offset)
    }
    return .insert(" [\(list)]", at: signature.attributes.endPositionBeforeTrailingTrivia.utf8Offset)
  }
  return .insert(" [\(list)] in", at: closure.leftBrace.endPositionBeforeTrailingTrivia.utf8Offset)
}

// MARK: - A root created by another type
