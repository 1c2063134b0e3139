import DesingletonCore
import Foundation

/// The words of a project's Objective-C files (`Project.objectiveCPaths`), listed once: which of
/// them contain a name is then answered without reading every file again for each name a planner
/// asks about (a consumer's, a creator's, in every plan a command weighs).
final class ObjectiveCWords: @unchecked Sendable {
  private let lock = NSLock()
  private var words: WordIndex?

  /// The word index, built by `make` the first time it is asked for.
  func index(_ make: () -> WordIndex) -> WordIndex {
    lock.lock()
    defer { lock.unlock() }
    if let words { return words }
    let built = make()
    words = built
    return built
  }

  /// Takes `other`'s index, listed from the same files with the same texts, if this has none yet.
  func take(_ other: ObjectiveCWords) {
    guard other !== self else { return }
    other.lock.lock()
    let words = other.words
    other.lock.unlock()
    lock.lock()
    defer { lock.unlock() }
    if self.words == nil { self.words = words }
  }
}

extension Project {
  /// The Objective-C files whose text as written (`writtenBytes`) contains `name`, in
  /// `objectiveCPaths`' order: the same answer as a byte search of each. A rewritten project asks
  /// the project it was made from about the files it did not replace.
  public func objectiveCPaths(containing name: String) -> [String] {
    guard !objectiveCPaths.isEmpty, !name.isEmpty else { return [] }
    let needle = Array(name.utf8)
    if let (before, changed, _) = madeFrom {
      var found = Set(before.objectiveCPaths(containing: name).filter { !changed.contains($0) })
      for path in objectiveCPaths where changed.contains(path) {
        if let bytes = writtenBytes(path), containsAny([needle], in: bytes) { found.insert(path) }
      }
      return objectiveCPaths.filter { found.contains($0) }
    }
    let paths = objectiveCPaths
    let words = objectiveCWords.index { WordIndex(files: paths.count) { self.writtenBytes(paths[$0]) } }
    return words.files(containing: [needle]) { self.writtenBytes(paths[$0]) }.sorted().map { paths[$0] }
  }
}
