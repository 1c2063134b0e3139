import DesingletonCore

/// Which files contain a text, answered from the words of every file instead of reading every file
/// again: the same answer as a byte search of each file, at the cost of one pass that lists each
/// file's words.
///
/// A word is a maximal run of identifier bytes (ASCII letters, digits, `_`, and every byte of a
/// non-ASCII character). A needle made of identifier bytes occurs in a file exactly when it occurs
/// in one of the file's words, so its files are the union of the files of the vocabulary's words
/// that contain it. Those words hold each of the needle's three-byte runs: the words listed under
/// its rarest run (`grams`) are compared with it, and a needle shorter than three bytes is looked
/// for in the whole vocabulary. A needle with other bytes (`@main`) is looked for in the bytes of
/// the files holding its longest identifier run.
public final class WordIndex: Sendable {
  /// Every distinct word, each followed by a 0 byte.
  private let vocabulary: [UInt8]
  /// Where each word starts in `vocabulary`, ascending.
  private let starts: [Int32]
  /// For each word, the positions (in the paths given) of the files that contain it, ascending.
  private let postings: [[Int32]]
  /// The words that hold a three-byte run, by the run's bucket (`gramBucket`): the words of bucket
  /// `b` are `grams[gramStarts[b]..<gramStarts[b + 1]]`, ascending, a word listed once per bucket.
  private let grams: [Int32]
  private let gramStarts: [Int32]
  private let count: Int

  private static let gramBits = 18

  /// `bytes`: each file's text, nil for a file that cannot be read (it contains nothing).
  public init(files: Int, threads: Int? = nil, bytes: @Sendable (Int) -> [UInt8]?) {
    count = files
    let perFile = parallelMap(count: files, threads: threads) { position in
      bytes(position).map(WordIndex.words(in:)) ?? FileWords()
    }
    var vocabulary: [UInt8] = []
    var starts: [Int32] = []
    var postings: [[Int32]] = []
    var numbers = WordSlots(expected: 1 << 12)
    for (position, file) in perFile.enumerated() {
      for word in 0..<file.hashes.count {
        let range = Int(file.starts[word])..<Int(file.starts[word + 1] - 1)
        let hash = file.hashes[word]
        var (id, slot) = numbers.find(hash) { candidate in
          let start = Int(starts[candidate])
          return vocabulary[start..<(start + range.count)].elementsEqual(file.bytes[range]) && vocabulary[start + range.count] == 0
        }
        if id == nil {
          id = starts.count
          numbers.add(hash, at: slot)
          starts.append(Int32(vocabulary.count))
          vocabulary.append(contentsOf: file.bytes[range])
          vocabulary.append(0)
          postings.append([])
        }
        postings[id!].append(Int32(position))
      }
    }
    (grams, gramStarts) = WordIndex.grams(of: vocabulary, starts: starts)
    self.vocabulary = vocabulary
    self.starts = starts
    self.postings = postings
  }

  /// The bucket of the three bytes at `at`.
  @inline(__always)
  private static func gramBucket(_ bytes: UnsafeBufferPointer<UInt8>, _ at: Int) -> Int {
    let value = UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16
    return Int((value &* 0x9E37_79B1) >> UInt32(32 - gramBits))
  }

  /// Each bucket's words (see `grams`), counted first and then placed.
  private static func grams(of vocabulary: [UInt8], starts: [Int32]) -> (grams: [Int32], starts: [Int32]) {
    let buckets = 1 << gramBits
    var counts = [Int32](repeating: 0, count: buckets + 1)
    var last = [Int32](repeating: -1, count: buckets)
    func eachGram(_ body: (Int, Int32) -> Void) {
      vocabulary.withUnsafeBufferPointer { bytes in
        for word in 0..<starts.count {
          let from = Int(starts[word])
          let to = word + 1 < starts.count ? Int(starts[word + 1]) - 1 : bytes.count - 1
          guard to - from >= 3 else { continue }
          for at in from...(to - 3) { body(gramBucket(bytes, at), Int32(word)) }
        }
      }
    }
    eachGram { bucket, word in
      if last[bucket] != word {
        last[bucket] = word
        counts[bucket + 1] += 1
      }
    }
    for bucket in 0..<buckets { counts[bucket + 1] += counts[bucket] }
    var grams = [Int32](repeating: 0, count: Int(counts[buckets]))
    var next = counts
    last = [Int32](repeating: -1, count: buckets)
    eachGram { bucket, word in
      if last[bucket] != word {
        last[bucket] = word
        grams[Int(next[bucket])] = word
        next[bucket] += 1
      }
    }
    return (grams, counts)
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

  /// The words of the vocabulary that contain `needle` (identifier bytes only), ascending.
  private func words(containing needle: [UInt8]) -> [Int] {
    guard needle.count >= 3 else { return scannedWords(containing: needle) }
    return vocabulary.withUnsafeBufferPointer { bytes in
      needle.withUnsafeBufferPointer { needleBytes in
        // The needle's rarest run: every word holding the needle is listed under it.
        var bucket = WordIndex.gramBucket(needleBytes, 0)
        for at in 1..<(needle.count - 2) {
          let other = WordIndex.gramBucket(needleBytes, at)
          if gramStarts[other + 1] - gramStarts[other] < gramStarts[bucket + 1] - gramStarts[bucket] { bucket = other }
        }
        var result: [Int] = []
        for entry in Int(gramStarts[bucket])..<Int(gramStarts[bucket + 1]) {
          let word = Int(grams[entry])
          let from = Int(starts[word])
          let to = word + 1 < starts.count ? Int(starts[word + 1]) - 1 : bytes.count - 1
          guard to - from >= needle.count else { continue }
          for at in from...(to - needle.count) where bytes[at] == needle[0] {
            var index = 1
            while index < needle.count && bytes[at + index] == needle[index] { index += 1 }
            if index == needle.count {
              result.append(word)
              break
            }
          }
        }
        return result
      }
    }
  }

  /// The words that contain `needle`, from one byte search of the whole vocabulary.
  private func scannedWords(containing needle: [UInt8]) -> [Int] {
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
    var numbers = WordSlots(expected: text.count / 64)
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
        let (known, slot) = numbers.find(hash) { candidate in
          let from = Int(result.starts[candidate])
          let to = Int(result.starts[candidate + 1]) - 1
          return to - from == word.count && result.bytes[from..<to].elementsEqual(word)
        }
        if known != nil { continue }
        numbers.add(hash, at: slot)
        result.bytes.append(contentsOf: word)
        result.bytes.append(0)
        result.starts.append(Int32(result.bytes.count))
      }
    }
    result.hashes = numbers.hashes
    return result
  }
}

/// Distinct words by their 64-bit hashes, numbered in the order they were added: open addressing,
/// each slot a word's number or -1, twice the slots once half are taken.
struct WordSlots {
  private var slots: [Int32]
  /// Each word's hash, by its number.
  private(set) var hashes: [UInt64] = []

  init(expected: Int) {
    var size = 16
    while size < expected * 2 { size <<= 1 }
    slots = [Int32](repeating: -1, count: size)
  }

  @inline(__always)
  private func first(_ hash: UInt64) -> Int { Int(truncatingIfNeeded: hash ^ (hash >> 29)) & (slots.count - 1) }

  /// The number of the word with `hash` that `isWord` confirms, if there is one, and the slot a new
  /// word with this hash goes in (`add`).
  @inline(__always)
  func find(_ hash: UInt64, isWord: (Int) -> Bool) -> (number: Int?, slot: Int) {
    var slot = first(hash)
    while slots[slot] >= 0 {
      let number = Int(slots[slot])
      if hashes[number] == hash && isWord(number) { return (number, slot) }
      slot = (slot + 1) & (slots.count - 1)
    }
    return (nil, slot)
  }

  /// Adds the next word, numbered `hashes.count`, at the slot `find` gave for its hash.
  mutating func add(_ hash: UInt64, at slot: Int) {
    slots[slot] = Int32(hashes.count)
    hashes.append(hash)
    guard hashes.count * 2 > slots.count else { return }
    slots = [Int32](repeating: -1, count: slots.count * 2)
    for (number, hash) in hashes.enumerated() {
      var slot = first(hash)
      while slots[slot] >= 0 { slot = (slot + 1) & (slots.count - 1) }
      slots[slot] = Int32(number)
    }
  }
}
