import DesingletonCore

/// Writes a set of file outputs all or nothing.
///
/// 1. Check, touching nothing: every file to replace still has the bytes it was read with, is a regular
///    file with a write bit set, in a writable directory; every file to create is not there yet (or is
///    there with the same bytes: skipped), and its nearest existing ancestor is a writable directory.
/// 2. Prepare: create missing directories, write every output to a hidden temporary file beside its
///    target (with the original's permission bits).
/// 3. Commit, file by file: check the original once more, give it a second (hidden) name with a hard
///    link, then rename the temporary file over it; a new file is linked into place, which fails rather
///    than overwrite. (Where hard links are not allowed, the original is renamed aside instead, and a
///    new file is renamed into place after checking that nothing is there.)
///
/// Every step that changed the disk is recorded in an undo journal as soon as it succeeds (a failed
/// step changed nothing: each is a single create, link or rename). If any step fails, the
/// journal is played backwards: backups are renamed over the replaced files (restoring the original
/// inode, bytes and permissions), created files, temporary files and directories are removed. On
/// success only the backups are removed. A `verify` step (the user's build, `--verify`) runs after
/// the last commit and before the backups go; if it fails, the journal is played backwards too.
struct FileTransaction {
  let fileSystem: any FileSystem
  /// Where the transaction writes down what it is about to change, before the first change, so that
  /// a run ended by `kill -9` or a power loss can be undone by the next one (`recover`); nil: no journal.
  var journalPath: String? = nil

  private enum Step {
    case replace(path: String, original: [UInt8], status: FileStatus, new: [UInt8])
    case create(path: String, new: [UInt8], missingDirectories: [String])

    var path: String {
      switch self {
      case .replace(let path, _, _, _), .create(let path, _, _): return path
      }
    }
  }

  private enum Undo {
    case createdDirectory(String)
    case temporaryFile(String)
    /// The original has a second name `backup` and is still in place.
    case linkedBackup(path: String, backup: String)
    /// The original lives on only as `backup`.
    case replaced(path: String, backup: String)
    case createdFile(String)
  }

  /// `verify` runs once every file is in place, before the backups are removed; if it throws, the
  /// journal is played backwards as for a failed step. A SIGINT or SIGTERM noted by `Interruption`
  /// ends the write between two steps the same way, and `Interrupted` is thrown.
  func run(_ outputs: [FileOutput], verify: () throws -> Void = {}) throws {
    let steps = try check(outputs)
    if steps.isEmpty { return }
    let names = steps.map { (temporary: hiddenSibling(of: $0.path, suffix: "tmp"), backup: hiddenSibling(of: $0.path, suffix: "backup")) }
    var journal: [Undo] = []
    do {
      try Interruption.check()
      try writeJournal(steps, names: names, committed: false)
      let temporaries = try prepare(steps, names: names.map(\.temporary), journal: &journal)
      for (number, (step, temporary)) in zip(steps, temporaries).enumerated() {
        try Interruption.check()
        try commit(step, temporary: temporary, backup: names[number].backup, journal: &journal)
      }
      try Interruption.check()
      try verify()
      try Interruption.check()
    } catch {
      let unrestored = rollBack(journal)
      if unrestored.isEmpty { removeJournal() }
      if var interrupted = error as? Interrupted {
        interrupted.problems += unrestored.map(\.description)
        throw interrupted
      }
      if let failure = error as? BuildFailure, unrestored.isEmpty { throw failure }
      var diagnostics: [Diagnostic]
      if let refusal = error as? Refusal {
        diagnostics = refusal.diagnostics
      } else if let failure = error as? BuildFailure {
        diagnostics = failure.diagnostics
      } else {
        diagnostics = [.error("\(error); nothing was written")]
      }
      diagnostics += unrestored
      throw Refusal(diagnostics)
    }
    // The commit point: from here on the new files stay, whatever happens to the process.
    try? writeJournal(steps, names: names, committed: true)
    for case .replaced(_, let backup) in journal {
      // The new files are in place; a backup that cannot be removed is only clutter.
      try? fileSystem.removeFile(backup)
    }
    removeJournal()
  }

  // MARK: - Journal

  /// The journal's lines: a header saying whether the write was committed, then one line per name
  /// the write may create (paths absolute, tab, newline and `%` escaped as `%09`, `%0A`, `%25`).
  private func writeJournal(_ steps: [Step], names: [(temporary: String, backup: String)], committed: Bool) throws {
    guard let journalPath else { return }
    let directory = fileSystem.currentDirectory() ?? "/"
    func field(_ path: String) -> String { JournalLine.escape(PathName.absolute(path, in: directory)) }
    var lines = [JournalLine.header + (committed ? " committed" : " pending")]
    for (step, name) in zip(steps, names) {
      lines.append("temporary\t" + field(name.temporary))
      switch step {
      case .replace(let path, _, _, _):
        lines.append("backup\t" + field(name.backup) + "\t" + field(path))
      case .create(let path, let new, let missingDirectories):
        lines.append("created\t\(new.count)\t\(JournalLine.hash(new))\t" + field(path))
        for missing in missingDirectories { lines.append("directory\t" + field(missing)) }
      }
    }
    let temporary = journalPath + ".tmp"
    try? fileSystem.removeFile(temporary)
    try fileSystem.createFile(temporary, contents: Array((lines.joined(separator: "\n") + "\n").utf8), permissions: nil, owner: nil)
    try fileSystem.rename(temporary, to: journalPath)
  }

  private func removeJournal() {
    guard let journalPath else { return }
    try? fileSystem.removeFile(journalPath)
  }

  /// Undoes what an interrupted write left, as its journal says: a pending write is rolled back
  /// (backups renamed over the files they saved, files it created removed when they still hold
  /// what it wrote, its temporary files and empty new directories removed); a committed one only
  /// loses its backups. Returns the paths restored, and nil when there is no journal.
  static func recover(journal journalPath: String, fileSystem: any FileSystem) throws -> [String]? {
    guard try fileSystem.status(journalPath, followingLinks: false) != nil else { return nil }
    let text = String(decoding: try fileSystem.read(journalPath), as: UTF8.self)
    var lines = text.split(separator: "\n").map(String.init)
    guard let header = lines.first, header.hasPrefix(JournalLine.header) else {
      throw Refusal("'\(journalPath)' is not a journal this desingleton can read; remove it to go on")
    }
    lines.removeFirst()
    let committed = header.hasSuffix(" committed")
    var restored: [String] = []
    var directories: [String] = []
    for line in lines {
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map { JournalLine.unescape(String($0)) }
      switch (fields.first, fields.count) {
      case ("temporary", 2):
        try? fileSystem.removeFile(fields[1])
      case ("backup", 3):
        guard try fileSystem.status(fields[1], followingLinks: false) != nil else { continue }
        if !committed {
          try fileSystem.rename(fields[1], to: fields[2])
          restored.append(fields[2])
        }
        // A rename between two names of one file does nothing: the backup was a second link.
        if try fileSystem.status(fields[1], followingLinks: false) != nil { try fileSystem.removeFile(fields[1]) }
      case ("created", 4):
        guard !committed, try fileSystem.status(fields[3], followingLinks: false)?.kind == .regular else { continue }
        let bytes = try fileSystem.read(fields[3])
        if String(bytes.count) == fields[1] && String(JournalLine.hash(bytes)) == fields[2] {
          try fileSystem.removeFile(fields[3])
          restored.append(fields[3])
        }
      case ("directory", 2):
        if !committed { directories.append(fields[1]) }
      default:
        throw Refusal("'\(journalPath)' has a line this desingleton cannot read: '\(line)'; remove it to go on")
      }
    }
    // Deepest first; a directory something else was put in stays.
    for directory in directories.sorted(by: { $0.count > $1.count }) { try? fileSystem.removeDirectory(directory) }
    try fileSystem.removeFile(journalPath)
    return restored
  }

  // MARK: - Check

  private func check(_ outputs: [FileOutput]) throws -> [Step] {
    var problems: [Diagnostic] = []
    var steps: [Step] = []
    var seen: Set<String> = []
    let directory = fileSystem.currentDirectory() ?? "/"
    for output in outputs.sorted(by: { $0.path < $1.path }) {
      let path = output.path
      if !seen.insert(PathName.absolute(path, in: directory)).inserted {
        problems.append(.error("internal error: '\(path)' is written twice; nothing was written"))
        continue
      }
      do {
        if let original = output.original {
          if let step = try checkReplacement(path, original: original.bytes, new: output.new) { steps.append(step) }
        } else {
          if let step = try checkCreation(path, new: output.new) { steps.append(step) }
        }
      } catch let refusal as Refusal {
        problems += refusal.diagnostics
      } catch {
        problems.append(.error("\(error); nothing was written"))
      }
    }
    if !problems.isEmpty { throw Refusal(problems) }
    return steps
  }

  private func checkReplacement(_ path: String, original: [UInt8], new: [UInt8]) throws -> Step? {
    let status = try verifyUnchanged(path, original: original)
    let directory = PathName.parent(of: path)
    if !fileSystem.isWritable(directory) {
      throw Refusal("cannot replace '\(path)': its directory '\(directory)' is not writable; nothing was written")
    }
    return original == new ? nil : .replace(path: path, original: original, status: status, new: new)
  }

  /// Refuses unless `path` is still a writable regular file holding exactly `original`.
  @discardableResult
  private func verifyUnchanged(_ path: String, original: [UInt8]) throws -> FileStatus {
    guard let status = try fileSystem.status(path, followingLinks: false) else {
      throw Refusal("'\(path)' changed on disk since it was read: it is gone; nothing was written")
    }
    switch status.kind {
    case .regular: break
    case .symbolicLink:
      throw Refusal("'\(path)' is a symbolic link; edit the file it points to instead; nothing was written")
    case .directory, .other:
      throw Refusal("'\(path)' changed on disk since it was read: it is no longer a regular file; nothing was written")
    }
    if status.isReadOnly || !fileSystem.isWritable(path) {
      throw Refusal("'\(path)' is read-only; make it writable and run again; nothing was written")
    }
    if try fileSystem.read(path) != original {
      throw Refusal("'\(path)' changed on disk since it was read; run again; nothing was written")
    }
    return status
  }

  private func checkCreation(_ path: String, new: [UInt8]) throws -> Step? {
    if let status = try fileSystem.status(path, followingLinks: false) {
      switch status.kind {
      case .regular:
        if try fileSystem.read(path) == new { return nil }
        throw Refusal("cannot create '\(path)': a different file is already there; nothing was written")
      case .directory:
        throw Refusal("cannot create '\(path)': a directory is in the way; nothing was written")
      case .symbolicLink, .other:
        throw Refusal("cannot create '\(path)': something else is already there; nothing was written")
      }
    }
    var missing: [String] = []
    var ancestor = PathName.parent(of: path)
    while true {
      guard let status = try fileSystem.status(ancestor, followingLinks: true) else {
        missing.insert(ancestor, at: 0)
        let next = PathName.parent(of: ancestor)
        if next == ancestor { break }
        ancestor = next
        continue
      }
      guard status.kind == .directory else {
        throw Refusal("cannot create '\(path)': '\(ancestor)' is not a directory; nothing was written")
      }
      if !fileSystem.isWritable(ancestor) {
        throw Refusal("cannot create '\(path)': the directory '\(ancestor)' is not writable; nothing was written")
      }
      break
    }
    return .create(path: path, new: new, missingDirectories: missing)
  }

  // MARK: - Prepare and commit

  /// Creates missing directories and one temporary file per step; returns the temporary files' paths.
  private func prepare(_ steps: [Step], names: [String], journal: inout [Undo]) throws -> [String] {
    var temporaries: [String] = []
    for (step, temporary) in zip(steps, names) {
      switch step {
      case .replace(_, _, let status, let new):
        try fileSystem.createFile(
          temporary,
          contents: new,
          permissions: status.permissions,
          owner: (status.owner, status.group)
        )
      case .create(_, let new, let missingDirectories):
        // Another new file may have created some of them already.
        for directory in missingDirectories {
          if try fileSystem.status(directory, followingLinks: true) != nil { continue }
          try fileSystem.makeDirectory(directory)
          journal.append(.createdDirectory(directory))
        }
        try fileSystem.createFile(temporary, contents: new, permissions: nil, owner: nil)
      }
      journal.append(.temporaryFile(temporary))
      temporaries.append(temporary)
    }
    return temporaries
  }

  private func commit(_ step: Step, temporary: String, backup: String, journal: inout [Undo]) throws {
    switch step {
    case .replace(let path, let original, _, _):
      // The check ran before the temporary files were written; look once more right before the swap.
      try verifyUnchanged(path, original: original)
      let entry = journal.count
      if try link(path, to: backup) {
        journal.append(.linkedBackup(path: path, backup: backup))
      } else {
        // No hard links on this file system: move the original aside (it is missing for a moment).
        try fileSystem.rename(path, to: backup)
        journal.append(.replaced(path: path, backup: backup))
      }
      try fileSystem.rename(temporary, to: path)
      journal[entry] = .replaced(path: path, backup: backup)
      forget(temporary, in: &journal)
    case .create(let path, _, _):
      // A link, unlike a rename, fails instead of replacing a file that appeared since the check.
      do {
        if try link(temporary, to: path) {
          journal.append(.createdFile(path))
          try fileSystem.removeFile(temporary)
          forget(temporary, in: &journal)
          return
        }
      } catch let error as FileSystemError where error.meansAlreadyExists {
        throw Refusal("cannot create '\(path)': something appeared there during the write; nothing was written")
      }
      if try fileSystem.status(path, followingLinks: false) != nil {
        throw Refusal("cannot create '\(path)': something appeared there during the write; nothing was written")
      }
      try fileSystem.rename(temporary, to: path)
      forget(temporary, in: &journal)
      journal.append(.createdFile(path))
    }
  }

  /// Links `existingPath` to `newPath`; false when the file system has no hard links for it.
  private func link(_ existingPath: String, to newPath: String) throws -> Bool {
    do {
      try fileSystem.link(existingPath, to: newPath)
      return true
    } catch let error as FileSystemError where error.meansLinksUnsupported {
      return false
    }
  }

  /// Drops the journal entry of a temporary file that no longer exists under its temporary name.
  private func forget(_ temporary: String, in journal: inout [Undo]) {
    journal.removeAll { entry in
      if case .temporaryFile(let path) = entry { return path == temporary }
      return false
    }
  }

  /// Undoes the journal backwards; returns a diagnostic for every step that could not be undone.
  private func rollBack(_ journal: [Undo]) -> [Diagnostic] {
    var problems: [Diagnostic] = []
    for entry in journal.reversed() {
      do {
        switch entry {
        case .createdDirectory(let path): try fileSystem.removeDirectory(path)
        case .temporaryFile(let path), .createdFile(let path): try fileSystem.removeFile(path)
        case .linkedBackup(_, let backup): try fileSystem.removeFile(backup)
        case .replaced(let path, let backup):
          do {
            try fileSystem.rename(backup, to: path)
          } catch {
            problems.append(
              .error("could not restore '\(path)' (\(error)); its original content is in '\(backup)'")
            )
          }
        }
      } catch {
        problems.append(.error("could not clean up after the failed write: \(error)"))
      }
    }
    return problems
  }

  /// `dir/.name.desingleton-<random>.<suffix>`: hidden, beside `path` so a rename stays on one file system.
  private func hiddenSibling(of path: String, suffix: String) -> String {
    let directory = PathName.parent(of: path)
    let unique = String(UInt64.random(in: 0...UInt64.max), radix: 36)
    let name = ".\(PathName.lastComponent(of: path)).desingleton-\(unique).\(suffix)"
    guard path.contains("/") else { return name }
    return (directory == "/" ? "/" : directory + "/") + name
  }
}

/// The journal's vocabulary.
enum JournalLine {
  static let header = "desingleton journal 1"

  static func escape(_ path: String) -> String {
    var result = ""
    for character in path {
      switch character {
      case "%": result += "%25"
      case "\t": result += "%09"
      case "\n": result += "%0A"
      default: result.append(character)
      }
    }
    return result
  }

  static func unescape(_ field: String) -> String {
    field.replacingAll("%09", with: "\t").replacingAll("%0A", with: "\n").replacingAll("%25", with: "%")
  }

  /// FNV-1a over the bytes: enough to tell the file a write created from one put there since.
  static func hash(_ bytes: [UInt8]) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash &*= 0x100_0000_01b3
    }
    return hash
  }
}

extension String {
  fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
    guard contains(target) else { return self }
    return split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}
