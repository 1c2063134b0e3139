import DesingletonCore
import DesingletonIndex

/// The one suggestion of slices: what `scan` prints and `extract-protocol` takes without `--slice`,
/// worked out on the project (what the singleton's protocols provide already, what can be a
/// requirement, what access each slice needs) around `suggest`'s grouping.
extension SliceSuggester {
  /// The slices `extract-protocol` takes without `--slice`, and what it leaves: the one suggestion
  /// that `scan` prints and `extract-protocol` carries out. Members a protocol of the singleton already
  /// provides are not suggested again, members that cannot be requirements are left out with the
  /// reason, and no name is a type the project has.
  public static func suggestion(
    _ analysis: SingletonAnalysis, project: Project, maxSlices: Int? = nil
  ) -> SliceSuggestion {
    let index = project.index
    guard !analysis.singleton.isForeign else { return SliceSuggestion() }
    // An accessor typed as a protocol the code does not declare is refused: suggest nothing.
    if let typed = analysis.singleton.accessorProtocol,
      !index.declarations(of: index.resolveType(typed)).contains(where: { $0.kind == .protocol })
    {
      return SliceSuggestion()
    }
    let conformed = conformances(of: analysis.singleton.typeName, index: index)
    var provided = ProvidedMembers(protocols: conformed, index: index)
    // The protocol the accessor is typed as is the one being cut: its members are suggested again.
    if let typed = analysis.singleton.accessorProtocol {
      provided = ProvidedMembers(protocols: conformed.subtracting([typed]), index: index)
    }
    let allMembers = analysis.declarations.flatMap(\.members)
    let builder = RequirementBuilder(for: analysis, index: index)
    let primary = analysis.declarations.first { !$0.isExtension }
    // The slices serve the consumers that can hold them.
    let receivers = analysis.receivers
    // The access each consumer outside the singleton's modules needs, and each member allows: the
    // grouping never makes a slice that `SliceVisibility` would have to cut a member from.
    var demands: [String: SliceVisibility.Demand] = [:]
    // Each name's overloads, with the most each can be exposed as (read once, where a consumer is outside).
    var exposures: [String: [SliceVisibility.Exposure]] = [:]
    if let primary {
      let homes = ProtocolHome.modules(primary: primary, references: analysis.references, project: project)
      for consumer in receivers {
        guard let demand = SliceVisibility.demand(of: consumer, homes: homes, project: project) else { continue }
        if (demands[consumer.typeName]?.floor ?? .private) < demand.floor { demands[consumer.typeName] = demand }
      }
      if !demands.isEmpty {
        for member in allMembers {
          exposures[member.name, default: []].append(
            (try? SliceVisibility.exposure(of: member, project: project)) ?? SliceVisibility.Exposure(level: .internal))
        }
      }
    }
    /// A member (every overload of its name) less visible than one of its own consumers needs fits
    /// no slice.
    func misfit(_ member: MemberDecl) -> String? {
      guard !demands.isEmpty else { return nil }
      var outside: SliceVisibility.Demand?
      for consumer in receivers where consumer.members.contains(member.name) {
        guard let demand = demands[consumer.typeName], (outside?.floor ?? .private) < demand.floor else { continue }
        outside = demand
      }
      guard let outside else { return nil }
      let reasons = (exposures[member.name] ?? []).map { SliceVisibility.misfit($0, outside, slice: "every slice with it") }
      return reasons.contains(nil) ? nil : reasons.first ?? nil
    }
    var suggestion = SliceSuggester.suggest(
      analysis, maxSlices: maxSlices, isTaken: { name in index.hasType(name) || !index.types(named: name).isEmpty },
      isProvided: provided.contains,
      obstacle: { builder.obstacleReason(for: $0, project: project) ?? misfit($0) },
      // An overload less visible than another stays on the singleton alone (`SliceVisibility`).
      demand: { demands[$0]?.floor }, exposable: { exposures[$0]?.map(\.level).max() ?? .public })
    // A member that cannot have the access its slice needs (internal, used by a consumer in another
    // module) stays on the singleton with the reason, as extract-protocol leaves it.
    guard let primary else { return suggestion }
    suggestion.slices = suggestion.slices.compactMap { slice in
      let members = requirableMembers(named: slice.members, in: allMembers, analysis: analysis, excluding: provided)
      guard let visibility = try? SliceVisibility(slice: slice, members: members, analysis: analysis, primary: primary, project: project)
      else { return slice }
      var slice = slice
      for name in slice.members {
        let excluded = visibility.excluded.filter { $0.member.name == name }
        guard !excluded.isEmpty, excluded.count == members.filter({ $0.name == name }).count else { continue }
        slice.members.removeAll { $0 == name }
        suggestion.kept.append(KeptMember(member: name, reason: excluded[0].reason))
      }
      return slice.members.isEmpty ? nil : slice
    }
    return suggestion
  }

  /// The members a slice's names stand for (a method name covers its overloads), in the order
  /// named: those that can be requirements, seen by the singleton's module, and not `provided`
  /// already. What extract-protocol cuts and what the suggestion weighs.
  static func requirableMembers(
    named names: [String], in allMembers: [MemberDecl], analysis: SingletonAnalysis, excluding provided: ProvidedMembers?
  ) -> [MemberDecl] {
    names.flatMap { name in
      allMembers.filter {
        $0.name == name && isCandidate($0, singleton: analysis.singleton) && analysis.isSeenByItsModule($0)
          && !(provided?.contains($0) ?? false)
      }
    }
  }

  /// Whether a member can be a requirement: a property, method or subscript others can see, not the accessor.
  static func isCandidate(_ member: MemberDecl, singleton: Singleton) -> Bool {
    [.property, .method, .subscript].contains(member.kind) && (member.access ?? .internal) > .fileprivate
      && !singleton.accessors.contains(member.name) && member.name != singleton.backingStorage
  }

  /// The protocols the singleton conforms to, by simple name (as slices are named): the model's
  /// one walk (`Index.conformances`: its declarations, extensions and project superclasses, and
  /// the protocols those refine).
  static func conformances(of typeName: String, index: Index) -> Set<String> {
    Set(index.conformances(of: typeName).map { FrameworkTypes.lastComponent($0) })
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

  /// `protocols` as `SliceSuggester.conformances` gives them, refined protocols included.
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
