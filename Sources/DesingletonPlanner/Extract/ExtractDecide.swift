import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftParser
import SwiftSyntax

extension ExtractProtocolPlanner {
  /// Step 2: per slice, each member that can be a requirement: its requirement (in the `#if`
  /// clauses it sits in), the overloads standing in for its defaults, or its move into the protocol
  /// extension. A member that cannot be a requirement stays on the singleton with a note; a named
  /// slice is refused instead.
  static func decide(_ slices: [Slice], traits: ProtocolTraits, _ context: Context) throws -> Design {
    let index = context.index
    var drafter = SliceDrafter(context, traits: traits)
    var leftOut = Set(context.analysis.members.filter { ($0.access ?? .internal) > .fileprivate }.map(\.name))
    var design = Design()
    for slice in slices {
      design.order.append(slice.name)
      leftOut.subtract(slice.members)
      let existing = index.types(named: slice.name).flatMap { index.declarations(of: $0) }
      if existing.contains(where: { $0.kind == .protocol }) {
        let conforms = context.conformed.contains(slice.name)
        if !conforms { design.conformances.append(slice.name) }
        design.existing.append((slice.name, !conforms))
        design.notes.append(Note(conforms ? .kept : .changed, "\(slice.name): exists already; \(conforms ? "nothing to do" : "conformance added")"))
        continue
      }
      let draft = try drafter.draft(slice, design: &design)
      try drafter.add(draft, slice: slice, to: &design)
    }
    drafter.noteLeftOut(leftOut, in: &design)
    return design
  }
}

extension SliceVisibility {
  init(slice: Slice, members: [MemberDecl], _ context: ExtractProtocolPlanner.Context) throws {
    try self.init(slice: slice, members: members, analysis: context.analysis, primary: context.primary, project: context.project)
  }
}

/// Step 2 for one slice at a time: the protocol it becomes, member by member.
struct SliceDrafter {
  typealias Design = ExtractProtocolPlanner.Design

  /// One slice's protocol while its members are placed, with the notes on what it moved and kept.
  struct Draft {
    var created: Design.NewProtocol
    var moved: [String] = []
    var kept: [String] = []
  }

  let context: ExtractProtocolPlanner.Context
  let traits: ProtocolTraits
  var builder: RequirementBuilder
  let nested: Set<String>
  let directory: String
  let indexedPaths: Set<String>

  init(_ context: ExtractProtocolPlanner.Context, traits: ProtocolTraits) {
    self.context = context
    self.traits = traits
    let singleton = context.singleton
    nested = Set(context.allMembers.filter { [.nestedType, .typeAlias].contains($0.kind) }.map(\.name))
    builder = RequirementBuilder(
      typeName: singleton.typeName, nestedTypeNames: nested,
      isValueType: [.struct, .enum].contains(context.primary.kind), index: context.index,
      indentUnit: context.singletonFile.source.indentUnit, accessor: singleton.accessor)
    directory = context.options.outputDirectory
      ?? ProtocolHome.directory(primary: context.primary, references: context.analysis.references, index: context.index)
    indexedPaths = Set(context.index.allPaths.map(ExtractProtocolPlanner.normalizedPath))
  }

  /// The slice's new protocol: its file, its access, and each of its members placed.
  mutating func draft(_ slice: Slice, design: inout Design) throws -> Draft {
    let singleton = context.singleton
    let options = context.options
    let path =
      options.protocolsInSingletonFile
      ? context.primary.path
      : directory.isEmpty || directory == "." ? "\(slice.name).swift" : "\(directory)/\(slice.name).swift"
    // `@objc` requirements only in an `@objc` protocol.
    builder.keepsObjC = traits.objcSlices.contains(slice.name)
    var members = SliceSuggester.requirableMembers(
      named: slice.members, in: context.allMembers, analysis: context.analysis,
      excluding: context.isSuggested ? context.provided : nil)
    var kept: [String] = []
    // The access the protocol needs, and the members that cannot have it: they stay on the singleton.
    let visibility = try SliceVisibility(slice: slice, members: members, context)
    for (member, reason) in visibility.excluded {
      // A name the slice names is refused when none of its overloads can be in it; an overload
      // that cannot (an internal `getItem(_:)` beside a public `getItem(name:completion:)`) stays.
      let overloads = members.filter { $0.name == member.name }
      let allExcluded = overloads.allSatisfy { overload in visibility.excluded.contains { $0.member == overload } }
      guard context.isSuggested || !allExcluded else {
        throw Refusal("'\(member.displayName)' cannot be in slice '\(slice.name)': \(reason)", at: member.location)
      }
      kept.append("\(member.displayName) stays on \(singleton.simpleTypeName): \(reason)")
      design.kept.append(Design.Kept(member: member.displayName, slice: slice.name, reason: reason))
    }
    members.removeAll { member in visibility.excluded.contains { $0.member == member } }
    var draft = Draft(
      created: Design.NewProtocol(name: slice.name, path: path, access: visibility.access > .internal ? visibility.access : nil),
      kept: kept)
    builder.startProtocol(access: draft.created.access, members: slice.members)
    for member in members { try place(member, of: slice, in: &draft, design: &design) }
    return draft
  }

  /// One member: a requirement (with overloads for its defaults), moved into the protocol
  /// extension (--move-derived), or kept on the singleton with the reason.
  private func place(_ member: MemberDecl, of slice: Slice, in draft: inout Draft, design: inout Design) throws {
    let singleton = context.singleton
    let options = context.options
    let file = try context.project.file(member.range.path)
    guard let node = file.node(at: member.range.bytes) else {
      throw Refusal("cannot read the declaration of '\(member.name)'", at: member.location)
    }
    // The clauses around the singleton's declaration go around the whole protocol instead.
    let typeConditions = context.typeConditions
    let conditions =
      context.declarationConditions == nil && member.conditions.starts(with: typeConditions)
      ? Array(member.conditions.dropFirst(typeConditions.count)) : member.conditions
    let obstacle = builder.obstacle(for: member, node: node)
    var keepReason: String?
    if options.moveDerived {
      keepReason = DerivedMemberCheck.reasonToKeep(
        member, node: node, slice: slice, allMembers: context.allMembers, singleton: singleton, index: context.index)
    }
    let writable =
      member.isSettable && (member.setterAccess ?? .internal) > .fileprivate
      && context.analysis.writtenMembers.contains(member.name)
    let split = options.splitMutable && writable && member.kind == .property
      && context.analysis.consumers.contains { $0.reads.contains(member.name) && !$0.writes.contains(member.name) }
    let placing = Placing(member: member, node: node, source: file.source, conditions: conditions, writable: writable, split: split)
    if options.moveDerived, keepReason == nil, obstacle?.allowsMove ?? true {
      try move(placing, obstacle: obstacle, in: &draft, design: &design)
      return
    }
    if let obstacle {
      let reason = builder.reason(obstacle, member: member)
      guard context.isSuggested else {
        let instead =
          obstacle.allowsMove && !options.moveDerived ? " or move it into the protocol extension with --move-derived" : ""
        throw Refusal(
          "'\(member.displayName)' cannot be in slice '\(slice.name)': \(reason); leave it out of the slice\(instead)",
          at: member.location)
      }
      draft.kept.append("\(member.displayName) stays on \(singleton.simpleTypeName): \(reason)")
      design.kept.append(Design.Kept(member: member.displayName, slice: slice.name, reason: reason))
      return
    }
    if let keepReason, member.kind != .property || !member.isStored {
      // A requirement all the same: only its body stays on the singleton.
      draft.kept.append("\(member.name) stays on \(singleton.simpleTypeName): \(keepReason)")
    }
    let output = try require(placing, withOverloads: true, in: &draft)
    draft.created.extensionMembers.append(contentsOf: output.overloads.map { ConditionalText($0, placing.conditions) })
    draft.kept += output.notes
  }

  /// A member being placed: its declaration, `#if` conditions, and whether it is written (settable
  /// in the protocol) and split into a `Mutable...` protocol.
  private struct Placing {
    var member: MemberDecl
    var node: Syntax
    var source: SourceText
    var conditions: [String]
    var writable: Bool
    var split: Bool
  }

  /// The member's requirement, and its settable one in the `Mutable...` protocol when it is split.
  private func require(_ placing: Placing, withOverloads: Bool, in draft: inout Draft) throws -> RequirementBuilder.Output {
    let (member, node, source) = (placing.member, placing.node, placing.source)
    let output = try builder.requirement(
      for: member, node: node, settable: placing.writable && !placing.split, in: source, withOverloads: withOverloads)
    draft.created.requirements.append(ConditionalText(output.requirement, placing.conditions))
    draft.created.required.append(member.name)
    if placing.split {
      let mutable = try builder.requirement(for: member, node: node, settable: true, in: source).requirement
      draft.created.mutableRequirements.append(ConditionalText(mutable, placing.conditions))
      draft.created.mutable.append(member.name)
    }
    return output
  }

  /// --move-derived: the member moves into the protocol extension, a requirement too where it can be one.
  private func move(_ placing: Placing, obstacle: RequirementBuilder.Obstacle?, in draft: inout Draft, design: inout Design) throws {
    let member = placing.member
    // The moved member keeps its default arguments, which protocol extensions allow: no overloads needed.
    // An opaque result type cannot be a requirement: the extension member is all there is.
    if obstacle == nil || obstacle == .variadicWithDefaults {
      _ = try require(placing, withOverloads: false, in: &draft)
    }
    let text = ExtractProtocolPlanner.movedText(
      of: placing.node, in: placing.source, access: draft.created.access, nestedTypes: nested,
      typeName: context.singleton.typeName)
    let memberIndent = placing.source.indentation(at: member.range.bytes.lowerBound)
    let body = reindent(
      text.trimmingTrailingNewlines().trimmingLeadingBlankLines(), from: memberIndent, to: "", lineEnding: "\n")
    draft.created.extensionMembers.append(ConditionalText(body, placing.conditions))
    design.removals[member.range.path, default: []].append(placing.node)
    draft.moved.append(member.name)
    draft.created.moved.append(member.name)
  }

  /// The drafted protocol joins the design, or only a note when nothing in it could be a requirement.
  func add(_ draft: Draft, slice: Slice, to design: inout Design) throws {
    var created = draft.created
    let path = created.path
    let within = context.declarationConditions.flatMap { ConditionLogic.anyOf($0) }.flatMap(ConditionLogic.formula)
    created.requirements = ConditionalText.merged(created.requirements, within: within)
    created.mutableRequirements = ConditionalText.merged(created.mutableRequirements, within: within)
    created.extensionMembers = ConditionalText.merged(created.extensionMembers, within: within)
    if created.requirements.isEmpty && created.extensionMembers.isEmpty {
      // Every member stays on the singleton: an empty protocol would only be cut again.
      design.notes.append(Note(.skipped, "\(slice.name): nothing in it can be a protocol requirement; no protocol"))
      design.empty.append(slice.name)
      design.notes.append(contentsOf: draft.kept.map { Note(.kept, $0, depth: 1) })
      return
    }
    // A file the index read is in the way; one it did not read is the Printer's to refuse when it writes.
    if !context.options.protocolsInSingletonFile && indexedPaths.contains(ExtractProtocolPlanner.normalizedPath(path)) {
      throw Refusal(
        "'\(path)' exists already and does not declare protocol '\(slice.name)'", at: Location(path: path, line: 1, column: 1))
    }
    design.protocols.append(created)
    let conformanceName = created.mutableRequirements.isEmpty ? slice.name : "Mutable" + slice.name
    if !context.conformed.contains(conformanceName) { design.conformances.append(conformanceName) }
    var note = "\(slice.name): \(slice.members.joined(separator: ", ")) -> \(path)"
    if traits.swiftSlicesOfObjCMembers.contains(slice.name) {
      note += "; a Swift protocol: no #selector or #keyPath reaches its @objc members through the accessor"
    }
    if !draft.moved.isEmpty { note += "; moved to extension \(slice.name): \(draft.moved.joined(separator: ", "))" }
    design.notes.append(Note(.created, note))
    design.notes.append(contentsOf: draft.kept.map { Note(.kept, $0, depth: 1) })
  }

  /// The members no slice takes: why each cannot be a requirement, or that it stays on the singleton only.
  func noteLeftOut(_ leftOut: Set<String>, in design: inout Design) {
    let singleton = context.singleton
    var unsliced: [String] = []
    var cannot: [String] = []
    // Members (overloads share a name) that cannot be requirements, said so above.
    var cannotNames: Set<String> = []
    for member in context.analysis.members where leftOut.contains(member.name) && !unsliced.contains(member.name) {
      // A suggestion leaves out what cannot be a requirement: say why.
      if context.isSuggested, (member.access ?? .internal) > .fileprivate,
        let node = try? context.project.file(member.range.path).node(at: member.range.bytes),
        let obstacle = builder.obstacle(for: member, node: node)
      {
        cannot.append("\(member.displayName) stays on \(singleton.simpleTypeName): \(builder.reason(obstacle, member: member))")
        design.kept.append(Design.Kept(member: member.displayName, slice: nil, reason: builder.reason(obstacle, member: member)))
        cannotNames.insert(member.name)
        continue
      }
      if !cannotNames.contains(member.name) { unsliced.append(member.name) }
    }
    design.notes.append(contentsOf: cannot.map { Note(.kept, $0, depth: 1) })
    design.leftOnSingleton = unsliced
    if !unsliced.isEmpty {
      design.notes.append(Note(.kept, "left on \(singleton.simpleTypeName) only: \(unsliced.joined(separator: ", "))"))
    }
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
    let uses = BodyUseCollector(names: names, isMutating: index.isMutatingMethod)
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
    // By name: `messages` may be a private property even where a `messages(from:)` is in the slice.
    let privateOnes = uses.found.sorted().filter { name in
      allMembers.contains { $0.name == name && ($0.access ?? .internal) <= .fileprivate }
    }
    if !privateOnes.isEmpty { return "it uses private state (\(privateOnes.joined(separator: ", ")))" }
    let outside = uses.found.subtracting(inSlice).subtracting([member.name])
    if !outside.isEmpty {
      return "it uses members of other slices (\(outside.sorted().joined(separator: ", ")))"
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
