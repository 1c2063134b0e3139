import Foundation
import Testing

/// Runs the real binary's `mocks`: where the double goes, a second run, a hand-edited double.
@Suite(.serialized) struct MocksCommandLineTests {
  static let package = [
    "Package.swift": """
    // swift-tools-version: 6.0
    import PackageDescription
    let package = Package(
      name: "App",
      targets: [.target(name: "Core"), .testTarget(name: "CoreTests", dependencies: ["Core"])])

    """,
    "Sources/Core/Counting.swift": """
    protocol Counting: AnyObject, Sendable {
      func count() -> Int
    }

    """,
    "Tests/CoreTests/CountingTests.swift": """
    import Testing

    """,
  ]

  @Test func writesTheDoubleOnceAndKeepsAHandEditedOneUnlessForced() throws {
    let cli = CommandLineTests()
    let directory = try cli.project(Self.package)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let mock = directory + "/Tests/CoreTests/Mocks/CountingMock.swift"

    let first = try cli.desingleton(["mocks", "--slice", "Counting"], in: directory)
    #expect(first.status == 0, "\(first.standardError)")
    #expect(first.standardError == "Tests/CoreTests/Mocks/CountingMock.swift: CountingMock, a double of 'Counting'\n")
    let generated = try String(contentsOfFile: mock, encoding: .utf8)
    #expect(generated.contains("@testable import Core\n") && generated.contains("final class CountingMock: Counting, @unchecked Sendable {"))

    let second = try cli.desingleton(["mocks", "--slice", "Counting", "--dry-run"], in: directory)
    #expect(second.status == 0 && second.output.isEmpty && second.standardError == "nothing to change\n")

    try Data((generated + "// mine\n").utf8).write(to: URL(fileURLWithPath: mock))
    let before = try cli.snapshot(directory)
    let refused = try cli.desingleton(["mocks", "--slice", "Counting"], in: directory)
    #expect(refused.status == 1)
    #expect(
      refused.standardError
        == "Tests/CoreTests/Mocks/CountingMock.swift:1:1: error: this mock was edited by hand since it was generated; keep your edits, or replace it with --force\n"
    )
    #expect(try cli.snapshot(directory) == before)

    let forced = try cli.desingleton(["mocks", "--slice", "Counting", "--force"], in: directory)
    #expect(forced.status == 0, "\(forced.standardError)")
    #expect(try String(contentsOfFile: mock, encoding: .utf8) == generated)
  }

  @Test func withoutASingletonOrASliceItSaysWhatToGive() throws {
    let cli = CommandLineTests()
    let directory = try cli.project(Self.package)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let result = try cli.desingleton(["mocks"], in: directory)
    #expect(result.status == 1)
    #expect(result.standardError == "error: no singleton found\n")
  }
}
