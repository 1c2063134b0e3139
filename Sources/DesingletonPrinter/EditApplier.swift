import DesingletonCore

/// Applies text edits to the original bytes of a file, copying every byte no edit touches.
public enum EditApplier {
  /// Applies `edits` (in any order; they are sorted by range) to `source.bytes`.
  ///
  /// Insertions at the same offset keep their order in `edits`; an insertion at the start of a replaced
  /// range comes before the replacement, one at its end after it. Two edits whose ranges share a
  /// byte, an insertion strictly inside a replaced range, a range outside the file, and a range end
  /// inside a multi-byte UTF-8 character are refused, naming the file and the place; no edit is ever
  /// dropped.
  public static func apply(_ edits: [TextEdit], to source: SourceText) throws -> [UInt8] {
    let bytes = source.bytes
    var problems: [Diagnostic] = []
    for edit in edits {
      let range = edit.range
      if range.lowerBound < 0 || range.upperBound > bytes.count {
        problems.append(
          .error(
            "internal error: an edit of bytes \(range.lowerBound)..<\(range.upperBound) reaches outside the file "
              + "(\(bytes.count) bytes); nothing was written",
            at: source.location(ofOffset: min(max(range.lowerBound, 0), bytes.count))
          )
        )
      } else if let inside = [range.lowerBound, range.upperBound].first(where: { splitsCharacter(bytes, at: $0) }) {
        problems.append(
          .error(
            "internal error: an edit begins or ends inside a multi-byte character; nothing was written",
            at: source.location(ofOffset: inside)
          )
        )
      }
    }
    if !problems.isEmpty { throw Refusal(problems) }

    let sorted = TextEdit.inApplicationOrder(edits)
    for (previous, next) in zip(sorted, sorted.dropFirst()) where next.range.lowerBound < previous.range.upperBound {
      problems.append(
        .error(
          "internal error: two edits overlap (\(describe(previous, in: source)) and \(describe(next, in: source))); "
            + "nothing was written",
          at: source.location(ofOffset: next.range.lowerBound)
        )
      )
    }
    if !problems.isEmpty { throw Refusal(problems) }
    return TextEdit.applying(sorted, to: bytes)
  }

  /// True when `offset` falls on a UTF-8 continuation byte, that is, inside a character.
  private static func splitsCharacter(_ bytes: [UInt8], at offset: Int) -> Bool {
    offset < bytes.count && bytes[offset] & 0xC0 == 0x80
  }

  private static func describe(_ edit: TextEdit, in source: SourceText) -> String {
    let start = source.location(ofOffset: edit.range.lowerBound)
    let end = source.location(ofOffset: edit.range.upperBound)
    var text = ""
    for scalar in edit.replacement.unicodeScalars.prefix(30) {
      switch scalar {
      case "\n": text += "\\n"
      case "\r": text += "\\r"
      case "\t": text += "\\t"
      default: text.unicodeScalars.append(scalar)
      }
    }
    if edit.replacement.unicodeScalars.count > 30 { text += "..." }
    let what = edit.range.isEmpty ? "inserting '\(text)'" : "replacing with '\(text)'"
    return "\(start.line):\(start.column)-\(end.line):\(end.column) \(what)"
  }
}
