import DesingletonCore
import SwiftParser
import Testing

@testable import DesingletonPrinter

@Suite("Printer: render and diff")
struct PrinterRenderTests {
  private let printer = Printer(root: "/work/project")

  private func source(_ path: String, _ text: String) -> SourceText {
    SourceText(path: path, text: text)
  }

  private func refusal(
    _ plan: Plan,
    _ sources: [SourceText],
    sourceLocation: SourceLocation = #_sourceLocation,
    parsingFirst: () -> Void = {}
  ) -> String {
    do {
      let sources = Dictionary(uniqueKeysWithValues: sources.map { ($0.path, $0) })
      let outputs = try printer.render(plan, sources: sources) { _ in parsingFirst() }.outputs
      Issue.record("expected a refusal, got \(outputs.map(\.path))", sourceLocation: sourceLocation)
      return ""
    } catch {
      return "\(error)"
    }
  }

  @Test func appliesEditsSortsByPathAndDropsUnchangedFiles() throws {
    let a = source("Sources/A.swift", "let a = 1\n")
    let b = source("Sources/B.swift", "let b = 2\n")
    let c = source("Sources/C.swift", "let c = 3\n")
    var plan = Plan()
    plan.add(PrinterTestSupport.replacing("2", with: "20", in: b.text), in: b.path)
    plan.add(PrinterTestSupport.replacing("1", with: "1", in: a.text), in: a.path)
    plan.add(PrinterTestSupport.replacing("3", with: "30", in: c.text), in: c.path)
    plan.newFiles["Sources/AB.swift"] = "struct AB {}\n"
    plan.newFiles["Sources/Notes.md"] = "{{ not swift, not parsed"
    let outputs = try printer.render(plan, sources: [a.path: a, b.path: b, c.path: c])
    #expect(outputs.map(\.path) == ["Sources/AB.swift", "Sources/B.swift", "Sources/C.swift", "Sources/Notes.md"])
    #expect(
      outputs.map { String(decoding: $0.new, as: UTF8.self) } == [
        "struct AB {}\n", "let b = 20\n", "let c = 30\n", "{{ not swift, not parsed",
      ]
    )
    #expect(outputs.map(\.isNewFile) == [true, false, false, true])
  }

  @Test func refusesAnOutputThatDoesNotParse() {
    let a = source("Sources/A.swift", "func f() {\n  let x = 1\n}\n")
    let b = source("Sources/B.swift", "let b = 2\n")
    var plan = Plan()
    plan.add(PrinterTestSupport.replacing("let x = 1\n", with: "let x = (1\n", in: a.text), in: a.path)
    plan.add(PrinterTestSupport.replacing("2", with: "3", in: b.text), in: b.path)
    let message = refusal(plan, [a, b])
    #expect(message == "Sources/A.swift:2:13: error: the rewritten file would not parse; nothing was written")
  }

  @Test func refusesANewFileThatDoesNotParse() {
    var plan = Plan()
    plan.newFiles["Gen/New.swift"] = "struct New {\n  var x: Int =\n}\n"
    let message = refusal(plan, [])
    #expect(
      message.hasPrefix("Gen/New.swift:2:15: error: the new file would not parse; nothing was written"),
      "\(message)"
    )
  }

  /// The caller parses the outputs first; the check reads the trees it remembered instead of
  /// parsing the same bytes again. (A tree remembered for bytes it was not parsed from shows which
  /// one the check read: the text parses, the tree has an error.)
  @Test func checksATreeTheCallerParsedFirst() throws {
    let a = source("Sources/A.swift", "let a = 1\n")
    var plan = Plan()
    plan.add(PrinterTestSupport.replacing("1", with: "2 /* remembered */", in: a.text), in: a.path)
    var parsed: [String] = []
    let rendered = try printer.render(plan, sources: [a.path: a]) { outputs in
      parsed = outputs.map(\.path)
      return outputs.count
    }
    #expect(parsed == ["Sources/A.swift"] && rendered.parsed == 1)
    var other = Plan()
    other.add(PrinterTestSupport.replacing("1", with: "3 /* remembered */", in: a.text), in: a.path)
    let message = refusal(other, [a]) {
      let broken = Parser.parse(source: "let a = (\n")
      Printer.remember(broken, of: Array("let a = 3 /* remembered */\n".utf8))
    }
    #expect(message == "Sources/A.swift:1:10: error: the rewritten file would not parse; nothing was written")
  }

  /// Edits that cannot be applied are refused before the caller parses anything; what the caller
  /// throws comes after the check's own problems.
  @Test func parsesFirstOnlyWhatAppliedAndReportsTheCheckFirst() {
    let a = source("A.swift", "let a = 1\n")
    var overlapping = Plan()
    overlapping.add(TextEdit(range: 4..<9, replacement: "b = 2"), in: a.path)
    overlapping.add(TextEdit(range: 8..<9, replacement: "3"), in: a.path)
    var ran = false
    #expect(throws: Refusal.self) {
      _ = try printer.render(overlapping, sources: [a.path: a]) { _ in ran = true }
    }
    #expect(!ran)
    var broken = Plan()
    broken.add(PrinterTestSupport.replacing("1", with: "(1", in: a.text), in: a.path)
    do {
      _ = try printer.render(broken, sources: [a.path: a]) { _ in throw Refusal("the caller's own refusal") }
      Issue.record("expected a refusal")
    } catch {
      #expect("\(error)" == "A.swift:1:11: error: the rewritten file would not parse; nothing was written")
    }
  }

  @Test func acceptsAnOutputThatKeepsTheOriginalsErrors() throws {
    let a = source("A.swift", "let broken = (\nlet b = 2\n")
    var plan = Plan()
    plan.add(PrinterTestSupport.replacing("2", with: "3", in: a.text), in: a.path)
    let outputs = try printer.render(plan, sources: [a.path: a])
    #expect(outputs.count == 1)
  }

  @Test func refusesOverlappingEditsNamingTheFile() {
    let a = source("A.swift", "let a = 1\n")
    var plan = Plan()
    plan.add(TextEdit(range: 4..<9, replacement: "b = 2"), in: a.path)
    plan.add(TextEdit(range: 8..<9, replacement: "3"), in: a.path)
    #expect(refusal(plan, [a]).hasPrefix("A.swift:1:9: error: internal error: two edits overlap"))
  }

  @Test func refusesEditsOfAFileThatWasNotLoaded() {
    var plan = Plan()
    plan.add(.insert("x", at: 0), in: "Missing.swift")
    #expect(refusal(plan, []).contains("'Missing.swift', which was not loaded"))
  }

  @Test func refusesCreatingAFileThatWasLoaded() {
    let a = source("A.swift", "let a = 1\n")
    var plan = Plan()
    plan.newFiles["A.swift"] = "let a = 2\n"
    #expect(refusal(plan, [a]).contains("cannot create 'A.swift': the file already exists"))
  }

  @Test func diffNamesFilesRelativeToTheRoot() throws {
    let outputs = [
      FileOutput(
        path: "/work/project/Sources/B.swift",
        original: source("/work/project/Sources/B.swift", "b\n"),
        new: Array("B\n".utf8)
      ),
      FileOutput(path: "/work/project/./Sources/../A.swift", original: nil, new: Array("a\n".utf8)),
    ]
    let diff = printer.diff(outputs)
    #expect(
      diff == """
        diff --git a/A.swift b/A.swift
        new file mode 100644
        --- /dev/null
        +++ b/A.swift
        @@ -0,0 +1 @@
        +a
        diff --git a/Sources/B.swift b/Sources/B.swift
        --- a/Sources/B.swift
        +++ b/Sources/B.swift
        @@ -1 +1 @@
        -b
        +B

        """
    )
  }

  @Test func relativePathsResolveAgainstTheCurrentDirectory() throws {
    let printer = Printer(root: "Sources/Feature")
    #expect(printer.displayPath(of: "Sources/Feature/A.swift") == "A.swift")
    #expect(printer.displayPath(of: "./Sources/Feature/Sub/B.swift") == "Sub/B.swift")
    #expect(Printer(root: ".").displayPath(of: "X.swift") == "X.swift")
  }

  @Test func aFileRootStandsForItsDirectory() throws {
    let directory = try PrinterTestSupport.makeTemporaryDirectory()
    defer { PrinterTestSupport.removeDirectory(directory) }
    try PrinterTestSupport.writeFile(directory + "/Main.swift", Array("x\n".utf8))
    let printer = Printer(root: directory + "/Main.swift")
    #expect(printer.root == directory)
    #expect(printer.displayPath(of: directory + "/Main.swift") == "Main.swift")
  }

  @Test func pathNames() {
    #expect(PathName.parent(of: "a/b/c") == "a/b")
    #expect(PathName.parent(of: "c") == ".")
    #expect(PathName.parent(of: "/c") == "/")
    #expect(PathName.lastComponent(of: "a/b/c.swift") == "c.swift")
    #expect(PathName.absolute("../x/./y", in: "/a/b") == "/a/x/y")
    #expect(PathName.relative("/a/b/c", to: "/a") == "b/c")
    #expect(PathName.relative("/a/x", to: "/a/b") == "../x")
  }
}
