import DesingletonCore
import Foundation

/// A file's words (maximal runs of identifier bytes, `BytePrefilter.isIdentifierByte`), hashed, and
/// those written right before an assignment or a comparison: `=`, `==`, `!=` or `??`, with only
/// blanks, `?` or `!` between (or a `/`: a comment there may hide one). One pass over the bytes
/// answers every later "does the file write this word" without searching it again; a hash shared by
/// two words answers yes for both, so a question that must not miss a file can ask it.
public struct FileWords: Sendable {
  /// Sorted, each once.
  private let words: [UInt64]
  private let assigned: [UInt64]

  public init(_ bytes: [UInt8]) {
    var words: [UInt64] = []
    var assigned: [UInt64] = []
    bytes.withUnsafeBufferPointer { buffer in
      let count = buffer.count
      var position = 0
      while position < count {
        guard BytePrefilter.isIdentifierByte(buffer[position]) else {
          position += 1
          continue
        }
        var hash = FileWords.seed
        while position < count, BytePrefilter.isIdentifierByte(buffer[position]) {
          hash = (hash ^ UInt64(buffer[position])) &* FileWords.prime
          position += 1
        }
        words.append(hash)
        if FileWords.isAssignedOrCompared(buffer, after: position) { assigned.append(hash) }
      }
    }
    self.words = FileWords.sortedUnique(words)
    self.assigned = FileWords.sortedUnique(assigned)
  }

  /// The hash a word is kept by.
  public static func hash(_ word: String) -> UInt64 {
    var hash = seed
    for byte in word.utf8 { hash = (hash ^ UInt64(byte)) &* prime }
    return hash
  }

  /// Whether the file holds the word (by its `hash`) as a whole word.
  public func contains(_ hash: UInt64) -> Bool { FileWords.find(hash, in: words) }

  /// Whether the file writes the word (by its `hash`) right before `=`, `==`, `!=` or `??`.
  public func assigns(_ hash: UInt64) -> Bool { FileWords.find(hash, in: assigned) }

  private static let seed: UInt64 = 0xcbf2_9ce4_8422_2325
  private static let prime: UInt64 = 0x0100_0000_01b3

  private static func isAssignedOrCompared(_ bytes: UnsafeBufferPointer<UInt8>, after end: Int) -> Bool {
    var position = end
    while position < bytes.count {
      switch bytes[position] {
      case UInt8(ascii: "?"):
        if position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "?") { return true }
        position += 1
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "!"):
        position += 1
      case UInt8(ascii: "="), UInt8(ascii: "/"):
        return true
      default:
        return false
      }
    }
    return false
  }

  private static func sortedUnique(_ values: [UInt64]) -> [UInt64] {
    var sorted = values.sorted()
    var kept = 0
    for value in sorted where kept == 0 || sorted[kept - 1] != value {
      sorted[kept] = value
      kept += 1
    }
    sorted.removeSubrange(kept...)
    return sorted
  }

  private static func find(_ hash: UInt64, in sorted: [UInt64]) -> Bool {
    var (low, high) = (0, sorted.count)
    while low < high {
      let middle = (low + high) / 2
      if sorted[middle] < hash { low = middle + 1 } else { high = middle }
    }
    return low < sorted.count && sorted[low] == hash
  }
}

/// Each file's `FileWords`, made once per text: kept across a loader's runs (the files do not
/// change), and asked of the project before for the files a rewritten project did not replace.
final class FileWordsTable: @unchecked Sendable {
  private let lock = NSLock()
  private var byPath: [String: FileWords] = [:]

  subscript(path: String) -> FileWords? {
    lock.lock()
    defer { lock.unlock() }
    return byPath[path]
  }

  func keep(_ words: FileWords, of path: String) {
    lock.lock()
    defer { lock.unlock() }
    if byPath[path] == nil { byPath[path] = words }
  }
}

extension Project {
  /// The words of the file at `path` (`FileWords`); nil for a file that cannot be read.
  public func words(of path: String) -> FileWords? {
    if let known = fileWords[path] { return known }
    if let (before, changed, _) = madeFrom, !changed.contains(path) { return before.words(of: path) }
    guard let bytes = bytes(path) else { return nil }
    let made = FileWords(bytes)
    fileWords.keep(made, of: path)
    return made
  }
}
