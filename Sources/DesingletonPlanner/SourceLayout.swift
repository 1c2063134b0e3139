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

  func isBlank(_ range: Range<Int>) -> Bool {
    bytes[range].allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") }
  }

  func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

  /// The lines a declaration occupies, with the comments above it, ready to delete: from the start
  /// of its first comment's line to the end of its last line, plus one blank line when it is
  /// surrounded by blank lines.
  func removalRange(of node: some SyntaxProtocol) -> Range<Int> {
    var first = node.positionAfterSkippingLeadingTrivia.utf8Offset
    var offset = node.position.utf8Offset
    for piece in node.leadingTrivia {
      if piece.isComment {
        first = min(first, offset)
        break
      }
      offset += piece.sourceLength.utf8Length
    }
    let start = lineStart(of: first)
    var end = lineEnd(of: node.endPositionBeforeTrailingTrivia.utf8Offset)
    // A blank line above and below: take one of them too.
    if start > 0 {
      let previousStart = lineStart(of: start - 1)
      if isBlank(previousStart..<start) && end < bytes.count && isBlank(end..<lineEnd(of: end)) {
        end = lineEnd(of: end)
      }
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

/// A global actor attribute such as `@MainActor`.
func isGlobalActorAttribute(_ name: String) -> Bool {
  name == "@MainActor" || (name.hasSuffix("Actor") && name.hasPrefix("@"))
}
