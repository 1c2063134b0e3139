import DesingletonCore
import DesingletonIndex

/// The check over every write: each `import` a plan adds names a module the compiler can know by
/// that name: one of the module map's (an Xcode target by its module name, a SwiftPM target), a
/// dependency a target declares (a package's product), one a file of the project already imports,
/// or one of the toolchain's. An import of anything else (a target's display name, `import
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
    for file in files { known.formUnion(ImportLines.modules(in: file.original ?? "").map(\.module)) }
    for companion in Set(companions.values) {
      if let source = try? project.file(companion).source { known.formUnion(ImportLines.modules(in: source.text).map(\.module)) }
    }
    var problems: [Diagnostic] = []
    for file in files.sorted(by: { $0.path < $1.path }) {
      let before = Set(ImportLines.modules(in: file.original ?? "").map(\.module))
      for (module, line, isOnePath) in ImportLines.modules(in: file.new) where !before.contains(module) {
        // A module some file of the project imports is one its build finds (`import os`).
        guard !isOnePath || !isIdentifier(module) || !(known.contains(module) || project.importsModule(module))
        else { continue }
        problems.append(
          .error(
            "this change writes 'import \(module)', which names no module the project or the toolchain has by that name; the change is refused (a bug: please report it)",
            at: Location(path: file.path, line: line, column: 1)))
      }
    }
    return problems
  }

  static func isIdentifier(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
    return name.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
  }
}
