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
  public var maxSlices: Int?

  public init(
    slices: [Slice]? = nil, moveDerived: Bool = false, splitMutable: Bool = false, outputDirectory: String? = nil,
    protocolsInSingletonFile: Bool = false, maxSlices: Int? = nil
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
    try project.index.requireCoverage()
    guard let (design, traits) = try decide(context) else {
      // Every suggested slice is cut already (or nothing is used): a second run plans nothing.
      let analysis = context.analysis
      let onlyKeepers = !analysis.consumers.allSatisfy { $0.members.isEmpty } && analysis.receivers.allSatisfy { $0.members.isEmpty }
      let plan = Plan(notes: [
        Note(
          .summary,
          onlyKeepers
            ? "nothing to slice: no consumer of '\(singleton.typeName)' that can be given protocols uses one of its members "
              + "(tests, enums, protocols and types declared elsewhere keep the accessor); name members with --slice to cut them"
            : "nothing to slice: the protocols of '\(singleton.typeName)' already have every slice suggested for it; "
              + "name members with --slice to cut more")
      ])
      return (plan, Design().report(singleton: singleton))
    }
    var plan = try write(design, traits: traits, context)
    // The protocols and the conformance build only together: one piece.
    plan.parts = [PlanPart(name: "Slices", newFiles: Set(plan.newFiles.keys))]
    return (plan, design.report(singleton: singleton))
  }

  /// Steps 1 and 2: the design, with the traits its protocols share; nil when there is nothing
  /// left to slice.
  static func decide(_ context: Context) throws -> (design: Design, traits: ProtocolTraits)? {
    let slices = try chooseSlices(context)
    try context.project.index.requireCoverage()
    if slices.isEmpty { return nil }
    var traits = ProtocolTraits(
      primary: context.primary, declarations: context.analysis.declarations, members: context.allMembers, slices: slices,
      index: context.index, objcDispatched: objcDispatchedMembers(context))
    if let typed = context.accessorProtocol {
      // The slices become parents of the accessor's protocol: they may ask no more of its conformers than it does.
      traits.inherited = traits.inherited.filter { typed.inherited.contains($0) || ($0 == "AnyObject" && typed.inherited.contains("class")) }
      traits.attributes = traits.attributes.filter(typed.attributes.contains)
      if let isolation = traits.isolation, !typed.attributes.contains(isolation) { traits.isolation = nil }
    }
    return (try decide(slices, traits: traits, context), traits)
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
      conformed = SliceSuggester.conformances(of: singleton.typeName, index: project.index)
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
    var notes: [Note] = []
  }

  /// Step 1: the slices named with --slice (validated), or the ones suggested from the members no
  /// protocol of the singleton provides yet, under names no type in the project has.
  static func chooseSlices(_ context: Context) throws -> [Slice] {
    let index = context.index
    // An existing protocol of a suggested name would not declare the members suggested for it.
    let slices =
      context.options.slices
      ?? SliceSuggester.suggestion(context.analysis, project: context.project, maxSlices: context.options.maxSlices).slices
    if !slices.isEmpty {
      try validate(
        slices, singleton: context.singleton, primary: context.primary, members: context.allMembers,
        conformed: context.conformed, index: index)
    }
    return slices
  }
}
