import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftSyntax

public struct FinishOptions: Sendable {
  /// The composition root that will own the one instance.
  public var root: String
  /// Let tests create their own instance instead of refusing while they use the accessor.
  public var includeTests: Bool
  /// Hand the instance to a dependency container instead of creating it in the root.
  public var container: ContainerKind?
  /// With swift-dependencies: consumers read their protocols with `@Dependency` instead of taking them in their init.
  public var dependencyWrapper: Bool

  public init(root: String, includeTests: Bool = false, container: ContainerKind? = nil, dependencyWrapper: Bool = false) {
    self.root = root
    self.includeTests = includeTests
    self.container = container
    self.dependencyWrapper = dependencyWrapper
  }
}

/// A remaining use of the accessor, and what kind of place it is.
public struct RemainingReference: Sendable, Equatable {
  public enum Kind: String, Sendable {
    case root = "the composition root"
    case test = "a test"
    case consumer = "a consumer not yet injected"
    case staticContext = "a static context"
    case topLevel = "top-level code"
    case singleton = "the singleton itself"
    /// `required init?(coder:)`, which `inject` gives the shared instance because storyboards cannot pass arguments.
    case coderInit = "a required init?(coder:)"
    /// A type the system creates (an application delegate, a cell): it cannot take init parameters.
    case frameworkCreated = "a type the system creates"
  }

  public var reference: Reference
  public var kind: Kind
  public var typeName: String?
}

/// Deletes the singleton's static accessor once only the composition root (and, if asked, tests)
/// still use it; the root then owns the one instance.
///
/// Steps, in order: classify the remaining references; refuse a root that receives the instance
/// through its init (its creator is the root); refuse what blocks (consumers, static and top-level
/// code, tests without `--include-tests`, tests that inspect the shared instance rather than hand it
/// to what they create); give the root its instance, assigning in its inits the stored properties
/// whose initial value used the accessor; give each test function its own instance; make coder
/// inits fail; remove the accessor and widen private inits.
///
/// ## Before
/// ```swift
/// final class SessionController {
///   static let sharedController = SessionController()
///   private init() {}
/// }
/// final class AppCoordinator {
///   func showCart() { push(CartViewController(currentCart: SessionController.sharedController)) }
/// }
/// ```
/// ## After (`finish --root AppCoordinator`)
/// ```swift
/// final class SessionController {
///   init() {}
/// }
/// final class AppCoordinator {
///   private let sessionController = SessionController()
///   func showCart() { push(CartViewController(currentCart: sessionController)) }
/// }
/// ```
public enum FinishPlanner {
  /// Objective-C sees the accessor: it is `@objc` (or the type is `@objcMembers`) on a class it can see.
  static func accessorIsVisibleToObjectiveC(_ singleton: Singleton, index: Index) -> Bool {
    guard ObjectiveCUses.isVisible(singleton.typeName, index: index) else { return false }
    if index.primaryDeclaration(of: singleton.typeName)?.attributes.contains("@objcMembers") == true { return true }
    return index.members(of: singleton.typeName).contains {
      $0.isStatic && singleton.accessors.contains($0.name) && $0.attributes.contains("@objc")
    }
  }

  /// Every remaining reference to the accessor, classified.
  public static func remainingReferences(singleton: Singleton, root: String?, project: Project) -> [RemainingReference] {
    let index = project.index
    return index.references(to: singleton).map { reference in
      let owner = index.enclosingType(of: reference)
      let kind: RemainingReference.Kind
      if index.isInTest(reference) {
        kind = .test
      } else if owner == nil {
        kind = .topLevel
      } else if owner == singleton.typeName {
        kind = .singleton
      } else if reference.context.isStatic {
        kind = .staticContext
      } else if owner == root {
        kind = .root
      } else if reference.context.memberName == "init(coder:)" {
        kind = .coderInit
      } else if let owner, index.systemCreation(of: owner) != nil {
        kind = .frameworkCreated
      } else {
        kind = .consumer
      }
      return RemainingReference(reference: reference, kind: kind, typeName: owner)
    }
  }

  public static func plan(singleton: Singleton, options: FinishOptions, project: Project) throws -> Plan {
    try run(singleton: singleton, options: options, project: project).plan
  }

  /// The plan and what it decided (`--format json`).
  /// `rewrite` gives the project with a plan applied: with it, a suggested `inject --type` is one
  /// whose plan, made as `inject` makes it (never spreading the accessor), changes something.
  public static func run(
    singleton: Singleton, options: FinishOptions, project: Project, rewrite: ((Plan) throws -> Project)? = nil
  ) throws -> (plan: Plan, report: FinishReport) {
    let index = project.index
    let rootMatches = index.types(named: options.root).filter { index.declarations(of: $0).contains { !$0.isExtension } }
    guard rootMatches.count == 1, let root = rootMatches.first,
      let rootDecl = index.declarations(of: root).first(where: { !$0.isExtension })
    else {
      throw Refusal(rootMatches.isEmpty ? "no type named '\(options.root)'" : "'\(options.root)' is ambiguous: \(rootMatches.joined(separator: ", "))")
    }
    let remaining = remainingReferences(singleton: singleton, root: root, project: project)
    try checkRootDoesNotReceiveTheInstance(singleton, root: root, project: project)
    var plan = Plan()
    var report = FinishReport(singleton: singleton.typeName, root: root, references: remaining)
    for item in remaining {
      plan.notes.append("\(item.reference.location.path):\(item.reference.location.line): \(item.kind.rawValue)\(item.typeName.map { " '\($0)'" } ?? "")")
    }
    let testRefusals = options.includeTests
      ? try testReferencesToRefuse(remaining.filter { $0.kind == .test }, project: project) : [:]
    let blocking = remaining.filter { item in
      // `.shared` of a type that cannot be told may be this accessor: it cannot be deleted under it.
      if item.reference.use == .unresolvedImplicit { return true }
      switch item.kind {
      case .root: return item.reference.alias != nil
      case .test: return !options.includeTests || testRefusals[item.reference] != nil
      case .coderInit: return false
      default: return true
      }
    }
    // Objective-C code that sends the accessor message would stop compiling once it is deleted.
    let objectiveC = accessorIsVisibleToObjectiveC(singleton, index: index)
      ? ObjectiveCUses.messages(to: singleton.typeName, selectors: Set(singleton.accessors), in: project) : []
    if !blocking.isEmpty || !objectiveC.isEmpty {
      var diagnostics = objectiveC.map { place in
        Diagnostic.error(
          "Objective-C code uses '\(singleton.accessExpression)' here, and desingleton does not rewrite Objective-C; pass the instance to it from Swift first",
          at: place)
      }
      var suggested: Set<String> = []
      for item in blocking {
        if item.reference.use == .unresolvedImplicit {
          diagnostics.append(.error("'.\(item.reference.accessor)' may be '\(singleton.accessExpression)', and which type it belongs to cannot be told; write the type out", at: item.reference.location))
          continue
        }
        var message = "'\(singleton.accessExpression)' is still used by \(item.kind.rawValue)\(item.typeName.map { " '\($0)'" } ?? "")"
        switch item.kind {
        case .consumer:
          if let type = item.typeName, suggested.insert(type).inserted {
            // Only a command that would work is suggested; otherwise the reason it would not.
            do {
              let options = InjectOptions(types: [type])
              let (plan, report) = try rewrite.map { try InjectPlanner.run(singleton: singleton, options: options, project: project, rewrite: $0) }
                ?? InjectPlanner.run(singleton: singleton, options: options, project: project)
              if plan.edits.isEmpty && plan.newFiles.isEmpty {
                let reason = report.skipped.first { $0.typeName == type }?.diagnostics.first?.message ?? "it would change nothing"
                message += "; 'inject --type \(type)' cannot take it yet: \(reason)"
              } else {
                message += "; run 'desingleton inject --singleton \(singleton.typeName) --type \(type)'"
              }
            } catch let refusal as Refusal {
              let reason = refusal.diagnostics.first?.message ?? ""
              message += "; 'inject --type \(type)' cannot take it yet: \(reason)"
            }
          }
        case .frameworkCreated:
          message += "; it cannot take init parameters: \(InjectPlanner.wiringHint)"
        case .test:
          if let reason = testRefusals[item.reference] {
            message = "'\(singleton.accessExpression)' is used by a test\(item.typeName.map { " '\($0)'" } ?? "")"
              + (item.reference.context.memberName.map { " in '\($0)'" } ?? "") + " " + reason
          } else {
            message += "; pass --include-tests to let tests create their own instance"
          }
        case .root: message += " through an alias; use the accessor directly"
        default: message += "; it cannot receive an injected value, change it by hand"
        }
        diagnostics.append(.error(message, at: item.reference.location))
      }
      for item in remaining where !blocking.contains(item) {
        diagnostics.append(.note("'\(singleton.accessExpression)' is used by \(item.kind.rawValue)\(item.typeName.map { " '\($0)'" } ?? "")", at: item.reference.location))
      }
      throw Refusal(diagnostics)
    }

    let declarations = index.declarations(of: singleton.typeName)
    let members = declarations.flatMap(\.members)
    let rootFile = try project.file(rootDecl.path)
    let source = rootFile.source
    let unit = source.indentUnit
    let memberIndent = rootDecl.members.first.map { source.indentation(at: $0.range.bytes.lowerBound) }
      ?? source.indentation(at: rootDecl.range.bytes.lowerBound) + unit
    let taken = Set(index.members(of: root).map(\.name))
    var name = lowerCamel(singleton.simpleTypeName)
    if taken.contains(name) { name = "shared" + singleton.simpleTypeName }
    let creation = try instanceExpression(singleton, members: members, project: project)

    // The root owns the instance, or gets it from the container.
    let rootReferences = remaining.filter { $0.kind == .root }
    let container = try options.container.map { kind in
      ContainerWriter(
        design: try ContainerPlanner.design(
          kind, singleton: singleton, root: rootDecl, rootReferences: rootReferences.map(\.reference),
          creation: creation.expression, instanceName: name,
          wrapping: options.dependencyWrapper ? remaining.filter { $0.kind == .root || $0.kind == .test } : nil, project: project),
        unit: unit, lineEnding: source.lineEnding)
    }
    // Uses of the accessor that go with the arguments of consumers that now read `@Dependency`.
    let wrapped = container?.design.wrappedReferences ?? []
    if let container {
      plan.newFiles[container.design.path] = container.fileText
      if rootReferences.contains(where: { !wrapped.contains($0.reference) }), let edit = container.importEdit(in: rootFile) {
        plan.add(edit, in: rootDecl.path)
      }
    }
    if rootReferences.contains(where: { !wrapped.contains($0.reference) }) {
      let declaration = container?.rootProperties.map { memberIndent + $0 }.joined(separator: source.lineEnding)
        ?? "\(memberIndent)private let \(name)\(creation.type.map { ": \($0)" } ?? "") = \(creation.expression)"
      let open = rootDecl.bodyOpen
      let nextLine = source.lineEnd(of: open)
      let blankFollows = nextLine < source.bytes.count && source.isBlank(nextLine..<source.lineEnd(of: nextLine))
      plan.add(.insert(source.lineEnding + declaration + (blankFollows ? "" : source.lineEnding), at: open), in: rootDecl.path)
      var capturer = CaptureCollector()
      var moved: [MovedProperty] = []
      for item in rootReferences where !wrapped.contains(item.reference) {
        let file = try project.file(item.reference.range.path)
        guard let node = file.expression(at: item.reference.range.bytes) else { continue }
        if let property = try storedProperty(around: Syntax(node), item: item, singleton: singleton) {
          if let position = moved.firstIndex(where: { $0.binding.id == property.binding.id }) {
            moved[position].references.append(item.reference)
          } else {
            moved.append(MovedProperty(binding: property.binding, name: property.name, references: [item.reference]))
          }
          continue
        }
        let replacement = container?.replacement(for: item.reference) ?? name
        plan.add(TextEdit(range: item.reference.range.bytes, replacement: replacement), in: item.reference.range.path)
        capturer.capture(replacement, at: Syntax(node), in: file.path)
      }
      for edit in capturer.edits() { plan.add(edit.1, in: edit.0) }
      if !moved.isEmpty {
        try assignInInits(
          moved, root: rootDecl, instanceName: name, replacement: { container?.replacementInInit(for: $0) ?? name },
          singleton: singleton, project: project, plan: &plan)
      }
    }

    // Tests create their own instance, one per test function.
    let testReferences = remaining.filter { $0.kind == .test }
    var testValues: [Reference: String] = [:]
    var localsAdded: Set<String> = []
    var testCaptures = CaptureCollector()
    for item in testReferences {
      let file = try project.file(item.reference.range.path)
      guard let node = file.expression(at: item.reference.range.bytes) else { continue }
      if let body = enclosingFunctionBody(of: Syntax(node)) {
        let key = "\(file.path):\(body.position.utf8Offset)"
        if localsAdded.insert(key).inserted {
          let start = body.statements.first?.positionAfterSkippingLeadingTrivia.utf8Offset ?? body.rightBrace.positionAfterSkippingLeadingTrivia.utf8Offset
          let indent = body.statements.first.map { _ in file.source.indentation(at: start) } ?? file.source.indentation(at: body.leftBrace.positionAfterSkippingLeadingTrivia.utf8Offset) + unit
          let local = "let \(name)\(creation.type.map { ": \($0)" } ?? "") = \(creation.expression)"
          plan.add(.insert(local + file.source.lineEnding + indent, at: start), in: file.path)
        }
        testValues[item.reference] = name
        if wrapped.contains(item.reference) { continue }
        plan.add(TextEdit(range: item.reference.range.bytes, replacement: name), in: file.path)
        testCaptures.capture(name, at: Syntax(node), in: file.path, stopAt: Syntax(body))
      } else {
        testValues[item.reference] = creation.expression
        if wrapped.contains(item.reference) { continue }
        plan.add(TextEdit(range: item.reference.range.bytes, replacement: creation.expression), in: file.path)
      }
    }
    for edit in testCaptures.edits() { plan.add(edit.1, in: edit.0) }
    if let container {
      for (path, edit) in try container.wrapperEdits(value: { testValues[$0] ?? creation.expression }, project: project) {
        plan.add(edit, in: path)
      }
      for consumer in container.design.wrapped {
        plan.notes.append("'\(consumer.typeName)' reads \(consumer.parameters.map { "'\\.\($0.slice.property)'" }.joined(separator: ", ")) with @Dependency instead of taking \(consumer.parameters.count == 1 ? "it" : "them") in its init")
      }
      plan.notes += container.design.kept
    }
    report.testFunctions = localsAdded.count

    // With no shared instance left, decoding cannot supply the dependencies: the coder init fails.
    var coderInits: Set<String> = []
    for item in remaining where item.kind == .coderInit {
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
      plan.notes.append("\(item.reference.location.path):\(item.reference.location.line): '\(item.typeName ?? "")' init(coder:) now \(initializer.optionalMark != nil ? "returns nil" : "stops"): there is no shared instance to decode with")
      report.coderInits.append(
        FinishReport.CoderInit(typeName: item.typeName ?? "", place: item.reference.location, returnsNil: initializer.optionalMark != nil))
    }

    // The accessor goes, with a backing variable nothing else uses; declarations removed together
    // are removed as one block.
    var removals: [String: [Syntax]] = [:]
    for member in members where singleton.accessors.contains(member.name) && member.isStatic {
      let file = try project.file(member.range.path)
      guard let node = file.node(at: member.range.bytes) else { continue }
      removals[file.path, default: []].append(Syntax(node))
      report.removed.append(member.name)
    }
    if let backing = singleton.backingStorage, let member = members.first(where: { $0.name == backing && $0.isStatic }) {
      let users = try staticMembersUsing(backing, members: members, project: project).filter { !singleton.accessors.contains($0) }
      if users.isEmpty {
        let file = try project.file(member.range.path)
        if let node = file.node(at: member.range.bytes) {
          removals[file.path, default: []].append(Syntax(node))
          report.removed.append(member.name)
        }
      } else {
        report.keptBacking = backing
        plan.notes.append("kept '\(backing)': \(users.joined(separator: ", ")) still use\(users.count == 1 ? "s" : "") it; nothing can reach that instance any more, so delete \(users.count == 1 ? "it" : "them") by hand")
      }
    }
    // A strict singleton's private init becomes internal; copy()/mutableCopy() overrides returning self go.
    // A root in another module than the singleton's can call only a public init.
    let access = project.modules.crossesModules(rootDecl.path, singleton.declaration.path) ? "public" : "internal"
    try widenInits(of: declarations, to: access, removals: &removals, plan: &plan, project: project)
    for member in members where member.kind == .method && ["copy", "mutableCopy"].contains(member.name) && member.isOverride {
      let file = try project.file(member.range.path)
      guard let node = file.node(at: member.range.bytes)?.as(FunctionDeclSyntax.self), returnsSelf(node) else { continue }
      removals[file.path, default: []].append(Syntax(node))
      report.removed.append(member.name + "()")
      plan.notes.append("\(member.location.path):\(member.location.line): removed '\(member.name)()', which returned the shared instance")
    }
    for (path, nodes) in removals.sorted(by: { $0.key < $1.key }) {
      let source = try project.file(path).source
      for range in source.removalRanges(of: nodes) { plan.add(TextEdit(range: range, replacement: ""), in: path) }
    }
    if let container {
      plan.notes.append(container.summary(root: root))
    } else {
      plan.notes.append("'\(singleton.accessExpression)' removed; '\(root)' owns the instance as '\(name)'")
    }
    report.instanceName = name
    report.initAccess = access
    return (plan, report)
  }

  /// How the root creates the instance: the accessor's own initializer where there is one, with the
  /// singleton's own name (and `Self`) qualified, since the root may sit outside the types that
  /// enclose a nested singleton, and `Self` there would be the root.
  static func instanceExpression(_ singleton: Singleton, members: [MemberDecl], project: Project) throws -> (expression: String, type: String?) {
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
      return qualified(value, singleton: singleton, source: file.source)
    }
    return ("\(singleton.typeName)()", nil)
  }

  /// The text of `value` with the singleton's simple name and `Self` replaced by its qualified name,
  /// and a leading `.init(...)` or `.member` given the type; a closure called in place keeps a type
  /// annotation.
  static func qualified(_ value: ExprSyntax, singleton: Singleton, source: SourceText) -> (expression: String, type: String?) {
    let names: Set<String> = ["Self", singleton.simpleTypeName]
    var replacements: [(Range<Int>, String)] = []
    func replace(_ token: TokenSyntax) {
      replacements.append((token.positionAfterSkippingLeadingTrivia.utf8Offset..<token.endPositionBeforeTrailingTrivia.utf8Offset, singleton.typeName))
    }
    for token in value.tokens(viewMode: .sourceAccurate) where names.contains(token.text) {
      guard let parent = token.parent else { continue }
      if let reference = parent.as(DeclReferenceExprSyntax.self) {
        // `Outer.Store` is already qualified: its last component is a member access's name.
        if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id { continue }
        replace(token)
      } else if parent.is(IdentifierTypeSyntax.self) {
        replace(token)
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

  static func staticMembersUsing(_ name: String, members: [MemberDecl], project: Project) throws -> [String] {
    var users: [String] = []
    for member in members where member.isStatic && member.name != name {
      let file = try project.file(member.range.path)
      guard let node = file.node(at: member.range.bytes) else { continue }
      if MemberUseCollector.names(in: node, among: [name]).contains(name) || node.description.contains("Self.\(name)") {
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

extension FinishPlanner {
  /// A root that receives the instance through one of its inits is itself created by the real root
  /// (after `inject --all` moved the accessor up to its creator): owning another instance would split
  /// the state between two of them.
  static func checkRootDoesNotReceiveTheInstance(_ singleton: Singleton, root: String, project: Project) throws {
    let index = project.index
    let accepted = typesHoldingTheInstance(singleton, index: index)
    for member in index.members(of: root) where member.kind == .initializer && !member.isStatic {
      let file = try project.file(member.range.path)
      guard let initializer = file.node(at: member.range.bytes)?.as(InitializerDeclSyntax.self) else { continue }
      for parameter in initializer.signature.parameterClause.parameters {
        guard namedTypes(in: parameter.type).contains(where: { accepted.contains(index.resolveType($0)) }) else { continue }
        let creators = try creators(of: root, project: project).filter { !index.isTestType($0) }
        var message = "'\(root)' receives the instance through '\(member.displayName)', so it is not the composition root: "
          + "a second instance would change behaviour; run 'desingleton finish' with the type that creates it as --root"
        if !creators.isEmpty { message += ": " + creators.map { "'\($0)'" }.joined(separator: ", ") }
        throw Refusal(message, at: file.source.location(ofOffset: parameter.positionAfterSkippingLeadingTrivia.utf8Offset))
      }
    }
  }

  /// The singleton's type and every protocol it conforms to, with what those refine.
  static func typesHoldingTheInstance(_ singleton: Singleton, index: Index) -> Set<String> {
    var result: Set<String> = [singleton.typeName]
    // What the singleton's own declarations list counts even when a command did not index the
    // protocol's file; the standard protocols every type may list do not.
    let standard: Set<String> = ["AnyObject", "Sendable", "Equatable", "Hashable", "Codable", "NSObject", "NSObjectProtocol"]
    let direct = index.declarations(of: singleton.typeName).flatMap(\.inherited).map(index.resolveType)
    result.formUnion(direct.filter { !standard.contains($0) })
    var pending = direct
    while let name = pending.popLast() {
      let protocols = index.declarations(of: name).filter { $0.kind == .protocol }
      let refined = protocols.flatMap(\.inherited).map(index.resolveType).filter { !standard.contains($0) && !result.contains($0) }
      result.formUnion(refined)
      pending.append(contentsOf: refined)
    }
    return result
  }

  /// The type names a parameter's type is made of: `Counting`, `any Counting`, `(any A & B)?`.
  static func namedTypes(in type: TypeSyntax) -> [String] {
    if let identifier = type.as(IdentifierTypeSyntax.self) { return [identifier.name.text] }
    if let member = type.as(MemberTypeSyntax.self) { return [member.trimmedDescription] }
    if let existential = type.as(SomeOrAnyTypeSyntax.self) { return namedTypes(in: existential.constraint) }
    if let optional = type.as(OptionalTypeSyntax.self) { return namedTypes(in: optional.wrappedType) }
    if let optional = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return namedTypes(in: optional.wrappedType) }
    if let attributed = type.as(AttributedTypeSyntax.self) { return namedTypes(in: attributed.baseType) }
    if let tuple = type.as(TupleTypeSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
      return namedTypes(in: only.type)
    }
    if let composition = type.as(CompositionTypeSyntax.self) { return composition.elements.flatMap { namedTypes(in: $0.type) } }
    return []
  }
}

// MARK: - Tests

extension FinishPlanner {
  /// The test references a fresh instance per test function cannot stand for, with the reason. A
  /// fresh instance keeps a test's behaviour only where the test hands it to what it creates
  /// (`Screen(counting: Store.shared)`); a test that reads or calls the shared instance itself checks
  /// the state code under test left in it, which a fresh instance would not have.
  static func testReferencesToRefuse(_ items: [RemainingReference], project: Project) throws -> [Reference: String] {
    let index = project.index
    var reasons: [Reference: String] = [:]
    var membersByType: [String: Set<String>] = [:]
    var outsideTests: [(reference: Reference, type: String)] = []
    for item in items {
      let file = try project.file(item.reference.range.path)
      guard let node = file.expression(at: item.reference.range.bytes) else { continue }
      guard item.reference.alias == nil, isInitializerArgument(node, index: index) || isEnvironmentValue(node) else {
        reasons[item.reference] = "other than as an argument of an initializer: a fresh instance there would not be "
          + "the one the code under test uses; change the test by hand"
        continue
      }
      let type = item.typeName ?? file.path
      let function = enclosingFunction(of: Syntax(node))
      let member = function.map { "\($0.position.utf8Offset)" } ?? (item.reference.context.memberName ?? "")
      membersByType[type, default: []].insert(member)
      if !(function.map(isTestFunction) ?? false) { outsideTests.append((item.reference, type)) }
    }
    // A helper, `setUp()` or a property gets its own instance, which another member's would not be.
    for (reference, type) in outsideTests where (membersByType[type]?.count ?? 0) > 1 {
      reasons[reference] = "outside a test function while other members of '\(type)' use it too: one fresh "
        + "instance cannot stand for all of them; change the test by hand"
    }
    return reasons
  }

  /// `T(label: <expression>)` or `T.init(label: <expression>)` where `T` is a type the index declares.
  static func isInitializerArgument(_ expression: ExprSyntax, index: Index) -> Bool {
    guard let argument = expression.parent?.as(LabeledExprSyntax.self), argument.expression.id == expression.id,
      let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self), call.arguments.id == argument.parent?.id
    else { return false }
    var called = call.calledExpression
    if let member = called.as(MemberAccessExprSyntax.self), member.declName.baseName.tokenKind == .keyword(.`init`),
      let base = member.base
    {
      called = base
    }
    // A command may index only the files naming the singleton and the root: a type it does not see is
    // still created by `T(...)`, and only a protocol cannot be.
    guard let written = called.typeReferenceText, written != "Self" else { return false }
    return !index.declarations(of: index.resolveType(written)).contains { $0.kind == .protocol }
  }

  /// The value of `view.environment(\.key, <expression>)`: handed to the views made there, as an
  /// init argument is.
  static func isEnvironmentValue(_ expression: ExprSyntax) -> Bool {
    guard let argument = expression.parent?.as(LabeledExprSyntax.self), argument.label == nil,
      let list = argument.parent?.as(LabeledExprListSyntax.self), list.count == 2, list.last?.id == argument.id,
      list.first?.expression.is(KeyPathExprSyntax.self) == true,
      let call = list.parent?.as(FunctionCallExprSyntax.self),
      call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "environment"
    else { return false }
    return true
  }

  /// A Swift Testing `@Test` function, or an XCTest method (`test...()`, which XCTest finds by its name).
  static func isTestFunction(_ function: FunctionDeclSyntax) -> Bool {
    let isAttributed = function.attributes.contains {
      $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "Test"
    }
    return isAttributed
      || (function.name.text.hasPrefix("test") && function.signature.parameterClause.parameters.isEmpty)
  }

  static func enclosingFunction(of node: Syntax) -> FunctionDeclSyntax? {
    var current = node.parent
    while let syntax = current {
      if let function = syntax.as(FunctionDeclSyntax.self) { return function }
      if syntax.is(MemberBlockItemSyntax.self) { return nil }
      current = syntax.parent
    }
    return nil
  }
}

// MARK: - The root's stored properties

/// A stored property of the root whose initial value uses the accessor.
struct MovedProperty {
  var binding: PatternBindingSyntax
  var name: String
  var references: [Reference]
}

extension FinishPlanner {
  /// The stored instance property whose initial value holds `node`, unless it is `lazy` (a lazy
  /// initializer may use instance members). A use inside a closure there is refused: moved into an
  /// init, the closure would capture `self` before it is initialized.
  static func storedProperty(
    around node: Syntax, item: RemainingReference, singleton: Singleton
  ) throws -> (binding: PatternBindingSyntax, name: String)? {
    var current = node.parent
    var closure = false
    while let syntax = current {
      if syntax.is(ClosureExprSyntax.self) { closure = true }
      if syntax.is(MemberBlockItemSyntax.self) || syntax.is(CodeBlockSyntax.self) || syntax.is(AccessorBlockSyntax.self) {
        return nil
      }
      if let clause = syntax.as(InitializerClauseSyntax.self), let binding = clause.parent?.as(PatternBindingSyntax.self),
        let variable = binding.parent?.parent?.as(VariableDeclSyntax.self),
        variable.parent?.is(MemberBlockItemSyntax.self) == true
      {
        let modifiers = variable.modifiers.map(\.name.tokenKind)
        if modifiers.contains(.keyword(.lazy)) || variable.modifiers.isStatic { return nil }
        let name = binding.pattern.trimmedDescription
        if closure {
          throw Refusal(
            "'\(name)' uses '\(singleton.accessExpression)' in a closure in its initial value, where the root's own "
              + "instance cannot be used; assign '\(name)' in the root's init by hand",
            at: item.reference.location)
        }
        return (binding, name)
      }
      current = syntax.parent
    }
    return nil
  }

  /// Stored properties cannot use an instance member in their initial value, so each property that
  /// used the accessor there is assigned in every init that does not delegate, keeping `let` and the
  /// time of creation (while the root is created); a root with no init gets `init()` where that
  /// changes nothing else.
  static func assignInInits(
    _ moved: [MovedProperty], root: TypeDecl, instanceName: String, replacement: (Reference) -> String,
    singleton: Singleton, project: Project, plan: inout Plan
  ) throws {
    let index = project.index
    let file = try project.file(root.path)
    let source = file.source
    var statements: [String] = []
    for property in moved {
      guard let initializer = property.binding.initializer else { continue }
      let value = initializer.value
      let valueRange = value.positionAfterSkippingLeadingTrivia.utf8Offset..<value.endPositionBeforeTrailingTrivia.utf8Offset
      let text = source.text(valueRange, replacing: property.references.map { ($0.range.bytes, replacement($0)) })
      statements.append("self.\(property.name) = \(text)")
      let end = initializer.endPositionBeforeTrailingTrivia.utf8Offset
      if let annotation = property.binding.typeAnnotation {
        plan.add(TextEdit(range: annotation.endPositionBeforeTrailingTrivia.utf8Offset..<end, replacement: ""), in: root.path)
      } else if let type = writtenType(of: value, index: index) {
        let start = property.binding.pattern.endPositionBeforeTrailingTrivia.utf8Offset
        plan.add(TextEdit(range: start..<end, replacement: ": \(type)"), in: root.path)
      } else {
        throw Refusal(
          "'\(property.name)' uses '\(singleton.accessExpression)' in its initial value, where the root's own instance "
            + "cannot be used, and its type is not written; give '\(property.name)' a type annotation and run again",
          at: property.references[0].location)
      }
    }

    let unit = source.indentUnit
    var assignedIn: [String] = []
    for member in index.members(of: root.qualifiedName) where member.kind == .initializer && !member.isStatic {
      let initFile = try project.file(member.range.path)
      guard let node = initFile.node(at: member.range.bytes)?.as(InitializerDeclSyntax.self), let body = node.body,
        !node.modifiers.contains(where: { $0.name.tokenKind == .keyword(.convenience) }), !InitBodyScanner.delegatesToSelf(body)
      else { continue }
      let lineEnding = initFile.source.lineEnding
      if let first = body.statements.first {
        let start = first.positionAfterSkippingLeadingTrivia.utf8Offset
        let indent = initFile.source.indentation(at: start)
        plan.add(.insert(statements.map { $0 + lineEnding + indent }.joined(), at: start), in: initFile.path)
      } else {
        let indent = initFile.source.indentation(at: body.rightBrace.positionAfterSkippingLeadingTrivia.utf8Offset)
        let range = body.leftBrace.endPosition.utf8Offset..<body.rightBrace.positionAfterSkippingLeadingTrivia.utf8Offset
        let text = statements.map { lineEnding + indent + unit + $0 }.joined() + lineEnding + indent
        plan.add(TextEdit(range: range, replacement: text), in: initFile.path)
      }
      assignedIn.append(member.displayName)
    }
    let location = moved[0].references[0].location
    let names = moved.map { "'\($0.name)'" }.joined(separator: ", ")
    if assignedIn.isEmpty {
      if let reason = whyNoInitCanBeAdded(root, moved: moved, index: index) {
        throw Refusal(
          "\(names) \(moved.count == 1 ? "passes" : "pass") '\(singleton.accessExpression)' in \(moved.count == 1 ? "its" : "their") "
            + "initial value, where the root's own instance cannot be used, and '\(root.qualifiedName)' has no init to "
            + "assign it in; \(reason)",
          at: location)
      }
      let memberIndent = source.indentation(at: moved[0].binding.positionAfterSkippingLeadingTrivia.utf8Offset)
      let lineEnding = source.lineEnding
      let lastStored = root.members.filter { $0.kind == .property && $0.isStored && !$0.isStatic }
        .map(\.range.bytes.upperBound).max() ?? moved[0].binding.endPosition.utf8Offset
      let at = source.lineEnd(of: lastStored)
      var text = lineEnding + memberIndent + "init() {" + lineEnding
        + statements.map { memberIndent + unit + $0 + lineEnding }.joined() + memberIndent + "}" + lineEnding
      let nextLineEnd = source.lineEnd(of: at)
      if at < source.bytes.count, !source.isBlank(at..<nextLineEnd), source.firstNonBlank(from: at) != UInt8(ascii: "}") {
        text += lineEnding
      }
      plan.add(.insert(text, at: at), in: root.path)
      assignedIn.append("init()")
    }
    plan.notes.append(
      "\(location.path):\(location.line): \(names) \(moved.count == 1 ? "is" : "are") now assigned in "
        + "\(assignedIn.joined(separator: ", ")): \(moved.count == 1 ? "its" : "their") initial value uses '\(instanceName)'")
  }

  /// Why the root cannot simply be given `init()`: a superclass whose inits it inherits (an init of
  /// its own would stop that), or a struct whose memberwise init takes arguments.
  static func whyNoInitCanBeAdded(_ root: TypeDecl, moved: [MovedProperty], index: Index) -> String? {
    switch root.kind {
    case .class:
      switch index.superclass(of: root.qualifiedName) {
      case .none: return nil
      case .project(let name), .framework(let name), .unknown(let name):
        return "declare the inits '\(root.qualifiedName)' inherits from '\(name)' and run again"
      }
    case .struct:
      let movedNames = Set(moved.map(\.name))
      let takesArguments = root.members.contains {
        $0.kind == .property && $0.isStored && !$0.isStatic && !movedNames.contains($0.name)
          && !($0.isLet && $0.initializerText != nil) && !$0.modifiers.contains("lazy")
      }
      return takesArguments ? "declare its init (an init of its own replaces the memberwise one) and run again" : nil
    default:
      return nil
    }
  }

  /// The type written in `T(...)` or `T.init(...)` when the index declares `T`.
  static func writtenType(of value: ExprSyntax, index: Index) -> String? {
    guard let call = value.as(FunctionCallExprSyntax.self) else { return nil }
    var called = call.calledExpression
    if let member = called.as(MemberAccessExprSyntax.self), member.declName.baseName.tokenKind == .keyword(.`init`),
      let base = member.base
    {
      called = base
    }
    guard let written = called.typeReferenceText, written != "Self",
      !index.declarations(of: index.resolveType(written)).contains(where: { $0.kind == .protocol })
    else { return nil }
    return written
  }
}

// MARK: - Private inits

extension FinishPlanner {
  /// Makes every `private`/`fileprivate` init internal so the root can call it: its own modifier goes,
  /// and an init made private by its extension moves to an extension without one (or the extension
  /// loses its modifier when it holds nothing but such inits).
  static func widenInits(
    of declarations: [TypeDecl], to access: String, removals: inout [String: [Syntax]], plan: inout Plan,
    project: Project
  ) throws {
    // `internal` is written as no modifier at all.
    let written = access == "internal" ? "" : access + " "
    for declaration in declarations {
      let extensionIsPrivate = declaration.isExtension && (declaration.access.map { $0 <= .fileprivate } ?? false)
      let file = try project.file(declaration.path)
      let source = file.source
      var moved: [String] = []
      var movedNodes: [Syntax] = []
      var widened = false
      let inits = declaration.members.filter { $0.kind == .initializer }
      for member in inits {
        let ownPrivate = member.access.map { $0 <= .fileprivate } ?? false
        // From another module only a public init can be called.
        let tooLow = access == "public" && !extensionIsPrivate && (member.access ?? .internal) == .internal
        guard ownPrivate || (extensionIsPrivate && member.access == nil) || tooLow,
          let node = file.node(at: member.range.bytes)?.as(InitializerDeclSyntax.self)
        else { continue }
        let modifier = node.modifiers.first { AccessLevel(keyword: $0.name.text) != nil && $0.detail == nil }
        let modifierRange = modifier.map { $0.positionAfterSkippingLeadingTrivia.utf8Offset..<$0.endPosition.utf8Offset }
        plan.notes.append("\(member.location.path):\(member.location.line): init is now \(access) so the root can create the instance")
        widened = true
        if extensionIsPrivate && inits.count < declaration.members.count {
          var text = source.text(member.range.bytes, replacing: modifierRange.map { [($0, written)] } ?? [])
          if modifierRange == nil { text = written + text }
          moved.append(source.indentation(at: member.range.bytes.lowerBound) + text)
          movedNodes.append(Syntax(node))
        } else if let modifierRange {
          plan.add(TextEdit(range: modifierRange, replacement: written), in: file.path)
        } else if !written.isEmpty {
          plan.add(.insert(written, at: node.initKeyword.positionAfterSkippingLeadingTrivia.utf8Offset), in: file.path)
        }
      }
      guard extensionIsPrivate,
        let node = file.node(at: declaration.range.bytes)?.as(ExtensionDeclSyntax.self),
        let modifier = node.modifiers.first(where: { AccessLevel(keyword: $0.name.text) != nil && $0.detail == nil })
      else { continue }
      if moved.isEmpty {
        // Nothing but inits: the extension's own access goes.
        guard widened, inits.count == declaration.members.count else { continue }
        let range = modifier.positionAfterSkippingLeadingTrivia.utf8Offset..<modifier.endPosition.utf8Offset
        plan.add(TextEdit(range: range, replacement: written), in: file.path)
        continue
      }
      removals[file.path, default: []].append(contentsOf: movedNodes)
      let lineEnding = source.lineEnding
      let indent = source.indentation(at: node.positionAfterSkippingLeadingTrivia.utf8Offset)
      var header = node.attributes.isEmpty ? "" : node.attributes.trimmedDescription + " "
      header += "extension " + node.extendedType.trimmedDescription
      if let clause = node.genericWhereClause { header += " " + clause.trimmedDescription }
      let text = lineEnding + lineEnding + indent + header + " {" + lineEnding
        + moved.joined(separator: lineEnding + lineEnding) + lineEnding + indent + "}"
      plan.add(.insert(text, at: node.memberBlock.rightBrace.endPositionBeforeTrailingTrivia.utf8Offset), in: file.path)
    }
  }
}

extension SourceText {
  /// The text of `range` with some of its sub-ranges replaced.
  fileprivate func text(_ range: Range<Int>, replacing replacements: [(Range<Int>, String)]) -> String {
    var result = ""
    var position = range.lowerBound
    for (replaced, text) in replacements.sorted(by: { $0.0.lowerBound < $1.0.lowerBound })
    where replaced.lowerBound >= position && replaced.upperBound <= range.upperBound {
      result += self.text(position..<replaced.lowerBound) + text
      position = replaced.upperBound
    }
    return result + self.text(position..<range.upperBound)
  }
}
