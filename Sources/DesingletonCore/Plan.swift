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
}

/// What a command will do: edits against the original text of existing files, and new files.
/// Paths are the files' own paths as loaded (`SourceText.path`).
public struct Plan: Sendable {
  public var edits: [String: [TextEdit]]
  public var newFiles: [String: String]
  /// For a new file, the existing file it goes with: the new file joins the same targets and sits
  /// next to it in Xcode projects.
  public var companions: [String: String] = [:]
  /// Lines for the user's summary (stderr), in order.
  public var notes: [String]
  /// The pieces a reviewer can take one at a time (`--split-by`), in the order they apply.
  public var parts: [PlanPart] = []

  public init(edits: [String: [TextEdit]] = [:], newFiles: [String: String] = [:], notes: [String] = []) {
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

  public init(name: String, ranges: [String: [Range<Int>]] = [:], newFiles: Set<String> = [], after: [String] = []) {
    self.name = name
    self.ranges = ranges
    self.newFiles = newFiles
    self.after = after
  }
}
