import DesingletonCore
import DesingletonIndex
@testable import DesingletonPlanner
import Testing

/// What a refusal's next command is checked against: the ranges a plan's edits change. An edit
/// that writes what is there already changes nothing (`inject --all` run again on a consumer whose
/// init keeps `favicons: Favicons = Favicons.shared`, as a real app's does), so a command made only
/// of such edits is never suggested.
@Suite struct NextCommandTests {
  static let source = "final class Box {\n  let name = \"box\"\n}\n"

  @Test(arguments: [
    // (range, replacement, changed)
    (0..<5, "final", false),
    (0..<5, "final ", true),
    (6..<11, "class", false),
    (6..<11, "struct", true),
    (17..<17, "", false),
    (17..<17, "\n", true),
  ] as [(Range<Int>, String, Bool)])
  func anEditChangesTheFileOnlyWhereItWritesSomethingElse(range: Range<Int>, replacement: String, changed: Bool) throws {
    let project = makeProject(["Box.swift": Self.source])
    let plan = Plan(edits: ["Box.swift": [TextEdit(range: range, replacement: replacement)]])
    let changes = try NextCommand.changes(plan, in: project)
    #expect(changes == (changed ? ["Box.swift": [range]] : [:]), "\(range) '\(replacement)'")
  }
}
