/// One `path:line:col: error: message` line of a compiler's output.
public struct CompilerError: Sendable, Equatable {
  public var path: String
  public var line: Int
  public var column: Int
  public var message: String

  public init(path: String, line: Int, column: Int, message: String) {
    self.path = path
    self.line = line
    self.column = column
    self.message = message
  }

  /// The line as the compiler printed it.
  public var text: String { "\(path):\(line):\(column): error: \(message)" }

  public var diagnostic: Diagnostic { .error(message, at: Location(path: path, line: line, column: column)) }

  /// Every error line of a build's output, in order, each once.
  public static func parse(_ output: String) -> [CompilerError] {
    var errors: [CompilerError] = []
    for line in output.split(separator: "\n") {
      guard let marker = line.firstRange(of: ": error: ") else { continue }
      let place = line[..<marker.lowerBound].split(separator: ":", omittingEmptySubsequences: false)
      guard place.count >= 3, let column = Int(place[place.count - 1]), let number = Int(place[place.count - 2]) else {
        continue
      }
      let path = place.dropLast(2).joined(separator: ":")
      let error = CompilerError(path: path, line: number, column: column, message: String(line[marker.upperBound...]))
      if !path.isEmpty && !errors.contains(error) { errors.append(error) }
    }
    return errors
  }
}

