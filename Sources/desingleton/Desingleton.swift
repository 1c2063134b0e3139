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
    do {
      var command = try parseAsRoot()
      try command.run()
    } catch let refusal as Refusal {
      for diagnostic in refusal.diagnostics { FileHandle.standardError.write(Data((diagnostic.description + "\n").utf8)) }
      Foundation.exit(1)
    } catch {
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

  var resolvedPaths: [String] { paths.isEmpty ? ["."] : paths }

  /// The directory diff paths are relative to: the one path given, or the current directory.
  var root: String { resolvedPaths.count == 1 ? resolvedPaths[0] : "." }

  func validate() throws {
    if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
  }

  /// Loads and indexes the files. `mentioning` limits parsing to the files that contain one of the names.
  func loadProject(mentioning names: [String]? = nil) throws -> Project {
    let found = try FileLoader(excludes: excludes).swiftFiles(in: resolvedPaths)
    let index = IndexBuilder(threads: threads).build(paths: found.files, mentioning: names)
    for warning in found.warnings { printError(warning.description) }
    return keptUntilExit(Project(index: index, objectiveCPaths: found.objectiveCFiles, modules: manifests(found.files)))
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
    let builder = IndexBuilder(threads: threads)
    var names = Set([simple] + extra)
    var index = builder.build(paths: found.files, mentioning: names.sorted())
    for _ in 0..<(widen ? 4 : 0) {
      let more = Set(RelatedNames.names(around: simple, in: index)).subtracting(names)
      if more.isEmpty { break }
      names.formUnion(more)
      index = builder.extend(index, mentioning: more.sorted())
    }
    return keptUntilExit(Project(index: index, objectiveCPaths: found.objectiveCFiles, modules: manifests(found.files)))
  }
}

/// The module map of the SwiftPM manifests among the files found; an unreadable manifest is left out.
func manifests(_ files: [String]) -> ModuleMap {
  let paths = files.filter { $0 == "Package.swift" || $0.hasSuffix("/Package.swift") }
  return ModuleMap(manifests: paths.compactMap { try? FileLoader.read($0) })
}

func printError(_ line: String) {
  FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// How a command that changes files carries out its plan.
struct WriteOptions: ParsableArguments {
  @Flag(help: "Write nothing; print the changes as a unified diff that 'git apply' accepts.")
  var dryRun = false

  @Flag(help: "Write even when files to be changed have uncommitted changes in git.")
  var allowDirty = false

  func carryOut(_ plan: Plan, project: Project, root: String) throws {
    // Files skipped for syntax errors or encoding were not needed by this plan; say so.
    for warning in project.index.warnings { printError(warning.description) }
    let printer = Printer(root: root)
    // The Printer renders exactly the files the plan names, as the planners read them.
    let outputs = try printer.render(plan, sources: project.sources(of: Array(plan.edits.keys) + Array(plan.newFiles.keys)))
    if dryRun {
      print(printer.diff(outputs), terminator: "")
    } else {
      if !allowDirty {
        try GitGuard.refuseUncommittedChanges(in: outputs.compactMap { $0.original == nil ? nil : $0.path })
      }
      try printer.write(outputs)
    }
    for note in plan.notes { printError(note) }
    if outputs.isEmpty { printError("nothing to change") }
  }
}

/// The process ends right after its command: the project's index and trees are left for the
/// operating system to reclaim at exit instead of being freed object by object.
private func keptUntilExit(_ project: Project) -> Project {
  _ = Unmanaged.passRetained(project)
  return project
}
