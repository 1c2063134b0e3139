/// What a file's `import` lines name, read from its text: the one reading of an import line, for
/// the module a new file keeps (`ImportNeeds`), the modules a write adds (`WrittenImports`) and
/// the modules a project already imports (`Project.importsModule`).
public enum ImportLines {
  /// The module an import line names: `import Foundation`, `@testable import Core`,
  /// `public import struct Foundation.Date`; empty when the line is no import.
  public static func module(of line: String) -> String {
    let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
    guard let position = words.firstIndex(of: "import") else { return "" }
    var rest = words[(position + 1)...]
    if let first = rest.first, ["struct", "class", "enum", "protocol", "typealias", "func", "var", "let"].contains(first) {
      rest = rest.dropFirst()
    }
    return rest.first.map { String($0.split(separator: ".").first ?? $0) } ?? ""
  }

  /// The modules a file's import lines name (attributes and access before `import` only), with
  /// their line numbers, and whether the line is one module path and nothing more (`import My App
  /// Watch` is not).
  public static func modules(in text: String) -> [(module: String, line: Int, isOnePath: Bool)] {
    var result: [(module: String, line: Int, isOnePath: Bool)] = []
    let prefixes: Set<Substring> = ["public", "internal", "package", "fileprivate", "private"]
    for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
      guard let position = words.firstIndex(of: "import"),
        words[..<position].allSatisfy({ $0.hasPrefix("@") || prefixes.contains($0) })
      else { continue }
      let module = module(of: String(line))
      guard !module.isEmpty else { continue }
      // After `import` (and a kind: `struct`), one path, then at most a comment.
      var rest = words[(position + 1)...].prefix { !$0.hasPrefix("//") }
      if rest.count > 1, ["struct", "class", "enum", "protocol", "typealias", "func", "var", "let"].contains(rest.first!) {
        rest = rest.dropFirst()
      }
      result.append((module, number + 1, rest.count == 1))
    }
    return result
  }
}
