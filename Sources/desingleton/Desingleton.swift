import ArgumentParser
import DesingletonCore
import DesingletonIndex
import DesingletonPlanner
import DesingletonPrinter
import Foundation

@main
struct Desingleton: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "desingleton",
    abstract: "Find singletons in Swift code, slice them into protocols, and inject the slices.",
    version: "0.1.0",
    subcommands: [Scan.self, ExtractProtocol.self, Inject.self, Finish.self, Mocks.self, Check.self]
  )

  /// Exit codes: 0 done (or nothing to do), 1 refused or failed with nothing written, 2 bad usage.
  static func main() {
    #if canImport(Glibc)
      // A syntax tree is allocated in large blocks and freed whole. glibc raises its mmap threshold
      // to the size of each large block freed, after which such blocks come from the heap of the
      // thread that made them and stay there: parsing the largest files on two threads one after
      // the other kept both trees' memory. A fixed threshold returns each tree's blocks when it is freed.
      _ = glibcMallopt(-3 /* M_MMAP_THRESHOLD */, 256 * 1024)
    #endif
    do {
      var command = try parseAsRoot()
      try command.run()
      Terminal.shared.finish()
    } catch let refusal as Refusal {
      Terminal.shared.finish()
      for diagnostic in refusal.diagnostics { printError(diagnostic.description) }
      Foundation.exit(1)
    } catch let interrupted as Interrupted {
      Terminal.shared.finish()
      for problem in interrupted.problems { printError(problem) }
      printError(interrupted.description)
      Foundation.exit(interrupted.exitCode)
    } catch {
      Terminal.shared.finish()
      let code = exitCode(for: error)
      if code == .success {
        exit(withError: error)
      }
      FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
      if let exit = error as? ExitCode {
        Foundation.exit(exit.rawValue)
      }
      Foundation.exit(2)
    }
  }
}

/// Options every command takes.
struct CommonOptions: ParsableArguments {
  @Argument(help: "Files or directories to work on (default: the current directory).")
  var paths: [String] = []

  @Option(name: .customLong("exclude"), help: ArgumentHelp("Skip files and folders matching this glob (repeatable).", valueName: "glob"))
  var excludes: [String] = []

  @Option(help: "Worker threads for parsing (default: all cores).")
  var threads: Int?

  @Option(
    name: .customLong("accessor"),
    help: ArgumentHelp("Also take static members of this name as singleton accessors, e.g. current (repeatable).", valueName: "name"))
  var accessors: [String] = []

  @Flag(help: "Parse every file, not only those the command's questions need (the same result, slower; for comparison).")
  var full = false

  @Option(help: "Colour diffs and the summary: auto (on a terminal, unless NO_COLOR is set), always, never.")
  var color: ColorChoice = .auto

  @Flag(help: "Print to standard error how much of the code each phase parsed, and what it was parsed for.")
  var stats = false

  @Option(
    help: ArgumentHelp(
      "Read settings from this file (default: the .desingleton.json in this directory or one above it, up to the git root).",
      valueName: "path"))
  var config: String?

  /// Sets up colours and the progress line, reads the configuration file, adds its excludes and
  /// accessor names to the flags' and prints its warnings. Every command calls it first; the
  /// file's per-singleton settings are the command's to apply.
  mutating func prepare() throws -> Configuration {
    Terminal.shared.configure(color: color)
    try recoverInterruptedWrite()
    let configuration = try ConfigurationSearch.find(explicit: config)
    for warning in configuration.warnings { printError(warning.description) }
    excludes += configuration.excludes
    accessors += configuration.accessors.filter { !accessors.contains($0) }
    return configuration
  }

  /// A write ended by `kill -9` or a power loss left its journal at the project's root: the files it
  /// changed are restored before anything else is read.
  func recoverInterruptedWrite() throws {
    let journal = ProjectRoot.find(for: [root]).journal
    do {
      guard let restored = try Printer.recover(journal: journal) else { return }
      printError(
        "note: an interrupted run had left its changes half-made; restored \(restored.count) file\(restored.count == 1 ? "" : "s") as they were before it"
      )
    } catch let refusal as Refusal {
      throw refusal
    } catch {
      throw Refusal("an interrupted run left '\(journal)', and restoring what it names failed: \(error); restore the files it names by hand, then remove it")
    }
  }

  /// Indexes files with these options' threads and accessor names.
  var indexBuilder: IndexBuilder {
    IndexBuilder(threads: threads, accessors: AccessorNames(extra: accessors), progress: Terminal.shared.progress)
  }

  var resolvedPaths: [String] { paths.isEmpty ? ["."] : paths }

  /// The directory diff paths are relative to: the one path given, or the current directory.
  var root: String { resolvedPaths.count == 1 ? resolvedPaths[0] : "." }

  func validate() throws {
    if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
    for name in accessors where name.isEmpty || !name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) {
      throw ValidationError("--accessor takes a member name; got '\(name)'")
    }
  }

  /// The one loader (`ProjectLoader`): the files naming the singleton (and `extra` names) first,
  /// then what the command's questions need; without a singleton name, the files that can declare
  /// an accessor first. `--full` parses every file. `readsConsumers`: the command's planners read
  /// the files naming the singleton (`inject`, `finish`): the first phase keeps their trees.
  func loader(singleton name: String?, extra: [String] = [], readsConsumers: Bool = false) throws -> ProjectLoader {
    let found = try FileLoader(excludes: excludes).swiftFiles(in: resolvedPaths)
    for warning in found.warnings { printError(warning.description) }
    let names = name.map { name in [name.split(separator: ".").last.map(String.init) ?? name] + extra }
    let loader = ProjectLoader(
      paths: found.files, builder: indexBuilder, mentioning: names, full: full, objectiveCPaths: found.objectiveCFiles,
      modules: manifests(found), readsNamingFiles: readsConsumers)
    Terminal.shared.progress.begin("planning")
    if stats { PhaseStatistics.printAtExit(loader) }
    return keptUntilExit(loader)
  }
}

/// The project as it would be with the plan written: what a planner asks of code it is about to write.
/// Each rewritten file is parsed once: the tree indexed is the one its syntax check reads. A file
/// whose tree the planners held is parsed from that tree, the items no edit reaches taken as they were.
func rewritten(_ project: Project, by plan: Plan, root: String) throws -> Project {
  let sources = try project.sources(of: Array(plan.edits.keys) + Array(plan.newFiles.keys))
  return try Printer(root: root).render(plan, sources: sources) { outputs in
    try project.replacing(
      outputs.map { SourceText(path: $0.path, text: String(decoding: $0.new, as: UTF8.self)) }, edits: plan.edits,
      parsed: { source, tree in Printer.remember(tree, of: source.bytes) })
  }.parsed
}

/// The module map of the SwiftPM manifests and Xcode projects among the files found; an unreadable
/// manifest is left out, an unreadable project file is left out with a warning.
func manifests(_ found: FileLoader.Result) -> ModuleMap {
  let paths = found.files.filter { $0 == "Package.swift" || $0.hasSuffix("/Package.swift") }
  var projects: [XcodeProject] = []
  for path in found.xcodeProjectFiles {
    do {
      projects.append(try XcodeProject.read(path))
    } catch let refusal as Refusal {
      for diagnostic in refusal.diagnostics {
        var warning = diagnostic
        warning.severity = .warning
        printError(warning.description + "; its targets are not known")
      }
    } catch {
      printError("warning: cannot read '\(path)': \(error)")
    }
  }
  return ModuleMap(manifests: paths.compactMap { try? FileLoader.read($0) }, xcodeProjects: projects)
}

/// A line of the summary or a diagnostic, on stderr.
func printError(_ line: String) {
  Terminal.shared.writeError(line)
}

/// How a command that changes files carries out its plan.
struct WriteOptions: ParsableArguments {
  @Flag(help: "Write nothing; print the changes as a unified diff that 'git apply' accepts.")
  var dryRun = false

  @Flag(help: "Write even when files to be changed have uncommitted changes in git.")
  var allowDirty = false

  @Option(
    help: ArgumentHelp(
      "After writing, run this shell command instead of the default build (a SwiftPM package: 'swift build --build-tests' in a scratch folder of its own); what it fails with is left out, or every file is restored.",
      valueName: "command"))
  var verify: String?

  @Flag(help: "Do not build after writing.")
  var noVerify = false

  @Flag(help: "When the build fails, restore every file instead of leaving out what it failed with.")
  var noRepair = false

  @Option(help: ArgumentHelp("At most this many builds before giving up and restoring every file.", valueName: "n"))
  var verifyRounds = 5

  @Option(
    help: ArgumentHelp(
      "With --dry-run: one patch per module or per consumer, each applying and building after the ones before it, written to --patch-dir.",
      valueName: "module|consumer"))
  var splitBy: SplitBy?

  @Option(help: ArgumentHelp("Where --split-by writes its patches (NNN-name.patch, in the order they apply).", valueName: "dir"))
  var patchDir: String?

  func validate() throws {
    if dryRun && verify != nil { throw ValidationError("--verify cannot be used with --dry-run: nothing is written to verify") }
    if noVerify && verify != nil { throw ValidationError("give --verify COMMAND or --no-verify, not both") }
    if verifyRounds < 1 { throw ValidationError("--verify-rounds must be at least 1") }
    try validateSplit()
  }

  /// The files changed or created (or that a dry run would change); `summary: false` (a JSON report)
  /// keeps a dry run's diff off standard output and the summary lines off standard error.
  @discardableResult
  func carryOut(
    _ plan: Plan, project: Project, root: String, summary: Bool = true, verifying setting: VerifySetting? = nil
  ) throws -> [FileOutput] {
    try carryOut(project: project, root: root, summary: summary, verifying: setting, repairing: false) { _ in plan }.outputs
  }

  /// Carries out the plan `makePlan` gives for no exclusions; when the build that verifies it fails,
  /// the units the compiler's errors blame are excluded and `makePlan` is asked again, until the
  /// build passes, nothing is left, or the rounds run out (then every file is restored).
  /// `repairing`: whether `makePlan` can leave units out (a command whose change is one piece cannot).
  @discardableResult
  func carryOut(
    project: Project, root: String, summary: Bool = true, verifying setting: VerifySetting?, repairing: Bool = true,
    plan makePlan: ([String: CompilerError]) throws -> Plan
  ) throws -> (outputs: [FileOutput], verification: VerificationReport, notes: [Note]) {
    // Files skipped for syntax errors or encoding were not needed by this plan; say so.
    for warning in project.index.warnings { printError(warning.description) }
    let printer = Printer(root: root)
    let projectRoot = ProjectRoot.find(for: [root])
    var excluded: [String: CompilerError] = [:]
    var (plan, outputs) = try render(try makePlan(excluded), project: project, printer: printer, projectRoot: projectRoot)
    Terminal.shared.finish()
    if dryRun {
      if let splitBy, let patchDir {
        try writePatches(plan, by: splitBy, into: patchDir, project: project, printer: printer)
      } else if summary {
        print(Terminal.shared.diff(printer.diff(outputs)), terminator: "")
      }
      return (outputs, try finishSummary(plan, outputs: outputs, summary: summary, verification: VerificationReport()), plan.notes)
    }
    if !allowDirty {
      try GitGuard.refuseUncommittedChanges(in: outputs.compactMap { $0.original == nil ? nil : $0.path })
    }
    let build = BuildChoice(
      explicit: verify, off: noVerify, setting: setting, paths: [root], root: projectRoot, writing: outputs.map(\.path))
    var verification = VerificationReport(command: build.command?.display, unverifiedReason: build.unverifiedReason)
    try Interruption.watching {
      guard let command = build.command, !outputs.isEmpty else {
        try printer.write(outputs, journal: projectRoot.journal) {}
        return
      }
      for round in 1...verifyRounds {
        do {
          try printer.write(outputs, journal: projectRoot.journal) {
            Terminal.shared.progress.begin("building (round \(round)): \(command.display)")
            defer { Terminal.shared.finish() }
            let result = try command.shell.run()
            if !result.succeeded { throw BuildFailure(command: command.display, status: result.status, output: result.output) }
          }
          verification.rounds.append(.init(number: round, passed: true))
          return
        } catch let failure as BuildFailure {
          let written = Dictionary(outputs.map { ($0.path, (original: $0.original, new: $0.new)) }) { first, _ in first }
          let current = FileManager.default.currentDirectoryPath
          let blame = BuildRepair.blame(failure.errors, plan: plan, written: written) { path in
            URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: current + "/")).standardizedFileURL.path
          }
          // Nothing to leave out: a command whose change is one piece, an error no unit explains, or
          // units left out already (planning again would write the same).
          let fresh = blame.units.filter { excluded[$0.key] == nil }
          let canRepair = repairing && !noRepair && blame.unplaced.isEmpty && !fresh.isEmpty
          let dropped = canRepair && round < verifyRounds ? fresh.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } : []
          verification.rounds.append(.init(number: round, passed: false, dropped: dropped))
          if dropped.isEmpty {
            for line in failure.outputTail { printError(line) }
            var diagnostics = failure.diagnostics
            if canRepair {
              diagnostics.append(.error("the build still failed after \(round) rounds; every file was restored"))
            }
            throw Refusal(diagnostics)
          }
          excluded.merge(fresh) { first, _ in first }
          // Left out, each is skipped with the compiler's message; when that leaves nothing to
          // write, the tree stays as it was, which is what a second run of a repaired write finds.
          (plan, outputs) = try render(try makePlan(excluded), project: project, printer: printer, projectRoot: projectRoot)
          if outputs.isEmpty { return }
        }
      }
    }
    return (outputs, try finishSummary(plan, outputs: outputs, summary: summary, verification: verification), plan.notes)
  }

  /// The plan made ready to write: generated files refused, new files joined to their Xcode
  /// targets, every path inside the project, rendered and re-parsed.
  private func render(_ plan: Plan, project: Project, printer: Printer, projectRoot: ProjectRoot) throws -> (Plan, [FileOutput]) {
    try plan.refusingGeneratedFiles(in: project.index)
    // New files join the Xcode targets of the files they go with.
    let plan = try XcodeProjectEdits.add(to: plan, modules: project.modules)
    try projectRoot.refuseOutside(Array(plan.edits.keys) + Array(plan.newFiles.keys))
    // The Printer renders exactly the files the plan names, as the planners read them.
    let outputs = try printer.render(plan, sources: project.sources(of: Array(plan.edits.keys) + Array(plan.newFiles.keys)))
    let problems = WrittenImports.problems(
      outputs.map { WrittenImports.File(path: $0.path, original: $0.original?.text, new: String(decoding: $0.new, as: UTF8.self)) },
      companions: plan.companions, project: project)
    if !problems.isEmpty { throw Refusal(problems) }
    return (plan, outputs)
  }

  private func finishSummary(_ plan: Plan, outputs: [FileOutput], summary: Bool, verification: VerificationReport) throws -> VerificationReport {
    guard summary else { return verification }
    for note in plan.notes { printError(note.line) }
    if outputs.isEmpty { printError("nothing to change") }
    if !dryRun && (!outputs.isEmpty || !verification.rounds.isEmpty) {
      for line in verification.summary { printError(line) }
    }
    return verification
  }
}

/// The build that checks a write: `--verify`, else the configuration file's `verify`, else a
/// SwiftPM package's own build; nothing with `--no-verify` or `"verify": false`.
struct BuildChoice {
  struct Command {
    var shell: ShellCommand
    /// As the summary and the JSON report show it.
    var display: String
  }

  var command: Command?
  /// Why nothing verifies the write, for the summary; nil when the user turned it off.
  var unverifiedReason: String?

  /// `writing`: the files the write changes or adds; a package none of whose targets compiles one
  /// of them is not their build.
  init(explicit: String?, off: Bool, setting: VerifySetting?, paths: [String], root: ProjectRoot, writing: [String]) {
    if off { return }
    if let explicit {
      command = Command(shell: ShellCommand(explicit), display: explicit)
      return
    }
    switch setting {
    case .off: return
    case .command(let text, let directory):
      command = Command(shell: ShellCommand(text, in: directory), display: text)
      return
    case nil: break
    }
    if let package = BuildChoice.package(above: paths, root: root) {
      if let manifest = BuildChoice.compilesNone(of: writing, package: package) {
        unverifiedReason = "no target of '\(manifest)' compiles the files it changes"
        return
      }
      // A scratch folder of its own: the user's `.build` is left as it is, and later runs build incrementally.
      let text = "swift build --build-tests --scratch-path .build/desingleton-verify"
      let display = package == "." ? text : "cd \(ShellCommand.quote(package)) && \(text)"
      command = Command(shell: ShellCommand(text, in: package), display: display)
    } else {
      unverifiedReason = "no build command"
    }
  }

  /// The manifest of `package` (as the summary names it) when its targets are known and none
  /// compiles any of `files`: a folder of sources inside a package's tree but outside its targets
  /// (a fixture, a corpus, an example project), which that package's build never reads.
  static func compilesNone(of files: [String], package: String) -> String? {
    let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    func absolute(_ path: String) -> String { URL(fileURLWithPath: path, relativeTo: current).standardizedFileURL.path }
    let manifest = absolute(package) + "/Package.swift"
    guard let text = try? FileLoader.read(manifest) else { return nil }
    let modules = ModuleMap(manifests: [text])
    guard !modules.targets.isEmpty, !files.contains(where: { !modules.modules(of: absolute($0)).isEmpty }) else { return nil }
    return package == "." ? "Package.swift" : package + "/Package.swift"
  }

  /// The nearest directory at or above the first path, inside the project, holding `Package.swift`:
  /// "." for the current directory, else its absolute path.
  static func package(above paths: [String], root: ProjectRoot) -> String? {
    let manager = FileManager.default
    let current = URL(fileURLWithPath: manager.currentDirectoryPath).standardizedFileURL
    var directory = URL(fileURLWithPath: paths.first ?? ".", relativeTo: current).standardizedFileURL
    var isDirectory: ObjCBool = false
    if manager.fileExists(atPath: directory.path, isDirectory: &isDirectory), !isDirectory.boolValue {
      directory.deleteLastPathComponent()
    }
    while root.contains(directory.path) {
      if manager.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
        return directory.path == current.path ? "." : directory.path
      }
      let parent = directory.deletingLastPathComponent()
      if parent.path == directory.path { return nil }
      directory = parent
    }
    return nil
  }
}

/// The process ends right after its command: the project's index and trees are left for the
/// operating system to reclaim at exit instead of being freed object by object.
func keepUntilExit(_ project: Project) {
  _ = Unmanaged.passRetained(project)
}

private func keptUntilExit<Object: AnyObject>(_ object: Object) -> Object {
  _ = Unmanaged.passRetained(object)
  return object
}

#if canImport(Glibc)
  /// `mallopt` from `<malloc.h>`, which the Glibc module does not export.
  @_silgen_name("mallopt")
  private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
#endif

/// `--stats` of a command other than `scan`: what each phase parsed and each run of the planners
/// took, printed when the command ends (a refusal too).
enum PhaseStatistics {
  nonisolated(unsafe) private static var loaders: [ProjectLoader] = []

  static func printAtExit(_ loader: ProjectLoader) {
    if loaders.isEmpty { atexit { PhaseStatistics.printAll() } }
    loaders.append(loader)
  }

  private static func printAll() {
    for loader in loaders {
      guard let scan = loader.phasedScan else { continue }
      let parsed = scan.parsed
      var lines = ["stats: parsed \(parsed.files) of \(scan.paths.count) files, \(parsed.lines) lines"]
      for (number, phase) in scan.phases.enumerated() {
        lines.append(
          String(format: "stats: phase %d: %d files, %d lines, %.3f s", number + 1, phase.files, phase.lines, Scan.seconds(phase.time))
            + (phase.asked.isEmpty ? "" : " for " + phase.asked))
      }
      lines.append("stats: runs: " + scan.runs.map { String(format: "%.3f s", Scan.seconds($0)) }.joined(separator: ", "))
      for line in lines { FileHandle.standardError.write(Data((line + "\n").utf8)) }
    }
  }
}
