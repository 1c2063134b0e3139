/// How well a set of slices serves injection, measured from the consumers' usage alone: whether
/// every member a consumer uses is in a slice, how much of what each consumer receives it uses,
/// and how many protocols each receives.
///
/// For a consumer, the members it uses that can be requirements are `used`; the slices holding any
/// of them are what it receives; its cohesion is `used` over the members of those slices. Consumers
/// that receive nothing count for coverage only.
public struct SliceQuality: Sendable, Equatable, Codable {
  /// Distinct members some consumer uses that can be requirements.
  public var usedMembers: Int
  /// Of those, the members some slice holds.
  public var coveredMembers: Int
  /// `coveredMembers / usedMembers` (1 when nothing is used).
  public var coverage: Double
  /// The mean over the consumers that receive a slice of members used / members received.
  public var meanCohesion: Double
  public var medianProtocols: Int
  public var maxProtocols: Int
  public var slices: Int
  /// Members the slices hold.
  public var slicedMembers: Int
  /// Consumers that use a member no slice holds.
  public var uncoveredConsumers: [String]

  /// `usage`: each consumer with the members it uses; `requirable`: whether a member can be a
  /// requirement (members that cannot stay on the singleton whatever the slices).
  public init(slices: [Slice], usage: [(consumer: String, members: [String])], requirable: (String) -> Bool) {
    var sliceOf: [String: Int] = [:]
    for (number, slice) in slices.enumerated() {
      for member in slice.members where sliceOf[member] == nil { sliceOf[member] = number }
    }
    let sizes = slices.map { Set($0.members).count }
    var used: Set<String> = []
    var cohesions: [Double] = []
    var protocols: [Int] = []
    var uncovered: [String] = []
    for (consumer, members) in usage {
      let wanted = Set(members.filter(requirable))
      guard !wanted.isEmpty else { continue }
      used.formUnion(wanted)
      let received = Set(wanted.compactMap { sliceOf[$0] })
      if wanted.contains(where: { sliceOf[$0] == nil }) { uncovered.append(consumer) }
      guard !received.isEmpty else { continue }
      let size = received.reduce(0) { $0 + sizes[$1] }
      cohesions.append(Double(wanted.filter { sliceOf[$0] != nil }.count) / Double(size))
      protocols.append(received.count)
    }
    protocols.sort()
    usedMembers = used.count
    coveredMembers = used.filter { sliceOf[$0] != nil }.count
    // Two decimals: what a report shows, and a number every JSON writer spells the same way.
    coverage = Self.rounded(used.isEmpty ? 1 : Double(coveredMembers) / Double(used.count))
    meanCohesion = Self.rounded(cohesions.isEmpty ? 0 : cohesions.reduce(0, +) / Double(cohesions.count))
    medianProtocols = protocols.isEmpty ? 0 : protocols[(protocols.count - 1) / 2]
    maxProtocols = protocols.last ?? 0
    self.slices = slices.count
    slicedMembers = sizes.reduce(0, +)
    uncoveredConsumers = uncovered.sorted()
  }

  /// `coverage 0.97, mean cohesion 0.62, protocols per consumer 1 (median) / 3 (max), 12 slices for 40 members`
  public var summary: String {
    "coverage \(Self.format(coverage)), mean cohesion \(Self.format(meanCohesion)), protocols per consumer "
      + "\(medianProtocols) (median) / \(maxProtocols) (max), \(slices) slice\(slices == 1 ? "" : "s") for \(slicedMembers) member\(slicedMembers == 1 ? "" : "s")"
  }

  static func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }

  /// Two decimals, as a report shows them.
  static func format(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
  }
}
