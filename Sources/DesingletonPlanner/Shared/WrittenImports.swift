import DesingletonCore
import DesingletonIndex

/// The check over every write: each `import` a plan adds names a module the compiler can know by
/// that name: one of the module map's (an Xcode target by its module name, a SwiftPM target), a
/// dependency a target declares (a package's product), one the files the plan starts from already
/// import, or one of the toolchain's. An import of anything else (a target's display name, `import
/// My App Watch`) is a planner bug, refused before anything is written.
public enum WrittenImports {
  /// A rewritten or new file: its path, its text before (nil when new) and after.
  public struct File {
    public var path: String
    public var original: String?
    public var new: String

    public init(path: String, original: String?, new: String) {
      self.path = path
      self.original = original
      self.new = new
    }
  }

  /// The modules every toolchain and SDK the tool writes for provides.
  static let toolchain: Set<String> = [
    "Swift", "Foundation", "Dispatch", "XCTest", "Testing", "Observation", "Combine", "SwiftUI", "UIKit", "AppKit",
  ]

  /// An error for each added import of a module the project cannot know by that name.
  public static func problems(_ files: [File], companions: [String: String], project: Project) -> [Diagnostic] {
    var known = toolchain
    for target in project.modules.targets {
      known.insert(target.name)
      known.formUnion(target.dependencies)
    }
    for file in files { known.formUnion(modules(in: file.original ?? "").map(\.module)) }
    for companion in Set(companions.values) {
      if let tree = try? project.file(companion).tree { known.formUnion(modules(in: tree.description).map(\.module)) }
    }
    var problems: [Diagnostic] = []
    for file in files.sorted(by: { $0.path < $1.path }) {
      let before = Set(modules(in: file.original ?? "").map(\.module))
      for (module, line) in modules(in: file.new) where !before.contains(module) {
        guard !known.contains(module) || !isIdentifier(module) else { continue }
        problems.append(
          .error(
            "this change writes 'import \(module)', which names no module the project or the toolchain has by that name; the change is refused (a bug: please report it)",
            at: Location(path: file.path, line: line, column: 1)))
      }
    }
    return problems
  }

  /// The modules a file's import lines name, with their line numbers.
  static func modules(in text: String) -> [(module: String, line: Int)] {
    var result: [(module: String, line: Int)] = []
    let prefixes: Set<Substring> = ["public", "internal", "package", "fileprivate", "private"]
    for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
      guard let position = words.firstIndex(of: "import"),
        words[..<position].allSatisfy({ $0.hasPrefix("@") || prefixes.contains($0) })
      else { continue }
      let module = ImportNeeds.module(of: String(line))
      if !module.isEmpty { result.append((module, number + 1)) }
    }
    return result
  }

  static func isIdentifier(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
    return name.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
  }
}
