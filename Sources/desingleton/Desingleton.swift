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
    subcommands: [Scan.self, ExtractProtocol.self, Inject.self, Finish.self, Mocks.self]
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

  @Option(help: "Colour diffs and the summary: auto (on a terminal, unless NO_COLOR is set), always, never.")
  var color: ColorChoice = .auto

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
    let configuration = try ConfigurationSearch.find(explicit: config)
    for warning in configuration.warnings { printError(warning.description) }
    excludes += configuration.excludes
    accessors += configuration.accessors.filter { !accessors.contains($0) }
    return configuration
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

  /// Loads and indexes the files. `mentioning` limits parsing to the files that contain one of the names.
  func loadProject(mentioning names: [String]? = nil) throws -> Project {
    let found = try FileLoader(excludes: excludes).swiftFiles(in: resolvedPaths)
    let index = indexBuilder.build(paths: found.files, mentioning: names)
    for warning in found.warnings { printError(warning.description) }
    Terminal.shared.progress.begin("planning")
    return keptUntilExit(Project(index: index, objectiveCPaths: found.objectiveCFiles, modules: manifests(found)))
  }

  /// For a command about one singleton: parses only the files that can matter, the files naming the
  /// singleton (and `extra` names). With `widen`, also the files naming what those reveal: the
  /// protocols it conforms to, its consumers and their superclasses. Without a singleton name every
  /// file is parsed.
  func loadProject(singleton name: String?, extra: [String] = [], widen: Bool = false) throws -> Project {
    guard let name else { return try loadProject() }
    let simple = name.split(separator: ".").last.map(String.init) ?? name
    let found = try FileLoader(excludes: excludes).swiftFiles(in: resolvedPaths)
    for warning in found.warnings { printError(warning.description) }
    let builder = indexBuilder
    var names = Set([simple] + extra)
    var index = builder.build(paths: found.files, mentioning: names.sorted())
    for _ in 0..<(widen ? 4 : 0) {
      let more = Set(RelatedNames.names(around: simple, in: index)).subtracting(names)
      if more.isEmpty { break }
      names.formUnion(more)
      index = builder.extend(index, mentioning: more.sorted())
    }
    Terminal.shared.progress.begin("planning")
    return keptUntilExit(Project(index: index, objectiveCPaths: found.objectiveCFiles, modules: manifests(found)))
  }
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
      "After writing, run this shell command (e.g. 'swift build --build-tests'); if it fails, restore every file and exit 1.",
      valueName: "command"))
  var verify: String?

  @Option(
    help: ArgumentHelp(
      "With --dry-run: one patch per module or per consumer, each applying and building after the ones before it, written to --patch-dir.",
      valueName: "module|consumer"))
  var splitBy: SplitBy?

  @Option(help: ArgumentHelp("Where --split-by writes its patches (NNN-name.patch, in the order they apply).", valueName: "dir"))
  var patchDir: String?

  func validate() throws {
    if dryRun && verify != nil { throw ValidationError("--verify cannot be used with --dry-run: nothing is written to verify") }
    try validateSplit()
  }

  /// The files changed or created (or that a dry run would change); `summary: false` (a JSON report)
  /// keeps a dry run's diff off standard output and the summary lines off standard error.
  @discardableResult
  func carryOut(_ plan: Plan, project: Project, root: String, summary: Bool = true) throws -> [FileOutput] {
    // Files skipped for syntax errors or encoding were not needed by this plan; say so.
    for warning in project.index.warnings { printError(warning.description) }
    try plan.refusingGeneratedFiles(in: project.index)
    // New files join the Xcode targets of the files they go with.
    let plan = try XcodeProjectEdits.add(to: plan, modules: project.modules)
    let printer = Printer(root: root)
    // The Printer renders exactly the files the plan names, as the planners read them.
    let outputs = try printer.render(plan, sources: project.sources(of: Array(plan.edits.keys) + Array(plan.newFiles.keys)))
    Terminal.shared.finish()
    if dryRun {
      if let splitBy, let patchDir {
        try writePatches(plan, by: splitBy, into: patchDir, project: project, printer: printer)
      } else if summary {
        print(Terminal.shared.diff(printer.diff(outputs)), terminator: "")
      }
    } else {
      if !allowDirty {
        try GitGuard.refuseUncommittedChanges(in: outputs.compactMap { $0.original == nil ? nil : $0.path })
      }
      if let verify, !outputs.isEmpty {
        try printer.write(outputs) { try Verification.run(verify) }
        printError("verified: '\(verify)' succeeded")
      } else {
        try printer.write(outputs)
      }
    }
    guard summary else { return outputs }
    for note in plan.notes { printError(note) }
    if outputs.isEmpty { printError("nothing to change") }
    return outputs
  }
}

/// `--verify`: the user's build command, run after the files are written and before they are kept.
enum Verification {
  /// Runs `command` with `/bin/sh -c` in the current directory. A non-zero exit prints the first
  /// compiler errors (or the end of the output) and throws, so that the write is undone.
  static func run(_ command: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    do {
      try process.run()
    } catch {
      throw Refusal("cannot run '\(command)': \(error); every file was restored")
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus != 0 else { return }
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let errors = lines.filter { $0.contains("error:") }
    let shown = errors.isEmpty ? Array(lines.suffix(21).drop { $0.isEmpty }) : Array(errors.prefix(20))
    for line in shown { printError(line) }
    throw Refusal("'\(command)' failed (exit \(process.terminationStatus)) after the changes were written; every file was restored")
  }
}

/// The process ends right after its command: the project's index and trees are left for the
/// operating system to reclaim at exit instead of being freed object by object.
func keepUntilExit(_ project: Project) {
  _ = Unmanaged.passRetained(project)
}

private func keptUntilExit(_ project: Project) -> Project {
  keepUntilExit(project)
  return project
}

#if canImport(Glibc)
  /// `mallopt` from `<malloc.h>`, which the Glibc module does not export.
  @_silgen_name("mallopt")
  private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
#endif
