/// A place in a source file, as people read it: 1-based line and column (column counts UTF-8 bytes).
public struct Location: Hashable, Sendable, Comparable, CustomStringConvertible {
  public var path: String
  public var line: Int
  public var column: Int

  public init(path: String, line: Int, column: Int) {
    self.path = path
    self.line = line
    self.column = column
  }

  public var description: String { "\(path):\(line):\(column)" }

  public static func < (lhs: Location, rhs: Location) -> Bool {
    (lhs.path, lhs.line, lhs.column) < (rhs.path, rhs.line, rhs.column)
  }
}

/// One message for the user, rendered the way the compiler renders its own:
/// `path:line:col: error: message`.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
  public enum Severity: String, Sendable {
    case error, warning, note
  }

  public var location: Location?
  public var severity: Severity
  public var message: String

  public init(_ severity: Severity, _ message: String, at location: Location? = nil) {
    self.location = location
    self.severity = severity
    self.message = message
  }

  public static func error(_ message: String, at location: Location? = nil) -> Diagnostic {
    Diagnostic(.error, message, at: location)
  }

  public static func warning(_ message: String, at location: Location? = nil) -> Diagnostic {
    Diagnostic(.warning, message, at: location)
  }

  public static func note(_ message: String, at location: Location? = nil) -> Diagnostic {
    Diagnostic(.note, message, at: location)
  }

  public var description: String {
    if let location {
      return "\(location): \(severity.rawValue): \(message)"
    }
    return "\(severity.rawValue): \(message)"
  }
}

/// A refusal: the command stops, writes nothing and shows these diagnostics.
public struct Refusal: Error, Sendable, CustomStringConvertible {
  public var diagnostics: [Diagnostic]

  public init(_ diagnostics: [Diagnostic]) {
    self.diagnostics = diagnostics
  }

  public init(_ message: String, at location: Location? = nil) {
    self.diagnostics = [.error(message, at: location)]
  }

  public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
