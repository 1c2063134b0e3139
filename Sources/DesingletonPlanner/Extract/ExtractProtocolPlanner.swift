import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftParser
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
  /// Write the protocols into the singleton's file, after the type, instead of new files.
  public var protocolsInSingletonFile: Bool
  /// At most this many suggested slices (without `slices`).
  public var maxSlices: Int

  public init(
    slices: [Slice]? = nil, moveDerived: Bool = false, splitMutable: Bool = false, outputDirectory: String? = nil,
    protocolsInSingletonFile: Bool = false, maxSlices: Int = SliceSuggester.defaultMaxSlices
  ) {
    self.maxSlices = maxSlices
    self.slices = slices
    self.moveDerived = moveDerived
    self.splitMutable = splitMutable
    self.outputDirectory = outputDirectory
    self.protocolsInSingletonFile = protocolsInSingletonFile
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
  // Steps, in order (each a function below):
  // 1. `chooseSlices`: the named slices, validated, or suggested ones;
  // 2. `decide`: a `Design`, the protocols to create with their requirements, overloads and moved
  //    members, the conformances, and the notes;
  // 3. `write`: the new files and the edits.
  public static func plan(singleton: Singleton, options: ExtractProtocolOptions, project: Project) throws -> Plan {
    try run(singleton: singleton, options: options, project: project).plan
  }

  /// The plan and what it decided (`--format json`).
  public static func run(
    singleton: Singleton, options: ExtractProtocolOptions, project: Project
  ) throws -> (plan: Plan, report: ExtractProtocolReport) {
    let context = try Context(singleton: singleton, options: options, project: project)
    let slices = try chooseSlices(context)
    if slices.isEmpty {
      // Every suggested slice is cut already (or nothing is used): a second run plans nothing.
      let plan = Plan(notes: [
        "nothing to slice: the protocols of '\(singleton.typeName)' already have every slice suggested for it; "
          + "name members with --slice to cut more"
      ])
      return (plan, Design().report(singleton: singleton))
    }
    var traits = ProtocolTraits(
      primary: context.primary, declarations: context.analysis.declarations, members: context.allMembers, slices: slices,
      index: context.index, objcDispatched: try objcDispatchedMembers(context))
    if let typed = context.accessorProtocol {
      // The slices become parents of the accessor's protocol: they may ask no more of its conformers than it does.
      traits.inherited = traits.inherited.filter { typed.inherited.contains($0) || ($0 == "AnyObject" && typed.inherited.contains("class")) }
      traits.attributes = traits.attributes.filter(typed.attributes.contains)
      if let isolation = traits.isolation, !typed.attributes.contains(isolation) { traits.isolation = nil }
    }
    let design = try decide(slices, traits: traits, context)
    var plan = try write(design, traits: traits, context)
    // The protocols and the conformance build only together: one piece.
    plan.parts = [PlanPart(name: "Slices", newFiles: Set(plan.newFiles.keys))]
    return (plan, design.report(singleton: singleton))
  }

  /// What the steps share: the singleton, its declarations and the protocols it has.
  struct Context {
    let singleton: Singleton
    let options: ExtractProtocolOptions
    let project: Project
    let analysis: SingletonAnalysis
    let primary: TypeDecl
    let singletonFile: ParsedFile
    let allMembers: [MemberDecl]
    /// The `#if` clauses around the singleton's declaration: its protocols and conformance sit in the same ones.
    /// A type declared once per platform (`#if os(Linux) … #elseif os(Windows) …`) has one condition,
    /// any of its declarations' (none when they cover every platform).
    let typeConditions: [String]
    /// The declarations' conditions, when the type is declared more than once under `#if`: a member's
    /// own conditions then stay whole, and it is required unconditionally when every declaration has it.
    let declarationConditions: [[String]]?
    let conformed: Set<String>
    let provided: ProvidedMembers
    /// The declaration of the protocol the accessor is typed as, which refines the new slices.
    let accessorProtocol: TypeDecl?

    init(singleton: Singleton, options: ExtractProtocolOptions, project: Project) throws {
      if singleton.isForeign {
        throw Refusal(
          "'\(singleton.typeName)' is declared outside the project: the signatures of its members are not known here, "
            + "so no protocol can be written from them; declare the protocol by hand and conform with "
            + "'extension \(singleton.typeName): YourProtocol {}'",
          at: singleton.declaration.start)
      }
      self.singleton = singleton
      self.options = options
      self.project = project
      analysis = try SingletonAnalysis(singleton: singleton, project: project)
      guard let primary = analysis.declarations.first(where: { !$0.isExtension }) else {
        throw Refusal("cannot find the declaration of '\(singleton.typeName)'", at: singleton.declaration.start)
      }
      self.primary = primary
      singletonFile = try project.file(primary.path)
      allMembers = analysis.declarations.flatMap(\.members)
      let alternatives = try analysis.declarations.filter { !$0.isExtension }.map { declaration in
        try project.file(declaration.path).node(at: declaration.range.bytes).map(IfConfigCondition.conditions(around:)) ?? []
      }
      if alternatives.count > 1 {
        declarationConditions = alternatives
        let any = ConditionLogic.anyOf(alternatives)
        let always = any.flatMap(ConditionLogic.formula).map { ConditionLogic.implies(nil, $0) } ?? true
        typeConditions = always ? [] : any.map { [$0] } ?? []
      } else {
        declarationConditions = nil
        typeConditions = alternatives.first ?? []
      }
      conformed = ExtractProtocolPlanner.conformances(of: analysis.declarations, index: project.index)
      // The protocol the accessor is typed as is the one being cut into slices.
      provided = ProvidedMembers(
        protocols: conformed.subtracting([singleton.accessorProtocol].compactMap { $0 }), index: project.index)
      accessorProtocol = singleton.accessorProtocol.flatMap { name in
        project.index.declarations(of: project.index.resolveType(name)).first { $0.kind == .protocol }
      }
      if let typed = singleton.accessorProtocol, accessorProtocol == nil {
        throw Refusal(
          "the accessor of '\(singleton.typeName)' is typed as '\(typed)', a protocol this code does not declare: "
            + "it cannot be made to refine the slices, so code using the accessor could not use them",
          at: singleton.declaration.start)
      }
    }

    var index: Index { project.index }
    var isSuggested: Bool { options.slices == nil }
  }

  /// What the command decided, before any text is written: the protocols to create, the members
  /// they take out of the singleton, the conformances, and the notes.
  struct Design {
    struct NewProtocol {
      var name: String
      var path: String
      /// The protocol's access (nil: internal), which its extension members share.
      var access: AccessLevel?
      var requirements: [ConditionalText] = []
      /// Requirements of the `Mutable...` protocol refining this one (--split-mutable).
      var mutableRequirements: [ConditionalText] = []
      /// Overloads standing in for default arguments, and moved members.
      var extensionMembers: [ConditionalText] = []
      /// The members that became requirements, moved into the extension, or joined `Mutable...`, by name.
      var required: [String] = []
      var moved: [String] = []
      var mutable: [String] = []
    }

    /// A member that stays on the singleton, and why; `slice` is nil for one no slice was suggested for.
    struct Kept {
      var member: String
      var slice: String?
      var reason: String
    }

    var protocols: [NewProtocol] = []
    /// Slices named after protocols that exist: whether the singleton now conforms.
    var existing: [(name: String, conformanceAdded: Bool)] = []
    /// Slices that got no protocol: nothing in them could be a requirement.
    var empty: [String] = []
    var kept: [Kept] = []
    /// Members no slice takes.
    var leftOnSingleton: [String] = []
    /// The slices' names, in the order they were chosen.
    var order: [String] = []
    /// Declarations of moved members, by file.
    var removals: [String: [Syntax]] = [:]
    /// The protocols the singleton's new conformance extension lists.
    var conformances: [String] = []
    var notes: [String] = []
  }

  /// The slices `extract-protocol` takes without `--slice`, and what it leaves: the one suggestion
  /// that `scan` prints and `extract-protocol` carries out. Members a protocol of the singleton already
  /// provides are not suggested again, members that cannot be requirements are left out with the
  /// reason, and no name is a type the project has.
  public static func suggestedSlices(
    _ analysis: SingletonAnalysis, project: Project, maxSlices: Int = SliceSuggester.defaultMaxSlices
  ) -> SliceSuggestion {
    let index = project.index
    guard !analysis.singleton.isForeign else { return SliceSuggestion() }
    // An accessor typed as a protocol the code does not declare is refused: suggest nothing.
    if let typed = analysis.singleton.accessorProtocol,
      !index.declarations(of: index.resolveType(typed)).contains(where: { $0.kind == .protocol })
    {
      return SliceSuggestion()
    }
    let conformed = conformances(of: analysis.declarations, index: index)
    var provided = ProvidedMembers(protocols: conformed, index: index)
    // The protocol the accessor is typed as is the one being cut: its members are suggested again.
    if let typed = analysis.singleton.accessorProtocol {
      provided = ProvidedMembers(protocols: conformed.subtracting([typed]), index: index)
    }
    let allMembers = analysis.declarations.flatMap(\.members)
    let nested = Set(allMembers.filter { [.nestedType, .typeAlias].contains($0.kind) }.map(\.name))
    let primaryKind = analysis.declarations.first { !$0.isExtension }?.kind
    let builder = RequirementBuilder(
      typeName: analysis.singleton.typeName, nestedTypeNames: nested, isValueType: [.struct, .enum].contains(primaryKind),
      index: index)
    return SliceSuggester.suggest(
      analysis, maxSlices: maxSlices, isTaken: { name in index.hasType(name) || !index.types(named: name).isEmpty },
      isProvided: provided.contains,
      obstacle: { member in
        guard let file = try? project.file(member.range.path), let node = file.node(at: member.range.bytes) else {
          return "its declaration cannot be read"
        }
        return builder.obstacle(for: member, node: node).map { builder.reason($0, member: member) }
      })
  }

  /// Step 1: the slices named with --slice (validated), or the ones suggested from the members no
  /// protocol of the singleton provides yet, under names no type in the project has.
  static func chooseSlices(_ context: Context) throws -> [Slice] {
    let index = context.index
    // An existing protocol of a suggested name would not declare the members suggested for it.
    let slices =
      context.options.slices
      ?? suggestedSlices(context.analysis, project: context.project, maxSlices: context.options.maxSlices).slices
    if !slices.isEmpty {
      try validate(
        slices, singleton: context.singleton, primary: context.primary, members: context.allMembers,
        conformed: context.conformed, index: index)
    }
    return slices
  }

  /// Step 2: per slice, each member that can be a requirement: its requirement (in the `#if`
  /// clauses it sits in), the overloads standing in for its defaults, or its move into the protocol
  /// extension. A member that cannot be a requirement stays on the singleton with a note; a named
  /// slice is refused instead.
  static func decide(_ slices: [Slice], traits: ProtocolTraits, _ context: Context) throws -> Design {
    let singleton = context.singleton
    let options = context.options
    let analysis = context.analysis
    let allMembers = context.allMembers
    let index = context.index
    let nested = Set(allMembers.filter { [.nestedType, .typeAlias].contains($0.kind) }.map(\.name))
    var builder = RequirementBuilder(
      typeName: singleton.typeName, nestedTypeNames: nested,
      isValueType: [.struct, .enum].contains(context.primary.kind), index: index,
      indentUnit: context.singletonFile.source.indentUnit, accessor: singleton.accessor)
    let directory = options.outputDirectory ?? (context.primary.path as NSString).deletingLastPathComponent
    let indexedPaths = Set(index.allPaths.map(normalizedPath))
    var leftOut = Set(analysis.members.filter { ($0.access ?? .internal) > .fileprivate }.map(\.name))
    var design = Design()

    for slice in slices {
      design.order.append(slice.name)
      leftOut.subtract(slice.members)
      let existing = index.types(named: slice.name).flatMap { index.declarations(of: $0) }
      if existing.contains(where: { $0.kind == .protocol }) {
        let conforms = context.conformed.contains(slice.name)
        if !conforms { design.conformances.append(slice.name) }
        design.existing.append((slice.name, !conforms))
        design.notes.append("\(slice.name): exists already; \(conforms ? "nothing to do" : "conformance added")")
        continue
      }
      let path =
        options.protocolsInSingletonFile
        ? context.primary.path
        : directory.isEmpty || directory == "." ? "\(slice.name).swift" : "\(directory)/\(slice.name).swift"
      // `@objc` requirements only in an `@objc` protocol.
      builder.keepsObjC = traits.objcSlices.contains(slice.name)
      var members = slice.members.flatMap { name in
        allMembers.filter {
          $0.name == name && isCandidate($0, singleton: singleton) && !(context.isSuggested && context.provided.contains($0))
        }
      }
      var moved: [String] = []
      var kept: [String] = []
      // The access the protocol needs, and the members that cannot have it: they stay on the singleton.
      let visibility = try SliceVisibility(slice: slice, members: members, context)
      for (member, reason) in visibility.excluded {
        guard context.isSuggested else { throw Refusal("'\(member.displayName)' cannot be in slice '\(slice.name)': \(reason)", at: member.location) }
        kept.append("\(member.displayName) stays on \(singleton.simpleTypeName): \(reason)")
        design.kept.append(Design.Kept(member: member.displayName, slice: slice.name, reason: reason))
      }
      members.removeAll { member in visibility.excluded.contains { $0.member == member } }
      var created = Design.NewProtocol(name: slice.name, path: path, access: visibility.access > .internal ? visibility.access : nil)
      builder.startProtocol(access: created.access, members: slice.members)
      for member in members {
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
            member, node: node, slice: slice, allMembers: allMembers, singleton: singleton, index: index)
        }
        let writable = member.isSettable && (member.setterAccess ?? .internal) > .fileprivate && analysis.writtenMembers.contains(member.name)
        let split = options.splitMutable && writable && member.kind == .property
          && analysis.consumers.contains { $0.reads.contains(member.name) && !$0.writes.contains(member.name) }
        if options.moveDerived, keepReason == nil, obstacle?.allowsMove ?? true {
          // The moved member keeps its default arguments, which protocol extensions allow: no overloads needed.
          // An opaque result type cannot be a requirement: the extension member is all there is.
          if obstacle == nil || obstacle == .variadicWithDefaults {
            let output = try builder.requirement(
              for: member, node: node, settable: writable && !split, in: file.source, withOverloads: false)
            created.requirements.append(ConditionalText(output.requirement, conditions))
            created.required.append(member.name)
            if split {
              let mutable = try builder.requirement(for: member, node: node, settable: true, in: file.source).requirement
              created.mutableRequirements.append(ConditionalText(mutable, conditions))
              created.mutable.append(member.name)
            }
          }
          let text = movedText(
            of: node, in: file.source, access: created.access, nestedTypes: nested, typeName: singleton.typeName)
          let memberIndent = file.source.indentation(at: member.range.bytes.lowerBound)
          let body = reindent(
            text.trimmingTrailingNewlines().trimmingLeadingBlankLines(), from: memberIndent, to: "", lineEnding: "\n")
          created.extensionMembers.append(ConditionalText(body, conditions))
          design.removals[member.range.path, default: []].append(node)
          moved.append(member.name)
          created.moved.append(member.name)
          continue
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
          kept.append("\(member.displayName) stays on \(singleton.simpleTypeName): \(reason)")
          design.kept.append(Design.Kept(member: member.displayName, slice: slice.name, reason: reason))
          continue
        }
        if let keepReason, member.kind != .property || !member.isStored {
          // A requirement all the same: only its body stays on the singleton.
          kept.append("\(member.name) stays on \(singleton.simpleTypeName): \(keepReason)")
        }
        let output = try builder.requirement(for: member, node: node, settable: writable && !split, in: file.source)
        created.requirements.append(ConditionalText(output.requirement, conditions))
        created.required.append(member.name)
        if split {
          let mutable = try builder.requirement(for: member, node: node, settable: true, in: file.source).requirement
          created.mutableRequirements.append(ConditionalText(mutable, conditions))
          created.mutable.append(member.name)
        }
        created.extensionMembers.append(contentsOf: output.overloads.map { ConditionalText($0, conditions) })
        kept += output.notes
      }
      let within = context.declarationConditions.flatMap { ConditionLogic.anyOf($0) }.flatMap(ConditionLogic.formula)
      created.requirements = ConditionalText.merged(created.requirements, within: within)
      created.mutableRequirements = ConditionalText.merged(created.mutableRequirements, within: within)
      created.extensionMembers = ConditionalText.merged(created.extensionMembers, within: within)
      if created.requirements.isEmpty && created.extensionMembers.isEmpty {
        // Every member stays on the singleton: an empty protocol would only be cut again.
        design.notes.append("\(slice.name): nothing in it can be a protocol requirement; no protocol")
        design.empty.append(slice.name)
        design.notes.append(contentsOf: kept.map { "  \($0)" })
        continue
      }
      // A file the index read is in the way; one it did not read is the Printer's to refuse when it writes.
      if !options.protocolsInSingletonFile && indexedPaths.contains(normalizedPath(path)) {
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
      if !moved.isEmpty { note += "; moved to extension \(slice.name): \(moved.joined(separator: ", "))" }
      design.notes.append(note)
      design.notes.append(contentsOf: kept.map { "  \($0)" })
    }
    var unsliced: [String] = []
    var cannot: [String] = []
    for member in analysis.members where leftOut.contains(member.name) && !unsliced.contains(member.name) {
      // A suggestion leaves out what cannot be a requirement: say why.
      if context.isSuggested, (member.access ?? .internal) > .fileprivate,
        let node = try? context.project.file(member.range.path).node(at: member.range.bytes),
        let obstacle = builder.obstacle(for: member, node: node)
      {
        cannot.append("  \(member.displayName) stays on \(singleton.simpleTypeName): \(builder.reason(obstacle, member: member))")
        design.kept.append(Design.Kept(member: member.displayName, slice: nil, reason: builder.reason(obstacle, member: member)))
        continue
      }
      if !cannot.contains(where: { $0.hasPrefix("  \(member.name)") }) { unsliced.append(member.name) }
    }
    design.notes.append(contentsOf: cannot)
    design.leftOnSingleton = unsliced
    if !unsliced.isEmpty {
      design.notes.append("left on \(singleton.simpleTypeName) only: \(unsliced.joined(separator: ", "))")
    }
    return design
  }

  /// Step 3: the new protocol files, the moved members' removals, and the conformance extension.
  static func write(_ design: Design, traits: ProtocolTraits, _ context: Context) throws -> Plan {
    let source = context.singletonFile.source
    let lineEnding = source.lineEnding
    let indent = source.indentUnit
    let allImports = importLines(of: context.singletonFile)
    let typeCondition = context.typeConditions.isEmpty ? nil : ConditionalText.condition(context.typeConditions)
    // Imports inside the `#if` clauses around the declaration(s): with one declaration they go
    // inside the protocol's `#if`; with one per platform, each in its own declaration's.
    var allInnerImports: [String] = []
    var conditionedImports: [(condition: String, lines: [String])] = []
    let declarations = context.analysis.declarations.filter { !$0.isExtension }
    if context.declarationConditions == nil {
      allInnerImports = context.singletonFile.node(at: context.primary.range.bytes).map(importLines(around:)) ?? []
    } else {
      for declaration in declarations {
        let file = try context.project.file(declaration.path)
        guard let node = file.node(at: declaration.range.bytes) else { continue }
        let lines = importLines(around: node)
        let conditions = IfConfigCondition.conditions(around: node)
        if !lines.isEmpty, !conditions.isEmpty {
          conditionedImports.append((ConditionalText.condition(conditions), lines))
        }
      }
    }
    var plan = Plan(notes: design.notes)
    var inSingletonFile: [String] = []
    for created in design.protocols {
      // One decision over every import the declarations see, then each kept where it was.
      let kept = Set(
        ImportNeeds(protocolText: created, context: context)
          .filter(allImports + allInnerImports + conditionedImports.flatMap(\.lines)))
      let imports = allImports.filter(kept.contains)
      let innerImports = allInnerImports.filter(kept.contains)
      var text = traits.protocolHeader(name: created.name, refining: nil, access: created.access)
      text += indented(ConditionalText.blocks(created.requirements, separator: "\n"), indent: indent, separator: "\n") + "}\n"
      if !created.mutableRequirements.isEmpty {
        text += "\n" + traits.protocolHeader(name: "Mutable" + created.name, refining: created.name, access: created.access)
        let mutableBlocks = ConditionalText.blocks(created.mutableRequirements, separator: "\n")
        text += indented(mutableBlocks, indent: indent, separator: "\n") + "}\n"
      }
      if !created.extensionMembers.isEmpty {
        text += "\n" + traits.extensionAttributes + "extension \(created.name) {\n"
        let extensionBlocks = ConditionalText.blocks(created.extensionMembers, separator: "\n\n")
        text += indented(extensionBlocks, indent: indent, separator: "\n\n") + "}\n"
      }
      if context.options.protocolsInSingletonFile {
        // The singleton's file has the imports already, and its own `#if` around the type.
        if let typeCondition { text = "#if \(typeCondition)\n" + text + "#endif\n" }
        inSingletonFile.append(text)
        continue
      }
      if let typeCondition {
        let inner = innerImports.isEmpty ? "" : innerImports.joined(separator: "\n") + "\n\n"
        text = "#if \(typeCondition)\n" + inner + text + "#endif\n"
      }
      for block in conditionedImports.reversed() {
        let lines = block.lines.filter(kept.contains)
        if !lines.isEmpty { text = "#if \(block.condition)\n" + lines.joined(separator: "\n") + "\n#endif\n\n" + text }
      }
      if !imports.isEmpty { text = imports.joined(separator: "\n") + "\n\n" + text }
      plan.newFiles[created.path] = text.withLineEnding(lineEnding)
      plan.companions[created.path] = context.primary.path
    }
    if !inSingletonFile.isEmpty, let item = context.singletonFile.topLevelItem(at: context.primary.range.bytes) {
      // After the file-level declaration holding the type (its `#if` block, when it is in one).
      let text = inSingletonFile.map { lineEnding + lineEnding + $0.trimmingTrailingNewlines().withLineEnding(lineEnding) }
      plan.add(.insert(text.joined(), at: item.endPositionBeforeTrailingTrivia.utf8Offset), in: context.primary.path)
    }
    for (path, nodes) in design.removals.sorted(by: { $0.key < $1.key }) {
      let file = try context.project.file(path).source
      for range in file.removalRanges(of: nodes) { plan.add(TextEdit(range: range, replacement: ""), in: path) }
    }
    if let typed = context.accessorProtocol, !design.conformances.isEmpty {
      // `protocol ServiceLocating: AnyObject, AccountRefreshing`: what the accessor hands out is the
      // protocol, so the protocol, not only the type, must be each slice.
      let file = try context.project.file(typed.path)
      guard let node = file.node(at: typed.range.bytes)?.as(ProtocolDeclSyntax.self) else {
        throw Refusal("cannot read the declaration of protocol '\(typed.name)'", at: typed.location)
      }
      let names = design.conformances.joined(separator: ", ")
      if let clause = node.inheritanceClause {
        plan.add(.insert(", " + names, at: clause.endPositionBeforeTrailingTrivia.utf8Offset), in: typed.path)
      } else {
        let after = node.primaryAssociatedTypeClause.map { Syntax($0) } ?? Syntax(node.name)
        plan.add(.insert(": " + names, at: after.endPositionBeforeTrailingTrivia.utf8Offset), in: typed.path)
      }
    } else if !design.conformances.isEmpty {
      let endsWithNewline = source.bytes.last == UInt8(ascii: "\n")
      var conformance =
        "extension \(context.singleton.typeName): \(design.conformances.joined(separator: ", ")) {}" + lineEnding
      if let typeCondition { conformance = "#if \(typeCondition)" + lineEnding + conformance + "#endif" + lineEnding }
      let text = (endsWithNewline ? "" : lineEnding) + lineEnding + conformance
      plan.add(.insert(text, at: source.bytes.count), in: context.primary.path)
    }
    return plan
  }

  /// Members some code reaches through the accessor inside `#selector(...)` or `#keyPath(...)`: once
  /// the code holds a protocol instead, the protocol must be `@objc` for those to compile.
  static func objcDispatchedMembers(_ context: Context) throws -> Set<String> {
    var names: Set<String> = []
    for reference in context.analysis.references {
      guard case .member(let name, _) = reference.use, !names.contains(name) else { continue }
      let tree = try context.project.file(reference.range.path).tree
      var current = tree.token(at: AbsolutePosition(utf8Offset: reference.range.bytes.lowerBound)).map(Syntax.init)
      while let node = current {
        if let macro = node.as(MacroExpansionExprSyntax.self), ["selector", "keyPath"].contains(macro.macroName.text) {
          names.insert(name)
          break
        }
        current = node.parent
      }
    }
    return names
  }

  /// Whether a member can be a requirement: a property, method or subscript others can see, not the accessor.
  static func isCandidate(_ member: MemberDecl, singleton: Singleton) -> Bool {
    [.property, .method, .subscript].contains(member.kind) && (member.access ?? .internal) > .fileprivate
      && !singleton.accessors.contains(member.name) && member.name != singleton.backingStorage
  }

  /// Blocks of code (no indentation, `\n` line ends) indented by one level; blank lines stay empty.
  static func indented(_ blocks: [String], indent: String, separator: String) -> String {
    guard !blocks.isEmpty else { return "" }
    return blocks.map { block in
      block.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : indent + $0 }
        .joined(separator: "\n")
    }.joined(separator: separator) + "\n"
  }

  static func normalizedPath(_ path: String) -> String {
    var parts: [Substring] = []
    for part in path.split(separator: "/", omittingEmptySubsequences: true) where part != "." { parts.append(part) }
    return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
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

  static func validate(
    _ slices: [Slice], singleton: Singleton, primary: TypeDecl, members: [MemberDecl], conformed: Set<String>,
    index: Index
  ) throws {
    var diagnostics: [Diagnostic] = []
    var owner: [String: String] = [:]
    for slice in slices {
      let existing = index.types(named: slice.name).flatMap { index.declarations(of: $0) }
      let existingProtocol = existing.first { $0.kind == .protocol }
      if slice.name == singleton.simpleTypeName {
        diagnostics.append(.error("slice '\(slice.name)' has the singleton's own name", at: primary.location))
      } else if existingProtocol == nil, let clash = existing.first {
        diagnostics.append(.error("slice '\(slice.name)' clashes with \(clash.kind.rawValue) '\(clash.qualifiedName)', which is not a protocol", at: clash.location))
      } else if let existingProtocol, !conformed.contains(slice.name),
        let missing = unmetRequirement(
          of: index.resolveType(slice.name), by: singleton, primary: primary, members: members, index: index)
      {
        diagnostics.append(
          .error(
            "slice '\(slice.name)' names an existing protocol that '\(singleton.typeName)' does not conform to and "
              + "cannot: \(missing); choose another name", at: existingProtocol.location))
        continue
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
          // A member moved into an existing slice protocol (or its extension) by an earlier run.
          if existingProtocol != nil, existing.contains(where: { $0.members.contains { $0.name == name } }) { continue }
          if name == "init" || members.contains(where: { $0.name == name }) {
            diagnostics.append(.error("'\(name)' cannot be a protocol requirement", at: primary.location))
          } else {
            diagnostics.append(.error("'\(singleton.typeName)' has no member '\(name)'", at: primary.location))
          }
          continue
        }
        if existingProtocol != nil {
          // An existing protocol is reused as it is: a member it does not declare would silently stay out.
          if !existing.contains(where: { $0.members.contains { $0.name == name } }) {
            diagnostics.append(
              .error("slice '\(slice.name)' exists already and does not declare '\(name)'; name it in a new slice", at: primary.location))
          }
          continue
        }
        for member in matching where singleton.accessors.contains(member.name) || member.name == singleton.backingStorage {
          diagnostics.append(.error("'\(name)' is the singleton's accessor and cannot be sliced", at: member.location))
        }
        // A name covers the members of that name that can be requirements; a private one of the same
        // name simply stays. Only a name that is private and nothing else is refused.
        if !matching.contains(where: { ($0.access ?? .internal) > .fileprivate }) {
          for member in matching {
            if let access = member.access, access <= .fileprivate {
              diagnostics.append(.error("'\(name)' is \(access.keyword) and cannot be a protocol requirement; make it internal or leave it out of the slice", at: member.location))
            }
          }
        }
      }
    }
    if !diagnostics.isEmpty { throw Refusal(diagnostics) }
  }

  /// What keeps the singleton from conforming to an existing protocol it does not conform to yet:
  /// a requirement no member of the singleton matches by kind, name, labels and staticness, a
  /// refined protocol the index does not declare, or an isolation the singleton does not share.
  static func unmetRequirement(
    of protocolName: String, by singleton: Singleton, primary: TypeDecl, members: [MemberDecl], index: Index,
    visiting: Set<String> = []
  ) -> String? {
    guard !visiting.contains(protocolName) else { return nil }
    let all = index.declarations(of: protocolName)
    let declarations = all.filter { $0.kind == .protocol }
    guard !declarations.isEmpty else { return "'\(protocolName)' is not a protocol this project declares" }
    // A requirement the protocol's own extensions implement asks nothing of the singleton.
    let implemented = Set(all.filter(\.isExtension).flatMap(\.members).map(ProvidedMembers.Signature.init))
    let own = Set(members.filter { ($0.access ?? .internal) > .fileprivate }.map(ProvidedMembers.Signature.init))
    let singletonIsolation = primary.attributes.first(where: index.isGlobalActorAttribute)
    for declaration in declarations {
      for member in declaration.members {
        switch member.kind {
        case .property, .method, .subscript:
          let signature = ProvidedMembers.Signature(member)
          if implemented.contains(signature) { continue }
          if !own.contains(signature) {
            return "it requires '\(member.displayName)', which '\(singleton.typeName)' does not have"
          }
          // The same name and labels with another type is another member (`func load() -> Int` is not `-> String`).
          let candidates = members.filter { ProvidedMembers.Signature($0) == signature && ($0.access ?? .internal) > .fileprivate }
          if let required = member.typeText,
            !candidates.contains(where: { $0.typeText.map { sameType($0, required) } ?? true })
          {
            return "it requires '\(member.displayName)' of type '\(required)', which '\(singleton.typeName)' does not have"
          }
          if member.kind == .property, member.isSettable,
            !members.contains(where: {
              ProvidedMembers.Signature($0) == signature && $0.isSettable && ($0.setterAccess ?? .internal) > .fileprivate
            })
          {
            return "it requires '\(member.name)' to be settable"
          }
        case .associatedType, .initializer:
          return "it requires \(member.kind == .initializer ? "an initializer" : "associated type '\(member.name)'")"
        default:
          continue
        }
      }
      if let isolation = singletonIsolation, !declaration.attributes.contains(isolation) {
        return "it is not \(isolation) like '\(singleton.typeName)'"
      }
      for written in declaration.inherited {
        switch written {
        case "AnyObject" where [.class, .actor].contains(primary.kind): continue
        case "Actor" where primary.kind == .actor: continue
        case "Sendable" where singletonIsolation != nil || primary.kind == .actor
          || primary.inherited.contains("Sendable") || primary.inherited.contains("@unchecked Sendable"):
          continue
        default:
          if let missing = unmetRequirement(
            of: index.resolveType(written), by: singleton, primary: primary, members: members, index: index,
            visiting: visiting.union([protocolName]))
          {
            return missing
          }
        }
      }
    }
    return nil
  }

  /// Whether two types as written are the same type: spaces aside, and a qualified name matching its short form.
  static func sameType(_ left: String, _ right: String) -> Bool {
    let (a, b) = (left.filter { !$0.isWhitespace }, right.filter { !$0.isWhitespace })
    return a == b || a.hasSuffix("." + b) || b.hasSuffix("." + a)
  }

  static func importLines(of file: ParsedFile) -> [String] {
    file.tree.statements.compactMap { $0.item.as(ImportDeclSyntax.self)?.trimmedDescription }
  }

  /// The imports in the `#if` clauses around a declaration, outermost first.
  static func importLines(around node: Syntax) -> [String] {
    var lines: [String] = []
    var current = node
    while let parent = current.parent {
      if let clause = parent.as(IfConfigClauseSyntax.self), case .statements(let items) = clause.elements {
        lines.insert(contentsOf: items.compactMap { $0.item.as(ImportDeclSyntax.self)?.trimmedDescription }, at: 0)
      }
      current = parent
    }
    return lines
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

/// A requirement or extension member (no indentation) and the `#if` conditions of its declaration.
struct ConditionalText {
  var text: String
  var conditions: [String]

  init(_ text: String, _ conditions: [String]) {
    self.text = text
    self.conditions = conditions
  }

  /// One entry per text, at its first place: a member declared in several `#if` branches is
  /// required under any of their conditions, and unconditionally where those cover every branch
  /// (`within`: the condition the whole protocol already sits in).
  static func merged(_ items: [ConditionalText], within: ConditionLogic.Formula?) -> [ConditionalText] {
    var order: [String] = []
    var alternatives: [String: [[String]]] = [:]
    for item in items {
      if alternatives[item.text] == nil { order.append(item.text) }
      alternatives[item.text, default: []].append(item.conditions)
    }
    return order.map { text in
      let all = alternatives[text] ?? []
      if all.count == 1 && within == nil { return ConditionalText(text, all[0]) }
      guard let any = ConditionLogic.anyOf(all) else { return ConditionalText(text, []) }
      if let formula = ConditionLogic.formula(any), ConditionLogic.implies(within, formula) {
        return ConditionalText(text, [])
      }
      return ConditionalText(text, all.count == 1 ? all[0] : [any])
    }
  }

  /// The texts, each run of texts under the same conditions wrapped in one `#if` ... `#endif`.
  static func blocks(_ items: [ConditionalText], separator: String) -> [String] {
    var blocks: [String] = []
    var position = 0
    while position < items.count {
      let conditions = items[position].conditions
      var end = position
      while end < items.count && items[end].conditions == conditions { end += 1 }
      let texts = items[position..<end].map(\.text)
      if conditions.isEmpty {
        blocks.append(contentsOf: texts)
      } else {
        blocks.append("#if \(condition(conditions))\n" + texts.joined(separator: separator) + "\n#endif")
      }
      position = end
    }
    return blocks
  }

  /// One condition for nested clauses: `A && (B || C)`.
  static func condition(_ conditions: [String]) -> String {
    guard conditions.count > 1 else { return conditions.first ?? "" }
    return conditions.map { text in
      var parser = Parser(text)
      let expression = ExprSyntax.parse(from: &parser)
      return expression.is(SequenceExprSyntax.self) || expression.is(InfixOperatorExprSyntax.self) ? "(\(text))" : text
    }.joined(separator: " && ")
  }
}

/// The members the singleton's protocols provide (requirements, inherited ones, and protocol
/// extension members), by signature: kind, name, argument labels, static or not.
struct ProvidedMembers {
  struct Signature: Hashable {
    var kind: MemberDecl.Kind
    var name: String
    var labels: [String]
    var isStatic: Bool

    init(_ member: MemberDecl) {
      kind = member.kind
      name = member.name
      labels = member.labels
      isStatic = member.isStatic
    }
  }

  private var signatures: Set<Signature> = []

  /// `protocols` as `ExtractProtocolPlanner.conformances` gives them, refined protocols included.
  init(protocols: Set<String>, index: Index) {
    for name in protocols.sorted() {
      let declarations = index.declarations(of: index.resolveType(name))
      guard declarations.contains(where: { $0.kind == .protocol }) else { continue }
      for declaration in declarations {
        for member in declaration.members where [.property, .method, .subscript].contains(member.kind) {
          signatures.insert(Signature(member))
        }
      }
    }
  }

  func contains(_ member: MemberDecl) -> Bool { signatures.contains(Signature(member)) }
}

/// How the singleton's protocols are declared: isolation, class-bound, Sendable, `@objc`, access.
struct ProtocolTraits {
  var attributes: [String] = []
  var inherited: [String] = []
  var isolation: String?

  /// Slices that must be `@objc` protocols: a member is reached through `#selector` or `#keyPath`,
  /// and every member is `@objc` (so Objective-C can represent it). Other slices are Swift protocols,
  /// even of `@objc` members: nothing dispatches through them with the Objective-C runtime.
  var objcSlices: Set<String> = []
  /// Slices of `@objc` members that are Swift protocols all the same, for a note.
  var swiftSlicesOfObjCMembers: Set<String> = []

  init(
    primary: TypeDecl, declarations: [TypeDecl], members: [MemberDecl], slices: [Slice], index: Index,
    objcDispatched: Set<String> = []
  ) {
    isolation = primary.attributes.first(where: index.isGlobalActorAttribute)
    for slice in slices {
      // A private member sharing a sliced name stays on the singleton: it says nothing about the protocol.
      let own = members.filter {
        slice.members.contains($0.name) && ($0.access ?? .internal) > .fileprivate && !$0.isStatic
          && [.property, .method, .subscript].contains($0.kind)
      }
      if !own.isEmpty && own.allSatisfy({ $0.attributes.contains("@objc") }) {
        if own.contains(where: { objcDispatched.contains($0.name) }) {
          objcSlices.insert(slice.name)
        } else {
          swiftSlicesOfObjCMembers.insert(slice.name)
        }
      }
    }
    let objc = !objcSlices.isEmpty
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
  }

  func protocolHeader(name: String, refining parent: String?, access: AccessLevel?) -> String {
    var text = (objcSlices.contains(name) ? ["@objc"] + attributes : attributes).map { $0 + "\n" }.joined()
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

/// The access a slice's protocol needs, and the members that cannot have it.
///
/// A consumer of the slice in another module (tests aside: they see internal declarations through
/// `@testable import`) needs the protocol `public`, or `package` when every such module is a target
/// of the singleton's own package (tools version 5.9 or later); a member less visible than that
/// cannot be in it and stays on the singleton with the reason, instead of lowering the protocol.
/// Where all members are public the protocol is public, so that a public init can take it. Otherwise the protocol
/// is as visible as the singleton and all its members allow. A member whose signature names a type
/// private to its file cannot be a requirement in another file at all; one that names a type less
/// visible than the protocol lowers it, or stays when the protocol must be public.
struct SliceVisibility {
  var access: AccessLevel
  var excluded: [(member: MemberDecl, reason: String)] = []

  init(slice: Slice, members: [MemberDecl], _ context: ExtractProtocolPlanner.Context) throws {
    let index = context.index
    let modules = context.project.modules
    func capped(_ level: AccessLevel?) -> AccessLevel { min(level ?? .internal, .public) }
    var outside: (consumer: String, module: String)?
    // `package` suffices when every module outside is a target of the singleton's own package.
    var floor = AccessLevel.package
    // A file can be in several targets (an iOS and a Mac app): a consumer is outside when it shares
    // none of the singleton file's modules.
    let homes = Set(modules.modules(of: context.primary.path))
    if !homes.isEmpty {
      for consumer in context.analysis.consumers where !consumer.members.isDisjoint(with: slice.members) {
        for reference in consumer.references {
          let owners = modules.modules(of: reference.range.path)
          guard let module = owners.first, homes.isDisjoint(with: owners),
            !modules.targets(named: module).contains(where: \.isTest), !index.isInTest(reference)
          else { continue }
          if outside == nil { outside = (consumer.typeName, module) }
          if !homes.contains(where: { modules.module(module, sharesPackageWith: $0) }) {
            outside = (consumer.typeName, module)
            floor = .public
          }
        }
      }
    }
    var level = capped(context.primary.access)
    for member in members {
      var exposable = capped(member.access)
      var hidden: (name: String, access: AccessLevel)?
      let file = try context.project.file(member.range.path)
      if let node = file.node(at: member.range.bytes) {
        for name in Self.signatureTypeNames(of: node) {
          let declarations = index.types(named: name).flatMap { index.declarations(of: $0) }.filter { !$0.isExtension }
          for declaration in declarations {
            let declared = capped(declaration.access)
            if declared < exposable || (declared <= .fileprivate && hidden == nil) {
              exposable = min(exposable, declared)
              hidden = (name, declared)
            }
          }
        }
      }
      if let hidden, hidden.access <= .fileprivate {
        excluded.append((member, "its signature names '\(hidden.name)', which is \(hidden.access.keyword) to its file"))
        continue
      }
      if let outside, exposable < floor {
        let what = hidden.map { "its signature names '\($0.name)', which is \($0.access.keyword)" }
          ?? "it is \(exposable.keyword)"
        excluded.append((member, "\(what), and '\(slice.name)' must be \(floor.keyword): '\(outside.consumer)' in module '\(outside.module)' uses it"))
        continue
      }
      level = min(level, exposable)
    }
    // Public where everything allows it (a public init may then take the protocol), else `package`.
    access = outside != nil ? max(level, floor) : max(level, .internal)
  }

  /// The type names a member's declaration (not its body) spells: property types, parameter and
  /// result types, generic constraints.
  static func signatureTypeNames(of node: Syntax) -> Set<String> {
    var roots: [Syntax] = []
    if let variable = node.as(VariableDeclSyntax.self) {
      roots = variable.bindings.compactMap { binding -> Syntax? in binding.typeAnnotation.map { Syntax($0) } }
    } else if let function = node.as(FunctionDeclSyntax.self) {
      roots = [Syntax(function.signature)]
      if let generics = function.genericParameterClause { roots.append(Syntax(generics)) }
      if let constraints = function.genericWhereClause { roots.append(Syntax(constraints)) }
    } else if let subscriptDecl = node.as(SubscriptDeclSyntax.self) {
      roots = [Syntax(subscriptDecl.parameterClause), Syntax(subscriptDecl.returnClause)]
    }
    let finder = TypeNameFinder(viewMode: .sourceAccurate)
    for root in roots { finder.walk(root) }
    return finder.names
  }

  private final class TypeNameFinder: SyntaxVisitor {
    var names: Set<String> = []
    override func visit(_ node: IdentifierTypeSyntax) -> SyntaxVisitorContinueKind {
      names.insert(node.name.text.trimmingCharacters(in: CharacterSet(charactersIn: "`")))
      return .visitChildren
    }
    override func visit(_ node: MemberTypeSyntax) -> SyntaxVisitorContinueKind {
      names.insert(node.name.text.trimmingCharacters(in: CharacterSet(charactersIn: "`")))
      return .visitChildren
    }
    // Default values are not part of the signature's types.
    override func visit(_ node: InitializerClauseSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
  }
}
