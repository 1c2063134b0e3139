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
    // Only the lines holding the word, found in the bytes: a large rewrite checks thousands of files.
    let bytes = Array(text.utf8)
    var lineStart = 0
    var number = 0
    for offset in occurrences(of: [Array("import".utf8)], in: bytes) where offset >= lineStart {
      for position in lineStart..<offset where bytes[position] == UInt8(ascii: "\n") {
        number += 1
        lineStart = position + 1
      }
      var lineEnd = offset
      while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
      if let found = importedModule(String(decoding: bytes[lineStart..<lineEnd], as: UTF8.self)) {
        result.append((found.module, number + 1, found.isOnePath))
      }
      // Other occurrences on this line are the same line.
      lineStart = lineEnd
    }
    return result
  }

  /// The module one line imports, and whether the line is one module path and nothing more.
  private static func importedModule(_ line: String) -> (module: String, isOnePath: Bool)? {
    let prefixes: Set<Substring> = ["public", "internal", "package", "fileprivate", "private"]
    let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
    guard let position = words.firstIndex(of: "import"),
      words[..<position].allSatisfy({ $0.hasPrefix("@") || prefixes.contains($0) })
    else { return nil }
    let module = module(of: line)
    guard !module.isEmpty else { return nil }
    // After `import` (and a kind: `struct`), one path, then at most a comment.
    var rest = words[(position + 1)...].prefix { !$0.hasPrefix("//") }
    if rest.count > 1, ["struct", "class", "enum", "protocol", "typealias", "func", "var", "let"].contains(rest.first!) {
      rest = rest.dropFirst()
    }
    return (module, rest.count == 1)
  }
}
