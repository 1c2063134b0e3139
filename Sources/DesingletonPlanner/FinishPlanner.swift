import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftSyntax

public struct FinishOptions: Sendable {
  /// The composition root that will own the one instance.
  public var root: String
  /// Let tests create their own instance instead of refusing while they use the accessor.
  public var includeTests: Bool

  public init(root: String, includeTests: Bool = false) {
    self.root = root
    self.includeTests = includeTests
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
  }

  public var reference: Reference
  public var kind: Kind
  public var typeName: String?
}

/// Deletes the singleton's static accessor once only the composition root (and, if asked, tests)
/// still use it; the root then owns the one instance.
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
  /// Every remaining reference to the accessor, classified.
  public static func remainingReferences(singleton: Singleton, root: String, project: Project) -> [RemainingReference] {
    let index = project.index
    return index.references(to: singleton).map { reference in
      let owner = index.enclosingType(of: reference)
      let kind: RemainingReference.Kind
      if isTest(reference, index: index) {
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
      } else {
        kind = .consumer
      }
      return RemainingReference(reference: reference, kind: kind, typeName: owner)
    }
  }

  static func isTest(_ reference: Reference, index: Index) -> Bool {
    let path = reference.range.path
    if path.hasPrefix("Tests/") || path.contains("/Tests/") || path.hasSuffix("Tests.swift") { return true }
    guard let owner = index.enclosingType(of: reference) else { return false }
    let declarations = index.declarations(of: owner)
    return declarations.contains { declaration in
      declaration.inherited.contains("XCTestCase") || declaration.attributes.contains("@Suite")
        || declaration.members.contains { $0.attributes.contains("@Test") }
    }
  }

  public static func plan(singleton: Singleton, options: FinishOptions, project: Project) throws -> Plan {
    let index = project.index
    let rootMatches = index.types(named: options.root).filter { index.declarations(of: $0).contains { !$0.isExtension } }
    guard rootMatches.count == 1, let root = rootMatches.first,
      let rootDecl = index.declarations(of: root).first(where: { !$0.isExtension })
    else {
      throw Refusal(rootMatches.isEmpty ? "no type named '\(options.root)'" : "'\(options.root)' is ambiguous: \(rootMatches.joined(separator: ", "))")
    }
    let remaining = remainingReferences(singleton: singleton, root: root, project: project)
    var plan = Plan()
    for item in remaining {
      plan.notes.append("\(item.reference.location.path):\(item.reference.location.line): \(item.kind.rawValue)\(item.typeName.map { " '\($0)'" } ?? "")")
    }
    let blocking = remaining.filter { item in
      // `.shared` of a type that cannot be told may be this accessor: it cannot be deleted under it.
      if item.reference.use == .unresolvedImplicit { return true }
      switch item.kind {
      case .root: return item.reference.alias != nil
      case .test: return !options.includeTests
      case .coderInit: return false
      default: return true
      }
    }
    if !blocking.isEmpty {
      var diagnostics: [Diagnostic] = []
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
            message += "; run 'desingleton inject --singleton \(singleton.typeName) --type \(type)'"
          }
        case .test: message += "; pass --include-tests to let tests create their own instance"
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

    // The root owns the instance.
    let rootReferences = remaining.filter { $0.kind == .root }
    if !rootReferences.isEmpty {
      let declaration = "\(memberIndent)private let \(name)\(creation.type.map { ": \($0)" } ?? "") = \(creation.expression)"
      let open = rootDecl.bodyOpen
      let nextLine = source.lineEnd(of: open)
      let blankFollows = nextLine < source.bytes.count && source.isBlank(nextLine..<source.lineEnd(of: nextLine))
      plan.add(.insert(source.lineEnding + declaration + (blankFollows ? "" : source.lineEnding), at: open), in: rootDecl.path)
      for item in rootReferences {
        plan.add(TextEdit(range: item.reference.range.bytes, replacement: name), in: item.reference.range.path)
      }
      var capturer = CaptureCollector()
      for item in rootReferences {
        let file = try project.file(item.reference.range.path)
        if let node = file.expression(at: item.reference.range.bytes) { capturer.capture(name, at: Syntax(node), in: file.path) }
      }
      for edit in capturer.edits() { plan.add(edit.1, in: edit.0) }
    }

    // Tests create their own instance, one per test function.
    let testReferences = remaining.filter { $0.kind == .test }
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
          plan.add(.insert("let \(name) = \(creation.expression)" + file.source.lineEnding + indent, at: start), in: file.path)
        }
        plan.add(TextEdit(range: item.reference.range.bytes, replacement: name), in: file.path)
        testCaptures.capture(name, at: Syntax(node), in: file.path, stopAt: Syntax(body))
      } else {
        plan.add(TextEdit(range: item.reference.range.bytes, replacement: creation.expression), in: file.path)
      }
    }
    for edit in testCaptures.edits() { plan.add(edit.1, in: edit.0) }

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
    }

    // The accessor goes, with a backing variable nothing else uses; declarations removed together
    // are removed as one block.
    var removals: [String: [Syntax]] = [:]
    for member in members where singleton.accessors.contains(member.name) && member.isStatic {
      let file = try project.file(member.range.path)
      guard let node = file.node(at: member.range.bytes) else { continue }
      removals[file.path, default: []].append(Syntax(node))
    }
    if let backing = singleton.backingStorage, let member = members.first(where: { $0.name == backing && $0.isStatic }) {
      let users = try staticMembersUsing(backing, members: members, project: project).filter { !singleton.accessors.contains($0) }
      if users.isEmpty {
        let file = try project.file(member.range.path)
        if let node = file.node(at: member.range.bytes) {
          removals[file.path, default: []].append(Syntax(node))
        }
      } else {
        plan.notes.append("kept '\(backing)': \(users.joined(separator: ", ")) still use\(users.count == 1 ? "s" : "") it; nothing can reach that instance any more, so delete \(users.count == 1 ? "it" : "them") by hand")
      }
    }
    // A strict singleton's private init becomes internal; copy()/mutableCopy() overrides returning self go.
    for member in members where member.kind == .initializer {
      guard let access = member.access, access <= .fileprivate else { continue }
      let file = try project.file(member.range.path)
      guard let node = file.node(at: member.range.bytes)?.as(InitializerDeclSyntax.self),
        let modifier = node.modifiers.first(where: { AccessLevel(keyword: $0.name.text) != nil && $0.detail == nil })
      else { continue }
      plan.add(TextEdit(range: modifier.positionAfterSkippingLeadingTrivia.utf8Offset..<modifier.endPosition.utf8Offset, replacement: ""), in: file.path)
      plan.notes.append("\(member.location.path):\(member.location.line): init is now internal so the root can create the instance")
    }
    for member in members where member.kind == .method && ["copy", "mutableCopy"].contains(member.name) && member.isOverride {
      let file = try project.file(member.range.path)
      guard let node = file.node(at: member.range.bytes)?.as(FunctionDeclSyntax.self), returnsSelf(node) else { continue }
      removals[file.path, default: []].append(Syntax(node))
      plan.notes.append("\(member.location.path):\(member.location.line): removed '\(member.name)()', which returned the shared instance")
    }
    for (path, nodes) in removals.sorted(by: { $0.key < $1.key }) {
      let source = try project.file(path).source
      for range in source.removalRanges(of: nodes) { plan.add(TextEdit(range: range, replacement: ""), in: path) }
    }
    plan.notes.append("'\(singleton.accessExpression)' removed; '\(root)' owns the instance as '\(name)'")
    return plan
  }

  /// How the root creates the instance: the accessor's own initializer where there is one.
  static func instanceExpression(_ singleton: Singleton, members: [MemberDecl], project: Project) throws -> (expression: String, type: String?) {
    let accessor = members.first { $0.name == singleton.accessor && $0.isStatic }
    let backing = singleton.backingStorage.flatMap { name in members.first { $0.name == name && $0.isStatic } }
    for candidate in [accessor, backing].compactMap({ $0 }) where candidate.kind == .property {
      if let text = candidate.initializerText {
        let type = text.hasPrefix("{") ? (candidate.typeText ?? singleton.typeName) : nil
        return (text, type.map { $0 == "Self" ? singleton.typeName : $0 })
      }
    }
    return ("\(singleton.typeName)()", nil)
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
