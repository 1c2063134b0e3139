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

/// What `SliceSuggester` suggests: the slices, the members no consumer uses, and the members used
/// by consumers that stay on the singleton (with the reason).
public struct SliceSuggestion: Sendable, Equatable {
  public var slices: [Slice]
  /// Members no consumer uses and no slice takes.
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

/// Groups a singleton's members into at most `maxSlices` protocols by consumer co-usage.
///
/// 1. Members used by exactly the same consumers form a group.
/// 2. A group of one member that only one consumer uses joins the group whose consumers use it most
///    (one-member slices stay only where several consumers use that member).
/// 3. Groups about the same thing merge: a noun at least half of each group's member names have
///    (`unreadCount`, `resetUnreadCount`, `unreadCountText`).
/// 4. While there are more groups than `maxSlices`, the two whose consumers overlap most (at least a
///    third of their consumers shared) merge.
/// 5. The `maxSlices` groups most used (member uses by consumers) are kept; the others stay on the
///    singleton and are listed.
/// 6. Members no consumer uses follow the members their bodies use (or that use them).
/// 7. Each slice is named from the words its members share (`AccountRefreshing`, `UnreadCounting`),
///    under a name no type in the project has, with no digits.
///
/// The grouping is made over every member that can be a requirement, provided by an existing
/// protocol or not, and the provided members are taken out only afterwards: after the slices are
/// cut, the same grouping finds every group provided, and a second run suggests nothing.
public enum SliceSuggester {
  public static let defaultMaxSlices = 8

  /// `isTaken` says whether a name is already used by a type the slices must not collide with;
  /// `isProvided` whether a member is provided already (by a protocol the singleton conforms to);
  /// `obstacle` why a member cannot be a requirement, if it cannot.
  public static func suggest(
    _ analysis: SingletonAnalysis, maxSlices: Int = defaultMaxSlices, isTaken: (String) -> Bool = { _ in false },
    isProvided: (MemberDecl) -> Bool = { _ in false }, obstacle: (MemberDecl) -> String? = { _ in nil }
  ) -> SliceSuggestion {
    var suggestion = SliceSuggestion()
    let candidates = analysis.members.filter { ($0.access ?? .internal) > .fileprivate }
    var blocked: [String: String] = [:]
    for member in candidates where blocked[member.name] == nil {
      if let reason = obstacle(member) { blocked[member.name] = reason }
    }
    let names = uniqueNames(candidates.map(\.name)).filter { blocked[$0] == nil }
    let order = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
    var consumersOf: [String: Set<String>] = [:]
    for usage in analysis.consumers {
      for name in usage.members { consumersOf[name, default: []].insert(usage.typeName) }
    }

    // 1. Same consumers, same group.
    var (groups, unused) = groupedBySameConsumers(names, consumersOf: consumersOf)
    // 2. A lone member of one consumer joins the group that consumer uses it with most.
    joinLoneMembers(&groups, consumersOf: consumersOf)
    // 3. Groups about the same thing (a word most of each one's members have) merge.
    mergeByTopic(&groups)
    // 4. Groups most of whose consumers use both merge; while there are too many, so do groups a third
    //    of whose consumers use both.
    mergeBySharedConsumers(&groups, maxSlices: maxSlices)
    // 5. Keep the most used: the most uses of a member by a consumer.
    suggestion.kept += keepMostUsed(&groups, maxSlices: maxSlices, consumersOf: consumersOf)
    // 6. Members no consumer uses follow what they depend on, or what depends on them.
    attachUnused(&unused, to: &groups, dependencies: analysis.dependencies)
    // Members a protocol of the singleton provides are not cut again.
    let provided = Set(candidates.filter(isProvided).map(\.name))
    let wholeType = groups.count == 1 && unused.isEmpty && suggestion.kept.isEmpty && blocked.isEmpty
    // 7. Names.
    var taken: Set<String> = []
    for group in groups {
      let members = group.members.filter { !provided.contains($0) }.sorted { (order[$0] ?? 0) < (order[$1] ?? 0) }
      guard !members.isEmpty else { continue }
      let decls = members.compactMap { name in analysis.members.first { $0.name == name } }
      let name = SliceNamer.name(
        for: decls, typeName: analysis.singleton.simpleTypeName, wholeType: wholeType,
        isTaken: { taken.contains($0) || isTaken($0) || $0 == analysis.singleton.simpleTypeName })
      taken.insert(name)
      suggestion.slices.append(Slice(name: name, members: members))
    }
    suggestion.requirable = Set(names).subtracting(provided)
    suggestion.unsliced = unused.filter { !provided.contains($0) }
    suggestion.kept = suggestion.kept.filter { !provided.contains($0.member) }
    for name in uniqueNames(candidates.map(\.name)) where !provided.contains(name) && consumersOf[name] != nil {
      if let reason = blocked[name] { suggestion.kept.append(KeptMember(member: name, reason: reason)) }
    }
    suggestion.kept.sort { (order[$0.member] ?? Int.max, $0.member) < (order[$1.member] ?? Int.max, $1.member) }
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

  /// Step 2: a lone member of one consumer joins the group that consumer uses it with most.
  static func joinLoneMembers(_ groups: inout [Group], consumersOf: [String: Set<String>]) {
    var position = 0
    while position < groups.count {
      let group = groups[position]
      guard group.members.count == 1, group.consumers.count < 2,
        let target = bestPartner(of: position, in: groups, consumersOf: consumersOf)
      else {
        position += 1
        continue
      }
      groups[target].absorb(group)
      groups.remove(at: position)
      position = 0
    }
  }

  /// Step 3: groups about the same thing (a word most of each one's members have) merge.
  static func mergeByTopic(_ groups: inout [Group]) {
    var merged = true
    while merged {
      merged = false
      search: for left in groups.indices {
        for right in groups.indices where right > left && !groups[left].topic.isDisjoint(with: groups[right].topic) {
          groups[left].absorb(groups[right])
          groups.remove(at: right)
          merged = true
          break search
        }
      }
    }
  }

  /// Step 4: groups most of whose consumers use both merge; while there are too many, so do groups
  /// a third of whose consumers use both.
  static func mergeBySharedConsumers(_ groups: inout [Group], maxSlices: Int) {
    while let (left, right) = closestPair(groups),
      groups[left].similarity(groups[right]) > 0.5 || (groups.count > maxSlices && groups[left].similarity(groups[right]) >= 0.34)
    {
      groups[left].absorb(groups[right])
      groups.remove(at: right)
    }
  }

  /// Step 5: beyond `maxSlices`, the most used groups stay (the most uses of a member by a
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

  /// Step 6: members no consumer uses follow what they depend on, or what depends on them.
  static func attachUnused(_ unused: inout [String], to groups: inout [Group], dependencies: [String: Set<String>]) {
    var changed = true
    while changed && !unused.isEmpty {
      changed = false
      for name in unused {
        let uses = dependencies[name] ?? []
        let target =
          groups.firstIndex { !Set($0.members).isDisjoint(with: uses) }
          ?? groups.firstIndex { $0.members.contains { dependencies[$0]?.contains(name) == true } }
        if let target {
          groups[target].members.append(name)
          unused.removeAll { $0 == name }
          changed = true
        }
      }
    }
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

    /// Shared consumers over all consumers of the two.
    func similarity(_ other: Group) -> Double {
      let union = consumers.union(other.consumers).count
      return union == 0 ? 0 : Double(consumers.intersection(other.consumers).count) / Double(union)
    }
  }

  /// The group that the consumers of `groups[position]` use it with most: the most consumers in
  /// common, then the closest, then the first.
  private static func bestPartner(of position: Int, in groups: [Group], consumersOf: [String: Set<String>]) -> Int? {
    let group = groups[position]
    var best: (index: Int, shared: Int, similarity: Double)?
    for other in groups.indices where other != position {
      let shared = groups[other].consumers.intersection(group.consumers).count
      guard shared > 0 else { continue }
      let similarity = groups[other].similarity(group)
      if best == nil || shared > best!.shared || (shared == best!.shared && similarity > best!.similarity) {
        best = (other, shared, similarity)
      }
    }
    return best?.index
  }

  /// The two groups whose consumers overlap most; ties go to the earliest pair.
  private static func closestPair(_ groups: [Group]) -> (Int, Int)? {
    var best: (Int, Int, Double)?
    for left in groups.indices {
      for right in groups.indices where right > left {
        let similarity = groups[left].similarity(groups[right])
        if best == nil || similarity > best!.2 { best = (left, right, similarity) }
      }
    }
    return best.map { ($0.0, $0.1) }
  }

  private static func uniqueNames(_ names: [String]) -> [String] {
    var seen: Set<String> = []
    return names.filter { seen.insert($0).inserted }
  }
}
