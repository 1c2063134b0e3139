import DesingletonCore
import DesingletonIndex
import SwiftSyntax

/// How one consumer type uses a singleton.
public struct ConsumerUsage: Sendable, Equatable {
  public var typeName: String
  public var reads: [String] = []
  public var writes: [String] = []
  public var calls: [String] = []
  /// Places where the instance itself is passed on or returned.
  public var instanceUses: [Location] = []
  public var references: [Reference] = []

  public var members: Set<String> { Set(reads + writes + calls) }
}

/// A reference that belongs to no instance of a consumer: top-level code, a global function, a static member.
public struct UnattributedReference: Sendable, Equatable {
  public var reference: Reference
  public var reason: String
}

/// What the index says about one singleton, gathered for the planners and the scan report.
public struct SingletonAnalysis: Sendable {
  public let singleton: Singleton
  /// Every declaration of the singleton type and its extensions.
  public let declarations: [TypeDecl]
  /// Instance members that can become protocol requirements, in source order: those the
  /// singleton's own module sees (`isSeenByItsModule`).
  public let members: [MemberDecl]
  public let references: [Reference]
  public let consumers: [ConsumerUsage]
  /// The consumers that can hold the slices they use (`Holders`): whose usage slicing serves.
  public let receivers: [ConsumerUsage]
  /// Why each other consumer can never hold a slice, by type name: it keeps reading the accessor.
  public let keepsAccessor: [String: String]
  public let unattributed: [UnattributedReference]
  /// Members written through the singleton from anywhere (for `{ get set }`).
  public let writtenMembers: Set<String>
  /// Where the instance the accessor returns is replaced (`reset()` assigning `_shared`, `X.shared = ...`):
  /// a consumer holding the instance would then keep the old one.
  public let reassignments: [Location]

  private let modules: ModuleMap

  /// Whether the singleton's own module sees the member: an extension in a test target's file
  /// (`extension AsyncIO { func read(from:upTo:) }` beside the tests) adds members only the tests
  /// see, which no conformance in the singleton's module can use.
  public func isSeenByItsModule(_ member: MemberDecl) -> Bool {
    Self.isSeenByItsModule(member, singleton: singleton, modules: modules)
  }

  static func isSeenByItsModule(_ member: MemberDecl, singleton: Singleton, modules: ModuleMap) -> Bool {
    modules.file(singleton.declaration.path, canSee: member.range.path)
  }

  public init(singleton: Singleton, project: Project) throws {
    let index = project.index
    self.singleton = singleton
    declarations = index.declarations(of: singleton.typeName)
    let all = declarations.flatMap(\.members)
    let excluded = Set(singleton.accessors + [singleton.backingStorage].compactMap { $0 })
    let modules = project.modules
    self.modules = modules
    members = all.filter { member in
      !member.isStatic && !excluded.contains(member.name)
        && Self.isSeenByItsModule(member, singleton: singleton, modules: modules)
        && [.property, .method, .subscript].contains(member.kind)
        && !(member.isOverride && ["copy", "mutableCopy"].contains(member.name))
    }
    references = index.references(to: singleton)

    var consumers: [String: ConsumerUsage] = [:]
    var unattributed: [UnattributedReference] = []
    var written: Set<String> = []
    for reference in references {
      if case .member(let name, .write) = reference.use { written.insert(name) }
      if reference.use == .unresolvedImplicit {
        let reason = "'.\(reference.accessor)' of a type that cannot be told"
        unattributed.append(UnattributedReference(reference: reference, reason: reason))
        continue
      }
      guard let owner = index.enclosingType(of: reference) else {
        unattributed.append(UnattributedReference(reference: reference, reason: reference.context.memberName == nil ? "top-level code" : "global function"))
        continue
      }
      if owner == singleton.typeName { continue }
      if reference.context.isStatic {
        unattributed.append(UnattributedReference(reference: reference, reason: "static member of '\(owner)'"))
        continue
      }
      var usage = consumers[owner] ?? ConsumerUsage(typeName: owner)
      usage.references.append(reference)
      switch reference.use {
      case .member(let name, .read): if !usage.reads.contains(name) { usage.reads.append(name) }
      case .member(let name, .write): if !usage.writes.contains(name) { usage.writes.append(name) }
      case .member(let name, .call): if !usage.calls.contains(name) { usage.calls.append(name) }
      case .instance, .keyPath: usage.instanceUses.append(reference.location)
      case .alias, .held, .reassignment, .unresolvedImplicit: break
      }
      consumers[owner] = usage
    }
    self.consumers = consumers.keys.sorted().compactMap { consumers[$0] }
    var keeps: [String: String] = [:]
    for usage in self.consumers {
      if let (_, reason) = Holders.obstacle(usage.typeName, singleton: singleton.typeName, index: index) { keeps[usage.typeName] = reason }
    }
    keepsAccessor = keeps
    receivers = self.consumers.filter { keeps[$0.typeName] == nil }
    self.unattributed = unattributed
    self.writtenMembers = written

    var reassignments = references.filter { $0.use == .reassignment }.map(\.location)
    let storage = Set([singleton.backingStorage, singleton.shape == .staticVar || singleton.shape == .closureInitialized ? singleton.accessor : nil].compactMap { $0 })
    if !storage.isEmpty {
      for declaration in declarations {
        let file = try project.file(declaration.path)
        for member in declaration.members where !storage.contains(member.name) && [.method, .property, .initializer].contains(member.kind) {
          guard let node = file.node(at: member.range.bytes) else { continue }
          let collector = StorageWriteFinder(names: storage)
          collector.walk(node)
          reassignments += collector.writes.map { file.source.location(ofOffset: $0) }
        }
      }
    }
    self.reassignments = reassignments
  }

  /// Consumer types using a member.
  public func consumers(of member: String) -> [String] {
    consumers.filter { $0.members.contains(member) }.map(\.typeName)
  }
}

/// The identifiers of `names` that a declaration's body uses as `x` or `self.x`.
enum MemberUseCollector {
  /// The names used bare (`name`) or on `self` (`self.name`), and with `throughTypes`, also on one
  /// of those type names (`Self.name`, `Store.name`: a static member).
  static func names(in node: Syntax, among names: Set<String>, throughTypes types: Set<String> = []) -> Set<String> {
    let visitor = Visitor(names: names, types: types)
    visitor.walk(node)
    return visitor.found
  }

  private final class Visitor: SyntaxVisitor {
    let names: Set<String>
    let types: Set<String>
    var found: Set<String> = []

    init(names: Set<String>, types: Set<String>) {
      self.names = names
      self.types = types
      super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
      let name = node.baseName.text
      guard names.contains(name) else { return .visitChildren }
      if let member = node.parent?.as(MemberAccessExprSyntax.self), member.declName.id == node.id {
        if let base = member.base?.as(DeclReferenceExprSyntax.self),
          base.baseName.tokenKind == .keyword(.self) || types.contains(base.baseName.text)
        {
          found.insert(name)
        } else if let base = member.base, !types.isEmpty, types.contains(base.trimmedDescription) {
          found.insert(name)
        }
        return .visitChildren
      }
      found.insert(name)
      return .visitChildren
    }
  }
}

extension ParsedFile {
  /// The outermost declaration whose trimmed range is exactly `range`.
  public func node(at range: Range<Int>) -> Syntax? {
    guard let token = tree.token(at: AbsolutePosition(utf8Offset: range.lowerBound)) else { return nil }
    var node: Syntax? = Syntax(token)
    while let current = node {
      if current.trimmedByteRange == range, current.is(DeclSyntax.self) { return current }
      if current.trimmedByteRange.upperBound > range.upperBound { return nil }
      node = current.parent
    }
    return nil
  }

  /// The file-level statement holding the declaration at `range` (itself, an enclosing type, or the
  /// `#if` block around it).
  public func topLevelItem(at range: Range<Int>) -> Syntax? {
    var node = self.node(at: range)
    while let current = node {
      if current.is(CodeBlockItemSyntax.self), current.parent?.parent?.is(SourceFileSyntax.self) ?? false { return current }
      node = current.parent
    }
    return nil
  }
}

/// Finds assignments to the singleton's storage (`_shared = ...`, `Self._shared = ...`).
final class StorageWriteFinder: SyntaxVisitor {
  let names: Set<String>
  var writes: [Int] = []

  init(names: Set<String>) {
    self.names = names
    super.init(viewMode: .sourceAccurate)
  }

  override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
    let elements = Array(node.elements)
    for (position, element) in elements.enumerated() where position + 1 < elements.count {
      guard elements[position + 1].is(AssignmentExprSyntax.self) else { continue }
      let name = element.as(DeclReferenceExprSyntax.self)?.baseName.text ?? element.as(MemberAccessExprSyntax.self)?.declName.baseName.text
      if let name, names.contains(name) { writes.append(element.positionAfterSkippingLeadingTrivia.utf8Offset) }
    }
    return .visitChildren
  }
}
