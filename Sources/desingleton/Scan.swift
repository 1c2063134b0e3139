import ArgumentParser
import DesingletonCore
import DesingletonIndex
import DesingletonPlanner
import Foundation

struct Scan: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "List singletons, who uses which of their members, and suggested slices."
  )

  enum Format: String, ExpressibleByArgument, CaseIterable {
    case text, json
  }

  @OptionGroup var common: CommonOptions

  @Option(help: "Report only this singleton type.")
  var singleton: String?

  /// What `scan` prints: the report, or a picture of it.
  enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, dot, mermaid, html
  }

  @Option(
    help: "Output format: text for people, json for scripts, dot or mermaid for a graph, html for a page with the usage heat map and the graph.")
  var format: ReportFormat = .text

  @Option(help: "Suggest at most this many slices per singleton (default: as many as its consumers need); the others' members stay on the singleton, and the consumers that use them are listed as uncovered.")
  var maxSlices: Int?

  @Option(
    name: .customLong("slice"),
    help: ArgumentHelp(
      "With --singleton: slices to measure beside the suggestion, as extract-protocol takes them (repeatable; default: those saved in .desingleton.json).",
      valueName: "name=member,..."))
  var slices: [String] = []

  @Flag(
    help: "Also count each singleton's accessor references outside composition roots, entry points and tests, as inject does (the count a migration never raises); slower: it asks who creates each consumer.")
  var census = false

  @Flag(help: .hidden)
  var parseOnly = false

  /// Indexes every file in full and with the bodies skipped (`BodySkipping`), and prints where the
  /// summaries differ.
  @Flag(help: .hidden)
  var checkSkipping = false

  /// Writes the paths of the files the scan parsed, one a line (the benchmark parses them alone).
  @Option(help: .hidden)
  var listParsed: String?

  func validate() throws {
    if let maxSlices, maxSlices < 1 { throw ValidationError("--max-slices must be at least 1") }
    if !slices.isEmpty && singleton == nil { throw ValidationError("--slice needs --singleton NAME") }
  }

  /// The slices to measure for a singleton: `--slice`, else those the configuration file saved.
  private func chosen(_ configuration: Configuration) throws -> @Sendable (Singleton) -> [Slice]? {
    let given = try slices.map(ExtractProtocol.parseSlice)
    return { singleton in given.isEmpty ? configuration.settings(for: singleton).slices : given }
  }

  mutating func run() throws {
    let configuration = try common.prepare()
    let chosen = try chosen(configuration)
    if checkSkipping {
      let found = try FileLoader(excludes: common.excludes).swiftFiles(in: common.resolvedPaths)
      let outcome = BodySkippingCheck.check(found.files, threads: common.threads)
      Terminal.shared.finish()
      for difference in outcome.differences { print(difference) }
      for path in outcome.fallbacks { print("\(path): parsed in full") }
      for path in outcome.omissionFallbacks { print("\(path): top-level declarations parsed") }
      print(
        "checked \(outcome.files) files (\(outcome.bytes) bytes): bodies skipped in \(outcome.skipped), \(outcome.blankedBytes) bytes blank; \(outcome.fallbacks.count) parsed in full after a failed check; top-level declarations left out whole in \(outcome.omitted) (\(outcome.omittedBytes) bytes), \(outcome.omissionFallbacks.count) parsed after a failed check; \(outcome.differences.count) differ"
      )
      if !outcome.differences.isEmpty { throw ExitCode.failure }
      return
    }
    if parseOnly {
      // The floor the index is measured against: parse every file, keep nothing.
      let found = try FileLoader(excludes: common.excludes).swiftFiles(in: common.resolvedPaths)
      let lines = ParseBenchmark.parseAll(found.files, threads: common.threads)
      Terminal.shared.finish()
      print("parsed \(found.files.count) files, \(lines) lines")
      return
    }
    // Who creates each consumer is a question about every file: the census reads them all.
    if singleton == nil && !common.full && !census {
      try phasedScan(chosen: chosen)
      return
    }
    let loader = try common.loader(singleton: singleton)
    let report = try loader.run { project -> ScanReport in
      var typeName: String?
      if let singleton {
        do {
          typeName = try resolveSingleton(singleton, in: project.index).typeName
        } catch let refusal as Refusal where !common.full {
          // Only the files naming it were read: ask every file which singletons there are.
          _ = try resolveSingleton(singleton, in: try common.loader(singleton: nil).run(\.index))
          throw refusal
        }
      }
      return try ScanReport(
        project: project, only: typeName, threads: common.threads, maxSlices: maxSlices, census: census, chosen: chosen)
    }
    // `--stats`: printed at exit by the loader (`PhaseStatistics`).
    output(report)
  }

  /// The whole code base, parsing only the files that can matter (`PhasedScan`).
  private func phasedScan(chosen: @escaping @Sendable (Singleton) -> [Slice]?) throws {
    let clock = ContinuousClock()
    let started = clock.now
    let found = try FileLoader(excludes: common.excludes).swiftFiles(in: common.resolvedPaths)
    let listed = clock.now
    for warning in found.warnings { printError(warning.description) }
    let modules = manifests(found)
    let manifestsRead = clock.now
    // The commands' loader: each run keeps what the runs before it parsed and worked out (the
    // singletons' declarations, the answers that rest on the whole code base's).
    let loader = ProjectLoader(
      paths: found.files, builder: common.indexBuilder, mentioning: nil, full: false,
      objectiveCPaths: found.objectiveCFiles, modules: modules, bounded: false)
    guard let scan = loader.phasedScan else { preconditionFailure("a loader without --full has phases") }
    var analysis = Duration.zero
    let (report, project) = try loader.run { project in
      let analysing = clock.now
      defer { analysis += clock.now - analysing }
      return (try ScanReport(project: project, threads: common.threads, maxSlices: maxSlices, chosen: chosen), project)
    }
    keepUntilExit(project)
    if let listParsed {
      try (scan.parsedPaths.joined(separator: "\n") + "\n").write(toFile: listParsed, atomically: true, encoding: .utf8)
    }
    let scanned = clock.now
    output(report)
    if common.stats {
      printError(Scan.statistics(scan, lines: report.lines))
      // The parts that run on one thread, against the whole command's time.
      let total = clock.now - started
      func share(_ part: Duration) -> String {
        let whole = Scan.seconds(total)
        return String(format: "%.3f s (%.0f%%)", Scan.seconds(part), whole > 0 ? 100 * Scan.seconds(part) / whole : 0)
      }
      printError(
        "scan: serial: listing files \(share(listed - started)), reading the package manifests "
          + "\(share(manifestsRead - listed)), building the index \(share(scan.indexTime)), "
          + "writing the report \(share(clock.now - scanned)); whole command \(share(total))")
      printError("scan: analysing the singletons for the report (in parallel, each run) \(share(analysis))")
    }
  }

  /// `scan: parsed 812 of 3,568 files (21%), 201,334 of 958,659 lines (21%); by phase: 600 / 180 / 32 files`
  static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }

  static func statistics(_ scan: PhasedScan, lines: Int) -> String {
    let parsed = scan.parsed
    func share(_ part: Int, _ whole: Int) -> String { whole == 0 ? "0%" : "\(Int((100 * Double(part) / Double(whole)).rounded()))%" }
    let phases = scan.phases.map {
      "\($0.files) files, \($0.lines) lines, " + String(format: "%.3f s", seconds($0.time))
        + ($0.asked.isEmpty ? "" : " for " + $0.asked)
    }.joined(separator: " / ")
    return "scan: parsed \(parsed.files) of \(scan.paths.count) files (\(share(parsed.files, scan.paths.count))), "
      + "\(parsed.lines) of \(lines) lines (\(share(parsed.lines, lines))); by phase: \(phases)"
  }

  private func output(_ report: ScanReport) {
    Terminal.shared.finish()
    switch format {
    case .text: print(report.text(), terminator: "")
    case .json: print(report.json(threads: common.threads), terminator: "")
    case .dot: print(ScanGraph(report).dot(), terminator: "")
    case .mermaid: print(ScanGraph(report).mermaid(), terminator: "")
    case .html: print(ScanPage.html(report), terminator: "")
    }
  }
}

/// The singleton a `--singleton` value names, or a refusal listing the ones there are.
func resolveSingleton(_ name: String?, in index: Index) throws -> Singleton {
  let available = index.singletons.map(\.typeName).joined(separator: ", ")
  guard let name else {
    if index.singletons.count == 1 { return index.singletons[0] }
    if index.singletons.isEmpty { throw Refusal("no singleton found") }
    throw Refusal("several singletons found (\(available)); choose one with --singleton")
  }
  // An exact qualified name wins over a simple name shared with nested types.
  let exact = index.singletons.filter { $0.typeName == name }
  let matches = exact.isEmpty ? index.singletons.filter { $0.simpleTypeName == name } : exact
  if matches.count == 1 { return matches[0] }
  if matches.isEmpty {
    throw Refusal("no singleton named '\(name)'" + (available.isEmpty ? "" : "; singletons found: \(available)"))
  }
  throw Refusal("'\(name)' is ambiguous: \(matches.map(\.typeName).joined(separator: ", "))")
}
