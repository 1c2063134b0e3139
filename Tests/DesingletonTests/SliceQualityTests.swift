import DesingletonPlanner
import Testing

/// The figures `scan` reports for a set of slices, one case a line: consumers with the members
/// they use, the slices, and coverage / mean cohesion / median and max protocols per consumer.
@Suite struct SliceQualityTests {
  static let usage: [(consumer: String, members: [String])] = [
    ("Cart", ["items", "add"]), ("Badge", ["items"]), ("Profile", ["user", "avatar"]), ("Log", ["log"]),
  ]

  @Test(arguments: [
    // One slice per exact set of consumers: each receives only what it uses.
    ([["items"], ["add"], ["user", "avatar"], ["log"]], "coverage 1.00, mean cohesion 1.00, protocols per consumer 1 (median) / 2 (max), 4 slices for 5 members"),
    // One protocol for everything: a consumer using one member of five gets 0.2.
    ([["items", "add", "user", "avatar", "log"]], "coverage 1.00, mean cohesion 0.30, protocols per consumer 1 (median) / 1 (max), 1 slice for 5 members"),
    // `log` in no slice: Log is uncovered and receives nothing.
    ([["items", "add"], ["user", "avatar"]], "coverage 0.80, mean cohesion 0.83, protocols per consumer 1 (median) / 1 (max), 2 slices for 4 members"),
  ])
  func figures(_ members: [[String]], _ expected: String) {
    let slices = members.enumerated().map { Slice(name: "S\($0.offset)", members: $0.element) }
    let quality = SliceQuality(slices: slices, usage: Self.usage, requirable: { _ in true })
    #expect(quality.summary == expected)
  }

  @Test func membersThatCannotBeRequirementsAreNotCounted() {
    let quality = SliceQuality(
      slices: [Slice(name: "S", members: ["items", "add"])], usage: Self.usage, requirable: { ["items", "add"].contains($0) })
    #expect(quality.usedMembers == 2 && quality.coverage == 1)
    #expect(quality.uncoveredConsumers.isEmpty)
    let partial = SliceQuality(slices: [Slice(name: "S", members: ["items"])], usage: Self.usage, requirable: { _ in true })
    #expect(partial.uncoveredConsumers == ["Cart", "Log", "Profile"])
  }
}
