import DesingletonCore
import Foundation

/// Indexes a code base for `scan` parsing only the files that can matter, in phases, with the same
/// result as parsing every file.
///
/// 1. Every file is read; those that can declare a singleton accessor (`BytePrefilter.canDeclareAccessor`)
///    are parsed. The others count for files and lines only. (A command about one singleton parses
///    the files naming it, and keeps for the others the names they can declare or reference.)
/// 2. The index built from them says what it was asked and cannot answer (`NameCoverage`): the
///    singletons' declarations and extensions, the files that can reference their accessors, and
///    the names those references and the report ask about (consumers, protocols, the types along a
///    member chain). The files that can hold those (`BytePrefilter.canDeclare`, `canReference`) are
///    parsed, and the index is built and asked again, until nothing asked is missing.
///
/// In a scan, types keep their members only when a question was about their name (or they have a
/// static member named like an accessor): a parsed file of generated code keeps its type names, not
/// its members. A command about one singleton keeps every member of every file it parses: its
/// questions reach the members of most types it parses, and each would parse a file again.
/// A question about the whole code base (every type alias) parses every file.
///
/// A scan leaves unparsed the bodies of a file that hold no reference to an accessor
/// (`BodySkipping`): its summary is the same. A widening also leaves out whole the top-level types
/// and extensions of a file that hold no reference, unless their code can answer what was asked
/// (`parseOmitting`); the file keeps the names they can declare or reference, and a later
/// widening whose question they can answer parses it whole (the generated 1M-line app: the second
/// phase parsed 765k lines in 0.92 s, and parses 20% of their bytes in 0.41 s). A command about one singleton parses each file
/// whole: its loader weighs the runs it throws away against what going to the whole code base
/// would add (`run(bounded:)`): parsing the files left, and the longer run on all of them. With the
/// parse alone weighed, `inject --all` on the mirror parsed every file where its chain of questions
/// was about to end, and ran once more on all of them (3.4–3.8 s; 2.4–2.6 s with the run weighed).
///
/// `inject` and `finish` keep the trees their first phase makes of the files naming the singleton
/// (`keepingTrees`), which their planners read next: each was parsed a second time before.
///
/// Syntax errors are reported for the files parsed: a file that can hold nothing the scan looks for
/// is not parsed, so its errors are not known, nor are those inside a body left unparsed.
public final class PhasedScan {
  /// One phase: how many files it parsed and their lines, and how long it took (reading, testing
  /// and parsing, on every thread).
  public struct Phase: Sendable, Equatable {
    public var files: Int
    public var lines: Int
    public var time: Duration = .zero
    /// What the runs before it asked that it answers (`NameCoverage.Needs.summary`; the first
    /// phase: empty).
    public var asked = ""
  }

  private enum State: Sendable {
    /// Read and counted, not parsed: no types, no references; the names it can declare or
    /// reference, once a phase has read them.
    case counted(FileSummary, NameSites?)
    case parsed(FileSummary)
    /// Parsed with the top-level declarations in `omitted` left out whole (a scan's widening:
    /// `parseOmitting`), and the names those can declare or reference.
    case partial(FileSummary, omitted: [Range<Int>], NameSites)
    case failed(Diagnostic)

    /// The summary of a file parsed, whole or in part.
    var parsed: FileSummary? {
      switch self {
      case .parsed(let summary), .partial(let summary, _, _): return summary
      case .counted, .failed: return nil
      }
    }
  }

  public let paths: [String]
  public let builder: IndexBuilder
  /// The tree of a file a command has parsed already (`Project.file`), which a phase that parses
  /// the file indexes instead of parsing it again.
  public var parsedTree: (@Sendable (String) -> ParsedFile?)?
  /// The paths whose code contains one of these words (simple names), as the last run's project
  /// found them for its planners (`Project.paths(namingInCode:)`, from its word index once built): a
  /// widening asked for the files mentioning a word takes them instead of reading every file.
  public var mentioning: (@Sendable ([String]) -> Set<String>?)?
  /// Files and lines each phase parsed, in order.
  public private(set) var phases: [Phase] = []
  /// How long each run of a command's body took (`run`), the last one the run whose result it kept.
  public private(set) var runs: [Duration] = []
  /// Time spent building indexes from the files' summaries (one thread), over all phases.
  public private(set) var indexTime: Duration = .zero
  private var states: [State]
  private var covered = NameCoverage.Needs()
  /// The simple names of the singletons the command is about (`mentioning`); nil for a scan.
  private let focus: Set<String>?
  /// Whether every file parsed keeps every type's members: a command about one singleton, whose
  /// later questions ask for the members of many of the types its files declare; a file parsed
  /// without them would be parsed again for each.
  private var keepsMembers: Bool { focus != nil }
  /// Positions in `paths`, largest file first.
  private let order: [Int]
  /// A scan's: the name of every type alias in the code base, as bytes, which a reference to an
  /// accessor can write before the dot instead of its type's name; nil in a command about one
  /// singleton, which asks for its references otherwise (`Index.needReferences`).
  private let typeAliasNames: Set<[UInt8]>?

  /// `mentioning`: the first phase parses the files whose bytes contain one of these names (a
  /// command about one singleton: its name), keeping every member, instead of the files that can
  /// declare an accessor. Later phases are the same: what the index is asked decides what is parsed.
  ///
  /// `keepingTrees`: the first phase keeps the trees of the files naming them for the project
  /// (`takeFirstTrees`), for a command whose planners read those files (`inject`, `finish`).
  public init(paths: [String], builder: IndexBuilder, mentioning names: [String]? = nil, keepingTrees: Bool = false) {
    self.paths = paths
    self.builder = builder
    order = IndexBuilder.largestFirst(paths)
    let accessors = builder.accessors
    let started = ContinuousClock.now
    let seed = names.map { $0.sorted().map { Array($0.utf8) } }
    var covered = NameCoverage.Needs()
    if let names { covered.mentions = Set(names) }
    self.covered = covered
    focus = names.map(Set.init)
    let meter = ParseMeter()
    self.meter = meter
    let progress = builder.progress
    progress?.begin("parsing", total: order.count)
    let firstPass = parallelMap(count: order.count, threads: builder.threads) { [paths, order] position -> (State, Set<[UInt8]>, ParsedFile?) in
      defer { progress?.advance() }
      let path = paths[order[position]]
      guard let bytes = readBytes(path) else {
        return (.failed(.warning("cannot read '\(path)'; skipped", at: Location(path: path, line: 1, column: 1))), [], nil)
      }
      if !isValidUTF8(bytes) {
        return (.failed(.warning("the file is not valid UTF-8; skipped", at: Location(path: path, line: 1, column: 1))), [], nil)
      }
      // A generated file's members never make a singleton (`SingletonDetector`): it is parsed only
      // if a later phase asks for it.
      let isGenerated = GeneratedFile.isGenerated(path: path, bytes: bytes)
      if let seed {
        if BytePrefilter.mentions(seed, in: bytes) {
          let (summary, file) = PhasedScan.parseWhole(path, bytes, isGenerated: isGenerated, accessors: accessors, meter: meter)
          return (.parsed(summary), [], keepingTrees ? file : nil)
        }
        // A command about one singleton asks its later phases about names (its type's aliases too,
        // through the index: `Index.needReferences`), and the second phase would read every file
        // again to learn which it can declare or reference: that is learnt now, from these bytes.
        return (.counted(PhasedScan.counted(path, bytes, isGenerated: isGenerated), NameSites(bytes)), [], nil)
      }
      let aliases = BytePrefilter.typeAliasNames(in: bytes)
      if !isGenerated && BytePrefilter.canDeclareAccessor(bytes, accessors: accessors) {
        return (
          .parsed(
            PhasedScan.parse(
              path, bytes, isGenerated: false, accessors: accessors, everything: false, keptMembers: [],
              skippingBodies: true, meter: meter)),
          aliases, nil
        )
      }
      return (.counted(PhasedScan.counted(path, bytes, isGenerated: isGenerated), nil), aliases, nil)
    }
    firstTrees = firstPass.compactMap(\.2)
    // A command about one singleton asks for any base.
    self.typeAliasNames = names == nil ? firstPass.reduce(into: Set()) { $0.formUnion($1.1) } : nil
    var states = [State](repeating: .failed(.warning("")), count: paths.count)
    for (position, index) in order.enumerated() { states[index] = firstPass[position].0 }
    self.states = states
    var phase = PhasedScan.phase(of: firstPass.map(\.0))
    phase.time = ContinuousClock.now - started
    phases.append(phase)
  }

  /// The trees of the files the first phase of a command about one singleton parsed (those naming
  /// it), when asked to keep them, until the first project takes them (`takeFirstTrees`): its
  /// planners read those files, and would parse each again.
  private var firstTrees: [ParsedFile]

  /// The trees the first phase parsed whole and without a syntax error, once; empty afterwards.
  public func takeFirstTrees() -> [ParsedFile] {
    defer { firstTrees = [] }
    return firstTrees
  }

  /// A file of the first phase of a command about one singleton: parsed whole, every member kept;
  /// and its tree, when it has no syntax error (a planner refuses a file that has one, when it
  /// reads it: `Project.file`).
  private static func parseWhole(
    _ path: String, _ bytes: [UInt8], isGenerated: Bool, accessors: AccessorNames, meter: ParseMeter
  ) -> (FileSummary, ParsedFile?) {
    metered(bytes.count, meter) {
      let file = ParsedFile(source: SourceText(path: path, bytes: bytes))
      let summary = FileIndexer.index(file.tree, source: file.source, isGenerated: isGenerated, accessors: accessors)
      return (summary, file.tree.hasError ? nil : file.underNewRoot())
    }
  }

  /// A file read and counted, not parsed.
  private static func counted(_ path: String, _ bytes: [UInt8], isGenerated: Bool) -> FileSummary {
    FileSummary(
      path: path, lineCount: lineCount(bytes), types: [], candidateReferences: [], syntaxErrors: [],
      isGenerated: isGenerated)
  }

  /// The index of the files parsed so far, recording what it is asked in its `coverage`.
  public func index() -> Index {
    let started = ContinuousClock.now
    defer { indexTime += ContinuousClock.now - started }
    var summaries: [FileSummary] = []
    summaries.reserveCapacity(states.count)
    var warnings: [Diagnostic] = []
    for state in states {
      switch state {
      case .counted(let summary, _):
        summaries.append(summary)
      case .parsed(let summary), .partial(let summary, _, _):
        summaries.append(summary)
        if let first = summary.syntaxErrors.first {
          warnings.append(
            .warning("the file has syntax errors and was indexed only in part: \(first.message)", at: first.location)
          )
        }
      case .failed(let diagnostic):
        warnings.append(diagnostic)
      }
    }
    return Index(
      allPaths: paths,
      files: summaries,
      warnings: warnings,
      accessors: builder.accessors,
      coverage: NameCoverage(covered: covered, focus: focus) { [weak self] in self?.settle($0) ?? false },
      imported: builder.imported
    )
  }

  /// Runs `body` on the index until it asks nothing the files parsed cannot answer, parsing what it
  /// asked for in between; returns the result of the last run. When what it asked for added no
  /// file, the run's answers were already those of the whole code base and its result stands (a
  /// refusal too). A run stops early (`Index.requireCoverage`) only for what a file left can
  /// answer (`settle`).
  ///
  /// `bounded`: once the runs thrown away have cost more than going to the whole code base would
  /// add (`costOfEverything`: parsing every file left, and the longer run on all of them), the next
  /// widening parses every file, so a body whose questions reach one step further each run (a
  /// chain of creators, a link a run) costs at most about twice a run on the whole code base.
  public func run<Result>(bounded: Bool = false, _ body: (Index) throws -> Result) throws -> Result {
    var wasted = Duration.zero
    func selected(_ missing: NameCoverage.Needs) -> Selection {
      var needs = missing
      if bounded && wasted > costOfEverything { needs.everything = true }
      // The files `settle` chose for what stopped the run, unless every file is to be parsed.
      let chosen = settling.take()
      if let (asked, selection) = chosen, asked == needs { return selection }
      return select(needs)
    }
    while true {
      // The files to parse are chosen while the index and the run's result are at hand, and parsed
      // once both are let go: the largest trees are made on the least memory.
      var selection: Selection?
      /// Whether `chosen` has files to parse, kept for after the run; else it is done now.
      func pending(_ chosen: Selection) -> Bool {
        guard chosen.parses else {
          parse(chosen)
          return false
        }
        selection = chosen
        return true
      }
      let finished = try { () throws -> Result? in
        let index = index()
        // What building it asked and no file can answer (a name no file declares) leaves it as it is.
        if let missing = index.coverage?.missingNeeds, pending(select(missing)) { return nil }
        let result: Result
        let (started, keptBefore) = (ContinuousClock.now, keptTime)
        // What the run cost, less what the runs after it keep.
        func thrownAway() -> Duration { ContinuousClock.now - started - (keptTime - keptBefore) }
        defer { runs.append(ContinuousClock.now - started) }
        do {
          result = try body(index)
        } catch {
          wasted += thrownAway()
          guard let missing = index.coverage?.missingNeeds else { throw error }
          // A body that stopped early (`Index.requireCoverage`) runs again even when what it asked
          // is declared in no file: it is covered now, and the next run gets past it.
          if !pending(selected(missing)) && !(error is NameCoverage.Incomplete) { throw error }
          return nil
        }
        wasted += thrownAway()
        if let missing = index.coverage?.missingNeeds, pending(selected(missing)) { return nil }
        return result
      }()
      if let finished { return finished }
      if let selection { parse(selection) }
    }
  }

  /// Whether no file left unparsed can answer `asked` (a question of a run under way, through its
  /// index's coverage): then the index's answers to it are the whole code base's, and it is
  /// covered from now on, as after a widening that parsed nothing. Otherwise the files chosen are
  /// kept for the widening after the run stops.
  private func settle(_ asked: NameCoverage.Needs) -> Bool {
    settling.lock.lock()
    defer { settling.lock.unlock() }
    let selection = select(asked)
    guard !selection.parses else {
      settling.last = (asked, selection)
      return false
    }
    covered = selection.covered
    return true
  }

  /// Counts `duration` of the run under way (called from its body) as work the runs after it keep
  /// (a word index): the bound weighs only what a run throws away.
  public func keep(_ duration: Duration) {
    keptTime += duration
  }

  /// What the runs so far spent on work the runs after them keep (`keep`).
  private var keptTime = Duration.zero

  /// What `settle` chose last, for the widening that follows it.
  private let settling = Settling()
  private final class Settling {
    let lock = NSLock()
    var last: (NameCoverage.Needs, Selection)?

    func take() -> (NameCoverage.Needs, Selection)? {
      lock.lock()
      defer { lock.unlock() }
      defer { last = nil }
      return last
    }
  }

  /// About what parsing every file not parsed yet would add: parsing them, at the rate the files so
  /// far were parsed (a phase's own time also counts reading and testing every file, which parsing
  /// everything does not add), and the longer run on the whole code base, the longest run so far
  /// grown in proportion to the lines it would read besides those parsed (a run asks about what is
  /// declared, and more is then declared).
  private var costOfEverything: Duration {
    var (remaining, parsed) = (0, 0)
    for state in states {
      switch state {
      case .counted(let summary, _): remaining += summary.lineCount
      case .parsed(let summary), .partial(let summary, _, _): parsed += summary.lineCount
      case .failed: break
      }
    }
    let longerRun = parsed == 0 ? Duration.zero : (runs.max() ?? .zero) * remaining / parsed
    return meter.estimate(lines: remaining, threads: builder.threads) + longerRun
  }

  /// Parses the files that can answer `needs` (and parses again those that left out the members of
  /// a type now asked about); afterwards the index covers them. False when no file was parsed:
  /// the index says what it said, and now covers `needs`.
  @discardableResult
  public func widen(_ asked: NameCoverage.Needs) -> Bool {
    let selection = select(asked)
    parse(selection)
    return selection.parses
  }

  /// The files a widening parses, chosen (`select`) and not parsed yet (`parse`).
  struct Selection {
    /// By position in `order`, whether it keeps every member, and whether its top-level
    /// declarations that answer nothing asked are left out (`parseOmitting`). (Their bytes are read
    /// again when they are parsed: kept meanwhile, the bytes of every file to parse would add to
    /// the peak.)
    var files: [(position: Int, everything: Bool, omits: Bool)]
    var covered: NameCoverage.Needs
    var keptMembers: Set<String>
    /// What was asked of the files.
    var questions: Asked
    var started: ContinuousClock.Instant
    /// What was asked that no phase before answered.
    var needs: NameCoverage.Needs

    var parses: Bool { !files.isEmpty }
  }

  /// Chooses the files that can answer `asked`, keeping what it learnt of the others' names; the
  /// index covers `asked` once the selection is parsed.
  private func select(_ asked: NameCoverage.Needs) -> Selection {
    // What an earlier phase covered was answered then (an index keeps what it was asked in every
    // run, and asks for it again after a run that parsed nothing).
    let needs = asked.subtracting(self.covered)
    var covered = self.covered
    covered.formUnion(needs)
    // The files asked for a name's members (at any depth) answer for the name too.
    covered.types.formUnion(covered.members)
    let keptMembers = covered.members.union(covered.topLevelMembers)
    let everything = covered.everything
    // Which files contain a word asked about, as the planners' searches already found it.
    let words = needs.mentions.sorted()
    let mentioning = words.isEmpty || words.contains { $0.contains(".") } ? nil : self.mentioning?(words)
    let questions = Asked(
      needs, everything: everything, keepsMembers: keepsMembers, typeAliasNames: typeAliasNames, mentioning: mentioning)
    let membersAsked = needs.members.union(needs.topLevelMembers)
    let (states, started, progress) = (self.states, ContinuousClock.now, builder.progress)
    progress?.begin("reading", total: order.count)
    let choices = parallelMap(count: order.count, threads: builder.threads) { [paths, order] position -> Choice in
      defer { progress?.advance() }
      let path = paths[order[position]]
      switch states[order[position]] {
      case .failed:
        return .none
      case .parsed(let summary):
        return PhasedScan.parsedAgain(
          path, summary, everything: everything, membersAsked: membersAsked, questions: questions)
      case .partial(let summary, let omitted, let sites):
        // Parsed whole again when its types are asked for their members, or what it left out
        // can answer.
        let again = PhasedScan.parsedAgain(
          path, summary, everything: everything, membersAsked: membersAsked, questions: questions)
        if case .parse = again { return again }
        return questions.choice(leftOut: omitted, of: path, sites)
      case .counted(let summary, let known):
        return questions.choice(path, summary, known)
      }
    }
    var selection = Selection(
      files: [], covered: covered, keptMembers: keptMembers, questions: questions, started: started, needs: needs)
    // A scan's file parsed for the first time keeps its bodies unparsed, and may leave out whole
    // the top-level declarations that answer nothing asked.
    let omits = focus == nil && !everything
    for (position, choice) in choices.enumerated() {
      switch choice {
      case .none: break
      case .sites(let summary, let sites): self.states[order[position]] = .counted(summary, sites)
      case .parse(let everything):
        var counted = false
        if case .counted = states[order[position]] { counted = true }
        selection.files.append((position, everything, omits && counted && !everything))
      }
    }
    return selection
  }

  /// Parses the files chosen; afterwards the index covers what was asked.
  private func parse(_ selection: Selection) {
    let accessors = builder.accessors
    let meter = self.meter
    let states = self.states
    let files = selection.files
    let keptMembers = selection.keptMembers
    let progress = builder.progress
    progress?.begin("parsing", total: files.count)
    defer { progress?.begin("planning") }
    let parsedTree = self.parsedTree
    let skipsBodies = focus == nil
    let questions = selection.questions
    let parsed = parallelMap(count: files.count, threads: builder.threads) { [paths, order] number -> State? in
      defer { progress?.advance() }
      let (position, everything, omits) = files[number]
      let isGenerated: Bool
      switch states[order[position]] {
      case .counted(let summary, _), .parsed(let summary), .partial(let summary, _, _): isGenerated = summary.isGenerated
      case .failed: isGenerated = false
      }
      if let file = parsedTree?(paths[order[position]]) {
        return .parsed(
          FileIndexer.index(
            file.tree, source: file.source, isGenerated: isGenerated, accessors: accessors,
            keepingMembersOf: everything ? nil : { keptMembers.contains($0) }))
      }
      guard let bytes = readBytes(paths[order[position]]) else { return nil }
      if omits {
        return PhasedScan.parseOmitting(
          paths[order[position]], bytes, isGenerated: isGenerated, accessors: accessors, keptMembers: keptMembers,
          questions: questions, meter: meter)
      }
      return .parsed(
        PhasedScan.parse(
          paths[order[position]], bytes, isGenerated: isGenerated, accessors: accessors, everything: everything,
          keptMembers: keptMembers, skippingBodies: skipsBodies, meter: meter))
    }
    for (number, state) in parsed.enumerated() {
      if let state { self.states[order[files[number].position]] = state }
    }
    self.covered = selection.covered
    var phase = PhasedScan.phase(of: parsed.compactMap { $0 })
    phase.time = ContinuousClock.now - selection.started
    phase.asked = selection.needs.summary
    phases.append(phase)
  }

  /// A file parsed without some types' members, parsed again when those are asked for now (or it
  /// mentions a word asked about, and keeps every member).
  private static func parsedAgain(
    _ path: String, _ summary: FileSummary, everything: Bool, membersAsked: Set<String>, questions: Asked
  ) -> Choice {
    if summary.typesWithoutMembers.isEmpty { return .none }
    if !everything && summary.typesWithoutMembers.isDisjoint(with: membersAsked) {
      return questions.mentions(path) ? .parse(everything: true) : .none
    }
    if everything || questions.mentioned.isEmpty { return .parse(everything: everything) }
    return .parse(everything: questions.mentions(path))
  }

  private static func parse(
    _ path: String,
    _ bytes: [UInt8],
    isGenerated: Bool,
    accessors: AccessorNames,
    everything: Bool,
    keptMembers: Set<String>,
    skippingBodies: Bool,
    meter: ParseMeter
  ) -> FileSummary {
    metered(bytes.count, meter) {
      let summary = FileIndexer.index(
        SourceText(path: path, bytes: bytes),
        isGenerated: isGenerated,
        accessors: accessors,
        keepingMembersOf: everything ? nil : { keptMembers.contains($0) },
        skippingBodies: skippingBodies
      )
      return (summary, ())
    }.0
  }

  /// A file a scan parses for the first time: its bodies that hold no reference are left
  /// unparsed, and so are, whole, its top-level types and extensions that hold none, unless their
  /// code can answer what was asked (`Asked.choice` of their bytes, the rest blank). A later
  /// widening parses it whole when what it left out can answer that one.
  private static func parseOmitting(
    _ path: String, _ bytes: [UInt8], isGenerated: Bool, accessors: AccessorNames, keptMembers: Set<String>,
    questions: Asked, meter: ParseMeter
  ) -> State {
    metered(bytes.count, meter) { () -> (FileSummary, State) in
      let source = SourceText(path: path, bytes: bytes)
      let keep: (String) -> Bool = { keptMembers.contains($0) }
      var sites: NameSites?
      let omitting = { (ranges: [Range<Int>]) -> Bool in
        let left = BodySkipping.keepingOnly(ranges, of: bytes)
        let known = NameSites(left)
        if case .parse = questions.choice(leftOut: ranges, of: path, known, left: left) { return false }
        sites = known
        return true
      }
      if let (summary, _, omitted) = FileIndexer.indexSkippingBodies(
        source, isGenerated: isGenerated, accessors: accessors, keepingMembersOf: keep, omitting: omitting)
      {
        guard let sites, !omitted.isEmpty else { return (summary, .parsed(summary)) }
        return (summary, .partial(summary, omitted: omitted, sites))
      }
      // What was left out did not check: the bodies alone, when that was tried.
      let summary = FileIndexer.index(
        source, isGenerated: isGenerated, accessors: accessors, keepingMembersOf: keep, skippingBodies: sites != nil)
      return (summary, .parsed(summary))
    }.1
  }

  /// Parses `count` bytes of source with `work` within the byte budget, its time counted by `meter`.
  /// A syntax tree takes 30–50 times its file's size: two of the largest generated files parsed at
  /// once would set the peak. The files being parsed together stay within the budget (a tree kept
  /// for the planners outlives it).
  private static func metered<Kept>(_ count: Int, _ meter: ParseMeter, _ work: () -> (FileSummary, Kept)) -> (FileSummary, Kept) {
    PhasedScan.parsing.acquire(count)
    defer { PhasedScan.parsing.release(count) }
    let started = ContinuousClock.now
    let result = work()
    meter.add(ContinuousClock.now - started, lines: result.0.lineCount)
    return result
  }

  private let meter: ParseMeter

  /// At most this many bytes of source are parsed at once (and any one file, however large).
  private static let parsing = ByteBudget(limit: 2_500_000)

  private static func phase(of states: [State]) -> Phase {
    var phase = Phase(files: 0, lines: 0)
    for summary in states.lazy.compactMap(\.parsed) {
      phase.files += 1
      phase.lines += summary.lineCount
    }
    return phase
  }

  /// The paths of the files parsed, sorted.
  public var parsedPaths: [String] {
    zip(paths, states).compactMap { path, state in state.parsed == nil ? nil : path }
  }

  /// The paths of the files parsed in part: some of their top-level declarations left out whole
  /// (`parseOmitting`), and never asked about since.
  public var partlyParsedPaths: [String] {
    zip(paths, states).compactMap { path, state in
      if case .partial = state { return path }
      return nil
    }
  }

  /// Files and lines parsed in any phase, counting each file once.
  public var parsed: Phase {
    PhasedScan.phase(of: states)
  }
}
