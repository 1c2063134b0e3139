import DesingletonCore

/// A build (`--verify`) that failed with the new files in place; they were restored when this is seen.
public struct BuildFailure: Error, Sendable {
  public var command: String
  public var status: Int32
  public var output: String

  public init(command: String, status: Int32, output: String) {
    self.command = command
    self.status = status
    self.output = output
  }

  public var errors: [CompilerError] { CompilerError.parse(output) }

  /// What the user sees when the run ends on this failure: the first compiler errors, then what
  /// happened.
  public var diagnostics: [Diagnostic] {
    errors.prefix(20).map(\.diagnostic)
      + [.error("'\(command)' failed (exit \(status)) after the changes were written; every file was restored")]
  }

  /// The end of the output, for a failure without compiler errors to show.
  public var outputTail: [String] {
    guard errors.isEmpty else { return [] }
    let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    return Array(lines.suffix(21).drop { $0.isEmpty })
  }
}
