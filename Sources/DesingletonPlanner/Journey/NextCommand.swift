import DesingletonCore
import DesingletonIndex

/// The command a refusal tells the user to run next, checked first: only one that would change
/// something is suggested, otherwise the reason it would not.
///
/// This is where commands are composed: a command's planner never calls another's. `finish`
/// receives `injectTypes` as its `FinishOptions.nextStep` from whoever runs it (the CLI, a test).
public enum NextCommand {
  /// For each consumer not yet injected, what to run: when several block, `inject --all` for each
  /// that its plan (made once, as `inject --all` makes it) injects; else `inject --type` when its
  /// plan changes something; else why that cannot take it yet. Each plan is made on the project
  /// `rewrite` gives when there is one, as the command would make it.
  ///
  /// One plan answers for every consumer it takes, however many block: planning `--type` for each
  /// would be a whole planning (and a whole check of the rewritten code) per consumer. A consumer
  /// `--all` leaves (one it would spread the accessor from, one it skips) is planned alone, since
  /// `--type` may still take it. When one consumer blocks, its own `--type` is the command that
  /// takes exactly what blocks, and one plan either way.
  @Sendable public static func injectTypes(
    _ types: [String], singleton: Singleton, project: Project, rewrite: ((Plan) throws -> Project)?
  ) throws -> [String: String] {
    var suggestions: [String: String] = [:]
    if types.count > 1 {
      var changed: [String: [Range<Int>]] = [:]
      do {
        changed = try changes(try plan(InjectOptions(), singleton: singleton, project: project, rewrite: rewrite).plan, in: project)
      } catch is Refusal {
        // Refused as a whole: each consumer is planned alone, and says why.
      }
      // Taken: the plan changes the consumer's own code (not only what creates it).
      let starts = changed.mapValues { $0.map(\.lowerBound) }
      for type in types where project.index.isInside(type, anyOf: starts) {
        suggestions[type] = "; run 'desingleton inject \(project.singletonFlags(singleton.typeName)) --all'"
      }
    }
    try project.index.requireCoverage()
    for type in types where suggestions[type] == nil {
      suggestions[type] = try injectType(type, singleton: singleton, project: project, rewrite: rewrite)
    }
    return suggestions
  }

  /// For a consumer not yet injected: `inject --type` when its plan changes something; else why it
  /// cannot take it yet.
  static func injectType(
    _ type: String, singleton: Singleton, project: Project, rewrite: ((Plan) throws -> Project)?
  ) throws -> String {
    do {
      let (plan, report) = try plan(InjectOptions(types: [type]), singleton: singleton, project: project, rewrite: rewrite)
      if try plan.newFiles.isEmpty && changes(plan, in: project).isEmpty {
        let reason = report.skipped.first { $0.typeName == type }?.diagnostics.first?.message ?? "it would change nothing"
        return "; 'inject --type \(type)' cannot take it yet: \(reason)"
      }
      return "; run 'desingleton inject \(project.singletonFlags(singleton.typeName)) --type \(type)'"
    } catch let refusal as Refusal {
      let reason = refusal.diagnostics.first?.message ?? ""
      return "; 'inject --type \(type)' cannot take it yet: \(reason)"
    }
  }

  /// The ranges of each file the plan's edits change: an edit that writes what is there already
  /// changes nothing (an `inject` run again).
  static func changes(_ plan: Plan, in project: Project) throws -> [String: [Range<Int>]] {
    let sources = try project.sources(of: Array(plan.edits.keys))
    var changed: [String: [Range<Int>]] = [:]
    for (path, edits) in plan.edits {
      guard let bytes = sources[path]?.bytes else { continue }
      for edit in edits {
        let isSame = edit.range.upperBound <= bytes.count && bytes[edit.range].elementsEqual(edit.replacement.utf8)
        if !isSame { changed[path, default: []].append(edit.range) }
      }
    }
    return changed
  }

  private static func plan(
    _ options: InjectOptions, singleton: Singleton, project: Project, rewrite: ((Plan) throws -> Project)?
  ) throws -> (plan: Plan, report: InjectReport) {
    try rewrite.map { try InjectPlanner.run(singleton: singleton, options: options, project: project, rewrite: $0) }
      ?? InjectPlanner.run(singleton: singleton, options: options, project: project)
  }
}
