import DesingletonCore
import SwiftSyntax
import Foundation

/// Reads and indexes files in parallel; the result does not depend on thread timing.
public struct IndexBuilder: Sendable {
  /// Worker threads; defaults to the number of active cores.
  public var threads: Int
  /// The names a static accessor can have.
  public var accessors: AccessorNames
  /// Counts the files read, for a progress line.
  public var progress: RunProgress?
  /// The project's Objective-C headers as Swift sees them, given to every index built.
  public var imported = ImportedHeaders()

  public init(threads: Int? = nil, accessors: AccessorNames = .standard, progress: RunProgress? = nil) {
    self.threads = max(1, threads ?? ProcessInfo.processInfo.activeProcessorCount)
    self.accessors = accessors
    self.progress = progress
  }

  /// This builder with the Objective-C files at these paths read as Swift sees them (once; a builder
  /// that has them keeps them).
  public func importing(objectiveC paths: [String]) -> IndexBuilder {
    guard imported.isEmpty, !paths.isEmpty else { return self }
    var builder = self
    builder.imported = ObjectiveCImporter.headers(paths: paths, accessors: accessors)
    return builder
  }

  /// Indexes every file in `paths`. With `mentioning`, only files whose bytes contain one of those
  /// names are parsed (the others are read, found irrelevant, and dropped).
  public func build(paths: [String], mentioning names: [String]? = nil) -> Index {
    let needles = names.map { $0.map { Array($0.utf8) } }
    let order = IndexBuilder.largestFirst(paths)
    progress?.begin("parsing", total: paths.count)
    let indexed = parallelMap(count: order.count, threads: threads) { [accessors, progress] in
      defer { progress?.advance() }
      return IndexBuilder.indexFile(paths[order[$0]], needles: needles, accessors: accessors)
    }
    var outcomes = [Outcome?](repeating: nil, count: paths.count)
    for (position, index) in order.enumerated() { outcomes[index] = indexed[position] }
    return assemble(paths: paths, outcomes: outcomes)
  }

  private func assemble(
    paths: [String], outcomes: [Outcome?], coverage: NameCoverage? = nil, imported: ImportedHeaders? = nil
  ) -> Index {
    var summaries: [FileSummary] = []
    var warnings: [Diagnostic] = []
    for outcome in outcomes {
      switch outcome {
      case .indexed(let summary):
        summaries.append(summary)
        if let first = summary.syntaxErrors.first {
          warnings.append(.warning("the file has syntax errors and was indexed only in part: \(first.message)", at: first.location))
        }
      case .failed(let diagnostic):
        warnings.append(diagnostic)
      case .irrelevant, nil:
        break
      }
    }
    return Index(
      allPaths: paths, files: summaries, warnings: warnings, accessors: accessors, coverage: coverage,
      imported: imported ?? self.imported)
  }

  /// Indexes sources already in memory (tests, fuzzing); the same result as reading them from disk.
  /// Objective-C sources among them are read as `ObjectiveCImporter` reads them.
  public func build(sources: [SourceText]) -> Index {
    let sorted = sources.filter { !ObjectiveCFiles.isObjectiveC($0.path) }.sorted { $0.path < $1.path }
    let objectiveC = sources.filter { ObjectiveCFiles.isObjectiveC($0.path) }
    let outcomes: [Outcome?] = parallelMap(count: sorted.count, threads: threads) { [accessors] in
      .indexed(FileIndexer.index(sorted[$0], accessors: accessors))
    }
    let imported = objectiveC.isEmpty ? nil : ObjectiveCImporter.headers(
      objectiveC.filter { ObjectiveCFiles.isHeader($0.path) },
      implementations: objectiveC.filter { !ObjectiveCFiles.isHeader($0.path) }, accessors: accessors)
    return assemble(paths: sorted.map(\.path), outcomes: outcomes, imported: imported)
  }

  /// `index` with `changed` indexed in place of (or beside) its files, keeping the indexed files in
  /// `paths` and every path the index had but left unindexed: the summaries of the files not changed
  /// are kept as they are, so a plan's result is indexed in the time its edited files take.
  /// `parsed` sees each changed file's tree, once, before it is indexed. A changed file that
  /// `editing` gives the tree and edits of (`ParsedFile.init(source:editing:with:)`) is parsed from
  /// that tree, the items no edit reaches taken as they were.
  public func rebuild(
    _ index: Index, replacing changed: [SourceText], keeping paths: Set<String>,
    editing: [String: (before: ParsedFile, edits: [TextEdit])] = [:],
    parsed: (@Sendable (SourceText, SourceFileSyntax) -> Void)? = nil
  ) -> Index {
    let changedPaths = Set(changed.map(\.path))
    let sorted = changed.sorted { $0.path < $1.path }
    let fresh: [FileSummary] = parallelMap(count: sorted.count, threads: threads) { [accessors] in
      let source = sorted[$0]
      let tree = editing[source.path].map { ParsedFile(source: source, editing: $0.before, with: $0.edits) }?.tree
        ?? ParsedFile(source: source).tree
      parsed?(source, tree)
      return FileIndexer.index(tree, source: source, accessors: accessors)
    }
    var byPath: [String: FileSummary] = [:]
    for summary in index.files where paths.contains(summary.path) && !changedPaths.contains(summary.path) {
      byPath[summary.path] = summary
    }
    for summary in fresh { byPath[summary.path] = summary }
    // The files the first load left out as irrelevant are still the project's: a question about
    // every file (which files create this type?) must find them as before.
    let indexed = Set(index.files.map(\.path))
    let allPaths = Set(index.allPaths.filter { !indexed.contains($0) }).union(byPath.keys).sorted()
    // Questions about the result are recorded with the first load's: a command's loader parses
    // what they ask, and plans again.
    return assemble(
      paths: allPaths, outcomes: allPaths.map { byPath[$0].map(Outcome.indexed) }, coverage: index.coverage,
      imported: index.imported)
  }

  enum Outcome: Sendable {
    case indexed(FileSummary)
    case irrelevant
    case failed(Diagnostic)
  }

  static func indexFile(_ path: String, needles: [[UInt8]]?, accessors: AccessorNames = .standard) -> Outcome {
    guard let bytes = readBytes(path) else {
      return .failed(.warning("cannot read '\(path)'; skipped", at: Location(path: path, line: 1, column: 1)))
    }
    if let needles, !BytePrefilter.mentions(needles, in: bytes) {
      return .irrelevant
    }
    if !isValidUTF8(bytes) {
      return .failed(.warning("the file is not valid UTF-8; skipped", at: Location(path: path, line: 1, column: 1)))
    }
    return .indexed(FileIndexer.index(SourceText(path: path, bytes: bytes), accessors: accessors))
  }

  /// Positions in `paths`, largest file first, so that no thread is left with a big file at the end.
  static func largestFirst(_ paths: [String]) -> [Int] {
    let sizes = paths.map { path -> Int in
      var info = stat()
      return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }
    return paths.indices.sorted { sizes[$0] > sizes[$1] }
  }
}
