import Foundation
import DesingletonCore
import DesingletonIndex
import SwiftSyntax

/// Byte-level helpers for placing and removing code without touching anything else.
extension SourceText {
  func lineStart(of offset: Int) -> Int {
    var i = min(offset, bytes.count)
    while i > 0 && bytes[i - 1] != UInt8(ascii: "\n") { i -= 1 }
    return i
  }

  /// The offset just after the newline ending the line that holds `offset` (or the end of the file).
  func lineEnd(of offset: Int) -> Int {
    var i = offset
    while i < bytes.count && bytes[i] != UInt8(ascii: "\n") { i += 1 }
    return min(i + 1, bytes.count)
  }

  /// The whitespace at the start of the line that holds `offset`.
  func indentation(at offset: Int) -> String {
    var i = lineStart(of: offset)
    var result = ""
    while i < bytes.count && (bytes[i] == UInt8(ascii: " ") || bytes[i] == UInt8(ascii: "\t")) {
      result.append(Character(UnicodeScalar(bytes[i])))
      i += 1
    }
    return result
  }

  func lastNonBlank(before offset: Int) -> UInt8? {
    var i = offset - 1
    while i >= 0 {
      let byte = bytes[i]
      if byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") && byte != UInt8(ascii: "\r") && byte != UInt8(ascii: "\n") { return byte }
      i -= 1
    }
    return nil
  }

  func firstNonBlank(from offset: Int) -> UInt8? {
    var i = offset
    while i < bytes.count {
      let byte = bytes[i]
      if byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") && byte != UInt8(ascii: "\r") && byte != UInt8(ascii: "\n") { return byte }
      i += 1
    }
    return nil
  }

  func isBlank(_ range: Range<Int>) -> Bool {
    bytes[range].allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") }
  }

  func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

  /// The lines a declaration occupies, with the comments above it, ready to delete: from the start
  /// of its first comment's line to the end of its last line, plus one blank line when it is
  /// surrounded by blank lines or is the first or last thing in its body.
  func removalRange(of node: some SyntaxProtocol) -> Range<Int> {
    withBlankLines(lineRange(of: node))
  }

  /// The removal ranges of several declarations of one file: declarations on adjacent lines are
  /// removed as one block, so the blank lines around the block are judged once.
  func removalRanges(of nodes: [Syntax]) -> [Range<Int>] {
    var merged: [Range<Int>] = []
    for range in nodes.map({ lineRange(of: $0) }).sorted(by: { $0.lowerBound < $1.lowerBound }) {
      if let last = merged.last, range.lowerBound <= last.upperBound || isBlank(last.upperBound..<range.lowerBound) {
        merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
      } else {
        merged.append(range)
      }
    }
    return merged.map(withBlankLines)
  }

  private func lineRange(of node: some SyntaxProtocol) -> Range<Int> {
    var first = node.positionAfterSkippingLeadingTrivia.utf8Offset
    var offset = node.position.utf8Offset
    for piece in node.leadingTrivia {
      if piece.isComment {
        first = min(first, offset)
        break
      }
      offset += piece.sourceLength.utf8Length
    }
    let end = node.endPositionBeforeTrailingTrivia.utf8Offset
    // A declaration sharing its line with other code (`class C { static let shared = C(); ... }`)
    // goes alone, with a `;` and spaces after it.
    let before = lineStart(of: first)..<first
    var after = end
    while after < bytes.count, bytes[after] == UInt8(ascii: " ") || bytes[after] == UInt8(ascii: ";") { after += 1 }
    let restOfLine = after..<max(after, lineEnd(of: end) - 1)
    if !isBlank(before) || !isBlank(restOfLine) {
      return first..<after
    }
    return lineStart(of: first)..<lineEnd(of: end)
  }

  private func withBlankLines(_ range: Range<Int>) -> Range<Int> {
    var start = range.lowerBound
    var end = range.upperBound
    guard start == lineStart(of: start), end == bytes.count || bytes[end - 1] == UInt8(ascii: "\n") else { return range }
    let previousStart = start > 0 ? lineStart(of: start - 1) : start
    let blankAbove = start > 0 && isBlank(previousStart..<start)
    let blankBelow = end < bytes.count && isBlank(end..<lineEnd(of: end))
    if blankAbove && blankBelow {
      end = lineEnd(of: end)
    } else if blankBelow && start > 0 && lastNonBlank(before: start) == UInt8(ascii: "{") {
      // First in its body: the blank line that separated it from the next member goes too.
      end = lineEnd(of: end)
    } else if blankAbove && firstNonBlank(from: end) == UInt8(ascii: "}") {
      // Last in its body: the blank line that separated it from the member before goes too.
      start = previousStart
    }
    return start..<end
  }
}

/// Re-indents a block of source lines from `oldIndent` to `newIndent`, with the given line ending.
func reindent(_ text: String, from oldIndent: String, to newIndent: String, lineEnding: String) -> String {
  let lines = text.replacingCRLF().split(separator: "\n", omittingEmptySubsequences: false)
  return lines.map { line -> String in
    if line.allSatisfy({ $0 == " " || $0 == "\t" }) { return "" }
    if line.hasPrefix(oldIndent) { return newIndent + line.dropFirst(oldIndent.count) }
    return newIndent + line.drop { $0 == " " || $0 == "\t" }
  }.joined(separator: lineEnding)
}

extension String {
  func replacingCRLF() -> String {
    var result = ""
    result.reserveCapacity(utf8.count)
    var previousCR = false
    for scalar in unicodeScalars {
      if previousCR && scalar != "\n" { result.unicodeScalars.append("\r") }
      previousCR = scalar == "\r"
      if !previousCR { result.unicodeScalars.append(scalar) }
    }
    if previousCR { result.unicodeScalars.append("\r") }
    return result
  }

  /// Lines joined with `lineEnding` instead of `\n`.
  func withLineEnding(_ lineEnding: String) -> String {
    lineEnding == "\n" ? self : replacingOccurrences(of: "\n", with: lineEnding)
  }
}
