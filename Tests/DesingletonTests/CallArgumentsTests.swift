import DesingletonIndex
import Testing

/// Whether a call's arguments can call a declaration's parameters (`CallArguments.canCall`), the
/// declaration's labels and variadic positions read by the index from inline source.
@Suite struct CallArgumentsTests {
  static let store = """
    final class Store {
      func log(_ items: String..., tag: String) {}
      func sum(of values: Int..., scale: Int = 1) {}
      func pair(_ first: Int, _ second: Int) {}
    }
    """

  @Test(arguments: [
    ("log", ["_", "_", "tag"], true),
    ("log", ["tag"], true),
    ("log", ["_", "tag"], true),
    ("log", ["_", "_"], false),
    ("sum", ["of", "_", "_"], true),
    ("sum", ["of", "_", "scale"], true),
    ("sum", [], true),
    ("sum", ["_", "_"], false),
    ("pair", ["_", "_"], true),
    ("pair", ["_", "_", "_"], false),
    ("pair", ["_"], false),
  ])
  func aCallCallsTheDeclarationItsLabelsFit(name: String, labels: [String], expected: Bool) throws {
    let project = makeProject(["Store.swift": Self.store])
    let member = try #require(project.index.members(of: "Store").first { $0.name == name })
    let parameters = member.labels.map { (label: $0, hasDefault: name == "sum" && $0 == "scale") }
    let arguments = CallArguments(labels: labels, trailingClosures: 0)
    #expect(arguments.canCall(parameters, variadic: member.variadicPositions) == expected)
  }
}
