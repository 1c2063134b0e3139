import DesingletonCore
import DesingletonIndex

/// Which units of an `inject` plan would leave the accessor more used than before: a migration
/// never adds a use of the accessor outside composition roots and application entry points (which
/// `finish` gives the instance) and tests (which `finish --include-tests` gives their own); static
/// contexts such as previews,
/// types the system creates and `init?(coder:)` count, since the accessor would have to be removed
/// from there by hand.
///
/// Each reference the rewritten code holds outside roots and tests (`AccessorCensus.spreadRanges`)
/// is located in the text the plan wrote: one inside an edit's new text was added by that edit's
/// part; each such reference of the original code inside an edit's range is removed by it. A part
/// that adds more than it removes spreads the accessor, and all its units are left out.
///
/// ## Before
/// `Widget` uses `Store.shared` twice; a factory enum, which cannot take init parameters, creates it
/// in three places.
/// ## After
/// Injecting `Widget` would write `Store.shared` six times (once per protocol at each creation) and
/// remove two uses: `["Widget": note "… would write 'Store.shared' 6 times … and remove 2 …"]`.
public enum AccessorSpread {
  public struct Count: Sendable, Equatable {
    public var added = 0
    public var removed = 0
    /// The first added reference, in the file as it was (nil: in a new file).
    public var place: Location?
    /// Where each added reference was written: the file and the offset, in the file as it was,
    /// of the edit that wrote it (none for new files).
    public var sites: [FilePlace] = []
  }

  /// A part of the plan left out: its units and, for each, the note saying why; `added` is how many
  /// references to the accessor the part would write.
  public struct Exclusion: Sendable {
    public var notes: [(unit: String, note: Diagnostic)]
    public var added: Int
    /// Where the part wrote the accessor.
    public var sites: [FilePlace] = []
    public var units: [String] { notes.map(\.unit) }
  }

  /// The parts to leave out; empty when no part spreads the accessor.
  public static func exclusions(
    plan: Plan, before: AccessorCensus, after: AccessorCensus, accessExpression: String, original: [String: SourceText]
  ) -> [Exclusion] {
    let assignment = PatchSeries.assign(plan)
    let counts = count(plan: plan, assignment: assignment, before: before, after: after, original: original)
    return counts.sorted(by: { $0.key < $1.key }).filter { $0.value.added > $0.value.removed }.map { number, count in
      let times = count.added == 1 ? "once" : "\(count.added) times"
      let notes = assignment.parts[number].units.map { unit in
        (
          unit,
          Diagnostic.note(
            "'\(unit)': injecting it would write '\(accessExpression)' \(times) where it is created and remove \(count.removed) use\(count.removed == 1 ? "" : "s"), so the accessor would be used more than before; inject the types that create it first, or pass the slices to them by hand",
            at: count.place)
        )
      }
      return Exclusion(notes: notes, added: count.added, sites: count.sites)
    }
  }

  /// Added and removed references per part of the plan.
  static func count(
    plan: Plan, assignment: PatchSeries.Assignment, before: AccessorCensus, after: AccessorCensus, original: [String: SourceText]
  ) -> [Int: Count] {
    var counts: [Int: Count] = [:]
    for range in after.spreadRanges {
      let path = range.path
      if plan.newFiles[path] != nil {
        guard let owner = assignment.newFiles[path] else { continue }
        counts[owner, default: Count()].added += 1
        continue
      }
      let edits = plan.edits[path] ?? []
      // The edit whose new text holds the reference (one starting right after an edit's text is
      // not the edit's), and the original offset that edit starts at.
      guard let owners = assignment.edits[path],
        let position = edits.origin(ofNewOffset: range.bytes.lowerBound, includingEnd: false).edit
      else { continue }
      let originalOffset = edits[position].range.lowerBound
      var count = counts[owners[position], default: Count()]
      count.added += 1
      count.sites.append(FilePlace(path: path, offset: originalOffset))
      if count.place == nil, let source = original[path] { count.place = source.location(ofOffset: originalOffset) }
      counts[owners[position]] = count
    }
    for range in before.spreadRanges {
      let edits = plan.edits[range.path] ?? []
      guard let owners = assignment.edits[range.path],
        let position = edits.firstIndex(where: { $0.range.lowerBound <= range.bytes.lowerBound && range.bytes.upperBound <= $0.range.upperBound })
      else { continue }
      counts[owners[position], default: Count()].removed += 1
    }
    return counts
  }
}
