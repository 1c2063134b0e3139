import ArgumentParser
import DesingletonCore
import DesingletonIndex
import DesingletonPlanner

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

  @Option(help: "Suggest at most this many slices per singleton.")
  var maxSlices: Int = SliceSuggester.defaultMaxSlices

  @Flag(help: .hidden)
  var parseOnly = false

  func validate() throws {
    if maxSlices < 1 { throw ValidationError("--max-slices must be at least 1") }
  }

  mutating func run() throws {
    _ = try common.prepare()
    if parseOnly {
      // The floor the index is measured against: parse every file, keep nothing.
      let found = try FileLoader(excludes: common.excludes).swiftFiles(in: common.resolvedPaths)
      let lines = ParseBenchmark.parseAll(found.files, threads: common.threads)
      Terminal.shared.finish()
      print("parsed \(found.files.count) files, \(lines) lines")
      return
    }
    let project = try common.loadProject(singleton: singleton)
    var typeName: String?
    if let singleton {
      do {
        typeName = try resolveSingleton(singleton, in: project.index).typeName
      } catch {
        // Only the files naming it were read: read them all to say which singletons there are.
        _ = try resolveSingleton(singleton, in: try common.loadProject().index)
      }
    }
    let report = try ScanReport(project: project, only: typeName, threads: common.threads, maxSlices: maxSlices)
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
