import DesingletonCore

/// The files a command changed or created (or, in a dry run, would), for the `files` field of every
/// command's JSON report. Paths are as the diff shows them.
public struct PlanFiles: Sendable, Equatable {
  public var changed: [String]
  public var created: [String]
  /// False in a dry run: nothing was written.
  public var written: Bool

  public init(changed: [String] = [], created: [String] = [], written: Bool = false) {
    self.changed = changed
    self.created = created
    self.written = written
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
