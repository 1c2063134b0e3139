import DesingletonCore
import Testing

@testable import DesingletonPrinter

/// `PatchWriter.patches`: each plan of a series holds the one before it; a patch is the difference
/// from the files as the plan before left them.
@Suite struct PatchWriterTests {
  static let sources = [
    "/p/A.swift": SourceText(path: "/p/A.swift", text: "let a = 1\nlet b = 2\n"),
    "/p/B.swift": SourceText(path: "/p/B.swift", text: "let c = 3\n"),
  ]

  static func plan(_ edits: [String: [TextEdit]], newFiles: [String: String] = [:]) -> Plan {
    var plan = Plan()
    for (path, fileEdits) in edits { for edit in fileEdits { plan.add(edit, in: path) } }
    plan.newFiles = newFiles
    return plan
  }

  /// A file the next plan leaves as it was is in no later patch; one it edits further shows only
  /// the new edit; a new file shows once.
  @Test func eachPatchHoldsWhatItsPlanAdds() throws {
    let first = TextEdit(range: 8..<9, replacement: "10")
    let second = TextEdit(range: 18..<19, replacement: "20")
    let plans = [
      Self.plan(["/p/A.swift": [first]]),
      Self.plan(["/p/A.swift": [first]], newFiles: ["/p/C.swift": "let d = 4\n"]),
      Self.plan(["/p/A.swift": [first, second], "/p/B.swift": [TextEdit(range: 8..<9, replacement: "30")]], newFiles: ["/p/C.swift": "let d = 4\n"]),
    ]
    let patches = try PatchWriter(printer: Printer(root: "/p")).patches(plans, sources: Self.sources)
    #expect(patches.count == 3)
    #expect(patches[0].contains("+let a = 10") && !patches[0].contains("C.swift"))
    #expect(patches[1].contains("+let d = 4") && !patches[1].contains("A.swift"))
    #expect(patches[2].contains("+let b = 20") && patches[2].contains("+let c = 30"))
    #expect(!patches[2].contains("+let a = 10") && !patches[2].contains("C.swift"))
  }

  /// A later plan that both edits and creates a file is refused there, as a whole plan would be,
  /// and a later plan whose file would not parse too.
  @Test func aLaterPlanIsCheckedLikeAWholeOne() throws {
    let writer = PatchWriter(printer: Printer(root: "/p"))
    let edit = TextEdit(range: 8..<9, replacement: "10")
    let created = ["/p/N.swift": "let x = 0\n"]
    let both = [Self.plan([:], newFiles: created), Self.plan(["/p/N.swift": [TextEdit(range: 0..<3, replacement: "var")]], newFiles: created)]
    #expect(try writer.patches(Array(both.prefix(1)), sources: Self.sources).count == 1)
    #expect(throws: Refusal.self) { try writer.patches(both, sources: Self.sources) }
    let broken = [Self.plan(["/p/A.swift": [edit]]), Self.plan(["/p/A.swift": [edit], "/p/B.swift": [TextEdit(range: 0..<3, replacement: "let (")]])]
    #expect(try writer.patches(Array(broken.prefix(1)), sources: Self.sources).count == 1)
    #expect(throws: Refusal.self) { try writer.patches(broken, sources: Self.sources) }
  }
}
