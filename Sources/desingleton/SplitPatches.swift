import ArgumentParser
import DesingletonCore
import DesingletonIndex
import DesingletonPlanner
import DesingletonPrinter

/// `--split-by`: what one patch holds.
enum SplitBy: String, ExpressibleByArgument, CaseIterable {
  case module, consumer

  var series: PatchSeries.SplitBy {
    switch self {
    case .module: .module
    case .consumer: .consumer
    }
  }
}

extension WriteOptions {
  func validateSplit() throws {
    if splitBy != nil || patchDir != nil {
      guard dryRun else {
        throw ValidationError("--split-by and --patch-dir go with --dry-run: the patches are the changes, unwritten")
      }
      guard splitBy != nil, patchDir != nil else { throw ValidationError("--split-by and --patch-dir go together") }
    }
  }

  /// The plan as a series of patches in `directory`; their names on stderr.
  func writePatches(_ plan: Plan, by split: SplitBy, into directory: String, project: Project, printer: Printer) throws
  {
    let steps = PatchSeries.steps(plan, by: split.series, modules: project.modules)
    let sources = try project.sources(of: Array(plan.edits.keys) + Array(plan.newFiles.keys))
    let writer = PatchWriter(printer: printer)
    let texts = try writer.patches(steps.map(\.plan), sources: sources)
    let written = try writer.write(zip(steps, texts).map { ($0.name, $1) }, into: directory)
    for path in written { printError("wrote \(path)") }
  }
}
