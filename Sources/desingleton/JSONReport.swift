import DesingletonCore
import DesingletonIndex
import DesingletonPlanner
import DesingletonPrinter

extension WriteOptions {
  /// `--format json`: carries out the plan as the text format does, but standard output holds only
  /// the report (a dry run's diff is not printed) with the files changed and created, which a dry run
  /// leaves unwritten. The summary lines stay off stderr: the report carries them as `notes`.
  func carryOut(
    _ plan: Plan, project: Project, root: String, verifying setting: VerifySetting?, report: (PlanFiles) -> String
  ) throws {
    try carryOut(project: project, root: root, verifying: setting, repairing: false, report: report) { _ in plan }
  }

  /// The JSON report of `carryOut(project:root:summary:verifying:plan:)`, with its rounds of builds.
  func carryOut(
    project: Project, root: String, verifying setting: VerifySetting?, repairing: Bool = true,
    report: (PlanFiles) -> String, plan makePlan: ([String: CompilerError]) throws -> Plan
  ) throws {
    let (outputs, verification, notes) = try carryOut(
      project: project, root: root, summary: false, verifying: setting, repairing: repairing, plan: makePlan)
    let printer = Printer(root: root)
    var files = PlanFiles(
      changed: outputs.filter { !$0.isNewFile }.map { printer.displayPath(of: $0.path) },
      created: outputs.filter(\.isNewFile).map { printer.displayPath(of: $0.path) }, written: !dryRun)
    files.verification = verification
    files.notes = notes
    print(report(files), terminator: "")
  }
}

extension Project {
  /// With `--format json` a command reports on one singleton: twins declared in several targets are
  /// refused unless one is chosen.
  func refuseTwinsForJSON(of typeName: String, module: String?, choose: String) throws {
    if module == nil, let twins = twinModules(of: typeName) {
      throw Refusal(
        "'\(typeName)' is declared in modules \(twins.joined(separator: ", ")); with --format json, \(choose)")
    }
  }
}
