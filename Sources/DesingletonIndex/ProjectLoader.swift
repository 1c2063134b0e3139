import DesingletonCore
import Foundation

/// How every command loads code: the files the command's questions need, until its answers are
/// the ones the whole code base gives.
///
/// The first phase parses the files that name what the command is about (a singleton's name, the
/// types given on the command line) or, without names, the files that can declare an accessor.
/// The command then plans on the project (`run`); every question the index could not answer from
/// what was parsed is recorded (`NameCoverage`), the files that can answer it are parsed, and the
/// command plans again, until it asked nothing that was missing. So a plan never depends on which
/// files a command happened to read: `--full` (every file parsed, nothing recorded) gives the same.
public final class ProjectLoader {
  public let paths: [String]
  public let objectiveCPaths: [String]
  public let modules: ModuleMap
  private let scan: PhasedScan?
  private let whole: Project?
  /// The project the last run planned on, shared with the scan's phases.
  private final class Latest: @unchecked Sendable {
    let lock = NSLock()
    var project: Project?
  }
  private let latest = Latest()
  /// Whether runs thrown away can make the next widening parse every file (`PhasedScan.run`'s
  /// `bounded`, which depends on how long the runs took); off, what is parsed depends only on the code.
  private let bounded: Bool

  /// `mentioning`: the names the first phase parses the files of. `full`: parse every file at once.
  /// `readsNamingFiles`: the command's planners read the files naming them (the consumers of the
  /// singleton), which keep the trees the first phase made.
  public init(
    paths: [String], builder: IndexBuilder, mentioning names: [String]?, full: Bool, objectiveCPaths: [String],
    modules: ModuleMap, bounded: Bool = true, readsNamingFiles: Bool = false
  ) {
    self.bounded = bounded
    self.paths = paths
    let builder = builder.importing(objectiveC: objectiveCPaths)
    self.objectiveCPaths = objectiveCPaths
    self.modules = modules
    if full {
      scan = nil
      whole = Project(index: builder.build(paths: paths), objectiveCPaths: objectiveCPaths, modules: modules)
    } else {
      scan = PhasedScan(paths: paths, builder: builder, mentioning: names, keepingTrees: readsNamingFiles)
      whole = nil
    }
    // The files a plan found naming a word in code are those a widening asked about that word parses.
    scan?.mentioning = { [latest] words in
      latest.lock.lock()
      let project = latest.project
      latest.lock.unlock()
      return project.map { Set($0.paths(namingInCode: words)) }
    }
    // A file a plan read is indexed from the tree it read, if a later phase parses it.
    scan?.parsedTree = { [latest] path in
      latest.lock.lock()
      defer { latest.lock.unlock() }
      return latest.project?.parsedFromDisk(path)
    }
  }

  /// Runs `body` on the project until it asks nothing the parsed files cannot answer, parsing what
  /// it asked for in between; the result of the last run (a refusal too, once nothing is missing).
  /// Each project keeps the syntax trees the runs before it parsed: the files do not change.
  public func run<Result>(_ body: (Project) throws -> Result) throws -> Result {
    if let whole { return try body(whole) }
    guard let scan else { preconditionFailure("a loader has a scan or the whole project") }
    return try scan.run(bounded: bounded) { index in
      let project = Project(index: index, objectiveCPaths: objectiveCPaths, modules: modules)
      latest.lock.lock()
      if let last = latest.project { project.keepTrees(of: last) }
      project.adopt(scan.takeFirstTrees())
      latest.project = project
      latest.lock.unlock()
      defer { scan.keep(project.keptWorkTime) }
      return try body(project)
    }
  }

  /// The project the last run planned on: what a command writes with.
  public var project: Project {
    if let whole { return whole }
    latest.lock.lock()
    defer { latest.lock.unlock() }
    if let last = latest.project { return last }
    guard let scan else { preconditionFailure("a loader has a scan or the whole project") }
    let first = Project(index: scan.index(), objectiveCPaths: objectiveCPaths, modules: modules)
    first.adopt(scan.takeFirstTrees())
    latest.project = first
    return first
  }

  /// The phases the loader parses in (nil with `full`): what each parsed, and when.
  public var phasedScan: PhasedScan? { scan }

  /// How many files were parsed, over every phase.
  public var parsedFiles: Int { scan?.parsed.files ?? whole?.index.files.count ?? 0 }

  /// Files and lines each phase parsed (empty with `full`).
  public var phases: [PhasedScan.Phase] { scan?.phases ?? [] }
}
