import DesingletonCore
import Dispatch
import Foundation
import SwiftSyntax

/// The index together with on-demand access to the syntax trees of the files a plan reads or edits.
/// Trees are parsed once and kept only for those files. Safe to use from several threads.
public final class Project: @unchecked Sendable {
  public let index: Index
  private let lock = NSLock()
  fileprivate var cache: [String: ParsedFile] = [:]
  /// The module `unit(around:)` made this project for: a command planned once per twin.
  public fileprivate(set) var unitModule: String?
  fileprivate var overrides: [String: SourceText]

  /// Objective-C sources and headers under the command's paths: never parsed, only searched for uses
  /// of what a command would change.
  public let objectiveCPaths: [String]
  /// The module of each file, from the SwiftPM manifests under the command's paths.
  public let modules: ModuleMap

  /// `sources` replaces reading from disk for the given paths (used by tests and for inline sources).
  public init(
    index: Index, sources: [String: SourceText] = [:], objectiveCPaths: [String] = [], modules: ModuleMap = ModuleMap()
  ) {
    self.index = index
    self.overrides = sources
    self.objectiveCPaths = objectiveCPaths
    self.modules = modules
  }

  /// The parsed file at `path`. A file with syntax errors is a refusal, one line at its first error:
  /// it can be neither edited nor read safely.
  /// An Objective-C header is its Swift interface (`ObjectiveCImporter`).
  public func file(_ path: String) throws -> ParsedFile {
    if let cached = cached(path) { return cached }
    // A file a rewritten project did not replace is the project before's: parsed there, once for
    // every plan checked against it.
    if let (before, changed, _) = madeFrom, !changed.contains(path) { return keep(try before.file(path)) }
    let source = try index.imported.interfaces[path] ?? overrides[path] ?? FileLoader.read(path)
    // A replaced file the planners held the tree of is parsed from that tree, as it was to be indexed.
    let parsed =
      editing[path].map { ParsedFile(source: source, editing: $0.before, with: $0.edits) } ?? ParsedFile(source: source)
    if parsed.tree.hasError {
      let errors = FileIndexer.syntaxErrors(in: parsed.tree, source: source)
      let more = errors.count > 1 ? " (and \(errors.count - 1) more syntax error\(errors.count == 2 ? "" : "s"))" : ""
      throw Refusal(
        "\(errors.first?.message ?? "syntax error")\(more): the command needs this file, and it does not parse; "
          + "fix it, or leave it out with --exclude",
        at: errors.first?.location ?? Location(path: path, line: 1, column: 1))
    }
    return keep(parsed)
  }

  /// Keeps `parsed` as the tree of its file, unless another thread kept one meanwhile: then that
  /// one, so that every caller sees one tree.
  private func keep(_ parsed: ParsedFile) -> ParsedFile {
    lock.lock()
    defer { lock.unlock() }
    if let first = cache[parsed.source.path] { return first }
    cache[parsed.source.path] = parsed
    return parsed
  }

  private var answers: [String: Any] = [:]

  /// An answer as it is kept: boxed, so that an optional answer (nil too) is told from none yet
  /// (a missing entry cast to `Optional` would succeed as nil).
  private struct Answer<Value>: Ticketed {
    var value: Value
    /// When it was worked out (`NameCoverage.ticket`); nil in a project without coverage.
    var ticket: Int?

    func kept(before complete: Int) -> Any? {
      guard let ticket, ticket < complete else { return nil }
      if let partly = value as? any KeptInPart {
        return Answer(value: partly.kept(before: complete) as! Value, ticket: Int.min)
      }
      // An object may be filled in after the ticket, or hold the project it was made on.
      if Value.self is AnyObject.Type { return nil }
      return Answer(value: value, ticket: Int.min)
    }
  }

  /// The answer to a question about this project, worked out once: `key` names the question and
  /// what it is asked about. The project never changes, so neither does the answer.
  ///
  /// An answer is a value that holds nothing of the project (no index; syntax nodes of its files
  /// are the same in every run), or a table filled in as the run goes (`KeptInPart`). Once a check
  /// that nothing asked is missing (`Index.requireCoverage`) passes after it was worked out, it is
  /// the whole code base's, and the projects of the loader's later runs keep it (`keepTrees`)
  /// instead of working it out again. An object that is no such table is not kept.
  public func answer<Value>(_ key: String, _ work: () throws -> Value) rethrows -> Value {
    lock.lock()
    let known = answers[key] as? Answer<Value>
    lock.unlock()
    if let known { return known.value }
    let value = try work()
    let ticket = index.coverage?.ticket()
    lock.lock()
    defer { lock.unlock() }
    if let first = answers[key] as? Answer<Value> { return first.value }
    answers[key] = Answer(value: value, ticket: ticket)
    return value
  }

  /// The answers a later run of the loader keeps: those worked out before the last check that
  /// found nothing asked missing (`answer(_:_:)`).
  private func completeAnswers() -> [String: Any] {
    guard let coverage = index.coverage else { return [:] }
    let before = coverage.completeBefore
    lock.lock()
    defer { lock.unlock() }
    return answers.compactMapValues { ($0 as? Ticketed)?.kept(before: before) }
  }

  /// The Swift files whose text contains the simple name of one of `typeNames` (`Cell` for
  /// `Feed.Cell`), in index order: a byte search, so every file that could name one of the types,
  /// and some that only contain the letters. The one place planners ask which files to parse to
  /// find a type's creations, casts or uses; worked out once per question.
  public func paths(naming typeNames: [String]) -> [String] {
    // Each name's files are searched for once; a question about several is the union, in index order.
    var (simple, found) = answers(for: typeNames, in: \.naming)
    let asked = simple.filter { found[$0] == nil }
    if !asked.isEmpty {
      let needles = asked.map { Array($0.utf8) }
      var byName: [String: [String]] = Dictionary(uniqueKeysWithValues: asked.map { ($0, []) })
      let paths = index.allPaths
      if let (before, changed) = searchedBefore {
        // A file not replaced says what it said before; the replaced ones are looked up in their
        // words once a fourth name is asked, else searched on every core for the names each contains.
        var found = asked.map { Set(before.paths(naming: [$0])).subtracting(changed) }
        if let (words, replaced) = wordIndex() {
          for (name, needle) in needles.enumerated() {
            for position in words.files(containing: [needle], bytes: { self.bytes(replaced[$0]) }) {
              found[name].insert(replaced[position])
            }
          }
        } else {
          let replaced = changed.sorted()
          let contained = parallelMap(count: replaced.count) { position -> [Int] in
            guard let bytes = self.bytes(replaced[position]) else { return [] }
            return needles.indices.filter { containsAny([needles[$0]], in: bytes) }
          }
          for (path, names) in zip(replaced, contained) {
            for name in names { found[name].insert(path) }
          }
        }
        for (name, paths) in zip(asked, found) { byName[name] = inIndexOrder(paths) }
      } else if let (words, _) = wordIndex() {
        for (name, needle) in zip(asked, needles) {
          byName[name] = words.files(containing: [needle]) { self.bytes(paths[$0]) }.map { paths[$0] }
        }
      } else {
        // Every file read on every core; the names each contains, by the needles' positions.
        let contained = parallelMap(count: paths.count) { position -> [Int] in
          guard let bytes = self.bytes(paths[position]), containsAny(needles, in: bytes) else { return [] }
          return needles.count == 1 ? [0] : needles.indices.filter { containsAny([needles[$0]], in: bytes) }
        }
        for (position, names) in contained.enumerated() {
          for name in names { byName[asked[name]]!.append(paths[position]) }
        }
      }
      lock.lock()
      for (name, paths) in byName { naming[name] = paths }
      lock.unlock()
      found.merge(byName) { mine, _ in mine }
    }
    return union(of: simple, found)
  }

  /// The simple names of `words` (`Cell` for `Feed.Cell`), sorted, and the answers `table` keeps
  /// for them.
  private func answers(
    for words: [String], in table: KeyPath<Project, [String: [String]]>
  ) -> (simple: [String], found: [String: [String]]) {
    let simple = Set(words.map { $0.split(separator: ".").last.map(String.init) ?? $0 }).sorted()
    var found: [String: [String]] = [:]
    lock.lock()
    for word in simple { found[word] = self[keyPath: table][word] }
    lock.unlock()
    return (simple, found)
  }

  /// The files of any of the names, in index order.
  private func union(of simple: [String], _ found: [String: [String]]) -> [String] {
    if simple.count == 1 { return found[simple[0]] ?? [] }
    return inIndexOrder(Set(found.values.joined()))
  }

  /// `paths` (of the index) in the index's order: each path looked up once, not every path of the
  /// index tested against them.
  public func inIndexOrder(_ paths: Set<String>) -> [String] {
    let positions = pathPositions
    return paths.compactMap { positions[$0] }.sorted().map { index.allPaths[$0] }
  }

  /// Each path's position in `index.allPaths`, made when first asked.
  private var pathPositions: [String: Int] {
    lock.lock()
    defer { lock.unlock() }
    if let positions = positionsOfPaths { return positions }
    var positions: [String: Int] = [:]
    positions.reserveCapacity(index.allPaths.count)
    for (position, path) in index.allPaths.enumerated() where positions[path] == nil { positions[path] = position }
    positionsOfPaths = positions
    return positions
  }
  private var positionsOfPaths: [String: Int]?

  /// The types declared or extended in the files whose code contains one of `words` (once every
  /// such file is parsed, with its members): the candidates for a question about what names a word
  /// (the types holding a property of a protocol, those with an attribute, those whose init takes
  /// a slice), which then looks at each. Sorted.
  public func typeNames(inFilesMentioning words: [String]) -> [String] {
    for word in words { index.coverage?.needMentions(word) }
    return index.typeNames(declaredIn: Set(paths(namingInCode: words)))
  }

  /// The Swift files whose code can contain one of the words: `paths(naming:)`'s, less those
  /// where each occurrence is in a string literal's text (`BytePrefilter.mentionsInCode`). The
  /// files a question about code naming a word (`NameCoverage.Needs.mentions`) parses.
  /// Each word's, worked out once and kept across a loader's runs (as `naming`).
  public func paths(namingInCode words: [String]) -> [String] {
    paths(of: words, in: \.codeNaming) { word, bytes in BytePrefilter.mentionsInCode([word], in: bytes) }
  }

  /// The Swift files where one of the member names can follow an implicit member's dot
  /// (`BytePrefilter.mayHoldImplicitMember`): for `init`, the files that can create a type without
  /// naming it (`self.feed = .init()`, `show(.init())`).
  public func paths(namingImplicitMember names: [String]) -> [String] {
    paths(of: names, in: \.implicitNaming) { name, bytes in BytePrefilter.mayHoldImplicitMember(name, in: bytes) }
  }

  /// The files among `paths(naming:)`'s whose bytes pass `test` for one of the words; each word's
  /// worked out once and kept across a loader's runs (as `naming`) in `table`.
  private func paths(
    of words: [String], in table: ReferenceWritableKeyPath<Project, [String: [String]]>,
    passing test: @escaping @Sendable ([UInt8], [UInt8]) -> Bool
  ) -> [String] {
    var (simple, found) = answers(for: words, in: table)
    // One byte search for every word not known yet (each word's files are kept by it).
    let missing = simple.filter { found[$0] == nil }
    if !missing.isEmpty { _ = paths(naming: missing) }
    for word in missing {
      let needle = Array(word.utf8)
      let candidates: [String]
      var known: Set<String> = []
      if let (before, changed) = searchedBefore {
        // A file not replaced says what it said in the project before.
        candidates = paths(naming: [word]).filter { changed.contains($0) }
        known = Set(before.paths(of: [word], in: table, passing: test)).subtracting(changed)
      } else {
        candidates = paths(naming: [word])
      }
      let passed = parallelMap(count: candidates.count) { position in
        self.bytes(candidates[position]).map { test(needle, $0) } ?? false
      }
      known.formUnion(zip(candidates, passed).compactMap { $1 ? $0 : nil })
      let paths = inIndexOrder(known)
      found[word] = paths
      lock.lock()
      self[keyPath: table][word] = paths
      lock.unlock()
    }
    return union(of: simple, found)
  }

  /// `paths(namingInCode:)`'s answers, by simple name, kept as `naming` is.
  private var codeNaming: [String: [String]] = [:]
  /// `paths(namingImplicitMember:)`'s answers, by name, kept as `naming` is.
  private var implicitNaming: [String: [String]] = [:]

  /// `paths(naming:)`'s answers, by simple name: they depend on the files' bytes only, so a loader's
  /// later run keeps them.
  private var naming: [String: [String]] = [:]
  /// `words(of:)`'s answers, kept as `naming` is.
  private(set) var fileWords = FileWordsTable()

  /// The words of the files this project searches itself, and their paths: every file, or in a
  /// rewritten project only those it replaced (`searchedBefore` answers for the others). Listed at
  /// the fourth word `paths(naming:)` is asked (building it costs about as much as four byte
  /// searches); a command that asks fewer searches the bytes.
  private var words: (index: WordIndex, paths: [String])?
  private var searches = 0
  private let wordsLock = NSLock()

  /// The word index and the paths its positions mean, once three byte searches have been made; nil before.
  private func wordIndex() -> (index: WordIndex, paths: [String])? {
    wordsLock.lock()
    defer { wordsLock.unlock() }
    if let words { return words }
    searches += 1
    guard searches > 3 else { return nil }
    let paths = searchedBefore.map { $0.changed.sorted() } ?? index.allPaths
    let started = ContinuousClock.now
    let built = (WordIndex(files: paths.count) { self.bytes(paths[$0]) }, paths)
    words = built
    keptWork += ContinuousClock.now - started
    return built
  }

  /// Time this project spent on what the projects of a loader's later runs keep (its word index).
  public var keptWorkTime: Duration {
    wordsLock.lock()
    defer { wordsLock.unlock() }
    return keptWork
  }
  private var keptWork = Duration.zero

  /// Takes trees parsed from disk by the loader (its first phase) as if `file(_:)` had parsed them.
  func adopt(_ files: [ParsedFile]) {
    guard !files.isEmpty else { return }
    lock.lock()
    defer { lock.unlock() }
    for file in files where cache[file.path] == nil && readsFromDisk(file.path) { cache[file.path] = file }
  }

  /// Keeps the parsed trees of `other`, a project of the same files on disk (a loader's earlier run).
  func keepTrees(of other: Project) {
    guard other !== self else { return }
    let (trees, found, foundInCode, foundImplicit) = other.kept()
    let (words, searches) = other.wordsKept()
    // The byte searches' answers hold for the same files with the same texts.
    let sameFiles = overrides.isEmpty && other.overrides.isEmpty && index.allPaths == other.index.allPaths
    lock.lock()
    for (path, file) in trees where cache[path] == nil && overrides[path] == nil { cache[path] = file }
    if sameFiles {
      fileWords = other.fileWords
      naming.merge(found) { mine, _ in mine }
      codeNaming.merge(foundInCode) { mine, _ in mine }
      implicitNaming.merge(foundImplicit) { mine, _ in mine }
    }
    lock.unlock()
    guard sameFiles else { return }
    if objectiveCPaths == other.objectiveCPaths { objectiveCWords.take(other.objectiveCWords) }
    resumePoints = other.resumePoints
    let complete = other.completeAnswers()
    lock.lock()
    answers.merge(complete) { mine, _ in mine }
    lock.unlock()
    wordsLock.lock()
    if self.words == nil { self.words = words }
    self.searches = max(self.searches, searches)
    wordsLock.unlock()
  }

  /// Points planners' steps reached on complete answers, shared by the projects of one loader's
  /// runs over the same files (`keepTrees`); a unit or a rewritten project starts its own.
  private var resumePoints = ResumePoints()
  private final class ResumePoints: @unchecked Sendable {
    let lock = NSLock()
    var points: [String: Any] = [:]
  }
  private struct ResumePoint<Input: Equatable, State> {
    var input: Input
    var state: State
  }

  /// Keeps `state`, a point a step reached from `input` (and everything else it depends on, in
  /// `input` too), right after `Index.requireCoverage()` passed: every answer it rests on is the
  /// whole code base's. A later run of the same loader, whose index gives those answers again
  /// (`NameCoverage`), picks the step up there (`resumePoint`) instead of working it out again.
  public func keepResumePoint<Input: Equatable, State>(_ key: String, from input: Input, _ state: State) {
    resumePoints.lock.lock()
    defer { resumePoints.lock.unlock() }
    resumePoints.points[key] = ResumePoint(input: input, state: state)
  }

  /// The last point kept under `key` from the same `input`; nil for another input or none.
  public func resumePoint<Input: Equatable, State>(_ key: String, from input: Input) -> State? {
    resumePoints.lock.lock()
    defer { resumePoints.lock.unlock() }
    guard let point = resumePoints.points[key] as? ResumePoint<Input, State>, point.input == input else { return nil }
    return point.state
  }

  private func wordsKept() -> ((index: WordIndex, paths: [String])?, Int) {
    wordsLock.lock()
    defer { wordsLock.unlock() }
    return (words, searches)
  }

  private func kept() -> (
    trees: [String: ParsedFile], naming: [String: [String]], codeNaming: [String: [String]],
    implicitNaming: [String: [String]]
  ) {
    lock.lock()
    defer { lock.unlock() }
    return (cache, naming, codeNaming, implicitNaming)
  }

  /// The tree of the file at `path` when `file(_:)` has parsed it from disk (not a replaced text
  /// or an Objective-C interface): a loader indexing that file later takes it instead of parsing
  /// the file again.
  func parsedFromDisk(_ path: String) -> ParsedFile? {
    readsFromDisk(path) ? cached(path) : nil
  }

  /// Whether `file(_:)` reads the file at `path` from disk: not a replaced text or an Objective-C
  /// interface.
  private func readsFromDisk(_ path: String) -> Bool {
    overrides[path] == nil && index.imported.interfaces[path] == nil
  }

  private func cached(_ path: String) -> ParsedFile? {
    lock.lock()
    defer { lock.unlock() }
    return cache[path]
  }

  /// Parses `paths` on `threads` threads ahead of `file(_:)`, which then finds them ready. Files
  /// that cannot be read or have syntax errors are left for `file(_:)` to report.
  public func preload(_ paths: [String], threads: Int? = nil) {
    let missing = Array(Set(paths).filter { cached($0) == nil }).sorted()
    guard missing.count > 1 else { return }
    let overrides = self.overrides
    let parsed = parallelMap(count: missing.count, threads: threads) { position -> ParsedFile? in
      guard let source = try? overrides[missing[position]] ?? FileLoader.read(missing[position]) else { return nil }
      let file = ParsedFile(source: source)
      return file.tree.hasError ? nil : file
    }
    lock.lock()
    defer { lock.unlock() }
    for (path, file) in zip(missing, parsed) where cache[path] == nil {
      if let file { cache[path] = file }
    }
  }

  /// The project as it would be with these files' texts (a plan's output), indexed again: the files
  /// the index holds, with the given ones replaced or added. Other files are still read from disk.
  /// Files the plan left alone keep their summaries and their parsed trees: only the changed ones
  /// are parsed and indexed again.
  /// `parsed` sees each changed file's tree, once, before it is indexed. `edits`: what made each
  /// changed text of this project's (a plan's edits); a file whose tree this project holds is
  /// parsed from it (`ParsedFile.init(source:editing:with:)`).
  public func replacing(
    _ changed: [SourceText], edits: [String: [TextEdit]] = [:], threads: Int? = nil,
    parsed: (@Sendable (SourceText, SourceFileSyntax) -> Void)? = nil
  ) throws -> Project {
    // Nothing replaced is this project: its index, trees and answers hold.
    if changed.isEmpty { return self }
    // The texts in memory are this project's (inline sources) and the plan's; every other file is
    // read from disk when asked, as here: the files do not change while a command plans.
    var texts = overrides
    let changedPaths = Set(changed.map(\.path))
    for source in changed { texts[source.path] = source }
    let indexed = Set(index.files.map(\.path))
    let builder = IndexBuilder(threads: threads, accessors: index.accessorNames)
    lock.lock()
    let kept = cache.filter { !changedPaths.contains($0.key) && indexed.contains($0.key) }
    var editing: [String: (before: ParsedFile, edits: [TextEdit])] = [:]
    for (path, fileEdits) in edits where changedPaths.contains(path) {
      if let before = cache[path] { editing[path] = (before, fileEdits) }
    }
    lock.unlock()
    let rebuilt = builder.rebuild(
      index, replacing: changed, keeping: indexed.union(changedPaths), editing: editing, parsed: parsed)
    let result = Project(index: rebuilt, sources: texts, objectiveCPaths: objectiveCPaths, modules: modules)
    result.cache = kept
    // The trees indexed are not kept (a plan may replace every file that names the singleton):
    // `file(_:)` parses a replaced file again from the tree it was made from.
    result.editing = editing
    result.madeFrom = (self, changedPaths, rebuilt.allPaths == index.allPaths)
    return result
  }

  /// The project this one was made from by `replacing` the files at `changed` (`sameFiles`: the
  /// same paths, none added): the trees of the others are that project's (`file(_:)`), and so are
  /// their words (`objectiveCPaths(containing:)`).
  private(set) var madeFrom: (project: Project, changed: Set<String>, sameFiles: Bool)?

  /// The project before, when this one replaced files at the same paths: `paths(naming:)` asks it
  /// about the others, so that checking a plan on the rewritten files searches only those, not
  /// every file again.
  private var searchedBefore: (project: Project, changed: Set<String>)? {
    madeFrom.flatMap { $0.sameFiles ? ($0.project, $0.changed) : nil }
  }

  /// The trees of the project before and the plan's edits that make the replaced files' texts.
  private var editing: [String: (before: ParsedFile, edits: [TextEdit])] = [:]

  /// The words of the Objective-C files, listed once (`objectiveCPaths(containing:)`).
  let objectiveCWords = ObjectiveCWords()

  /// A file's text without parsing it: the in-memory source when there is one, else the file on disk.
  /// An Objective-C header's is its Swift interface's (`ObjectiveCImporter`).
  public func bytes(_ path: String) -> [UInt8]? {
    if let cached = cached(path) { return cached.source.bytes }
    if let interface = index.imported.interfaces[path] { return interface.bytes }
    if let source = overrides[path] { return source.bytes }
    return readBytes(path)
  }

  /// The sources of exactly these paths, as the planners read them: the files a plan edits, and any
  /// file of the project at a path a plan creates, and the Xcode project files a plan edits. Paths that are no file of the project are left out.
  /// A file's text as written: for an Objective-C header, its Objective-C, not the Swift interface
  /// the index reads it as.
  public func writtenBytes(_ path: String) -> [UInt8]? {
    if let source = overrides[path] { return source.bytes }
    if index.imported.interfaces[path] == nil, let cached = cached(path) { return cached.source.bytes }
    return readBytes(path)
  }

  /// A header read as its Swift interface is never among them: a plan that edits one is refused.
  public func sources(of paths: [String]) throws -> [String: SourceText] {
    for path in paths where index.imported.interfaces[path] != nil {
      throw Refusal("desingleton does not rewrite Objective-C, and this plan would edit the header", at: Location(path: path, line: 1, column: 1))
    }
    var result: [String: SourceText] = [:]
    let known = Set(index.allPaths)
    for project in modules.xcodeProjects where paths.contains(project.path) {
      result[project.path] = project.source
    }
    for path in paths where cached(path) != nil || overrides[path] != nil || known.contains(path) {
      result[path] = try cached(path)?.source ?? overrides[path] ?? FileLoader.read(path)
    }
    return result
  }
}

/// An answer kept with the ticket it was worked out at (`Project.answer`).
private protocol Ticketed {
  /// The answer as a later run keeps it (worked out before any ticket of that run), if it was
  /// worked out before the ticket `complete`; nil if not.
  func kept(before complete: Int) -> Any?
}

/// An answer filled in as a run goes (a table of what each file holds): a later run keeps only
/// what was put in before the ticket `complete` (`NameCoverage.ticket`), each part taken with a
/// ticket when it was put in.
public protocol KeptInPart {
  func kept(before complete: Int) -> Self
}

extension Project {
  /// The project as one compilation unit sees it: the files of the modules that can see `module`
  /// (it and its dependents) and of the modules those can see, plus files in no known module. Two
  /// targets that each declare a type of one name (an iOS and a Mac app's `Preferences`) are
  /// then planned one at a time, each seeing its own.
  public func unit(around module: String) -> Project {
    let map = modules
    let dependents = Set(map.targets.map(\.name).filter { map.module($0, canSee: module) })
    func visible(_ path: String) -> Bool {
      let owners = map.modules(of: path)
      return owners.isEmpty || owners.contains { owner in dependents.contains { map.module($0, canSee: owner) } }
    }
    // The Objective-C headers it sees, as their Swift interfaces, like its Swift files.
    let headers = ImportedHeaders(
      summaries: self.index.imported.summaries.filter { visible($0.path) },
      interfaces: self.index.imported.interfaces.filter { visible($0.key) })
    let index = Index(
      allPaths: self.index.allPaths.filter(visible), files: self.index.files.filter { visible($0.path) },
      warnings: self.index.warnings, coverage: self.index.coverage, imported: headers)
    let unit = Project(index: index, sources: overrides, objectiveCPaths: objectiveCPaths, modules: map)
    unit.unitModule = module
    return unit
  }

  /// How a command this project suggests names the singleton: `--singleton Store`, and the module
  /// (`--module Phone`) when each twin target's type of that name is planned on its own.
  public func singletonFlags(_ typeName: String) -> String {
    "--singleton \(typeName)" + (unitModule.map { " --module \($0)" } ?? "")
  }

  /// The modules that each declare their own type named `typeName` (not extensions), when there is
  /// more than one: twins to be planned apart. Nil when the declarations share a module (a type
  /// declared once per platform under `#if` is one type).
  public func twinModules(of typeName: String) -> [String]? {
    let declarations = index.declarations(of: typeName).filter { !$0.isExtension }
    guard declarations.count > 1 else { return nil }
    var groups: [Set<String>] = []
    for declaration in declarations {
      let owners = Set(modules.modules(of: declaration.path))
      if owners.isEmpty { return nil }
      if let position = groups.firstIndex(where: { !$0.isDisjoint(with: owners) }) {
        groups[position].formUnion(owners)
      } else {
        groups.append(owners)
      }
    }
    guard groups.count > 1 else { return nil }
    return groups.compactMap { $0.sorted().first }.sorted()
  }
}
