import DesingletonCore
import SwiftSyntax

/// The last stage: turns a plan into file outputs, shows them as a diff, writes them as one transaction.
public struct Printer: Sendable {
  /// The absolute directory that diff paths are relative to.
  public let root: String
  /// The absolute current directory, against which relative paths are resolved.
  let currentDirectory: String
  let fileSystem: any FileSystem

  /// `root`: the directory diff paths are relative to (a file stands for its directory). A relative
  /// path is resolved against the current directory.
  public init(root: String) {
    self.init(root: root, fileSystem: PosixFileSystem())
  }

  init(root: String, fileSystem: any FileSystem) {
    let currentDirectory = fileSystem.currentDirectory() ?? "/"
    var root = PathName.absolute(root, in: currentDirectory)
    if let status = try? fileSystem.status(root, followingLinks: true), status.kind != .directory {
      root = PathName.parent(of: root)
    }
    self.root = root
    self.currentDirectory = currentDirectory
    self.fileSystem = fileSystem
  }

  /// Applies every file's edits to its source and adds the new files, sorted by path. Outputs equal to
  /// their original are dropped. Every `.swift` output is parsed again: one with a syntax error its
  /// original did not have (more errors than the original) is refused, at the first error in the new text.
  ///
  /// `sources` maps each path the plan edits to the file as it was read.
  public func render(_ plan: Plan, sources: [String: SourceText]) throws -> [FileOutput] {
    try render(plan, sources: sources) { _ in }.outputs
  }

  /// Renders as `render(_:sources:)` does, running `parse` on the outputs before they are checked,
  /// when applying the edits found no problem: what it parses and hands to `remember` is not parsed
  /// again for the check.
  public func render<Parsed>(
    _ plan: Plan, sources: [String: SourceText], parsingFirst parse: ([FileOutput]) throws -> Parsed
  ) throws -> (outputs: [FileOutput], parsed: Parsed) {
    let (outputs, applying) = try apply(plan, sources: sources)
    var problems = applying
    // What `parse` throws counts after the check's problems, as if it had run after the check.
    let parsed = problems.isEmpty ? Result { try parse(outputs) } : nil
    // Each output parsed on its own thread; the problems in path order.
    let checked = outputs.filter { $0.path.hasSuffix(".swift") }
    problems += parallelMap(count: checked.count) { [self] in parseProblem(in: checked[$0]) }.compactMap { $0 }
    guard problems.isEmpty, let parsed else { throw Refusal(problems) }
    return (outputs, try parsed.get())
  }

  /// The syntax tree of a Swift text, parsed by the caller from exactly `bytes`: checking a rendered
  /// output with these bytes reads it instead of parsing them again.
  public static func remember(_ tree: SourceFileSyntax, of bytes: [UInt8]) {
    SyntaxCheck.remember(tree, of: bytes)
  }

  /// Every file's edits applied and the new files added, sorted by path, unchecked; the problems
  /// applying them met.
  private func apply(_ plan: Plan, sources: [String: SourceText]) throws -> (outputs: [FileOutput], problems: [Diagnostic]) {
    var problems: [Diagnostic] = []
    var outputs: [FileOutput] = []
    for (path, edits) in plan.edits.sorted(by: { $0.key < $1.key }) where !edits.isEmpty {
      guard let source = sources[path] else {
        problems.append(.error("internal error: the plan edits '\(path)', which was not loaded; nothing was written"))
        continue
      }
      if plan.newFiles[path] != nil {
        problems.append(.error("internal error: the plan both edits and creates '\(path)'; nothing was written"))
        continue
      }
      do {
        let new = try EditApplier.apply(edits, to: source)
        if new != source.bytes { outputs.append(FileOutput(path: path, original: source, new: new)) }
      } catch let refusal as Refusal {
        problems += refusal.diagnostics
      }
    }
    for (path, text) in plan.newFiles.sorted(by: { $0.key < $1.key }) where plan.edits[path]?.isEmpty ?? true {
      let new = Array(text.utf8)
      if let existing = sources[path] {
        if existing.bytes != new {
          problems.append(.error("cannot create '\(path)': the file already exists; nothing was written"))
        }
        continue
      }
      outputs.append(FileOutput(path: path, original: nil, new: new))
    }
    outputs.sort { $0.path < $1.path }
    return (outputs, problems)
  }

  private func parseProblem(in output: FileOutput) -> Diagnostic? {
    let check = SyntaxCheck.of(output.new)
    guard check.errorCount > 0 else { return nil }
    if let original = output.original, check.errorCount <= SyntaxCheck.of(original.bytes).errorCount { return nil }
    let location = SourceText(path: output.path, bytes: output.new).location(ofOffset: check.firstErrorOffset ?? 0)
    let what = output.original == nil ? "the new file" : "the rewritten file"
    return .error("\(what) would not parse; nothing was written", at: location)
  }

  /// The whole diff, files in sorted path order, each named by its path relative to `root`. Each
  /// file's diff is made on its own thread.
  public func diff(_ outputs: [FileOutput]) -> String {
    let sorted = outputs.sorted { $0.path < $1.path }
    return parallelMap(count: sorted.count) { [self] in sorted[$0].diff(as: displayPath(of: sorted[$0].path)) }.joined()
  }

  /// `path` relative to `root`.
  public func displayPath(of path: String) -> String {
    PathName.relative(PathName.absolute(path, in: currentDirectory), to: root)
  }

  /// Writes every output, all or nothing; see `FileTransaction`. Refuses, before touching anything,
  /// when a file changed on disk since it was read, is read-only or not a regular file, or a new file
  /// cannot be created; a failure midway restores every file already replaced and removes what was
  /// created. Does nothing when `outputs` is empty.
  public func write(_ outputs: [FileOutput]) throws {
    try FileTransaction(fileSystem: fileSystem).run(outputs)
  }

  /// Writes every output as `write(_:)` does, then runs `verify` with the new files in place; if it
  /// throws, every file is restored byte for byte (created files and directories removed) and its
  /// error is rethrown, with any file that could not be restored. With a `journal` path, what the
  /// write is about to change is written there first and removed at the end, so that a process
  /// killed midway leaves a record `recover(journal:)` undoes.
  /// The write holds the project's lock (`ProjectLock`) until it has ended: a write or a recovery
  /// started meanwhile is refused, and this one is refused while another holds it.
  public func write(_ outputs: [FileOutput], journal: String? = nil, verify: () throws -> Void) throws {
    guard let journal else { return try FileTransaction(fileSystem: fileSystem).run(outputs, verify: verify) }
    try ProjectLock.holding(journal: journal) {
      try FileTransaction(fileSystem: fileSystem, journalPath: journal).run(outputs, verify: verify)
    }
  }

  /// Undoes what a write killed midway left, as its journal says; the paths restored, or nil when
  /// there is no journal. A journal whose write is still under way (its lock is held) is left
  /// alone, and the command is refused.
  public static func recover(journal: String) throws -> [String]? {
    let fileSystem = PosixFileSystem()
    guard try fileSystem.status(journal, followingLinks: false) != nil else { return nil }
    return try ProjectLock.holding(journal: journal) {
      try FileTransaction.recover(journal: journal, fileSystem: fileSystem)
    }
  }
}
