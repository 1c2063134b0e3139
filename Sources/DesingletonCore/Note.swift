/// One line of a command's summary: what kind of thing it says, where, and what. Planners make
/// them; the command line prints `line` on standard error and JSON reports carry every field.
public struct Note: Hashable, Sendable, CustomStringConvertible {
  public enum Kind: String, Hashable, Sendable, CaseIterable {
    /// A new protocol, double or file.
    case created
    /// Code that now does something else: a consumer injected, an init widened, a conformance added.
    case changed
    /// A declaration or value that now lives elsewhere (an initial value assigned in inits).
    case moved
    /// Code deleted: the accessor, a function that returned the instance.
    case removed
    /// Something left as it was on purpose, with the reason: a member left on the singleton, a
    /// static context, a slice that exists already.
    case kept
    /// Something the command could not do, with the reason: a skipped consumer, a member no
    /// protocol can require, a warning.
    case skipped
    /// Project and configuration files: Xcode targets, the settings file.
    case project
    /// The run as a whole: counts, who owns the instance.
    case summary
  }

  /// A file, or a place in it; the column only where the line is a diagnostic's.
  public struct Place: Hashable, Sendable {
    public var path: String
    public var line: Int?
    public var column: Int?

    public init(path: String, line: Int? = nil, column: Int? = nil) {
      self.path = path
      self.line = line
      self.column = column
    }

    /// `path:line` of a location (without its column).
    public init(line location: Location) {
      self.init(path: location.path, line: location.line)
    }

    var text: String { path + (line.map { ":\($0)" } ?? "") + (line != nil ? column.map { ":\($0)" } ?? "" : "") }
  }

  public var kind: Kind
  public var place: Place?
  public var message: String
  /// 0 for a line of its own; 1, 2 for the details of the line above it (indented).
  public var depth: Int
  /// The compilation unit the note is about, where a command planned several (`ModuleUnits`).
  public var module: String?

  public init(_ kind: Kind, _ message: String, at place: Place? = nil, depth: Int = 0) {
    self.kind = kind
    self.place = place
    self.message = message
    self.depth = depth
  }

  /// A diagnostic as a note: its place with the column, its severity before its message.
  public init(_ kind: Kind, _ diagnostic: Diagnostic, depth: Int = 0) {
    self.init(
      kind, "\(diagnostic.severity.rawValue): \(diagnostic.message)",
      at: diagnostic.location.map { Place(path: $0.path, line: $0.line, column: $0.column) }, depth: depth)
  }

  /// The line the summary prints: `Module: ` for a unit, two spaces a depth, `path:line: `, the message.
  public var line: String {
    (module.map { "\($0): " } ?? "") + String(repeating: "  ", count: depth) + (place.map { $0.text + ": " } ?? "") + message
  }

  public var description: String { line }
}

extension Plan {
  /// The summary's lines, as printed.
  public var noteLines: [String] { notes.map(\.line) }
}
