import DesingletonIndex

/// Step 2 of `SliceSuggester`: merges the pair of groups whose merge raises the score most (or
/// lowers it least), while it raises the score, or the median consumer receives more than two
/// groups, or a god object has more groups than a third of its members; never a merge that leaves
/// a member less visible than a consumer of the merged group needs (one that was already so stays
/// so).
///
/// Each consumer `c` uses `used[c]` members and receives the groups it uses a member of, `size[c]`
/// members in all: its cohesion is `used[c] / size[c]`. Merging `a` and `b` leaves a consumer that
/// receives both with the same members and one protocol fewer, and gives one that receives only
/// `a` the members of `b` too.
struct SliceMerger {
  struct Entry {
    var group: SliceSuggester.Group
    /// The consumers (by number) that use a member of the group.
    var receivers: Set<Int>
    var topic: Set<String>
    /// The most access a consumer of the group needs (nil: none is outside the singleton's modules).
    var floor: AccessLevel?
    /// Members less visible than `floor`.
    var misfits: Int
  }

  private(set) var groups: [Entry] = []
  private var used: [Int]
  private var size: [Int]
  private var protocols: [Int]
  private let limit: Int
  private let demands: [String: AccessLevel]
  private let exposure: [String: AccessLevel]

  private let godObject: Bool

  init(groups: [SliceSuggester.Group], godObject: Bool, demand: (String) -> AccessLevel?, exposable: (String) -> AccessLevel) {
    self.godObject = godObject
    let consumerNames = Array(Set(groups.flatMap(\.consumers))).sorted()
    let number = Dictionary(uniqueKeysWithValues: consumerNames.enumerated().map { ($1, $0) })
    var demands: [String: AccessLevel] = [:]
    for name in consumerNames { demands[name] = demand(name) }
    var exposure: [String: AccessLevel] = [:]
    if !demands.isEmpty {
      for name in groups.flatMap(\.members) { exposure[name] = exposable(name) }
    }
    self.demands = demands
    self.exposure = exposure
    size = Array(repeating: 0, count: consumerNames.count)
    protocols = size
    for group in groups {
      let receivers = Set(group.consumers.compactMap { number[$0] })
      for consumer in receivers {
        size[consumer] += group.members.count
        protocols[consumer] += 1
      }
      self.groups.append(Entry(group: group, receivers: receivers, topic: group.topic, floor: nil, misfits: 0))
    }
    used = size
    let members = groups.reduce(0) { $0 + $1.members.count }
    // A god object's slices are at most a third of its members; a smaller singleton's are what the
    // score makes them (the article's six members in three slices).
    limit = godObject ? max(1, members / 3) : Int.max
    for position in self.groups.indices {
      let floor = self.groups[position].group.consumers.compactMap { demands[$0] }.max()
      self.groups[position].floor = floor
      self.groups[position].misfits = misfits(of: self.groups[position].group.members, below: floor)
    }
  }

  mutating func run() {
    while groups.count > 1 {
      var best: (left: Int, right: Int, gain: Double)?
      for left in groups.indices {
        for right in groups.indices where right > left {
          guard let value = gain(left, right) else { continue }
          // Gains within `tie` of each other are equal (a sum over a set of consumers is added up
          // in the set's order, which differs from run to run): the first pair wins.
          if best == nil || value > best!.gain + SliceMerger.tie { best = (left, right, value) }
        }
      }
      guard let (left, right, value) = best, value > SliceMerger.tie || groups.count > limit || medianProtocols > 2
      else { return }
      merge(left, right)
    }
  }

  /// The members less visible than `floor`.
  private func misfits(of members: [String], below floor: AccessLevel?) -> Int {
    guard let floor else { return 0 }
    return members.filter { (exposure[$0] ?? .public) < floor }.count
  }

  /// What merging the two would change in the score, or nil when it may not be made.
  private func gain(_ left: Int, _ right: Int) -> Double? {
    let (one, other) = (groups[left], groups[right])
    if one.floor != other.floor {
      let floor = max(one.floor ?? .private, other.floor ?? .private)
      guard misfits(of: one.group.members + other.group.members, below: floor) == one.misfits + other.misfits else { return nil }
    }
    var total = 0.0
    var halfUsed = true
    for consumer in one.receivers.union(other.receivers) {
      let (inOne, inOther) = (one.receivers.contains(consumer), other.receivers.contains(consumer))
      if inOne && inOther {
        total += SliceSuggester.protocolWeight
      } else {
        let added = inOne ? other.group.members.count : one.group.members.count
        let before = Double(used[consumer]) / Double(size[consumer])
        let after = Double(used[consumer]) / Double(size[consumer] + added)
        total += after - before
        if after < 0.5 { halfUsed = false }
      }
    }
    if !godObject && halfUsed && !one.topic.isDisjoint(with: other.topic) { total += SliceSuggester.topicWeight }
    return total
  }

  /// Far below any real difference of gains (a consumer's cohesion changes by at least about
  /// 1 / members²), far above the rounding of a sum of a few hundred terms.
  static let tie = 1e-9

  private var medianProtocols: Int {
    let counts = protocols.filter { $0 > 0 }.sorted()
    return counts.isEmpty ? 0 : counts[(counts.count - 1) / 2]
  }

  private mutating func merge(_ left: Int, _ right: Int) {
    let other = groups.remove(at: right)
    for consumer in groups[left].receivers.union(other.receivers) {
      switch (groups[left].receivers.contains(consumer), other.receivers.contains(consumer)) {
      case (true, true): protocols[consumer] -= 1
      case (true, false): size[consumer] += other.group.members.count
      default: size[consumer] += groups[left].group.members.count
      }
    }
    groups[left].group.absorb(other.group)
    groups[left].receivers.formUnion(other.receivers)
    groups[left].misfits += other.misfits
    if let floor = other.floor, (groups[left].floor ?? .private) < floor { groups[left].floor = floor }
    groups[left].topic = groups[left].group.topic
  }
}
