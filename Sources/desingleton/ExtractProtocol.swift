import ArgumentParser
import DesingletonCore
import DesingletonIndex
import DesingletonPlanner
import Foundation

struct ExtractProtocol: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "extract-protocol",
    abstract: "Cut a singleton's members into protocols (slices) and make the singleton conform."
  )

  @OptionGroup var common: CommonOptions
  @OptionGroup var writing: WriteOptions

  @Option(help: "The singleton type (needed when the paths hold more than one).")
  var singleton: String?

  @Option(help: "When two targets each declare a singleton of this name: slice only the one in this module.")
  var module: String?

  @Option(
    name: .customLong("slice"),
    help: ArgumentHelp("A protocol and the members it holds, e.g. ItemFetcher=fetchedItems,fetchAvailableItems (repeatable; default: the slices scan suggests).", valueName: "name=member,...")
  )
  var slices: [String] = []

  @Flag(help: "Move computed members that use only their own slice into a protocol extension.")
  var moveDerived = false

  @Flag(help: "Give properties that some consumers write and others only read a separate Mutable... protocol.")
  var splitMutable = false

  @Option(help: "Write the new protocol files into this directory (default: next to the singleton's file).")
  var outputDir: String?

  @Flag(help: "Write the protocols into the singleton's file, after the type, instead of new files.")
  var protocolsInSingletonFile = false

  @Option(help: "Without --slice, cut at most this many of the suggested slices (default: as many as the consumers need).")
  var maxSlices: Int?

  @Flag(help: "Write the chosen slices into .desingleton.json for review instead of changing code; later runs cut them.")
  var saveSlices = false

  @Option(help: "Summary format: text (on stderr) for people, json (on stdout) for scripts.")
  var format: Scan.Format = .text

  func validate() throws {
    _ = try parsedSlices()
    if let maxSlices, maxSlices < 1 { throw ValidationError("--max-slices must be at least 1") }
    if protocolsInSingletonFile && outputDir != nil {
      throw ValidationError("--output-dir and --protocols-in-singleton-file cannot be used together")
    }
  }

  func parsedSlices() throws -> [Slice]? {
    guard !slices.isEmpty else { return nil }
    return try slices.map(Self.parseSlice)
  }

  /// `--slice NAME=member,member...`, as `extract-protocol` and `scan` take it.
  static func parseSlice(_ text: String) throws -> Slice {
    let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
    guard parts.count == 2, !parts[0].isEmpty, parts[0].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
      throw ValidationError("--slice takes NAME=member,member...; got '\(text)'")
    }
    let members = parts[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    return Slice(name: parts[0], members: members.map { $0.split(separator: "(").first.map(String.init) ?? $0 })
  }

  mutating func run() throws {
    let configuration = try common.prepare()
    let given = try parsedSlices()
    let named = given ?? configuration.settings(named: singleton)?.slices
    let loader = try common.loader(singleton: singleton, extra: (named ?? []).map(\.name))
    let target = try loader.run { try resolveSingleton(singleton, in: $0.index) }
    // Without --slice, the slices saved in the configuration file for this singleton.
    let saved = given == nil ? configuration.settings(for: target).slices : nil
    if saved != nil, !saveSlices, let path = configuration.path {
      printError("\(path): the slices saved for '\(target.typeName)'")
    }
    let options = ExtractProtocolOptions(
      slices: given ?? saved, moveDerived: moveDerived, splitMutable: splitMutable, outputDirectory: outputDir,
      protocolsInSingletonFile: protocolsInSingletonFile, maxSlices: maxSlices)
    if saveSlices {
      try save(options, target: target, configuration: configuration, loader: loader)
      return
    }
    var reports: [ExtractProtocolReport] = []
    let plan = try loader.run { project in
      reports = []
      if format == .json { try project.refuseTwinsForJSON(of: target.typeName, module: module, choose: "choose one with --module") }
      return try ModuleUnits.plan(typeName: target.typeName, project: project, only: module) { unit in
        let (plan, report) = try ExtractProtocolPlanner.run(
          singleton: try resolveSingleton(target.typeName, in: unit.index), options: options, project: unit)
        reports.append(report)
        return plan
      }
    }
    let project = loader.project
    switch format {
    case .text: try writing.carryOut(plan, project: project, root: common.root, verifying: configuration.verify)
    case .json: try writing.carryOut(plan, project: project, root: common.root, verifying: configuration.verify) { reports[0].json(files: $0) }
    }
  }

  /// `--save-slices`: the slices `--slice` names (or scan suggests) into the configuration file
  /// found (or a new `.desingleton.json` here), through the same diff and write as code changes.
  private func save(_ options: ExtractProtocolOptions, target: Singleton, configuration: Configuration, loader: ProjectLoader) throws {
    let slices = try loader.run { project in
      let analysis = try SingletonAnalysis(singleton: target, project: project)
      return options.slices ?? SliceSuggester.suggestion(analysis, project: project, maxSlices: maxSlices).slices
    }
    let project = loader.project
    let source = try configuration.path.map { try FileLoader.read($0) }
    let path = configuration.path ?? Configuration.fileName
    let plan = try ConfigurationEditor.savingSlices(
      slices, singleton: target.typeName, simpleName: target.simpleTypeName, path: path, source: source)
    let withFile = Project(
      index: project.index, sources: source.map { [$0.path: $0] } ?? [:], objectiveCPaths: project.objectiveCPaths,
      modules: project.modules)
    try writing.carryOut(plan, project: withFile, root: common.root, verifying: .off)
  }
}
