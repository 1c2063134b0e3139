import Foundation
import Testing

/// `--format json` on the writing commands, on a copy of ShoppingApp taken through the whole
/// journey: each report decoded and checked against what the command did.
extension CommandLineTests {
  /// A copy of a sample (without its build folder) in a scratch directory.
  func sampleCopy(_ name: String) throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "desingleton-json-\(UUID().uuidString)"
    ).path
    try run(["cp", "-R", packageRoot + "/Samples/" + name, directory])
    try? FileManager.default.removeItem(atPath: directory + "/.build")
    return directory
  }

  func document(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
    #expect(result.status == 0, "\(result.standardError)", sourceLocation: sourceLocation)
    return try #require(
      try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any], sourceLocation: sourceLocation
    )
  }

  @Test func writingCommandsReportTheirDecisionsAsJSON() throws {
    let directory = try sampleCopy("ShoppingApp")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let before = try snapshot(directory)

    // extract-protocol: a dry run writes nothing and prints only the JSON.
    let dry = try document(try desingleton(["extract-protocol", "--dry-run", "--format", "json"], in: directory))
    #expect(try snapshot(directory) == before)
    #expect(dry["schemaVersion"] as? Int == 1)
    #expect(dry["singleton"] as? String == "SessionController")
    let slices = try #require(dry["slices"] as? [[String: Any]])
    #expect(slices.map { $0["name"] as? String } == ["CurrentUserProvider", "CurrentCart", "ItemFetcher"])
    #expect(slices.map { $0["outcome"] as? String } == ["created", "created", "created"])
    #expect(slices[1]["members"] as? [String] == ["cart", "addItemToCart"])
    #expect(slices[1]["access"] as? String == "internal")
    #expect(slices[1]["path"] as? String == "Sources/ShoppingApp/CurrentCart.swift")
    #expect(dry["conformances"] as? [String] == ["CurrentUserProvider", "CurrentCart", "ItemFetcher"])
    let dryFiles = try #require(dry["files"] as? [String: Any])
    #expect(dryFiles["written"] as? Bool == false)
    #expect(dryFiles["changed"] as? [String] == ["Sources/ShoppingApp/SessionController.swift"])
    #expect((dryFiles["created"] as? [String])?.count == 3)

    // The real run decides the same and writes what it lists.
    let real = try document(try desingleton(["extract-protocol", "--format", "json"], in: directory))
    #expect((real["slices"] as? [[String: Any]])?.map { $0["name"] as? String } == slices.map { $0["name"] as? String })
    let files = try #require(real["files"] as? [String: Any])
    #expect(files["written"] as? Bool == true)
    for path in try #require(files["created"] as? [String]) {
      #expect(FileManager.default.fileExists(atPath: directory + "/" + path), "\(path)")
    }
    #expect(try desingleton(["inject", "--all"], in: directory).status == 0)

    // finish: the root, the instance's name, every remaining use classified.
    let finish = try document(
      try desingleton(
        ["finish", "--root", "AppCoordinator", "--include-tests", "--dry-run", "--format", "json"], in: directory))
    #expect(finish["root"] as? String == "AppCoordinator")
    #expect(finish["instanceName"] as? String == "sessionController")
    #expect(finish["removed"] as? [String] == ["sharedController"])
    let references = try #require(finish["references"] as? [[String: Any]])
    #expect(!references.isEmpty)
    #expect(Set(references.compactMap { $0["kind"] as? String }).isSubset(of: ["root", "test", "coder-init"]))
    #expect(
      (finish["coderInits"] as? [[String: Any]])?.compactMap { $0["type"] as? String }.contains("LoginViewController")
        == true)
    #expect(
      ((finish["files"] as? [String: Any])?["changed"] as? [String])?.contains(
        "Sources/ShoppingApp/SessionController.swift") == true)

    // mocks: one double per slice, where it goes and what it implements.
    let mocks = try document(
      try desingleton(["mocks", "--singleton", "SessionController", "--dry-run", "--format", "json"], in: directory))
    let doubles = try #require(mocks["mocks"] as? [[String: Any]])
    let cart = try #require(doubles.first { $0["protocol"] as? String == "CurrentCart" })
    #expect(cart["mock"] as? String == "CurrentCartMock")
    #expect(cart["path"] as? String == "Tests/ShoppingAppTests/Mocks/CurrentCartMock.swift")
    #expect(cart["methods"] as? [String] == ["addItemToCart"])
    #expect(cart["properties"] as? [String] == ["cart"])
    #expect(cart["shape"] as? String == "@MainActor")
    #expect(cart["outcome"] as? String == "created")
    #expect(((mocks["files"] as? [String: Any])?["created"] as? [String])?.count == doubles.count)
  }

  /// The summary's lines are the JSON's `notes`: each with its kind, its place where it has one,
  /// and its depth under the line it details; printed, they are the text format's lines.
  @Test func theSummaryNotesAreInTheJSONWithTheirKinds() throws {
    let directory = try project([
      "Store.swift": "final class Store {\n\tstatic let shared = Store()\n\tvar count = 0\n\tfunc bump() { count += 1 }\n}\n",
      "Counting.swift": "protocol Counting: AnyObject {\n\tfunc bump()\n}\n\nextension Store: Counting {}\n",
      "Counter.swift": "final class Counter {\n\tfunc tap() { Store.shared.bump() }\n}\n",
      "Passer.swift": "final class Passer {\n\tfunc hand() -> Store { Store.shared }\n}\n",
      "App.swift": "let counter = Counter()\nlet passer = Passer()\n",
    ])
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let report = try document(
      try desingleton(["inject", "--all", "--singleton", "Store", "--dry-run", "--format", "json"], in: directory))
    let notes = try #require(report["notes"] as? [[String: Any]])
    #expect(notes.map { $0["kind"] as? String } == ["changed", "changed", "skipped", "skipped", "skipped"])
    #expect(notes.map { $0["depth"] as? Int ?? 0 } == [0, 1, 0, 1, 2])
    #expect(notes[0]["message"] as? String == "Counter: counting: Counting; 1 reference rewritten")
    #expect(notes[4]["file"] as? String == "Passer.swift")
    #expect(notes[4]["line"] as? Int == 2)
    #expect(notes[4]["column"] as? Int == 25)

    let text = try desingleton(["inject", "--all", "--singleton", "Store", "--dry-run"], in: directory)
    let printed = notes.map { note -> String in
      let place = (note["file"] as? String).map { file in
        [file, (note["line"] as? Int).map(String.init), (note["column"] as? Int).map(String.init)].compactMap { $0 }
          .joined(separator: ":") + ": "
      }
      return String(repeating: "  ", count: note["depth"] as? Int ?? 0) + (place ?? "") + (note["message"] as? String ?? "")
    }
    let lines = text.standardError.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(Array(lines.prefix(printed.count)) == printed, "\(text.standardError)")
  }

  /// Members left on the singleton appear, with the reason when they cannot be requirements.
  @Test func extractProtocolReportsKeptMembers() throws {
    let directory = try project([
      "Store.swift":
        "final class Store {\n\tstatic let shared = Store()\n\tvar count = 0\n\tfunc bump() { count += 1 }\n\tfunc total<T>(_ value: T) -> some Equatable { count }\n}\n",
      "Counter.swift":
        "final class Counter {\n\tfunc tap() {\n\t\tStore.shared.bump()\n\t\t_ = Store.shared.total(1)\n\t}\n}\n",
    ])
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let report = try document(
      try desingleton(
        ["extract-protocol", "--slice", "Counting=count,bump", "--dry-run", "--format", "json"], in: directory))
    let slices = try #require(report["slices"] as? [[String: Any]])
    #expect(slices.map { $0["name"] as? String } == ["Counting"])
    #expect(slices.first?["members"] as? [String] == ["count", "bump"])
    #expect(report["leftOnSingleton"] as? [String] == ["total"])

    let suggested = try document(try desingleton(["extract-protocol", "--dry-run", "--format", "json"], in: directory))
    let kept = try #require(suggested["kept"] as? [[String: Any]])
    #expect(kept.map { $0["member"] as? String } == ["total(_:)"])
    #expect((kept.first?["reason"] as? String)?.contains("opaque") == true)
    #expect(kept.first?["slice"] == nil)

    // A slice named after a protocol that exists: the singleton conforms to it, in the slices' order.
    try Data("protocol Bumping: AnyObject {\n\tfunc bump()\n}\n".utf8)
      .write(to: URL(fileURLWithPath: directory + "/Bumping.swift"))
    let existing = try document(
      try desingleton(
        ["extract-protocol", "--slice", "Bumping=bump", "--slice", "Counting=count", "--dry-run", "--format", "json"],
        in: directory))
    let outcomes = try #require(existing["slices"] as? [[String: Any]])
    #expect(outcomes.map { $0["name"] as? String } == ["Bumping", "Counting"])
    #expect(outcomes.map { $0["outcome"] as? String } == ["conformance-added", "created"])
    #expect(outcomes.first?["path"] == nil)
    #expect(existing["conformances"] as? [String] == ["Bumping", "Counting"])
  }
}
