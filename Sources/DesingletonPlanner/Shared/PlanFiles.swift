import DesingletonCore

/// The files a command changed or created (or, in a dry run, would), for the `files` field of every
/// command's JSON report. Paths are as the diff shows them.
public struct PlanFiles: Sendable, Equatable {
  public var changed: [String]
  public var created: [String]
  /// False in a dry run: nothing was written.
  public var written: Bool
  /// How the write was checked; reported only when a build ran or none could.
  public var verification = VerificationReport()
  /// The summary's notes, in order, each with its kind (`Note.Kind`).
  public var notes: [Note] = []

  public init(changed: [String] = [], created: [String] = [], written: Bool = false) {
    self.changed = changed
    self.created = created
    self.written = written
  }

  /// The report's last entries: `verification`, when there is one to give, and `notes`.
  var closingEntries: [(key: String, value: JSONValue)] {
    let verified = written && (verification.command != nil || verification.unverifiedReason != nil)
    return (verified ? [("verification", verification.json)] : []) + notesEntry
  }

  /// `notes`: `{"kind", "message"}`, with `file` and `line` (and `column`, from a diagnostic) where
  /// the note is about a place, `depth` for the details of the note before it, `module` for one of
  /// several compilation units. Left out when there are none.
  private var notesEntry: [(key: String, value: JSONValue)] {
    guard !notes.isEmpty else { return [] }
    return [
      (
        "notes",
        .array(
          notes.map { note in
            var fields: [(key: String, value: JSONValue)] = [("kind", .string(note.kind.rawValue))]
            if let place = note.place {
              fields.append(("file", .string(place.path)))
              if let line = place.line { fields.append(("line", .int(line))) }
              if let column = place.column { fields.append(("column", .int(column))) }
            }
            if note.depth > 0 { fields.append(("depth", .int(note.depth))) }
            if let module = note.module { fields.append(("module", .string(module))) }
            fields.append(("message", .string(note.message)))
            return .object(fields)
          })
      )
    ]
  }

  var json: JSONValue {
    .object([
      ("changed", .array(changed.sorted().map(JSONValue.string))),
      ("created", .array(created.sorted().map(JSONValue.string))),
      ("written", .bool(written)),
    ])
  }
}

extension JSONValue {
  /// `{"file", "line", "column"}`, or `{}` when there is no place.
  static func place(_ location: Location?) -> JSONValue {
    guard let location else { return .object([]) }
    return .object([("file", .string(location.path)), ("line", .int(location.line)), ("column", .int(location.column))])
  }
}

/// How a write was checked: the build command, each round it ran, and the units left out because
/// the build failed with them.
public struct VerificationReport: Sendable, Equatable {
  public struct Round: Sendable, Equatable {
    public var number: Int
    public var passed: Bool
    /// Unit (a consumer) → the compiler's first error that blamed it.
    public var dropped: [Dropped]

    public init(number: Int, passed: Bool, dropped: [(String, CompilerError)] = []) {
      self.number = number
      self.passed = passed
      self.dropped = dropped.map { Dropped(unit: $0.0, error: $0.1) }
    }
  }

  public struct Dropped: Sendable, Equatable {
    public var unit: String
    public var error: CompilerError
  }

  /// The build command; nil when nothing verified the write.
  public var command: String?
  /// Why nothing verified it (`no build command`); nil when it was verified or turned off.
  public var unverifiedReason: String?
  public var rounds: [Round] = []

  public init(command: String? = nil, unverifiedReason: String? = nil) {
    self.command = command
    self.unverifiedReason = unverifiedReason
  }

  public var passed: Bool { rounds.last?.passed ?? false }

  /// The summary's lines about the build.
  public var summary: [String] {
    if let unverifiedReason { return ["not verified: \(unverifiedReason)"] }
    guard let command, !rounds.isEmpty else { return [] }
    let dropped = rounds.flatMap(\.dropped).map(\.unit)
    guard passed else {
      return ["'\(command)' failed with every change it was given; left out \(dropped.joined(separator: ", ")), nothing written"]
    }
    let count = rounds.count
    let after = count == 1 ? "" : " after \(count) builds, leaving out \(dropped.joined(separator: ", "))"
    return ["verified: '\(command)' succeeded\(after)"]
  }

  var json: JSONValue {
    .object([
      ("command", command.map(JSONValue.string) ?? .null),
      ("verified", .bool(passed)),
      ("unverifiedReason", unverifiedReason.map(JSONValue.string) ?? .null),
      (
        "rounds",
        .array(
          rounds.map { round in
            .object([
              ("round", .int(round.number)), ("passed", .bool(round.passed)),
              (
                "dropped",
                .array(
                  round.dropped.map { dropped in
                    .object([
                      ("unit", .string(dropped.unit)), ("error", .string(dropped.error.text)),
                      ("place", .place(dropped.error.diagnostic.location)),
                    ])
                  })
              ),
            ])
          })
      ),
    ])
  }
}
