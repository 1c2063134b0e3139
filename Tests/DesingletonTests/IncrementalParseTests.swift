import DesingletonCore
import DesingletonIndex
import DesingletonPlanner
import DesingletonPrinter
import SwiftSyntax
import Testing

/// A rewritten file is parsed from the tree of the file it was (`ParsedFile.init(source:editing:with:)`,
/// which takes the items no edit reaches from that tree): its tree must be the one parsing its whole
/// text gives. Checked on every file the samples' journeys edit (extract-protocol, then inject --all,
/// one singleton after another), and on edits that do not make the new text.
@Suite struct IncrementalParseTests {
  @Test(arguments: ConvergenceTests.samples + ["ConvergenceShapes", "RepairShapes", "CycleApp", "ModularApp", "PlatformStore", "XcodeApp"])
  func aRewrittenFileParsesAsItsWholeText(_ sample: String) throws {
    var files = try ConvergenceTests.sources(of: sample)
    var checked = 0
    for name in makeProject(files).index.singletons.map(\.typeName) {
      for step in 0..<2 {
        let project = makeProject(files)
        guard let singleton = project.index.singletons.first(where: { $0.typeName == name }) else { break }
        let plan: Plan
        do {
          plan = step == 0
            ? try ExtractProtocolPlanner.plan(singleton: singleton, options: ExtractProtocolOptions(), project: project)
            : try InjectPlanner.plan(singleton: singleton, options: InjectOptions(), project: project)
        } catch is Refusal {
          continue
        }
        let outputs = try Printer(root: ".").render(plan, sources: project.sources(of: Array(plan.edits.keys)))
        for output in outputs where output.original != nil && output.path.hasSuffix(".swift") {
          let before = try project.file(output.path)
          let new = SourceText(path: output.path, bytes: output.new)
          let edited = ParsedFile(source: new, editing: before, with: plan.edits[output.path] ?? [])
          let whole = ParsedFile(source: new)
          #expect(edited.isFromEdits, "\(sample): \(output.path): the plan's edits do not make its text")
          #expect(Self.shape(edited.tree) == Self.shape(whole.tree), "\(sample): \(output.path) after \(name)'s step \(step)")
          checked += 1
        }
        files = try apply(plan, to: project, files: files)
      }
    }
    #expect(checked > 0, "\(sample): no file edited")
  }

  /// Edits that do not make the new text (another text, an edit outside the file, edits that
  /// overlap) parse it whole; inserts at one offset apply in the order `EditApplier` applies them.
  @Test func editsThatDoNotMakeTheTextParseItWhole() throws {
    let old = "struct A {\n  var x = 1\n  func f() { print(x) }\n}\nstruct B {}\n"
    let before = ParsedFile(source: SourceText(path: "A.swift", text: old))
    let offset = Array(old.utf8).count - "struct B {}\n".utf8.count
    let cases: [(edits: [TextEdit], new: String)] = [
      ([TextEdit(range: offset..<offset, replacement: "let y = 2\n")], old.replacingOccurrences(of: "struct B", with: "let y = 2\nstruct B")),
      ([TextEdit(range: offset..<offset, replacement: "let y = 2\n")], old),
      ([TextEdit(range: 0..<10_000, replacement: "")], ""),
      ([TextEdit(range: 0..<8, replacement: "enum"), TextEdit(range: 4..<9, replacement: "")], "enum A {}"),
      (
        [TextEdit(range: offset..<offset, replacement: "let a = 1\n"), TextEdit(range: offset..<offset, replacement: "let b = 2\n")],
        old.replacingOccurrences(of: "struct B", with: "let a = 1\nlet b = 2\nstruct B")
      ),
    ]
    for (number, (edits, new)) in cases.enumerated() {
      let source = SourceText(path: "A.swift", text: new)
      let edited = ParsedFile(source: source, editing: before, with: edits)
      #expect(edited.isFromEdits == [0, 4].contains(number), "case \(number)")
      #expect(edited.tree.description == new)
      #expect(Self.shape(edited.tree) == Self.shape(ParsedFile(source: source).tree))
    }
  }

  /// Every node's kind and every token's kind, presence, text and trivia, in order.
  static func shape(_ tree: SourceFileSyntax) -> [String] {
    var result: [String] = []
    var pending: [Syntax] = [Syntax(tree)]
    while let node = pending.popLast() {
      if let token = node.as(TokenSyntax.self) {
        result.append("\(token.tokenKind) \(token.presence) \(token.leadingTrivia) \(token.trailingTrivia) \(token.tokenDiagnostic.map { "\($0)" } ?? "")")
      } else {
        result.append("\(node.kind) \(node.children(viewMode: .all).count)")
        pending.append(contentsOf: node.children(viewMode: .all).reversed())
      }
    }
    return result
  }
}
