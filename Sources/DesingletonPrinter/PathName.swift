/// Lexical operations on `/`-separated path strings; nothing here touches the disk.
enum PathName {
  /// The directory part: `"a/b"` for `"a/b/c"`, `"."` for `"c"`, `"/"` for `"/c"`.
  static func parent(of path: String) -> String {
    let trimmed = trimmingTrailingSlashes(path)
    guard let slash = trimmed.lastIndex(of: "/") else { return "." }
    let head = trimmed[..<slash]
    return head.isEmpty ? "/" : String(head)
  }

  /// The last component: `"c"` for `"a/b/c"`.
  static func lastComponent(of path: String) -> String {
    let trimmed = trimmingTrailingSlashes(path)
    guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
    return String(trimmed[trimmed.index(after: slash)...])
  }

  /// `path` made absolute against `directory` and normalized: no `.`, no `..` (where a parent
  /// exists), no repeated or trailing slashes.
  static func absolute(_ path: String, in directory: String) -> String {
    let joined = path.hasPrefix("/") ? path : directory + "/" + path
    var parts: [Substring] = []
    for part in joined.split(separator: "/", omittingEmptySubsequences: true) {
      switch part {
      case ".": continue
      case "..": if !parts.isEmpty { parts.removeLast() }
      default: parts.append(part)
      }
    }
    return "/" + parts.joined(separator: "/")
  }

  /// `path` relative to `base` (both absolute and normalized), going up with `..` when it is not below it.
  static func relative(_ path: String, to base: String) -> String {
    let pathParts = path.split(separator: "/")
    let baseParts = base.split(separator: "/")
    var common = 0
    while common < pathParts.count, common < baseParts.count, pathParts[common] == baseParts[common] {
      common += 1
    }
    let up = Array(repeating: "..", count: baseParts.count - common)
    let down = pathParts[common...].map(String.init)
    let parts = up + down
    return parts.isEmpty ? "." : parts.joined(separator: "/")
  }

  private static func trimmingTrailingSlashes(_ path: String) -> String {
    var result = Substring(path)
    while result.count > 1, result.hasSuffix("/") { result = result.dropLast() }
    return String(result)
  }
}
