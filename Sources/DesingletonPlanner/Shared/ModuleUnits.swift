import DesingletonCore
import DesingletonIndex

/// Plans a command once per compilation unit when two targets declare a type of the same name:
/// each twin is sliced, injected and finished for its own target, and the plans are merged.
public enum ModuleUnits {
  /// `only`: plan just the twin of that module (scan's commands name it).
  public static func plan(
    typeName: String, project: Project, only: String? = nil, _ body: (Project) throws -> Plan
  ) throws -> Plan {
    guard var modules = project.twinModules(of: typeName) else {
      if let only {
        throw Refusal("--module \(only): '\(typeName)' is declared in one module only; leave --module out")
      }
      return try body(project)
    }
    if let only {
      guard modules.contains(only) else {
        throw Refusal("--module \(only): '\(typeName)' is declared in modules \(modules.joined(separator: ", "))")
      }
      modules = [only]
    }
    var merged = Plan()
    var owner: [String: String] = [:]
    for module in modules {
      let plan = try body(project.unit(around: module))
      for (path, edits) in plan.edits where !edits.isEmpty {
        if let other = owner[path], merged.edits[path] != edits {
          throw Refusal(
            "this file is compiled into '\(other)' and '\(module)', where '\(typeName)' is a different type in each; "
              + "change it by hand, or run on one target's folder",
            at: Location(path: path, line: 1, column: 1))
        }
        owner[path] = module
      }
      for (path, _) in plan.newFiles where owner[path] != nil && merged.newFiles[path] != plan.newFiles[path] {
        throw Refusal("both '\(owner[path] ?? "")' and '\(module)' would create this file", at: Location(path: path, line: 1, column: 1))
      }
      for (path, edits) in plan.edits where merged.edits[path] == nil { merged.edits[path] = edits }
      for (path, text) in plan.newFiles {
        merged.newFiles[path] = text
        owner[path] = module
      }
      merged.notes.append(
        contentsOf: plan.notes.map { note in
          var note = note
          note.module = note.module.map { "\(module): \($0)" } ?? module
          return note
        })
      merged.parts.append(contentsOf: plan.parts.map { part in
        var part = part
        part.name = "\(module)-\(part.name)"
        part.after = part.after.map { "\(module)-\($0)" }
        return part
      })
    }
    return merged
  }
}
