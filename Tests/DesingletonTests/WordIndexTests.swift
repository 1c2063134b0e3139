import DesingletonIndex
import Testing

/// The word index answers "which files contain this text" exactly as a byte search of every file.
@Suite struct WordIndexTests {
  static let files: [[UInt8]?] = [
    Array("final class FeedCell: UITableViewCell { let store = Store.shared }\n".utf8),
    Array("@main struct App { static func main() {} }\n".utf8),
    Array("let café = \"naïve\" // Storefront\n".utf8),
    nil,
    Array("".utf8),
    Array("x.instantiateViewController(withIdentifier: \"a\") as! FeedCell\n".utf8),
    Array("Self._sharedDefaults + _shared\n".utf8),
  ]

  static func byteSearch(_ needle: String) -> [Int] {
    files.indices.filter { position in
      guard let bytes = files[position] else { return false }
      return containsAny([Array(needle.utf8)], in: bytes)
    }
  }

  @Test(arguments: [
    ("Store", [0, 2]), ("Cell", [0, 5]), ("FeedCell", [0, 5]), ("UITableViewCell", [0]), ("shared", [0, 6]),
    ("@main", [1]), ("main", [1]), ("Self._shared", [6]), ("._shared", [6]), ("café", [2]), ("ï", [2]),
    ("instantiate", [5]), ("Nothing", []), ("e", [0, 2, 5, 6]), ("\"a\"", [5]), (" ", [0, 1, 2, 5, 6]),
  ])
  func answersAsAByteSearchDoes(_ needle: String, _ expected: [Int]) {
    let index = WordIndex(files: Self.files.count) { Self.files[$0] }
    #expect(Self.byteSearch(needle) == expected, "the table is wrong for '\(needle)'")
    #expect(index.files(containing: [Array(needle.utf8)]) { Self.files[$0] } == expected)
  }

  @Test func severalNeedlesAreTheUnionOfTheirFiles() {
    let index = WordIndex(files: Self.files.count) { Self.files[$0] }
    let needles = ["@main", "café", "Nothing"].map { Array($0.utf8) }
    #expect(index.files(containing: needles) { Self.files[$0] } == [1, 2])
  }

  /// Generated texts of identifier and other bytes, and needles cut from them (up to twelve bytes:
  /// those of three or more are found through their rarest three-byte run): the index and a byte
  /// search agree on every one.
  @Test func agreesWithAByteSearchOnGeneratedTexts() {
    var generator = FuzzRandom(seed: 0x5eed_1dea)
    let alphabet = Array("abAB_09 .@(\n\u{e9}".utf8)
    var texts: [[UInt8]?] = []
    for _ in 0..<60 {
      let length = generator.below(80)
      texts.append((0..<length).map { _ in alphabet[generator.below(alphabet.count)] })
    }
    let frozen = texts
    let index = WordIndex(files: frozen.count) { frozen[$0] }
    for _ in 0..<400 {
      guard let source = frozen[generator.below(frozen.count)], !source.isEmpty else { continue }
      let start = generator.below(source.count)
      let length = 1 + generator.below(min(12, source.count - start))
      let needle = Array(source[start..<(start + length)])
      // A cut through a two-byte character is no valid needle for either; both still agree.
      let expected = frozen.indices.filter { frozen[$0].map { containsAny([needle], in: $0) } ?? false }
      #expect(index.files(containing: [needle]) { frozen[$0] } == expected, "needle \(needle)")
    }
  }
}
