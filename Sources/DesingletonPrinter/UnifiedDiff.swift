/// Unified diffs in the form `git diff` writes and `git apply` reads.
public enum UnifiedDiff {
  static let contextLines = 3

  /// A `git apply`-compatible unified diff of one file with 3 lines of context: `diff --git a/P b/P`,
  /// `--- a/P`, `+++ b/P`; for a new file (`old == nil`) `new file mode 100644` and `--- /dev/null`.
  /// Lines keep their bytes (a `\r` before the newline stays in the line; a BOM stays in the first
  /// line); a last line without a newline is followed by `\ No newline at end of file`.
  /// Empty when nothing changed.
  public static func render(path: String, old: [UInt8]?, new: [UInt8]) -> String {
    if let old, old == new { return "" }
    let name = quoted(path)
    // Like git, end the ---/+++ names with a tab when they contain a space, so no reader takes the
    // rest of the line for a timestamp.
    let nameEnd = name.contains(" ") ? "\t" : ""
    var out: [UInt8] = []
    out.append(contentsOf: "diff --git \(quoted("a/" + path)) \(quoted("b/" + path))\n".utf8)
    if old == nil {
      out.append(contentsOf: "new file mode 100644\n".utf8)
      // A new empty file has no hunk and no ---/+++ lines, as git writes it.
      if new.isEmpty { return String(decoding: out, as: UTF8.self) }
      out.append(contentsOf: "--- /dev/null\n".utf8)
    } else {
      out.append(contentsOf: "--- \(quoted("a/" + path))\(nameEnd)\n".utf8)
    }
    out.append(contentsOf: "+++ \(quoted("b/" + path))\(nameEnd)\n".utf8)

    let oldLines = LineDiff.lines(of: old ?? [])
    let newLines = LineDiff.lines(of: new)
    let numbers = LineDiff.numbered(oldLines, newLines)
    let changes = LineDiff(old: numbers.old, new: numbers.new).changes
    for hunk in hunks(changes, oldCount: oldLines.count) {
      out.append(contentsOf: "@@ -\(range(hunk.old)) +\(range(hunk.new)) @@\n".utf8)
      var oldLine = hunk.old.lowerBound
      var newLine = hunk.new.lowerBound
      for change in hunk.changes {
        while oldLine < change.oldRange.lowerBound {
          appendLine(" ", oldLines[oldLine], to: &out)
          oldLine += 1
          newLine += 1
        }
        for line in change.oldRange { appendLine("-", oldLines[line], to: &out) }
        for line in change.newRange { appendLine("+", newLines[line], to: &out) }
        oldLine = change.oldRange.upperBound
        newLine = change.newRange.upperBound
      }
      while oldLine < hunk.old.upperBound {
        appendLine(" ", oldLines[oldLine], to: &out)
        oldLine += 1
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  private struct Hunk {
    var old: Range<Int>
    var new: Range<Int>
    var changes: [LineDiff.Change]
  }

  /// Groups changes whose unchanged lines in between would overlap as context, as `git diff` does.
  private static func hunks(_ changes: [LineDiff.Change], oldCount: Int) -> [Hunk] {
    var result: [Hunk] = []
    var index = 0
    while index < changes.count {
      var last = index
      while last + 1 < changes.count,
        changes[last + 1].oldRange.lowerBound - changes[last].oldRange.upperBound <= 2 * contextLines
      {
        last += 1
      }
      let first = changes[index]
      let final = changes[last]
      let before = min(contextLines, first.oldRange.lowerBound)
      let after = min(contextLines, oldCount - final.oldRange.upperBound)
      result.append(
        Hunk(
          old: (first.oldRange.lowerBound - before)..<(final.oldRange.upperBound + after),
          new: (first.newRange.lowerBound - before)..<(final.newRange.upperBound + after),
          changes: Array(changes[index...last])
        )
      )
      index = last + 1
    }
    return result
  }

  /// `start,count` with a 1-based start; an empty range names the line before it, as diff does.
  private static func range(_ lines: Range<Int>) -> String {
    if lines.isEmpty { return "\(lines.lowerBound),0" }
    if lines.count == 1 { return "\(lines.lowerBound + 1)" }
    return "\(lines.lowerBound + 1),\(lines.count)"
  }

  private static func appendLine(_ marker: String, _ line: ArraySlice<UInt8>, to out: inout [UInt8]) {
    out.append(contentsOf: marker.utf8)
    out.append(contentsOf: line)
    if line.last != UInt8(ascii: "\n") {
      out.append(contentsOf: "\n\\ No newline at end of file\n".utf8)
    }
  }

  /// Quotes a path the way git does (C-style in double quotes) when it holds a double quote, a
  /// backslash or a control character; other bytes, including non-ASCII, are written as they are.
  static func quoted(_ path: String) -> String {
    let needsQuotes = path.utf8.contains { byte in
      byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }
    guard needsQuotes else { return path }
    var out: [UInt8] = [UInt8(ascii: "\"")]
    for byte in path.utf8 {
      switch byte {
      case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
      case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
      case UInt8(ascii: "\t"): out.append(contentsOf: "\\t".utf8)
      case UInt8(ascii: "\n"): out.append(contentsOf: "\\n".utf8)
      case UInt8(ascii: "\r"): out.append(contentsOf: "\\r".utf8)
      case 0..<0x20, 0x7F:
        out.append(UInt8(ascii: "\\"))
        for shift in [6, 3, 0] { out.append(UInt8(ascii: "0") + ((byte >> UInt8(shift)) & 7)) }
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
    return String(decoding: out, as: UTF8.self)
  }
}
