/// A replacement of a UTF-8 byte range of one file's original text.
public struct TextEdit: Hashable, Sendable, Comparable {
  public var range: Range<Int>
  public var replacement: String

  public init(range: Range<Int>, replacement: String) {
    self.range = range
    self.replacement = replacement
  }

  public static func insert(_ text: String, at offset: Int) -> TextEdit {
    TextEdit(range: offset..<offset, replacement: text)
  }

  public static func < (lhs: TextEdit, rhs: TextEdit) -> Bool {
    (lhs.range.lowerBound, lhs.range.upperBound, lhs.replacement) < (rhs.range.lowerBound, rhs.range.upperBound, rhs.replacement)
  }

  /// The order a file's edits apply in: by where they start and end, edits at one place in the
  /// order given (two inserts at one offset write the first one's text first).
  public static func inApplicationOrder(_ edits: [TextEdit]) -> [TextEdit] {
    edits.enumerated().sorted { lhs, rhs in
      (lhs.element.range.lowerBound, lhs.element.range.upperBound, lhs.offset)
        < (rhs.element.range.lowerBound, rhs.element.range.upperBound, rhs.offset)
    }.map(\.element)
  }

  /// `bytes` with `edits` applied: edits in the order they apply (`inApplicationOrder`), inside the
  /// bytes and not overlapping (`EditApplier` checks both first).
  public static func applying(_ edits: [TextEdit], to bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count + edits.reduce(0) { $0 + $1.replacement.utf8.count })
    var copied = 0
    for edit in edits {
      out.append(contentsOf: bytes[copied..<edit.range.lowerBound])
      out.append(contentsOf: edit.replacement.utf8)
      copied = edit.range.upperBound
    }
    out.append(contentsOf: bytes[copied...])
    return out
  }
}

/// What a command will do: edits against the original text of existing files, and new files.
/// Paths are the files' own paths as loaded (`SourceText.path`).
public struct Plan: Sendable {
  public var edits: [String: [TextEdit]]
  public var newFiles: [String: String]
  /// For a new file, the existing file it goes with: the new file joins the same targets and sits
  /// next to it in Xcode projects.
  public var companions: [String: String] = [:]
  /// The user's summary (stderr), in order.
  public var notes: [Note]
  /// The pieces a reviewer can take one at a time (`--split-by`), in the order they apply.
  public var parts: [PlanPart] = []

  public init(edits: [String: [TextEdit]] = [:], newFiles: [String: String] = [:], notes: [Note] = []) {
    self.edits = edits
    self.newFiles = newFiles
    self.notes = notes
  }

  public var isEmpty: Bool { edits.values.allSatisfy(\.isEmpty) && newFiles.isEmpty }

  public mutating func add(_ edit: TextEdit, in path: String) {
    edits[path, default: []].append(edit)
  }

  public mutating func merge(_ other: Plan) {
    for (path, list) in other.edits { edits[path, default: []].append(contentsOf: list) }
    for (path, text) in other.newFiles { newFiles[path] = text }
    for (path, companion) in other.companions { companions[path] = companion }
    notes.append(contentsOf: other.notes)
    parts.append(contentsOf: other.parts)
  }
}

/// A piece of a plan that builds once the pieces before it are applied: the edits inside its ranges
/// and its new files. An edit in no piece's ranges goes with the first piece that changes its file
/// (an import, say), or with the first piece.
public struct PlanPart: Sendable, Equatable {
  /// A consumer's name, `Slices`, a double's name.
  public var name: String
  /// Byte ranges of the original files; an edit inside several goes with the smallest.
  public var ranges: [String: [Range<Int>]]
  public var newFiles: Set<String>
  /// Pieces that must be applied before this one (by name): what it uses of theirs.
  public var after: [String]
  /// The units of the design the piece holds (consumers whose code moves together), which a
  /// command can leave out and plan again: one, the piece's name, unless pieces were joined.
  public var units: [String]

  public init(
    name: String, ranges: [String: [Range<Int>]] = [:], newFiles: Set<String> = [], after: [String] = [],
    units: [String]? = nil
  ) {
    self.name = name
    self.ranges = ranges
    self.newFiles = newFiles
    self.after = after
    self.units = units ?? [name]
  }
}

extension Array where Element == TextEdit {
  /// Where a byte offset of the text these edits produce comes from: the offset in the original text
  /// and, when it falls inside (or at the edge of) an edit's replacement, that edit's position in
  /// this array. The edits must not overlap. Without `includingEnd`, an offset right after an
  /// edit's replacement is not that edit's.
  public func origin(ofNewOffset offset: Int, includingEnd: Bool = true) -> (original: Int, edit: Int?) {
    var shift = 0
    for (position, edit) in enumerated().sorted(by: { $0.element < $1.element }) {
      let newStart = edit.range.lowerBound + shift
      let newEnd = newStart + edit.replacement.utf8.count
      if offset < newStart { break }
      if offset < newEnd { return (edit.range.lowerBound + Swift.min(offset - newStart, edit.range.count), position) }
      if offset == newEnd && includingEnd { return (edit.range.upperBound, position) }
      shift += edit.replacement.utf8.count - edit.range.count
    }
    return (offset - shift, nil)
  }
}
