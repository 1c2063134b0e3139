import DesingletonIndex
import Testing

@testable import DesingletonPlanner

/// Which consumers can ever hold the slices they use (`Holders`): the one answer inject's targets
/// and slicing's figures come from. One case a line: the consumer's declaration, and why not.
@Suite struct HoldersTests {
  static let store = "final class Store {\n  static let shared = Store()\n  var cart = 0\n  var theme = 1\n  func log() {}\n}\n"

  @Test(arguments: [
    ("final class Screen { func show() { _ = Store.shared.cart } }", "Screen", nil),
    ("struct Row { func show() { _ = Store.shared.cart } }", "Row", nil),
    ("actor Worker { func run() { _ = Store.shared.cart } }", "Worker", nil),
    ("extension Array where Element == Int { func total() -> Int { Store.shared.cart } }", "Array", "its declaration is not in the given paths"),
    ("enum Mode { case a\n  func log() { Store.shared.log() } }", "Mode", "an enum cannot hold injected values"),
    ("protocol Feature {}\nextension Feature { func note() { Store.shared.log() } }", "Feature", "it is a protocol"),
    ("import XCTest\nfinal class StoreTests: XCTestCase { func testCart() { _ = Store.shared.cart } }", "StoreTests", "it is a test case"),
  ] as [(String, String, String?)])
  func obstacle(_ consumer: String, _ typeName: String, _ reason: String?) {
    let project = makeProject(["Store.swift": Self.store, "Consumer.swift": consumer])
    #expect(Holders.obstacle(typeName, singleton: "Store", index: project.index)?.1 == reason)
  }

  /// Slices serve the consumers that can hold them: members only an extension of a framework type,
  /// an enum, a protocol extension or a test uses stay on the singleton, and the figures count the
  /// consumers that receive a slice.
  @Test func slicesServeOnlyTheConsumersThatCanHoldThem() throws {
    let project = makeProject([
      "Store.swift": Self.store,
      "Screen.swift": "final class Screen {\n  func show() { _ = Store.shared.cart }\n}\n",
      "Array+Total.swift": "extension Array where Element == Int {\n  func total() -> Int { Store.shared.cart + Store.shared.theme }\n}\n",
      "Mode.swift": "enum Mode {\n  case a\n  func log() { Store.shared.log() }\n}\n",
      "StoreTests.swift": "import XCTest\nfinal class StoreTests: XCTestCase {\n  func testTheme() { _ = Store.shared.theme }\n}\n",
    ])
    let store = try #require(project.index.singletons.first { $0.typeName == "Store" })
    let analysis = try SingletonAnalysis(singleton: store, project: project)
    #expect(analysis.consumers.map(\.typeName) == ["Array", "Mode", "Screen", "StoreTests"])
    #expect(analysis.receivers.map(\.typeName) == ["Screen"])
    let suggestion = SliceSuggester.suggestion(analysis, project: project)
    #expect(suggestion.slices.map(\.members) == [["cart"]])
    #expect(suggestion.unsliced == ["theme", "log"])
    let report = try ScanReport(project: project, only: "Store")
    let entry = try #require(report.singletons.first)
    #expect(entry.quality?.summary == "coverage 1.00, mean cohesion 1.00, protocols per consumer 1 (median) / 1 (max), 1 slice for 1 member")
    // Every consumer is still listed with what it uses, and those that keep the accessor say why.
    #expect(entry.consumers.map(\.type) == ["Array", "Mode", "Screen", "StoreTests"])
    #expect(
      entry.consumers.map(\.keepsAccessor) == [
        "its declaration is not in the given paths", "an enum cannot hold injected values", nil, "it is a test case",
      ])
    let text = report.text()
    #expect(text.contains("    2  Mode (keeps the accessor: an enum cannot hold injected values)\n"))
    #expect(text.contains("    3  Screen\n"))
    #expect(text.contains("    (used only by consumers that keep the accessor, stays on Store): theme, log\n"))
    #expect(!text.contains("(used by no consumer"))
    // The picture draws them straight from the singleton, never through a slice.
    let edges = ScanGraph(report).edges.map { "\($0.from) -> \($0.to): \($0.members.joined(separator: ","))" }
    #expect(edges.contains("singleton:Store -> consumer:Array: cart,theme"))
    #expect(edges.contains("slice:Store/\(suggestion.slices[0].name) -> consumer:Screen: cart"))
    #expect(!edges.contains { $0.hasPrefix("slice:") && !$0.hasSuffix("consumer:Screen: cart") })
  }

  /// A singleton only consumers that keep the accessor use: scan suggests nothing and says why, and
  /// extract-protocol plans nothing with the same reason.
  @Test func onlyConsumersThatKeepTheAccessorLeaveNothingToSlice() throws {
    let project = makeProject([
      "Store.swift": Self.store,
      "Mode.swift": "enum Mode {\n  case a\n  func log() { Store.shared.log() }\n}\n",
    ])
    let store = try #require(project.index.singletons.first { $0.typeName == "Store" })
    let report = try ScanReport(project: project, only: "Store")
    #expect(report.singletons.first?.suggestedSlices.isEmpty == true)
    #expect(report.singletons.first?.note?.hasPrefix("nothing to slice: no consumer that can be given protocols uses one of its members") == true)
    let plan = try ExtractProtocolPlanner.plan(singleton: store, options: ExtractProtocolOptions(), project: project)
    #expect(plan.edits.isEmpty && plan.newFiles.isEmpty)
    #expect(plan.notes.map(\.message).contains { $0.hasPrefix("nothing to slice: no consumer of 'Store' that can be given protocols") })
  }
}
