import DesingletonCore
import DesingletonIndex

/// The command a refusal tells the user to run next, checked first: only one that would change
/// something is suggested, otherwise the reason it would not.
///
/// This is where commands are composed: a command's planner never calls another's. `finish`
/// receives `injectType` as its `FinishOptions.nextStep` from whoever runs it (the CLI, a test).
public enum NextCommand {
  /// For a consumer not yet injected: `inject --type` when its plan (made as `inject` makes it, on
  /// the project `rewrite` gives when there is one) changes something; else why it cannot take it yet.
  @Sendable public static func injectType(
    _ type: String, singleton: Singleton, project: Project, rewrite: ((Plan) throws -> Project)?
  ) throws -> String {
    do {
      let options = InjectOptions(types: [type])
      let (plan, report) = try rewrite.map { try InjectPlanner.run(singleton: singleton, options: options, project: project, rewrite: $0) }
        ?? InjectPlanner.run(singleton: singleton, options: options, project: project)
      if plan.edits.isEmpty && plan.newFiles.isEmpty {
        let reason = report.skipped.first { $0.typeName == type }?.diagnostics.first?.message ?? "it would change nothing"
        return "; 'inject --type \(type)' cannot take it yet: \(reason)"
      }
      return "; run 'desingleton inject \(project.singletonFlags(singleton.typeName)) --type \(type)'"
    } catch let refusal as Refusal {
      let reason = refusal.diagnostics.first?.message ?? ""
      return "; 'inject --type \(type)' cannot take it yet: \(reason)"
    }
  }
}
