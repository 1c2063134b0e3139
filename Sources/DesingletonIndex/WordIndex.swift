import DesingletonCore

/// Which files contain a text, answered from the words of every file instead of reading every file
/// again: the same answer as a byte search of each file, at the cost of one pass that lists each
/// file's words.
///
/// A word is a maximal run of identifier bytes (ASCII letters, digits, `_`, and every byte of a
/// non-ASCII character). A needle made of identifier bytes occurs in a file exactly when it occurs
/// in one of the file's words, so its files are the union of the files of the vocabulary's words
/// that contain it: one byte search of the vocabulary. A needle with other bytes (`@main`) is
/// looked for in the bytes of the files holding its longest identifier run.
public final class WordIndex: Sendable {
  /// Every distinct word, each followed by a 0 byte.
  private let vocabulary: [UInt8]
  /// Where each word starts in `vocabulary`, ascending.
  private let starts: [Int32]
  /// For each word, the positions (in the paths given) of the files that contain it, ascending.
  private let postings: [[Int32]]
  private let count: Int

  /// `bytes`: each file's text, nil for a file that cannot be read (it contains nothing).
  public init(files: Int, threads: Int? = nil, bytes: @Sendable (Int) -> [UInt8]?) {
    count = files
    let perFile = parallelMap(count: files, threads: threads) { position in
      bytes(position).map(WordIndex.words(in:)) ?? FileWords()
    }
    var vocabulary: [UInt8] = []
    var starts: [Int32] = []
    var postings: [[Int32]] = []
    var byHash: [UInt64: [Int32]] = [:]
    for (position, file) in perFile.enumerated() {
      for word in 0..<file.hashes.count {
        let range = Int(file.starts[word])..<Int(file.starts[word + 1] - 1)
        let hash = file.hashes[word]
        var id: Int32 = -1
        for candidate in byHash[hash] ?? [] {
          let start = Int(starts[Int(candidate)])
          if vocabulary[start..<(start + range.count)].elementsEqual(file.bytes[range]),
            vocabulary[start + range.count] == 0
          {
            id = candidate
            break
          }
        }
        if id < 0 {
          id = Int32(starts.count)
          byHash[hash, default: []].append(id)
          starts.append(Int32(vocabulary.count))
          vocabulary.append(contentsOf: file.bytes[range])
          vocabulary.append(0)
          postings.append([])
        }
        postings[Int(id)].append(Int32(position))
      }
    }
    self.vocabulary = vocabulary
    self.starts = starts
    self.postings = postings
  }

  /// The positions of the files whose bytes contain one of `needles`, ascending. `bytes` gives a
  /// file's text for a needle that is not one run of identifier bytes.
  public func files(containing needles: [[UInt8]], bytes: (Int) -> [UInt8]?) -> [Int] {
    var found = Set<Int32>()
    for needle in needles where !needle.isEmpty {
      if needle.allSatisfy(BytePrefilter.isIdentifierByte) {
        for word in words(containing: needle) { found.formUnion(postings[word]) }
        continue
      }
      // The longest run of identifier bytes narrows the files; their bytes say.
      let run = WordIndex.longestIdentifierRun(needle)
      let candidates: [Int] = run.isEmpty ? Array(0..<count) : filesOf(words(containing: run))
      for position in candidates where !found.contains(Int32(position)) {
        if let text = bytes(position), containsAny([needle], in: text) { found.insert(Int32(position)) }
      }
    }
    return found.map(Int.init).sorted()
  }

  private func filesOf(_ words: [Int]) -> [Int] {
    var files = Set<Int32>()
    for word in words { files.formUnion(postings[word]) }
    return files.map(Int.init).sorted()
  }

  /// The words of the vocabulary that contain `needle` (identifier bytes only).
  private func words(containing needle: [UInt8]) -> [Int] {
    var result: [Int] = []
    var last = -1
    for offset in occurrences(of: [needle], in: vocabulary) {
      // The word whose start is the last at or before the match; a needle has no 0 byte, so the
      // match lies inside it.
      var low = 0
      var high = starts.count - 1
      while low < high {
        let middle = (low + high + 1) / 2
        if Int(starts[middle]) <= offset { low = middle } else { high = middle - 1 }
      }
      if low != last {
        result.append(low)
        last = low
      }
    }
    return result
  }

  static func longestIdentifierRun(_ needle: [UInt8]) -> [UInt8] {
    var best: ArraySlice<UInt8> = []
    var start = 0
    for position in 0...needle.count {
      if position == needle.count || !BytePrefilter.isIdentifierByte(needle[position]) {
        if position - start > best.count { best = needle[start..<position] }
        start = position + 1
      }
    }
    return Array(best)
  }

  /// One file's distinct words: their bytes one after another, each followed by a 0 byte.
  struct FileWords: Sendable {
    var bytes: [UInt8] = []
    /// Where each word starts in `bytes`, and one more entry past the last word's 0 byte.
    var starts: [Int32] = [0]
    var hashes: [UInt64] = []
  }

  static func words(in text: [UInt8]) -> FileWords {
    var result = FileWords()
    var seen: [UInt64: [Int32]] = [:]
    text.withUnsafeBufferPointer { buffer in
      var position = 0
      let count = buffer.count
      while position < count {
        guard BytePrefilter.isIdentifierByte(buffer[position]) else {
          position += 1
          continue
        }
        let start = position
        // FNV-1a over the word's bytes.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        while position < count && BytePrefilter.isIdentifierByte(buffer[position]) {
          hash = (hash ^ UInt64(buffer[position])) &* 0x100_0000_01b3
          position += 1
        }
        let word = buffer[start..<position]
        var known = false
        for candidate in seen[hash] ?? [] {
          let from = Int(result.starts[Int(candidate)])
          let to = Int(result.starts[Int(candidate) + 1]) - 1
          if to - from == word.count && result.bytes[from..<to].elementsEqual(word) {
            known = true
            break
          }
        }
        if known { continue }
        seen[hash, default: []].append(Int32(result.hashes.count))
        result.hashes.append(hash)
        result.bytes.append(contentsOf: word)
        result.bytes.append(0)
        result.starts.append(Int32(result.bytes.count))
      }
    }
    return result
  }
}
