import DesingletonCore
import Foundation

/// `--split-by ... --patch-dir DIR`: a series of plans, each holding the one before it, as patches that
/// `git apply` takes one after another, written to numbered files so that `ls` lists them in order.
public struct PatchWriter: Sendable {
  public let printer: Printer

  public init(printer: Printer) {
    self.printer = printer
  }

  /// Per plan, the diff from the files as the previous plan leaves them (the first: from the files
  /// as read). Each plan is rendered and checked like a whole one, but for the files whose edits
  /// and new text are those of the plan before: they render and check as they did there.
  public func patches(_ plans: [Plan], sources: [String: SourceText]) throws -> [String] {
    var state: [String: [UInt8]] = [:]
    var patches: [String] = []
    var before = Plan()
    for plan in plans {
      let changed = Set(plan.edits.keys).union(plan.newFiles.keys).filter { path in
        plan.edits[path] != before.edits[path] || plan.newFiles[path] != before.newFiles[path]
      }
      var step = plan
      step.edits = plan.edits.filter { changed.contains($0.key) }
      step.newFiles = plan.newFiles.filter { changed.contains($0.key) }
      before = plan
      let outputs = try printer.render(step, sources: sources)
      var patch = ""
      for output in outputs {
        let old = state[output.path] ?? output.original?.bytes
        if old == output.new { continue }
        patch += UnifiedDiff.render(path: printer.displayPath(of: output.path), old: old, new: output.new)
        state[output.path] = output.new
      }
      patches.append(patch)
    }
    return patches
  }

  /// Writes `NNN-name.patch` files into `directory` (created if needed), numbered after the highest
  /// number already there, so that the patches of a later command list after an earlier one's.
  /// Empty patches are left out. Returns the paths written.
  public func write(_ patches: [(name: String, text: String)], into directory: String) throws -> [String] {
    let manager = FileManager.default
    do {
      try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
    } catch {
      throw Refusal("cannot create the patch directory '\(directory)': \(error.localizedDescription)")
    }
    let existing = (try? manager.contentsOfDirectory(atPath: directory)) ?? []
    var number =
      existing.compactMap { name -> Int? in
        guard name.hasSuffix(".patch"), let dash = name.firstIndex(of: "-") else { return nil }
        return Int(name[..<dash])
      }.max() ?? 0
    var written: [String] = []
    for patch in patches where !patch.text.isEmpty {
      number += 1
      let safe = String(patch.name.map { $0.isLetter || $0.isNumber || "+-_.".contains($0) ? $0 : "_" })
      let path = (directory as NSString).appendingPathComponent(String(format: "%03d-", number) + safe + ".patch")
      guard manager.createFile(atPath: path, contents: Data(patch.text.utf8)) else {
        throw Refusal("cannot write '\(path)'")
      }
      written.append(path)
    }
    return written
  }
}
