import DesingletonCore
import DesingletonIndex
import DesingletonPlanner
import DesingletonPrinter
import SwiftParser
import SwiftSyntax

/// Runs every command's library entry point in memory on a set of files, the way the CLI runs them
/// (a fresh `Project` per command, `Printer.render` over what the planner read), and lists what went
/// wrong. Acceptable outcomes: a `Refusal` with at least one diagnostic, none of them an internal error,
/// each pointing inside its file; or outputs whose `.swift` files have no more syntax errors than their
/// originals (new files: none). Where `extract-protocol` succeeds, `inject --all` runs on its result and
/// `finish` on that, so the later commands also see code shaped the way the earlier ones leave it.
/// With a `typeChecker`, every output whose input type-checks must type-check too: a command that would
/// exit 0 and write code that does not compile is a problem.
final class FuzzPipeline {
  /// The type `finish --root` names.
  let compositionRoot: String
  /// At most this many singletons are run through the commands (chosen with `selectionSeed`); 0: all.
  let singletonLimit: Int
  let selectionSeed: UInt64
  /// Whether to run `inject` and `finish` on what `extract-protocol` made (costs two more index builds).
  let chain: Bool
  /// Singletons chosen before the random ones, and run first.
  let focus: [String]
  let typeChecker: FuzzTypeChecker?

  /// What happened, over every run of this pipeline.
  private(set) var commands = 0
  private(set) var refusals = 0
  private(set) var changes = 0
  /// Outputs type-checked (whether or not the compiler ran: identical code is checked once).
  private(set) var typeChecks = 0

  init(
    compositionRoot: String,
    singletonLimit: Int = 0,
    selectionSeed: UInt64 = 0,
    chain: Bool = true,
    focus: [String] = [],
    typeChecker: FuzzTypeChecker? = nil
  ) {
    self.compositionRoot = compositionRoot
    self.singletonLimit = singletonLimit
    self.selectionSeed = selectionSeed
    self.chain = chain
    self.focus = focus
    self.typeChecker = typeChecker
  }

  /// Problems found, each naming the command and singleton.
  func problems(in files: [FuzzFile]) -> [String] {
    var problems: [String] = []
    let sources = files.map { SourceText(path: $0.path, bytes: $0.bytes) }
    let index = IndexBuilder().build(sources: sources)
    let byPath = Dictionary(sources.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })

    commands += 1
    do {
      let report = try ScanReport(project: Project(index: index, sources: byPath))
      _ = report.json()
      _ = report.text()
    } catch {
      refusals += 1
      problems += refusalProblems(error, command: "scan", sources: byPath)
    }
    var chosen = index.singletons
    if singletonLimit > 0 && chosen.count > singletonLimit {
      var random = FuzzRandom(seed: selectionSeed)
      chosen.shuffle(using: &random)
      chosen = chosen.filter { focus.contains($0.typeName) } + chosen.filter { !focus.contains($0.typeName) }
      chosen = chosen.prefix(singletonLimit).sorted { $0.typeName < $1.typeName }
    }
    // The chain runs for the first singleton extracted: one the mutations made consumers for, if any.
    chosen = chosen.filter { focus.contains($0.typeName) } + chosen.filter { !focus.contains($0.typeName) }
    var chained = false
    for singleton in chosen {
      let name = singleton.typeName
      var extracted: [String: SourceText]?
      for moveDerived in [false, true] {
        let command = "extract-protocol --singleton \(name)" + (moveDerived ? " --move-derived" : "")
        let result = attempt(command, sources: byPath, index: index) { project in
          try ExtractProtocolPlanner.plan(
            singleton: singleton,
            options: ExtractProtocolOptions(moveDerived: moveDerived),
            project: project
          )
        }
        problems += result.problems
        if !moveDerived, let outputs = result.outputs, !outputs.isEmpty { extracted = applying(outputs, to: byPath) }
      }
      _ = inject(singleton: name, sources: byPath, index: index, after: nil, problems: &problems)
      finish(singleton: name, sources: byPath, index: index, after: nil, problems: &problems)
      // The chain re-indexes twice; once per mutant is enough.
      if chain, !chained, let extracted {
        chained = true
        let afterExtract = "after extract-protocol --singleton \(name)"
        let injected = inject(singleton: name, sources: extracted, index: nil, after: afterExtract, problems: &problems)
        finish(
          singleton: name,
          sources: injected ?? extracted,
          index: nil,
          after: injected == nil ? afterExtract : afterExtract + " and inject --all",
          problems: &problems
        )
      }
    }
    return problems
  }

  /// Runs `inject --all`; returns the sources with its outputs applied when it changed something.
  private func inject(
    singleton name: String,
    sources: [String: SourceText],
    index: Index?,
    after: String?,
    problems: inout [String]
  ) -> [String: SourceText]? {
    let command = "inject --all --singleton \(name)" + (after.map { " (\($0))" } ?? "")
    let result = attempt(command, sources: sources, index: index) { project in
      guard let singleton = project.index.singletons.first(where: { $0.typeName == name }) else { return Plan() }
      return try InjectPlanner.plan(singleton: singleton, options: InjectOptions(), project: project)
    }
    problems += result.problems
    guard let outputs = result.outputs, !outputs.isEmpty else { return nil }
    return applying(outputs, to: sources)
  }

  private func finish(
    singleton name: String,
    sources: [String: SourceText],
    index: Index?,
    after: String?,
    problems: inout [String]
  ) {
    let command =
      "finish --root \(compositionRoot) --include-tests --singleton \(name)" + (after.map { " (\($0))" } ?? "")
    let result = attempt(command, sources: sources, index: index) { project in
      guard let singleton = project.index.singletons.first(where: { $0.typeName == name }) else { return Plan() }
      return try FinishPlanner.plan(
        singleton: singleton,
        options: FinishOptions(root: compositionRoot, includeTests: true),
        project: project
      )
    }
    problems += result.problems
  }

  /// Plans with a fresh project over `sources` (indexed again unless `index` is given), renders the plan and
  /// checks the outputs; a refusal is checked instead.
  private func attempt(
    _ command: String,
    sources: [String: SourceText],
    index: Index?,
    plan: (Project) throws -> Plan
  ) -> (problems: [String], outputs: [FileOutput]?) {
    let index = index ?? IndexBuilder().build(sources: sources.values.sorted { $0.path < $1.path })
    let project = Project(index: index, sources: sources)
    let outputs: [FileOutput]
    let planned: Plan
    commands += 1
    do {
      planned = try plan(project)
      let printer = Printer(root: ".")
      outputs = try printer.render(planned, sources: project.sources(of: Array(planned.edits.keys) + Array(planned.newFiles.keys)))
      _ = printer.diff(outputs)
    } catch {
      refusals += 1
      return (refusalProblems(error, command: command, sources: sources), nil)
    }
    if !outputs.isEmpty { changes += 1 }
    var problems: [String] = []
    // A rewritten file parsed from the tree the planner read, with the plan's edits, is the tree of
    // its whole text (what checking a plan on the rewritten project indexes).
    for output in outputs where output.original != nil && output.path.hasSuffix(".swift") {
      guard let before = try? project.file(output.path) else { continue }
      let new = SourceText(path: output.path, bytes: output.new)
      let edited = ParsedFile(source: new, editing: before, with: planned.edits[output.path] ?? [])
      if !edited.isFromEdits || IncrementalParseTests.shape(edited.tree) != IncrementalParseTests.shape(ParsedFile(source: new).tree) {
        problems.append("\(command): \(output.path) parsed from its tree and the plan's edits is not the tree of its text")
      }
    }
    for output in outputs where output.path.hasSuffix(".swift") {
      let after = FuzzSyntax.errors(in: output.new)
      let before = output.original.map { errorCount(of: $0.bytes) } ?? 0
      if after.count > before {
        let first = SourceText(path: output.path, bytes: output.new).location(ofOffset: after.first ?? 0)
        problems.append(
          "\(command): \(output.original == nil ? "new file" : "output") \(output.path) has \(after.count) syntax errors "
            + "(the original \(before)); the first at \(first)\n" + excerpt(output.new, around: first.line)
        )
      }
    }
    if problems.isEmpty, !outputs.isEmpty, let typeChecker {
      problems += typeProblems(command: command, sources: sources, outputs: outputs, checker: typeChecker)
    }
    return (problems, outputs)
  }

  /// The output must type-check when the input does; an input that does not was either skipped by the
  /// caller or is an earlier command's output, already reported.
  private func typeProblems(
    command: String,
    sources: [String: SourceText],
    outputs: [FileOutput],
    checker: FuzzTypeChecker
  ) -> [String] {
    let result = applying(outputs, to: sources)
    let after = checker.moduleFiles(result)
    guard after != checker.moduleFiles(sources), checker.errors(in: sources).isEmpty else { return [] }
    typeChecks += 1
    let errors = checker.errors(of: after)
    if errors.isEmpty { return [] }
    let changed = outputs.map(\.path).filter { $0.hasSuffix(".swift") }.sorted()
    return [
      "\(command): the rewrite does not type-check (its input does); changed \(changed.joined(separator: ", ")); "
        + "first errors:\n\(FuzzTypeChecker.firstErrors(errors))"
    ]
  }

  private var errorCounts: [[UInt8]: Int] = [:]

  /// Originals are parsed again by every command that changes them; count their errors once.
  private func errorCount(of bytes: [UInt8]) -> Int {
    if let known = errorCounts[bytes] { return known }
    let count = FuzzSyntax.errors(in: bytes).count
    errorCounts[bytes] = count
    return count
  }

  private func refusalProblems(_ error: any Error, command: String, sources: [String: SourceText]) -> [String] {
    guard let refusal = error as? Refusal else {
      return ["\(command): threw \(type(of: error)), not a Refusal: \(error)"]
    }
    if refusal.diagnostics.isEmpty { return ["\(command): a refusal without diagnostics"] }
    var problems: [String] = []
    for diagnostic in refusal.diagnostics {
      if diagnostic.message.contains("internal error") {
        problems.append("\(command): refused with an internal error: \(diagnostic)")
      }
      guard let location = diagnostic.location, let source = sources[location.path] else { continue }
      let lines = source.lineStarts.count
      let lineLength =
        location.line >= 1 && location.line <= lines
        ? (location.line < lines ? source.lineStarts[location.line] : source.bytes.count)
          - source.lineStarts[location.line - 1]
        : 0
      if location.line < 1 || location.line > lines || location.column < 1 || location.column > lineLength + 1 {
        problems.append("\(command): a diagnostic points outside its file (\(lines) lines): \(diagnostic)")
      }
    }
    return problems
  }

  private func applying(_ outputs: [FileOutput], to sources: [String: SourceText]) -> [String: SourceText] {
    var result = sources
    for output in outputs { result[output.path] = SourceText(path: output.path, bytes: output.new) }
    return result
  }

  private func excerpt(_ bytes: [UInt8], around line: Int) -> String {
    let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    let range = max(0, line - 4)..<min(lines.count, line + 3)
    return range.map { String(format: "%5d | ", $0 + 1) + lines[$0] }.joined(separator: "\n")
  }
}

/// Syntax errors as SwiftParser reports them: missing tokens, unexpected nodes and tokens the lexer
/// flags as errors. Written here, apart from the Printer's own check, so the two can disagree.
enum FuzzSyntax {
  /// The UTF-8 offsets of the errors, in no particular order.
  static func errors(in bytes: [UInt8]) -> [Int] {
    let tree = bytes.withUnsafeBufferPointer { Parser.parse(source: $0) }
    guard tree.hasError else { return [] }
    var offsets: [Int] = []
    var pending: [Syntax] = [Syntax(tree)]
    while let node = pending.popLast() {
      if let token = node.as(TokenSyntax.self) {
        if token.presence == .missing {
          offsets.append(token.positionAfterSkippingLeadingTrivia.utf8Offset)
        } else if let diagnostic = token.tokenDiagnostic, diagnostic.severity == .error {
          offsets.append(token.position.utf8Offset + Int(diagnostic.byteOffset))
        }
      } else if node.is(UnexpectedNodesSyntax.self) {
        offsets.append(node.positionAfterSkippingLeadingTrivia.utf8Offset)
      } else {
        pending.append(contentsOf: node.children(viewMode: .all).filter(\.hasError))
      }
    }
    return offsets.sorted()
  }
}
