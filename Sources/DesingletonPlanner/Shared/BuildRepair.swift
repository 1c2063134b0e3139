import DesingletonCore

/// Which units of a design a failed build blames: each compiler error is traced to the edit or new
/// file that produced it, and from there to the plan's part (a consumer with its creation sites),
/// whose units the command then leaves out and plans again.
///
/// Steps, in order: `locate` each error in the text the plan wrote (a new file, or an edited file,
/// mapped back through the edits to the original text); `own` the place: the part whose new file it
/// is, the part of the edit it falls in, else the smallest part range holding it, else the part of
/// the nearest edit in that file; an error in a file the plan did not touch goes to the parts whose
/// new text names what the message quotes (`missing argument for parameter 'store'`). An error none
/// of these place is unplaced: no unit can be blamed, so nothing can be kept.
///
/// ## Before
/// `Shop.swift:4:5: error: cannot use mutating member on immutable value` after `inject --all`
/// ## After
/// `["Shop": that error]`: `Shop` is skipped with the compiler's message; the other consumers stay.
public enum BuildRepair {
  public struct Blame: Sendable, Equatable {
    /// Unit name → the first error that blames it, placed in the file as it is on disk (before the
    /// write) where the error lies in code the write kept.
    public var units: [String: CompilerError] = [:]
    /// Errors no part could be found for.
    public var unplaced: [CompilerError] = []
  }

  /// `written`: each file the plan wrote, by its plan path, with its original text (nil for a new
  /// file) and its new bytes; `absolute` makes a plan path comparable with the compiler's paths.
  public static func blame(
    _ errors: [CompilerError], plan: Plan, written: [String: (original: SourceText?, new: [UInt8])],
    absolute: (String) -> String
  ) -> Blame {
    let assignment = PatchSeries.assign(plan)
    var byAbsolute: [String: String] = [:]
    for path in written.keys { byAbsolute[absolute(path)] = path }
    var blame = Blame()
    for error in errors {
      let path = byAbsolute[absolute(error.path)] ?? byAbsolute.first { $0.key.hasSuffix("/" + error.path) }?.value
      let owners: [Int]
      var placed = error
      if let path, let file = written[path] {
        let owned = own(error, path: path, new: file.new, plan: plan, assignment: assignment)
        owners = owned.parts
        if let original = file.original, let offset = owned.originalOffset {
          let location = original.location(ofOffset: offset)
          placed = CompilerError(path: path, line: location.line, column: location.column, message: error.message)
        }
      } else {
        owners = quoting(error, plan: plan, assignment: assignment)
      }
      if owners.isEmpty {
        blame.unplaced.append(error)
        continue
      }
      for owner in owners {
        for unit in assignment.parts[owner].units where blame.units[unit] == nil { blame.units[unit] = placed }
      }
    }
    return blame
  }

  /// The part owning a place in a file the plan wrote, and the place in the original text.
  static func own(
    _ error: CompilerError, path: String, new: [UInt8], plan: Plan, assignment: PatchSeries.Assignment
  ) -> (parts: [Int], originalOffset: Int?) {
    if plan.newFiles[path] != nil { return (assignment.newFiles[path].map { [$0] } ?? [], nil) }
    let edits = plan.edits[path] ?? []
    guard !edits.isEmpty, let owners = assignment.edits[path] else { return ([], nil) }
    let starts = SourceText.lineStarts(in: new)
    guard error.line >= 1, error.line <= starts.count else { return ([], nil) }
    let offset = min(starts[error.line - 1] + max(error.column - 1, 0), new.count)
    let origin = edits.origin(ofNewOffset: offset)
    if let edit = origin.edit { return ([owners[edit]], origin.original) }
    var best: (part: Int, size: Int)?
    for (number, part) in assignment.parts.enumerated() {
      for range in part.ranges[path] ?? [] where range.contains(origin.original) {
        if best.map({ range.count < $0.size }) ?? true { best = (number, range.count) }
      }
    }
    if let best { return ([best.part], origin.original) }
    let nearest = edits.indices.min { first, second in
      distance(edits[first].range, origin.original) < distance(edits[second].range, origin.original)
    }
    return (nearest.map { [owners[$0]] } ?? [], origin.original)
  }

  private static func distance(_ range: Range<Int>, _ offset: Int) -> Int {
    offset < range.lowerBound ? range.lowerBound - offset : max(0, offset - range.upperBound)
  }

  /// The parts whose new text names an identifier the message quotes.
  static func quoting(_ error: CompilerError, plan: Plan, assignment: PatchSeries.Assignment) -> [Int] {
    let quoted = quotedNames(in: error.message)
    guard !quoted.isEmpty else { return [] }
    var owners: Set<Int> = []
    for (path, edits) in plan.edits {
      for (position, edit) in edits.enumerated() where quoted.contains(where: { names(in: edit.replacement).contains($0) }) {
        if let owner = assignment.edits[path]?[position] { owners.insert(owner) }
      }
    }
    for (number, part) in assignment.parts.enumerated() where part.units.contains(where: quoted.contains) {
      owners.insert(number)
    }
    return owners.sorted()
  }

  /// The identifiers between single quotes in a compiler message (`'store'`, `'Store.shared'`).
  static func quotedNames(in message: String) -> Set<String> {
    var result: Set<String> = []
    let pieces = message.split(separator: "'", omittingEmptySubsequences: false)
    for (number, piece) in pieces.enumerated() where number % 2 == 1 {
      result.formUnion(names(in: String(piece)))
    }
    return result
  }

  /// The identifiers in a piece of text.
  static func names(in text: String) -> Set<String> {
    var result: Set<String> = []
    var current = ""
    for character in text {
      if character.isLetter || character.isNumber || character == "_" {
        current.append(character)
      } else {
        if let first = current.first, !first.isNumber { result.insert(current) }
        current = ""
      }
    }
    if let first = current.first, !first.isNumber { result.insert(current) }
    return result
  }
}
