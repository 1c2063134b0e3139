import Foundation
import Testing

@testable import DesingletonPrinter

/// One before/after pair; `old == nil` is a new file.
struct PrinterDiffCase: Sendable, CustomTestStringConvertible {
  var name: String
  var path: String
  var old: [UInt8]?
  var new: [UInt8]
  var sourceLocation: SourceLocation

  init(
    _ name: String,
    path: String = "Sources/File.swift",
    old: String?,
    new: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    self.init(
      name,
      path: path,
      oldBytes: old.map { Array($0.utf8) },
      newBytes: Array(new.utf8),
      sourceLocation: sourceLocation
    )
  }

  init(
    _ name: String,
    path: String = "Sources/File.swift",
    oldBytes: [UInt8]?,
    newBytes: [UInt8],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    self.name = name
    self.path = path
    self.old = oldBytes
    self.new = newBytes
    self.sourceLocation = sourceLocation
  }

  var testDescription: String { name }
}

@Suite("Printer: UnifiedDiff")
struct PrinterUnifiedDiffTests {
  static let cases: [PrinterDiffCase] = [
    PrinterDiffCase("change in the middle", old: "a\nb\nc\nd\ne\nf\ng\nh\n", new: "a\nb\nc\nD\ne\nf\ng\nh\n"),
    PrinterDiffCase("change at the start", old: "a\nb\nc\nd\ne\nf\n", new: "A\nb\nc\nd\ne\nf\n"),
    PrinterDiffCase("change at the end", old: "a\nb\nc\nd\ne\nf\n", new: "a\nb\nc\nd\ne\nF\n"),
    PrinterDiffCase("insert at the start", old: "a\nb\n", new: "import Foo\n\na\nb\n"),
    PrinterDiffCase("append at the end", old: "a\nb\n", new: "a\nb\nc\n"),
    PrinterDiffCase(
      "two close changes share a hunk",
      old: lines(1...20),
      new: lines(1...20, replacing: [5: "five", 10: "ten"])
    ),
    PrinterDiffCase(
      "far changes get two hunks",
      old: lines(1...40),
      new: lines(1...40, replacing: [3: "three", 30: "thirty"])
    ),
    PrinterDiffCase("crlf", old: "a\r\nb\r\nc\r\nd\r\n", new: "a\r\nB\r\nc\r\nd\r\n"),
    PrinterDiffCase("crlf to lf", old: "a\r\nb\r\n", new: "a\nb\n"),
    PrinterDiffCase("mixed line endings", old: "a\r\nb\nc\r\n", new: "a\r\nb\nx\r\nc\r\n"),
    PrinterDiffCase("old has no trailing newline", old: "a\nb\nc", new: "a\nb\nc\n"),
    PrinterDiffCase("new has no trailing newline", old: "a\nb\nc\n", new: "a\nb\nc"),
    PrinterDiffCase("neither has a trailing newline, last line changed", old: "a\nb\nc", new: "a\nb\nC"),
    PrinterDiffCase("neither has a trailing newline, first line changed", old: "a\nb\nc", new: "A\nb\nc"),
    PrinterDiffCase("no trailing newline, line added at the end", old: "a\nb", new: "a\nb\nc"),
    PrinterDiffCase("crlf and no trailing newline", old: "a\r\nb\r\nc", new: "a\r\nb\r\nc\r\nd"),
    PrinterDiffCase("delete every line", old: "a\nb\nc\n", new: ""),
    PrinterDiffCase("fill an empty file", old: "", new: "a\nb\n"),
    PrinterDiffCase("replace everything", old: "a\nb\nc\n", new: "x\ny\n"),
    PrinterDiffCase("new file", old: nil, new: "struct New {}\n"),
    PrinterDiffCase("new file without trailing newline", old: nil, new: "struct New {}"),
    PrinterDiffCase("new empty file", old: nil, new: ""),
    PrinterDiffCase("new file in a new directory", path: "Deep/Er/New.swift", old: nil, new: "let x = 1\n"),
    PrinterDiffCase("path with a space and accents", path: "My Sources/Café é.swift", old: "a\nb\n", new: "a\nc\n"),
    PrinterDiffCase("new file with a space in its path", path: "My Dir/New File.swift", old: nil, new: "a\n"),
    PrinterDiffCase("non-ascii", old: "// 😀 café\nlet s = \"ü\"\n", new: "// 😀 café\nlet s = \"ö 🎉\"\n"),
    PrinterDiffCase(
      "byte order mark kept",
      oldBytes: [0xEF, 0xBB, 0xBF] + Array("a\nb\n".utf8),
      newBytes: [0xEF, 0xBB, 0xBF] + Array("A\nb\n".utf8)
    ),
    PrinterDiffCase(
      "byte order mark removed",
      oldBytes: [0xEF, 0xBB, 0xBF] + Array("a\nb\n".utf8),
      newBytes: Array("a\nb\n".utf8)
    ),
    PrinterDiffCase("blank lines and whitespace", old: "a\n\n\n  \nb\n\t\n", new: "a\n\n  \n\nb \n\t\n"),
    PrinterDiffCase("duplicate lines", old: "}\n}\n}\nx\n}\n}\n", new: "}\nx\n}\n}\n}\n}\n"),
    PrinterDiffCase("2000 lines with scattered changes", old: largeFile(edited: false), new: largeFile(edited: true)),
  ]

  @Test(arguments: cases)
  func gitAppliesTheDiff(_ diffCase: PrinterDiffCase) throws {
    try expectGitApplies(diffCase, sourceLocation: diffCase.sourceLocation)
  }

  @Test func unchangedIsEmpty() {
    #expect(UnifiedDiff.render(path: "A.swift", old: Array("a\nb".utf8), new: Array("a\nb".utf8)) == "")
    #expect(UnifiedDiff.render(path: "A.swift", old: [], new: []) == "")
  }

  @Test func exactFormat() {
    let diff = UnifiedDiff.render(
      path: "Sources/A.swift",
      old: Array("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12".utf8),
      new: Array("1\n2\nTWO\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n".utf8)
    )
    #expect(
      diff == """
        diff --git a/Sources/A.swift b/Sources/A.swift
        --- a/Sources/A.swift
        +++ b/Sources/A.swift
        @@ -1,5 +1,6 @@
         1
         2
        +TWO
         3
         4
         5
        @@ -9,4 +10,4 @@
         9
         10
         11
        -12
        \\ No newline at end of file
        +12

        """
    )
  }

  @Test func newFileFormat() {
    #expect(
      UnifiedDiff.render(path: "N.swift", old: nil, new: Array("x\n".utf8))
        == "diff --git a/N.swift b/N.swift\nnew file mode 100644\n--- /dev/null\n+++ b/N.swift\n@@ -0,0 +1 @@\n+x\n"
    )
  }

  @Test func pathsGitWouldQuoteAreQuoted() {
    #expect(UnifiedDiff.quoted("a/b c.swift") == "a/b c.swift")
    #expect(UnifiedDiff.quoted("a/\"q\".swift") == "\"a/\\\"q\\\".swift\"")
    #expect(UnifiedDiff.quoted("a\tb\\c") == "\"a\\tb\\\\c\"")
  }

  /// The diff of random small files is as short as a longest common subsequence allows, and its
  /// changes turn the old lines into the new ones.
  @Test func lineDiffIsMinimalAndCorrect() {
    var generator = FuzzRandom(seed: 7)
    for _ in 0..<400 {
      let old = (0..<Int(generator.next() % 12)).map { _ in Int(generator.next() % 4) }
      let new = (0..<Int(generator.next() % 12)).map { _ in Int(generator.next() % 4) }
      let changes = LineDiff(old: old, new: new).changes
      #expect(rebuild(old, new, changes) == new, "\(old) -> \(new)")
      let changed = changes.reduce(0) { $0 + $1.oldRange.count + $1.newRange.count }
      #expect(changed == old.count + new.count - 2 * longestCommonSubsequence(old, new), "\(old) -> \(new)")
    }
  }

  /// Lines get one number per distinct content, whichever file and offset they are sliced from:
  /// a line and its copy at another offset share it; a prefix, a longer line and an empty line
  /// do not.
  @Test func linesAreNumberedByTheirBytes() {
    let old = LineDiff.lines(of: Array("a\nab\n\nabc\nab\n\r\nx".utf8))
    let new = LineDiff.lines(of: Array("ab\n\nx\nab\r\na\n\r\n".utf8))
    let (oldNumbers, newNumbers) = LineDiff.numbered(old, new)
    let all = old + new
    let numbers = oldNumbers + newNumbers
    for i in all.indices {
      for j in all.indices {
        #expect((numbers[i] == numbers[j]) == Array(all[i]).elementsEqual(Array(all[j])), "\(Array(all[i])) vs \(Array(all[j]))")
      }
    }
    #expect(Set(numbers).count == Set(all.map(Array.init)).count)
  }

  @Test func completeRewriteIsOneChange() {
    let old = Array(0..<20_000)
    let new = Array(20_000..<40_000)
    #expect(LineDiff(old: old, new: new).changes == [LineDiff.Change(oldRange: 0..<20_000, newRange: 0..<20_000)])
  }

  /// Many lines in common but in no common order: the cost limit ends the search, and the changes
  /// still turn the old lines into the new ones.
  @Test func costLimitKeepsTheDiffCorrect() {
    var generator = FuzzRandom(seed: 3)
    let old = (0..<3000).map { _ in Int(generator.next() % 3) }
    let new = (0..<3000).map { _ in Int(generator.next() % 3) }
    for limit in [1, 7, LineDiff.costLimit] {
      #expect(rebuild(old, new, LineDiff(old: old, new: new, costLimit: limit).changes) == new)
    }
  }

  // MARK: - Helpers

  private func expectGitApplies(_ diffCase: PrinterDiffCase, sourceLocation: SourceLocation) throws {
    let directory = try PrinterTestSupport.makeTemporaryDirectory()
    defer { PrinterTestSupport.removeDirectory(directory) }
    try PrinterTestSupport.git(["init", "-q"], in: directory)
    let target = directory + "/" + diffCase.path
    if let old = diffCase.old { try PrinterTestSupport.writeFile(target, old) }
    let diff = UnifiedDiff.render(path: diffCase.path, old: diffCase.old, new: diffCase.new)
    #expect(!diff.isEmpty, "a change must give a diff", sourceLocation: sourceLocation)
    let patch = directory + "/.git/change.patch"
    try PrinterTestSupport.writeFile(patch, Array(diff.utf8))
    let check = try PrinterTestSupport.git(["apply", "--check", patch], in: directory)
    #expect(check.status == 0, "git apply --check: \(check.output)\n\(diff)", sourceLocation: sourceLocation)
    let apply = try PrinterTestSupport.git(["apply", patch], in: directory)
    #expect(apply.status == 0, "git apply: \(apply.output)\n\(diff)", sourceLocation: sourceLocation)
    let result = try PrinterTestSupport.readFile(target)
    #expect(result == diffCase.new, "git apply gave other bytes\n\(diff)", sourceLocation: sourceLocation)
  }

  private static func lines(_ numbers: ClosedRange<Int>, replacing: [Int: String] = [:]) -> String {
    numbers.map { (replacing[$0] ?? "line \($0)") + "\n" }.joined()
  }

  /// 2000 lines of code-like text; `edited` changes, inserts and deletes lines here and there.
  private static func largeFile(edited: Bool) -> String {
    var generator = FuzzRandom(seed: 42)
    var result = ""
    for number in 1...2000 {
      let roll = generator.next() % 100
      let line = number % 7 == 0 ? "}\n" : number % 5 == 0 ? "\n" : "  let value\(number) = compute(\(number))\n"
      guard edited, roll < 4 else {
        result += line
        continue
      }
      switch roll {
      case 0: result += "  let changed\(number) = 0\n"
      case 1: result += line + "  // inserted after \(number)\n  inserted()\n"
      case 2: continue
      default: result += "}\n"
      }
    }
    return result
  }

  /// Applies `changes` to `old`, taking the inserted lines from `new`.
  private func rebuild(_ old: [Int], _ new: [Int], _ changes: [LineDiff.Change]) -> [Int] {
    var rebuilt: [Int] = []
    var copied = 0
    for change in changes {
      rebuilt += old[copied..<change.oldRange.lowerBound]
      rebuilt += new[change.newRange]
      copied = change.oldRange.upperBound
    }
    return rebuilt + old[copied...]
  }

  private func longestCommonSubsequence(_ a: [Int], _ b: [Int]) -> Int {
    var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in stride(from: a.count - 1, through: 0, by: -1) {
      for j in stride(from: b.count - 1, through: 0, by: -1) {
        table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
      }
    }
    return table[0][0]
  }
}

