import DesingletonCore
import DesingletonIndex
import DesingletonPlanner
import Foundation
import Testing

/// `scan --format dot|mermaid|html`: what the graph holds, and that each format is accepted by a
/// parser written from the format's grammar (`Tests/Graphs/check_graphs.py`; pydot too when installed).
@Suite(.serialized) struct ScanPictureTests {
  static let store = """
    final class Store: @unchecked Sendable {
      static let shared = Store()
      var count = 0
      var name = ""
      func bump() { count += 1 }
      func rename() { name = "x" }
    }

    """

  @Test func edgesCarryTheMembersEachConsumerUses() throws {
    let project = makeProject([
      "Store.swift": Self.store,
      "A.swift": "final class A { func f() { Store.shared.bump(); _ = Store.shared.count } }\n",
      "B.swift": "final class B { func f() { Store.shared.rename(); Store.shared.bump() } }\n",
      "C.swift": "final class C { func f() { print(Store.shared) } }\n",
    ])
    var report = try ScanReport(project: project)
    report.singletons[0].suggestedSlices = [Slice(name: "Counting", members: ["count", "bump"])]
    let graph = ScanGraph(report)
    #expect(graph.nodes.map(\.label) == ["Store.shared", "Counting", "A", "B", "C"])
    #expect(graph.nodes.map(\.column) == [.singleton, .slice, .consumer, .consumer, .consumer])
    let edges = graph.edges.map { "\($0.from) -> \($0.to): \($0.members.joined(separator: ","))" }
    #expect(
      edges == [
        "singleton:Store -> slice:Store/Counting: count,bump",
        "slice:Store/Counting -> consumer:A: count,bump",
        // What no slice takes goes straight from the singleton.
        "slice:Store/Counting -> consumer:B: bump",
        "singleton:Store -> consumer:B: rename",
        // Only the instance itself: an edge with no members.
        "singleton:Store -> consumer:C: ",
      ]
    )
    let mermaid = graph.mermaid()
    #expect(mermaid.contains("  n1 -->|\"count, bump\"| n2\n") && mermaid.contains("  n1 --> n5\n"))
    #expect(graph.dot().contains("  \"singleton:Store\" -> \"consumer:C\";\n"))
  }

  @Test func labelsAreEscaped() throws {
    var report = try ScanReport(project: makeProject(["Store.swift": Self.store]))
    report.singletons[0].type = "Odd\"<Name>&"
    let graph = ScanGraph(report)
    #expect(graph.dot().contains("[label=\"Odd\\\"<Name>&.shared\", style=bold]"))
    #expect(graph.mermaid().contains("n1[[\"Odd#34;#60;Name#62;#38;.shared\"]]"))
    #expect(ScanPage.html(report).contains("<h2>Odd&quot;&lt;Name&gt;&amp;.shared</h2>"))
  }

  /// The page shows the suggestion's figures, as the text report does.
  @Test func thePageShowsTheSuggestionsFigures() throws {
    let report = try ScanReport(
      project: makeProject([
        "Store.swift": Self.store,
        "A.swift": "final class A { func f() { Store.shared.bump(); _ = Store.shared.count } }\n",
        "B.swift": "final class B { func f() { Store.shared.rename() } }\n",
      ]))
    let quality = try #require(report.singletons[0].quality)
    #expect(ScanPage.html(report).contains("<p class=\"quality\">Suggested slices: \(quality.summary)</p>\n"))
  }

  /// Every sample's pictures pass the independent checks.
  @Test(arguments: ["ShoppingApp", "SingletonShapes", "GodObject", "TwinTargets", "FrameworkApp", "XcodeApp"])
  func samplePicturesAreValid(_ sample: String) throws {
    let binary = packageRoot + "/.build/debug/desingleton"
    let checker = packageRoot + "/Tests/Graphs/check_graphs.py"
    for format in ["dot", "mermaid", "html"] {
      let scan = try run([binary, "scan", "--format", format], in: packageRoot + "/Samples/" + sample)
      #expect(scan.status == 0, "\(sample) \(format): \(scan.standardError)")
      let file = FileManager.default.temporaryDirectory.appendingPathComponent("desingleton-\(sample).\(format)")
      try Data(scan.output.utf8).write(to: file)
      defer { try? FileManager.default.removeItem(at: file) }
      let check = try run(["python3", checker, format, file.path])
      #expect(check.status == 0, "\(sample) \(format): \(check.output)\(check.standardError)")
    }
  }

  /// The checker is not a rubber stamp: broken inputs fail it.
  @Test func checkerRejectsBrokenPictures() throws {
    let checker = packageRoot + "/Tests/Graphs/check_graphs.py"
    let broken = [
      ("dot", "digraph { \"a\" -> \"b\" [label=\"x\" }\n"),
      ("dot", "digraph { a -- b }\n"),
      ("mermaid", "flowchart LR\n  n1[\"a\"]\n  n1 --> n2\n"),
      ("mermaid", "flowchart LR\n  n1[\"a \"quoted\"\"]\n"),
      ("html", "<!DOCTYPE html><html><body><div></body></html>\n"),
      (
        "html",
        "<!DOCTYPE html><html><body><img src=\"https://example.com/x.png\"><svg></svg><table></table></body></html>\n"
      ),
    ]
    for (format, text) in broken {
      let file = FileManager.default.temporaryDirectory.appendingPathComponent(
        "desingleton-broken-\(UUID().uuidString)"
      )
      try Data(text.utf8).write(to: file)
      defer { try? FileManager.default.removeItem(at: file) }
      #expect(try run(["python3", checker, format, file.path]).status == 1, "accepted: \(text)")
    }
  }
}
