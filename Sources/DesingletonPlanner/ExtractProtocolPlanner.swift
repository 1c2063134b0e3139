import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftSyntax

public struct ExtractProtocolOptions: Sendable {
  /// The slices to cut; nil takes the ones `scan` suggests.
  public var slices: [Slice]?
  /// Move computed members that use only their own slice into a protocol extension.
  public var moveDerived: Bool
  /// Give properties that some consumers write a separate `Mutable...` protocol.
  public var splitMutable: Bool
  /// Where new protocol files go (default: next to the singleton's file).
  public var outputDirectory: String?

  public init(slices: [Slice]? = nil, moveDerived: Bool = false, splitMutable: Bool = false, outputDirectory: String? = nil) {
    self.slices = slices
    self.moveDerived = moveDerived
    self.splitMutable = splitMutable
    self.outputDirectory = outputDirectory
  }
}

/// Cuts a singleton's members into protocols ("slices"), makes the singleton conform, and moves
/// members that depend only on their own slice into a protocol extension. Behaviour is unchanged:
/// the singleton and every call of it keep working.
///
/// ## Before
/// ```swift
/// final class SessionController {
///   static let sharedController = SessionController()
///   var fetchedItems: [Item] = []
///   var availableItems: [Item] { fetchedItems.filter { $0.status == .available } }
///   func fetchAvailableItems() { ... }
/// }
/// ```
/// ## After (`--slice ItemFetcher=fetchedItems,availableItems,fetchAvailableItems --move-derived`)
/// ```swift
/// protocol ItemFetcher: AnyObject {
///   var fetchedItems: [Item] { get }
///   var availableItems: [Item] { get }
///   func fetchAvailableItems()
/// }
///
/// extension ItemFetcher {
///   var availableItems: [Item] { fetchedItems.filter { $0.status == .available } }
/// }
///
/// extension SessionController: ItemFetcher {}
/// ```
public enum ExtractProtocolPlanner {
  public static func plan(singleton: Singleton, options: ExtractProtocolOptions, project: Project) throws -> Plan {
    let index = project.index
    let analysis = try SingletonAnalysis(singleton: singleton, project: project)
    guard let primary = analysis.declarations.first(where: { !$0.isExtension }) else {
      throw Refusal("cannot find the declaration of '\(singleton.typeName)'", at: singleton.declaration.start)
    }
    let singletonFile = try project.file(primary.path)
    // A suggested name may be an existing protocol (a slice cut earlier), not another existing type.
    let slices = options.slices ?? SliceSuggester.suggest(analysis, isTaken: { name in
      index.hasType(name) && !index.declarations(of: name).contains { $0.kind == .protocol }
    }).slices
    if slices.isEmpty {
      // Nothing any consumer uses is left on the singleton (or never was): nothing to cut.
      return Plan(notes: ["nothing to slice: no consumer uses a member of '\(singleton.typeName)' that no protocol has; name members with --slice"])
    }
    let allMembers = analysis.declarations.flatMap(\.members)
    try validate(slices, singleton: singleton, primary: primary, members: allMembers, index: index)

    let nested = Set(allMembers.filter { [.nestedType, .typeAlias].contains($0.kind) }.map(\.name))
    let traits = ProtocolTraits(primary: primary, declarations: analysis.declarations, members: allMembers, slices: slices)
    let builder = RequirementBuilder(
      typeName: singleton.typeName, nestedTypeNames: nested,
      isValueType: [.struct, .enum].contains(primary.kind), index: index,
      indentUnit: singletonFile.source.indentUnit, extensionAccess: traits.access)

    var plan = Plan()
    var conformances: [String] = []
    let conformed = ExtractProtocolPlanner.conformances(of: analysis.declarations, index: index)
    let lineEnding = singletonFile.source.lineEnding
    let indent = singletonFile.source.indentUnit
    let imports = importLines(of: singletonFile)
    let directory = options.outputDirectory ?? (primary.path as NSString).deletingLastPathComponent
    var leftOut = Set(analysis.members.filter { ($0.access ?? .internal) > .fileprivate }.map(\.name))

    var removals: [String: [Syntax]] = [:]
    for slice in slices {
      leftOut.subtract(slice.members)
      let existing = index.types(named: slice.name).flatMap { index.declarations(of: $0) }
      if existing.contains(where: { $0.kind == .protocol }) {
        if !conformed.contains(slice.name) { conformances.append(slice.name) }
        plan.notes.append("\(slice.name): exists already; \(conformed.contains(slice.name) ? "nothing to do" : "conformance added")")
        continue
      }
      let members = slice.members.flatMap { name in allMembers.filter { $0.name == name && $0.kind != .initializer } }
      var requirements: [String] = []
      var mutableRequirements: [String] = []
      var extensionMembers: [String] = []
      var moved: [String] = []
      var kept: [String] = []
      for member in members {
        guard let node = try project.file(member.range.path).node(at: member.range.bytes) else {
          throw Refusal("cannot read the declaration of '\(member.name)'", at: member.location)
        }
        let writable = member.isSettable && (member.setterAccess ?? .internal) > .fileprivate
          && analysis.writtenMembers.contains(member.name)
        let split = options.splitMutable && writable && member.kind == .property
          && analysis.consumers.contains { $0.reads.contains(member.name) && !$0.writes.contains(member.name) }
        let output = try builder.requirement(for: member, node: node, settable: writable && !split, in: try project.file(member.range.path).source)
        requirements.append(output.requirement)
        if split {
          mutableRequirements.append(try builder.requirement(for: member, node: node, settable: true, in: try project.file(member.range.path).source).requirement)
        }
        let overloadsAt = extensionMembers.count
        extensionMembers.append(contentsOf: output.overloads)
        if options.moveDerived {
          let file = try project.file(member.range.path)
          if let reason = DerivedMemberCheck.reasonToKeep(member, node: node, slice: slice, allMembers: allMembers, singleton: singleton, index: index) {
            if member.kind != .property || !member.isStored { kept.append("\(member.name) stays on \(singleton.simpleTypeName): \(reason)") }
          } else {
            let text = movedText(of: node, in: file.source, access: traits.access, nestedTypes: nested, typeName: singleton.typeName)
            let memberIndent = file.source.indentation(at: member.range.bytes.lowerBound)
            extensionMembers.append(reindent(text.trimmingTrailingNewlines().trimmingLeadingBlankLines(), from: memberIndent, to: "", lineEnding: "\n"))
            removals[member.range.path, default: []].append(node)
            moved.append(member.name)
            // The moved member keeps its default arguments, which protocol extensions allow: no overloads needed.
            extensionMembers.removeSubrange(overloadsAt..<(overloadsAt + output.overloads.count))
          }
        }
      }
      var file = imports.isEmpty ? "" : imports.joined(separator: "\n") + "\n\n"
      file += traits.protocolHeader(name: slice.name, refining: nil)
      file += requirements.map { indent + $0 + "\n" }.joined() + "}\n"
      var conformanceName = slice.name
      if !mutableRequirements.isEmpty {
        file += "\n" + traits.protocolHeader(name: "Mutable" + slice.name, refining: slice.name)
        file += mutableRequirements.map { indent + $0 + "\n" }.joined() + "}\n"
        conformanceName = "Mutable" + slice.name
      }
      if !extensionMembers.isEmpty {
        file += "\n" + traits.extensionAttributes + "extension \(slice.name) {\n"
        file += extensionMembers.map { member in
          member.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : indent + $0 }.joined(separator: "\n")
        }.joined(separator: "\n\n") + "\n}\n"
      }
      let path = directory.isEmpty || directory == "." ? "\(slice.name).swift" : "\(directory)/\(slice.name).swift"
      if FileManager.default.fileExists(atPath: path) {
        throw Refusal("'\(path)' exists already and does not declare protocol '\(slice.name)'", at: Location(path: path, line: 1, column: 1))
      }
      plan.newFiles[path] = file.withLineEnding(lineEnding)
      if !conformed.contains(conformanceName) { conformances.append(conformanceName) }
      var note = "\(slice.name): \(slice.members.joined(separator: ", ")) -> \(path)"
      if !moved.isEmpty { note += "; moved to extension \(slice.name): \(moved.joined(separator: ", "))" }
      plan.notes.append(note)
      plan.notes.append(contentsOf: kept.map { "  \($0)" })
    }
    for (path, nodes) in removals.sorted(by: { $0.key < $1.key }) {
      let source = try project.file(path).source
      for range in source.removalRanges(of: nodes) { plan.add(TextEdit(range: range, replacement: ""), in: path) }
    }
    if !conformances.isEmpty {
      let source = singletonFile.source
      let endsWithNewline = source.bytes.last == UInt8(ascii: "\n")
      let text = (endsWithNewline ? "" : lineEnding) + lineEnding
        + "extension \(singleton.typeName): \(conformances.joined(separator: ", ")) {}" + lineEnding
      plan.add(.insert(text, at: source.bytes.count), in: primary.path)
    }
    let unsliced = analysis.members.map(\.name).filter { leftOut.contains($0) }.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
    if !unsliced.isEmpty {
      plan.notes.append("left on \(singleton.simpleTypeName) only: \(unsliced.joined(separator: ", "))")
    }
    return plan
  }

  /// Protocols the singleton conforms to, with the protocols they refine.
  static func conformances(of declarations: [TypeDecl], index: Index) -> Set<String> {
    var result: Set<String> = []
    var pending = declarations.flatMap(\.inherited)
    while let written = pending.popLast() {
      let name = written.split(separator: ".").last.map(String.init) ?? written
      guard result.insert(name).inserted else { continue }
      for declaration in index.declarations(of: index.resolveType(written)) where declaration.kind == .protocol {
        pending.append(contentsOf: declaration.inherited)
      }
    }
    return result
  }

  static func validate(_ slices: [Slice], singleton: Singleton, primary: TypeDecl, members: [MemberDecl], index: Index) throws {
    var diagnostics: [Diagnostic] = []
    var owner: [String: String] = [:]
    for slice in slices {
      let existing = index.types(named: slice.name).flatMap { index.declarations(of: $0) }
      let existingProtocol = existing.first { $0.kind == .protocol }
      if slice.name == singleton.simpleTypeName {
        diagnostics.append(.error("slice '\(slice.name)' has the singleton's own name", at: primary.location))
      } else if existingProtocol == nil, let clash = existing.first {
        diagnostics.append(.error("slice '\(slice.name)' clashes with \(clash.kind.rawValue) '\(clash.qualifiedName)', which is not a protocol", at: clash.location))
      }
      if slice.members.isEmpty {
        diagnostics.append(.error("slice '\(slice.name)' names no members", at: primary.location))
      }
      for name in slice.members {
        if let other = owner[name] {
          diagnostics.append(.error("member '\(name)' is named in two slices, '\(other)' and '\(slice.name)'", at: primary.location))
          continue
        }
        owner[name] = slice.name
        let matching = members.filter { $0.name == name && [.property, .method, .subscript].contains($0.kind) }
        if matching.isEmpty {
          // A member moved into an existing slice protocol by an earlier run.
          if let existingProtocol, existingProtocol.members.contains(where: { $0.name == name }) { continue }
          if name == "init" || members.contains(where: { $0.name == name }) {
            diagnostics.append(.error("'\(name)' cannot be a protocol requirement", at: primary.location))
          } else {
            diagnostics.append(.error("'\(singleton.typeName)' has no member '\(name)'", at: primary.location))
          }
          continue
        }
        if existingProtocol != nil { continue }
        for member in matching {
          if singleton.accessors.contains(member.name) || member.name == singleton.backingStorage {
            diagnostics.append(.error("'\(name)' is the singleton's accessor and cannot be sliced", at: member.location))
          } else if let access = member.access, access <= .fileprivate {
            diagnostics.append(.error("'\(name)' is \(access.keyword) and cannot be a protocol requirement; make it internal or leave it out of the slice", at: member.location))
          }
        }
      }
    }
    if !diagnostics.isEmpty { throw Refusal(diagnostics) }
  }

  static func importLines(of file: ParsedFile) -> [String] {
    file.tree.statements.compactMap { $0.item.as(ImportDeclSyntax.self)?.trimmedDescription }
  }

  /// A moved member keeps its doc comment and body; `final`, `dynamic` and its own access go, and the
  /// protocol's access (when it is not internal) comes in their place.
  static func movedText(of node: Syntax, in source: SourceText, access: AccessLevel?, nestedTypes: Set<String> = [], typeName: String = "") -> String {
    let range = source.removalRange(of: node)
    var modifiers: DeclModifierListSyntax?
    var keyword: TokenSyntax?
    if let variable = node.as(VariableDeclSyntax.self) {
      modifiers = variable.modifiers
      keyword = variable.bindingSpecifier
    } else if let function = node.as(FunctionDeclSyntax.self) {
      modifiers = function.modifiers
      keyword = function.funcKeyword
    }
    guard let keyword else { return source.text(range) }
    var edits: [TextEdit] = []
    let dropped: Set<String> = ["final", "dynamic", "public", "internal", "package", "open"]
    var insertAt = keyword.positionAfterSkippingLeadingTrivia.utf8Offset
    for modifier in modifiers ?? [] {
      let start = modifier.positionAfterSkippingLeadingTrivia.utf8Offset
      if dropped.contains(modifier.name.text) && modifier.detail == nil {
        edits.append(TextEdit(range: start..<modifier.endPosition.utf8Offset, replacement: ""))
      } else {
        insertAt = min(insertAt, start)
      }
    }
    if let access { edits.append(.insert(access.keyword + " ", at: insertAt)) }
    // The singleton's nested types are not in scope in a protocol extension: qualify them.
    if !nestedTypes.isEmpty {
      let finder = NameUseFinder(names: nestedTypes)
      finder.walk(node)
      for use in finder.uses { edits.append(.insert(typeName + ".", at: use.offset)) }
    }
    var bytes = Array(source.bytes[range])
    for edit in edits.sorted(by: >) {
      bytes.replaceSubrange((edit.range.lowerBound - range.lowerBound)..<(edit.range.upperBound - range.lowerBound), with: Array(edit.replacement.utf8))
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// How the singleton's protocols are declared: isolation, class-bound, Sendable, `@objc`, access.
struct ProtocolTraits {
  var attributes: [String] = []
  var inherited: [String] = []
  var access: AccessLevel?
  var isolation: String?

  init(primary: TypeDecl, declarations: [TypeDecl], members: [MemberDecl], slices: [Slice]) {
    isolation = primary.attributes.first(where: isGlobalActorAttribute)
    let sliced = Set(slices.flatMap(\.members))
    let objc = members.contains { sliced.contains($0.name) && $0.attributes.contains("@objc") }
    if objc { attributes.append("@objc") }
    if let isolation { attributes.append(isolation) }
    let inheritance = Set(declarations.flatMap(\.inherited))
    switch primary.kind {
    case .class:
      inherited.append("AnyObject")
      if isolation != nil || inheritance.contains("Sendable") || inheritance.contains("@unchecked Sendable") {
        inherited.append("Sendable")
      }
    case .actor:
      inherited.append("Actor")
    default:
      if objc { inherited.append("AnyObject") }
      if inheritance.contains("Sendable") { inherited.append("Sendable") }
    }
    var level = primary.access ?? .internal
    if level == .open { level = .public }
    for member in members where sliced.contains(member.name) {
      var memberLevel = member.access ?? .internal
      if memberLevel == .open { memberLevel = .public }
      level = min(level, memberLevel)
    }
    access = level > .internal ? level : nil
  }

  func protocolHeader(name: String, refining parent: String?) -> String {
    var text = attributes.map { $0 + "\n" }.joined()
    text += (access.map { $0.keyword + " " } ?? "") + "protocol \(name)"
    let parents = parent.map { [$0] } ?? inherited
    if !parents.isEmpty { text += ": " + parents.joined(separator: ", ") }
    return text + " {\n"
  }

  var extensionAttributes: String {
    isolation.map { $0 + "\n" } ?? ""
  }
}

/// Whether a member can move from the singleton into its slice's protocol extension.
enum DerivedMemberCheck {
  static func reasonToKeep(
    _ member: MemberDecl, node: Syntax, slice: Slice, allMembers: [MemberDecl], singleton: Singleton, index: Index
  ) -> String? {
    if member.kind == .property && member.isStored { return "it is stored" }
    if member.kind == .subscript { return "it is a subscript" }
    if member.isOverride { return "it overrides a superclass member" }
    if member.attributes.contains("@objc") { return "it is @objc" }
    if let access = member.access, access <= .fileprivate { return "it is \(access.keyword)" }
    if node.as(VariableDeclSyntax.self)?.bindings.count ?? 1 > 1 { return "it shares its declaration with other properties" }
    let names = Set(allMembers.filter { [.property, .method, .subscript].contains($0.kind) }.map(\.name))
    let inSlice = Set(slice.members)
    let uses = BodyUseCollector(names: names, mutatingNames: index.mutatingMethodNames)
    uses.walk(node)
    if uses.usesSuper { return "it uses 'super'" }
    // The protocol extension lives in another file: file-private declarations are out of its reach.
    if let file = node.root.as(SourceFileSyntax.self) {
      let hidden = filePrivateNames(in: file)
      if !hidden.isEmpty {
        let collector = BodyUseCollector(names: hidden)
        collector.walk(node)
        let identifiers = NameUseFinder(names: hidden)
        identifiers.walk(node)
        if let name = collector.found.union(identifiers.found).sorted().first {
          return "it uses '\(name)', which is private to its file"
        }
      }
    }
    if uses.usesSelfDirectly { return "it uses 'self' as a value" }
    if uses.writes { return "it changes the singleton's state" }
    let outside = uses.found.subtracting(inSlice).subtracting([member.name])
    if !outside.isEmpty {
      let sorted = outside.sorted()
      let privateOnes = sorted.filter { name in allMembers.contains { $0.name == name && ($0.access ?? .internal) <= .fileprivate } }
      if !privateOnes.isEmpty { return "it uses private state (\(privateOnes.joined(separator: ", ")))" }
      return "it uses members of other slices (\(sorted.joined(separator: ", ")))"
    }
    var pending = index.subclasses(of: singleton.typeName)
    var seen: Set<String> = []
    while let type = pending.popLast() {
      guard seen.insert(type).inserted else { continue }
      if index.members(of: type).contains(where: { $0.name == member.name && $0.isOverride }) {
        return "'\(type)' overrides it"
      }
      pending.append(contentsOf: index.subclasses(of: type))
    }
    return nil
  }
}

/// Names declared `private` or `fileprivate` at the top level of a file.
func filePrivateNames(in file: SourceFileSyntax) -> Set<String> {
  var names: Set<String> = []
  for item in file.statements {
    guard let decl = item.item.as(DeclSyntax.self) else {
      continue
    }
    var visit: [DeclSyntax] = [decl]
    if let ifConfig = decl.as(IfConfigDeclSyntax.self) {
      visit = ifConfig.clauses.flatMap { clause -> [DeclSyntax] in
        guard case .statements(let statements) = clause.elements else { return [] }
        return statements.compactMap { $0.item.as(DeclSyntax.self) }
      }
    }
    for decl in visit {
      let modifiers = decl.asProtocol(WithModifiersSyntax.self)?.modifiers
      guard let level = modifiers?.accessLevel, level <= .fileprivate else { continue }
      if let variable = decl.as(VariableDeclSyntax.self) {
        for binding in variable.bindings {
          if let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text { names.insert(name) }
        }
      } else if let function = decl.as(FunctionDeclSyntax.self) {
        names.insert(function.name.text)
      } else if let type = decl.asProtocol(NamedDeclSyntax.self) {
        names.insert(type.name.text)
      }
    }
  }
  return names
}


/// Which members a body uses, and whether it uses `super`, `self` as a value, or writes a member.
final class BodyUseCollector: SyntaxVisitor {
  let names: Set<String>
  /// Methods that may mutate the value they are called on.
  let mutatingNames: Set<String>
  var found: Set<String> = []
  var usesSuper = false
  var usesSelfDirectly = false
  var writes = false

  init(names: Set<String>, mutatingNames: Set<String> = []) {
    self.names = names
    self.mutatingNames = mutatingNames
    super.init(viewMode: .sourceAccurate)
  }

  override func visit(_ node: SuperExprSyntax) -> SyntaxVisitorContinueKind {
    usesSuper = true
    return .skipChildren
  }

  override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
    let name = node.baseName.text
    if node.baseName.tokenKind == .keyword(.self) || name == "Self" {
      let isBase = node.parent?.as(MemberAccessExprSyntax.self).map { $0.base?.id == node.id } ?? false
      if !isBase { usesSelfDirectly = true }
      return .visitChildren
    }
    guard names.contains(name) else { return .visitChildren }
    var accessed = Syntax(node)
    if let member = node.parent?.as(MemberAccessExprSyntax.self), member.declName.id == node.id {
      guard let base = member.base?.as(DeclReferenceExprSyntax.self), base.baseName.tokenKind == .keyword(.self) else {
        return .visitChildren
      }
      accessed = Syntax(member)
    }
    found.insert(name)
    if isWriteTarget(accessed) { writes = true }
    return .visitChildren
  }

  private func isWriteTarget(_ node: Syntax) -> Bool {
    var current = node
    while let parent = current.parent {
      // A method called on a value reached through a member may mutate it.
      if let call = parent.as(FunctionCallExprSyntax.self), call.calledExpression.id == current.id, current.id != node.id {
        let method = current.as(MemberAccessExprSyntax.self)?.declName.baseName.text ?? ""
        return mutatingNames.contains(method)
      }
      if let member = parent.as(MemberAccessExprSyntax.self), member.base?.id == current.id {
        current = parent
        continue
      }
      if let subscriptCall = parent.as(SubscriptCallExprSyntax.self), subscriptCall.calledExpression.id == current.id {
        current = parent
        continue
      }
      break
    }
    guard let parent = current.parent else { return false }
    if parent.is(InOutExprSyntax.self) { return true }
    if let list = parent.as(ExprListSyntax.self) {
      let elements = Array(list)
      if let position = elements.firstIndex(where: { $0.id == current.id }), position + 1 < elements.count {
        let next = elements[position + 1]
        if next.is(AssignmentExprSyntax.self) { return true }
        if let op = next.as(BinaryOperatorExprSyntax.self)?.operator.text, op.hasSuffix("="),
          !["==", "!=", "<=", ">=", "===", "!=="].contains(op)
        {
          return true
        }
      }
    }
    return false
  }
}

extension String {
  /// Drops whole blank lines at the start, keeping the indentation of the first line with text.
  func trimmingLeadingBlankLines() -> String {
    var lines = split(separator: "\n", omittingEmptySubsequences: false)
    while let first = lines.first, first.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }), lines.count > 1 { lines.removeFirst() }
    return lines.joined(separator: "\n")
  }

  func trimmingTrailingNewlines() -> String {
    var result = self
    while let last = result.last, last == "\n" || last == "\r" { result.removeLast() }
    return result
  }
}

/// Where a node names one of `names` on its own, as a type (`Event`) or a value (`Event(...)`,
/// `helper`), not as the member of something else (`x.helper`).
final class NameUseFinder: SyntaxVisitor {
  let names: Set<String>
  /// Each use: the name and the offset where it starts.
  var uses: [(name: String, offset: Int)] = []

  init(names: Set<String>) {
    self.names = names
    super.init(viewMode: .sourceAccurate)
  }

  var found: Set<String> { Set(uses.map(\.name)) }

  override func visit(_ node: IdentifierTypeSyntax) -> SyntaxVisitorContinueKind {
    if names.contains(node.name.text) { uses.append((node.name.text, node.positionAfterSkippingLeadingTrivia.utf8Offset)) }
    return .visitChildren
  }

  override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
    guard names.contains(node.baseName.text) else { return .visitChildren }
    if let member = node.parent?.as(MemberAccessExprSyntax.self), member.declName.id == node.id { return .visitChildren }
    uses.append((node.baseName.text, node.positionAfterSkippingLeadingTrivia.utf8Offset))
    return .visitChildren
  }
}
