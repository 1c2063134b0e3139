import ArgumentParser
import DesingletonCore
import DesingletonIndex
import DesingletonPlanner
import DesingletonPrinter
import Foundation

struct Check: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Fail when the code uses a singleton's accessor in more places than the baseline file lists (a ratchet while migrating).",
    discussion: """
      With no baseline file yet, writes it and exits 0. Then exits 1 with one error per new use; \
      a use that is gone passes, and --update-baseline records the lower count.
      """
  )

  enum Format: String, ExpressibleByArgument, CaseIterable {
    case text, github
  }

  @OptionGroup var common: CommonOptions

  @Option(help: ArgumentHelp("The baseline file: the accessor's uses per singleton and file (written when missing).", valueName: "path"))
  var baseline: String

  @Option(help: "Check only this singleton type.")
  var singleton: String?

  @Flag(help: "When no use is new, write the current uses to the baseline (after some were removed).")
  var updateBaseline = false

  @Option(help: "How new uses are printed: text (path:line:col: error:) or github (workflow annotations).")
  var format: Format = .text

  mutating func run() throws {
    _ = try common.prepare()
    let root = ProjectRoot.find(for: [common.root])
    try root.refuseOutside([baseline])
    let loader = try common.loader(singleton: singleton)
    let (only, uses) = try loader.run { project -> (String?, [AccessorBaseline.Use]) in
      let index = project.index
      guard let singleton else { return (nil, AccessorBaseline.uses(of: index.singletons, index: index, bytes: readBytes)) }
      let target = try resolveSingleton(singleton, in: index)
      return (target.typeName, AccessorBaseline.uses(of: [target], index: index, bytes: readBytes))
    }
    Terminal.shared.finish()
    var current = AccessorBaseline(uses)
    if let only { current.uses[only] = current.uses[only] ?? [:] }
    guard FileManager.default.fileExists(atPath: baseline) else {
      try write(current)
      printError("wrote the baseline '\(baseline)': \(describe(current.count, current.uses.count))")
      return
    }
    let text: String
    do {
      text = try String(contentsOfFile: baseline, encoding: .utf8)
    } catch {
      throw Refusal("cannot read the baseline: \(error.localizedDescription)", at: Location(path: baseline, line: 1, column: 1))
    }
    let whole = try AccessorBaseline.read(text, path: baseline)
    // With --singleton, only that singleton's part of the baseline is compared and rewritten.
    var recorded = whole
    if let only { recorded.uses = recorded.uses.filter { $0.key == only } }
    let (new, gone) = recorded.compare(uses)
    for use in new {
      let message =
        "new use of '\(use.accessExpression)': the baseline lists \(recorded.uses[use.singleton]?[use.location.path]?.count ?? 0) in this file; pass the slice it needs instead"
      switch format {
      case .text: print(Diagnostic.error(message, at: use.location).description)
      case .github:
        print("::error file=\(use.location.path),line=\(use.location.line),col=\(use.location.column)::\(message)")
      }
    }
    if !new.isEmpty {
      printError("check: \(new.count) new use\(new.count == 1 ? "" : "s") of the accessor (\(describe(current.count, current.uses.count)) now, \(recorded.count) in the baseline)")
      throw ExitCode(1)
    }
    if gone > 0 && updateBaseline {
      var updated = whole
      for name in recorded.uses.keys { updated.uses[name] = nil }
      for (name, files) in current.uses where !files.isEmpty { updated.uses[name] = files }
      try write(updated)
      printError("check: \(gone) use\(gone == 1 ? "" : "s") fewer; the baseline now lists \(updated.count)")
    } else if gone > 0 {
      printError("check: no new use; \(gone) fewer than the baseline lists (record it with --update-baseline)")
    } else {
      printError("check: no new use (\(describe(current.count, current.uses.count)))")
    }
  }

  private func describe(_ count: Int, _ singletons: Int) -> String {
    "\(count) use\(count == 1 ? "" : "s") of \(singletons) singleton\(singletons == 1 ? "" : "s")"
  }

  private func write(_ baseline: AccessorBaseline) throws {
    do {
      try Data(baseline.json().utf8).write(to: URL(fileURLWithPath: self.baseline), options: .atomic)
    } catch {
      throw Refusal("cannot write the baseline: \(error.localizedDescription)", at: Location(path: self.baseline, line: 1, column: 1))
    }
  }
}
