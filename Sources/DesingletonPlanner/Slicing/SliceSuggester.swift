import DesingletonCore
import DesingletonIndex

/// A group of a singleton's members that belong in one protocol.
public struct Slice: Sendable, Equatable, Codable {
  public var name: String
  /// Member names (a method name covers its overloads), in source order.
  public var members: [String]

  public init(name: String, members: [String]) {
    self.name = name
    self.members = members
  }
}

/// A member the suggestion leaves on the singleton, and why.
public struct KeptMember: Sendable, Equatable, Codable {
  public var member: String
  public var reason: String

  public init(member: String, reason: String) {
    self.member = member
    self.reason = reason
  }
}

/// What `SliceSuggester` suggests: the slices, the members no consumer that can hold a slice
/// uses, and the members used by consumers that stay on the singleton (with the reason).
public struct SliceSuggestion: Sendable, Equatable {
  public var slices: [Slice]
  /// Members no consumer that can hold a slice uses, and no slice takes.
  public var unsliced: [String]
  /// Members some consumer uses that no slice takes: they cannot be requirements, or their group
  /// is beyond the slices kept.
  public var kept: [KeptMember]
  /// Members that can be requirements and no protocol of the singleton provides yet: what slices
  /// are measured against (`SliceQuality`).
  public var requirable: Set<String> = []

  public init(slices: [Slice] = [], unsliced: [String] = [], kept: [KeptMember] = []) {
    self.slices = slices
    self.unsliced = unsliced
    self.kept = kept
  }
}

/// Groups a singleton's members into protocols that serve its consumers, by optimising stated goals
/// over the consumers' usage alone (the figures `SliceQuality` reports); the consumers are those
/// that can hold a slice (`SingletonAnalysis.receivers`), since the others keep the accessor:
///
/// - **coverage**: every member some consumer uses that can be a requirement is in a slice;
/// - **cohesion**: each consumer receives slices made mostly of what it uses;
/// - **few protocols per consumer**, and **at most one slice per three members**.
///
/// 1. Members used by exactly the same consumers form a group: every consumer then uses all of each
///    group it receives (cohesion 1), but a god object has dozens of groups.
/// 2. Groups merge, one pair at a time, the pair that costs least: a merge lowers the cohesion of a
///    consumer that used only one of the two and saves a protocol for one that used both. The score
///    of a set of slices is the sum over consumers of cohesion minus `protocolWeight` per protocol
///    beyond the first; outside god objects, a merge of two groups about the same thing gains
///    `topicWeight` where every consumer still uses half of what it receives. Merging goes on while
///    it raises the score, and (at whatever cost) while the median consumer receives more than two
///    protocols or, in a god object (consumers use `godObjectMembers` members or more), there are
///    more slices than a third of the members.
/// 3. With `maxSlices` (a user's `--max-slices`), the slices most used (member uses by consumers)
///    are kept; the others' members stay on the singleton, listed with the reason, and the
///    consumers that use them are reported as uncovered.
/// 4. Members no consumer uses stay on the singleton (`--move-derived` moves what can move); so do
///    members only consumers that can never hold a slice use (`Holders`): they keep the accessor.
/// 5. Each slice is named from the words its members share (`AccountRefreshing`, `UnreadCounting`),
///    under a name no type in the project has, with no digits.
///
/// Members a protocol of the singleton provides already are left out: every used member that can
/// be a requirement is in a slice after a run (unless the user caps the slices), so a second run
/// suggests nothing.
public enum SliceSuggester {
  /// What a protocol beyond a consumer's first costs in the score, against the cohesion (0 to 1) of
  /// each consumer: a merge that saves several consumers a protocol may cost another some cohesion.
  static let protocolWeight = 0.1

  /// What a merge of two groups about the same thing (a noun at least half of each one's member
  /// names have) gains, where every consumer it gives more members still uses half of what it
  /// receives: `cacheProfileImage` and `cachedProfileImage` make one `ProfileImageCaching`. Not in a
  /// god object, which must give up cohesion to have few slices and spends none on names.
  static let topicWeight = 1.0

  /// A singleton whose consumers use at least this many of its members is a god object: its slices
  /// are at most one per three members, whatever the score, and no merge is made for a name.
  public static let godObjectMembers = 10

  /// `maxSlices` caps the slices (nil: as many as the goals ask for); `isTaken` says whether a name
  /// is already used by a type the slices must not collide with; `isProvided` whether a member is
  /// provided already (by a protocol the singleton conforms to); `obstacle` why a member cannot be
  /// a requirement, if it cannot; `demand` the access a consumer (by type name) needs of every slice
  /// it uses, if it is outside the singleton's modules, and `exposable` the most a member (by name)
  /// can be exposed as: no merge puts a member into a slice that needs more than it allows.
  public static func suggest(
    _ analysis: SingletonAnalysis, maxSlices: Int? = nil, isTaken: (String) -> Bool = { _ in false },
    isProvided: (MemberDecl) -> Bool = { _ in false }, obstacle: (MemberDecl) -> String? = { _ in nil },
    demand: (String) -> AccessLevel? = { _ in nil }, exposable: (String) -> AccessLevel = { _ in .public }
  ) -> SliceSuggestion {
    var suggestion = SliceSuggestion()
    let candidates = analysis.members.filter { ($0.access ?? .internal) > .fileprivate }
    // Members a protocol of the singleton provides are not cut again.
    let provided = Set(candidates.filter(isProvided).map(\.name))
    var blocked: [String: String] = [:]
    for member in candidates where blocked[member.name] == nil && !provided.contains(member.name) {
      if let reason = obstacle(member) { blocked[member.name] = reason }
    }
    let names = uniqueNames(candidates.map(\.name)).filter { blocked[$0] == nil && !provided.contains($0) }
    let order = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
    var consumersOf: [String: Set<String>] = [:]
    // The usage of the consumers that can hold a slice (`SingletonAnalysis.receivers`): the slices serve them.
    for usage in analysis.receivers {
      for name in usage.members { consumersOf[name, default: []].insert(usage.typeName) }
    }

    // 1. Same consumers, same group.
    var (groups, unused) = groupedBySameConsumers(names, consumersOf: consumersOf)
    // 2. Merge the cheapest pair while it pays, or while there are too many slices or protocols.
    merge(&groups, godObject: consumersOf.count >= godObjectMembers, demand: demand, exposable: exposable)
    // 3. A user's cap: the most used slices are kept.
    if let maxSlices { suggestion.kept += keepMostUsed(&groups, maxSlices: maxSlices, consumersOf: consumersOf) }
    // 4. Members no consumer that can hold a slice uses stay where they are.
    suggestion.unsliced = unused
    let wholeType = groups.count == 1 && unused.isEmpty && suggestion.kept.isEmpty && blocked.isEmpty && provided.isEmpty
    // 5. Names.
    var taken: Set<String> = []
    for group in groups {
      let members = group.members.sorted { (order[$0] ?? 0) < (order[$1] ?? 0) }
      let decls = members.compactMap { name in analysis.members.first { $0.name == name } }
      let name = SliceNamer.name(
        for: decls, typeName: analysis.singleton.simpleTypeName, wholeType: wholeType,
        isTaken: { taken.contains($0) || isTaken($0) || $0 == analysis.singleton.simpleTypeName })
      taken.insert(name)
      suggestion.slices.append(Slice(name: name, members: members))
    }
    suggestion.requirable = Set(names)
    for name in uniqueNames(candidates.map(\.name)) where consumersOf[name] != nil {
      if let reason = blocked[name] { suggestion.kept.append(KeptMember(member: name, reason: reason)) }
    }
    let position = Dictionary(uniqueKeysWithValues: uniqueNames(candidates.map(\.name)).enumerated().map { ($1, $0) })
    suggestion.kept.sort { (position[$0.member] ?? Int.max, $0.member) < (position[$1.member] ?? Int.max, $1.member) }
    return suggestion
  }

  /// Step 1: members used by the same consumers form a group; members no consumer uses are apart.
  static func groupedBySameConsumers(
    _ names: [String], consumersOf: [String: Set<String>]
  ) -> (groups: [Group], unused: [String]) {
    var groups: [Group] = []
    var unused: [String] = []
    for name in names {
      let consumers = consumersOf[name] ?? []
      if consumers.isEmpty {
        unused.append(name)
      } else if let position = groups.firstIndex(where: { $0.consumers == consumers }) {
        groups[position].members.append(name)
      } else {
        groups.append(Group(members: [name], consumers: consumers))
      }
    }
    return (groups, unused)
  }

  /// Step 2: `SliceMerger` merges the groups.
  static func merge(
    _ groups: inout [Group], godObject: Bool, demand: (String) -> AccessLevel? = { _ in nil },
    exposable: (String) -> AccessLevel = { _ in .public }
  ) {
    var merger = SliceMerger(groups: groups, godObject: godObject, demand: demand, exposable: exposable)
    merger.run()
    groups = merger.groups.map(\.group)
  }

  /// Step 3: beyond `maxSlices`, the most used groups stay (the most uses of a member by a
  /// consumer); the others' members are kept on the singleton.
  static func keepMostUsed(_ groups: inout [Group], maxSlices: Int, consumersOf: [String: Set<String>]) -> [KeptMember] {
    var kept: [KeptMember] = []
    if groups.count > maxSlices {
      let weights = groups.map { group in group.members.reduce(0) { $0 + (consumersOf[$1]?.count ?? 0) } }
      let ranked = groups.indices.sorted { (-weights[$0], $0) < (-weights[$1], $1) }
      let chosen = Set(ranked.prefix(maxSlices))
      for position in groups.indices where !chosen.contains(position) {
        for name in groups[position].members {
          kept.append(KeptMember(member: name, reason: "beyond the \(maxSlices) slices suggested (--max-slices)"))
        }
      }
      groups = groups.indices.filter(chosen.contains).map { groups[$0] }
    }
    return kept
  }

  struct Group {
    var members: [String]
    var consumers: Set<String>

    init(members: [String], consumers: Set<String>) {
      self.members = members
      self.consumers = consumers
    }

    mutating func absorb(_ other: Group) {
      members += other.members
      consumers.formUnion(other.consumers)
    }

    /// What the group is about: the nouns at least half of its members' names have
    /// (`unreadCount`, `resetUnreadCount` → `unread`; `messages`, `loadMessages` → `message`).
    var topic: Set<String> {
      var counts: [String: Int] = [:]
      for member in members {
        for word in Set(SliceNamer.words(member).map(SliceNamer.stem).map(SliceNamer.singularWord))
        where word.count > 2 && !SliceNamer.stopWords.contains(word) && !SliceNamer.verbs.contains(word)
          && !SliceNamer.genericWords.contains(word)
        {
          counts[word, default: 0] += 1
        }
      }
      return Set(counts.filter { $0.value * 2 >= members.count }.keys)
    }
  }

  private static func uniqueNames(_ names: [String]) -> [String] {
    var seen: Set<String> = []
    return names.filter { seen.insert($0).inserted }
  }
}
