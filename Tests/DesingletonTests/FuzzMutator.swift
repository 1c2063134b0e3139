import Foundation

/// A deterministic random number generator (SplitMix64): the same seed gives the same mutants on
/// every machine and run, so a failure can be replayed from its seed alone.
struct FuzzRandom: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<bound` (0 when `bound` is 0).
  mutating func below(_ bound: Int) -> Int {
    bound <= 0 ? 0 : Int.random(in: 0..<bound, using: &self)
  }

  mutating func pick<T>(_ items: [T]) -> T {
    items[below(items.count)]
  }
}

/// One file of a sample, as bytes.
struct FuzzFile: Hashable, Sendable {
  var path: String
  var bytes: [UInt8]
}

/// Damages a sample's files the ways real edits and broken tools do: deleted byte ranges and lines,
/// duplicated and swapped lines, truncation, random bytes, stray tokens, swapped words, a file dropped or
/// copied. Each mutation says what it did, so a failure message names it.
enum FuzzMutator {
  /// Applies one random mutation to `files` and describes it.
  static func mutate(_ files: inout [FuzzFile], using random: inout FuzzRandom) -> String {
    guard !files.isEmpty else { return "no files" }
    let which = random.below(files.count)
    let path = files[which].path
    let name = (path as NSString).lastPathComponent
    var bytes = files[which].bytes
    let description: String
    switch random.below(100) {
    case 0..<12:
      let start = random.below(bytes.count + 1)
      let end = min(bytes.count, start + 1 + random.below(random.below(4) == 0 ? 400 : 40))
      bytes.removeSubrange(start..<end)
      description = "delete bytes \(start)..<\(end) of \(name)"
    case 12..<24:
      var lines = splitLines(bytes)
      let start = random.below(lines.count)
      let end = min(lines.count, start + 1 + random.below(5))
      lines.removeSubrange(start..<end)
      bytes = Array(lines.joined())
      description = "delete lines \(start + 1)...\(end) of \(name)"
    case 24..<36:
      var lines = splitLines(bytes)
      let start = random.below(lines.count)
      let end = min(lines.count, start + 1 + random.below(5))
      let copy = Array(lines[start..<end])
      let at = random.below(2) == 0 ? end : random.below(lines.count + 1)
      lines.insert(contentsOf: copy, at: at)
      bytes = Array(lines.joined())
      description = "duplicate lines \(start + 1)...\(end) of \(name) before line \(at + 1)"
    case 36..<44:
      var lines = splitLines(bytes)
      let first = random.below(lines.count)
      let second = random.below(lines.count)
      if first != second { lines.swapAt(first, second) }
      bytes = Array(lines.joined())
      description = "swap lines \(first + 1) and \(second + 1) of \(name)"
    case 44..<50:
      let length = random.below(bytes.count + 1)
      bytes.removeSubrange(length...)
      description = "truncate \(name) to \(length) bytes"
    case 50..<58:
      let at = random.below(bytes.count + 1)
      let count = 1 + random.below(8)
      let inserted = (0..<count).map { _ in randomByte(&random) }
      bytes.insert(contentsOf: inserted, at: at)
      description =
        "insert bytes [\(inserted.map { String($0, radix: 16) }.joined(separator: " "))] at \(at) of \(name)"
    case 58..<74:
      let token = random.pick(tokens)
      let at = random.below(2) == 0 ? random.pick(lineStarts(bytes)) : random.below(bytes.count + 1)
      bytes.insert(contentsOf: Array(token.utf8), at: at)
      description = "insert \(quoted(token)) at \(at) of \(name)"
    case 74..<90:
      let words = identifiers(in: bytes)
      guard let range = words.isEmpty ? nil : random.pick(words) else {
        return "nothing to swap in \(name)"
      }
      let old = String(decoding: bytes[range], as: UTF8.self)
      let new: String
      if random.below(2) == 0 {
        new = random.pick(keywords)
      } else {
        let otherFile = files[random.below(files.count)].bytes
        let otherWords = identifiers(in: otherFile)
        new = otherWords.isEmpty ? "x" : String(decoding: otherFile[random.pick(otherWords)], as: UTF8.self)
      }
      bytes.replaceSubrange(range, with: Array(new.utf8))
      description = "replace '\(old)' at \(range.lowerBound) of \(name) with '\(new)'"
    case 90..<95:
      if files.count > 1 {
        files.remove(at: which)
        return "drop \(path)"
      }
      bytes = []
      description = "empty \(name)"
    default:
      let copyPath = (path as NSString).deletingPathExtension + "Copy.swift"
      if !files.contains(where: { $0.path == copyPath }) {
        files.append(FuzzFile(path: copyPath, bytes: bytes))
        files.sort { $0.path < $1.path }
        return "copy \(name) to \((copyPath as NSString).lastPathComponent)"
      }
      bytes += bytes
      description = "double \(name)"
    }
    files[which].bytes = bytes
    return description
  }

  /// Lines with their terminators; the last may have none.
  static func splitLines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
    var lines: [ArraySlice<UInt8>] = []
    var start = 0
    for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
      lines.append(bytes[start...offset])
      start = offset + 1
    }
    if start < bytes.count || lines.isEmpty { lines.append(bytes[start...]) }
    return lines
  }

  private static func lineStarts(_ bytes: [UInt8]) -> [Int] {
    [0] + bytes.indices.filter { bytes[$0] == UInt8(ascii: "\n") }.map { $0 + 1 }
  }

  /// Ranges of identifier-like words (letters, digits, `_`, starting with a letter or `_`).
  static func identifiers(in bytes: [UInt8]) -> [Range<Int>] {
    var result: [Range<Int>] = []
    var start: Int?
    func isHead(_ byte: UInt8) -> Bool { (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || byte == 95 }
    func isBody(_ byte: UInt8) -> Bool { isHead(byte) || (byte >= 48 && byte <= 57) }
    for (offset, byte) in bytes.enumerated() {
      if let begin = start {
        if !isBody(byte) {
          result.append(begin..<offset)
          start = nil
        }
      } else if isHead(byte) && (offset == 0 || !isBody(bytes[offset - 1])) {
        start = offset
      }
    }
    if let begin = start { result.append(begin..<bytes.count) }
    return result
  }

  private static func randomByte(_ random: inout FuzzRandom) -> UInt8 {
    switch random.below(4) {
    case 0: return UInt8(random.below(256))
    case 1: return random.pick(Array("{}()[]<>:;,.=\"'`\\#@$&|!?+-*/%^~ \t\n\r".utf8))
    default: return UInt8(32 + random.below(95))
    }
  }

  private static func quoted(_ text: String) -> String {
    "\"" + text.unicodeScalars.map { $0.escaped(asASCII: true) }.joined() + "\""
  }

  /// Tokens that break or reshape Swift code.
  static let tokens: [String] = [
    "{", "}", "(", ")", "[", "]", "<", ">", ":", ";", ",", ".", "=", "->", "?", "!", "&", "@", "#", "\\", "`",
    "\"", "\"\"\"", "\"\"\"\n", "#\"", "\"#", "/*", "*/", "// ", "///", "\\(", "\n", "\r\n", "\r", "\t", "\u{FEFF}",
    "😀", "é", "日本", "\u{0}", "static ", "let ", "var ", "func ", "class ", "struct ", "enum ", "actor ", "protocol ",
    "extension ", "init(", "init() {}\n", "deinit {}\n", "private ", "fileprivate ", "public ", "open ", "final ",
    "override ", "@MainActor ", "nonisolated ", "@objc ", "dynamic ", "lazy ", "weak ", "unowned ", "mutating ",
    "async ", "throws ", "try ", "await ", "inout ", "some ", "any ", "#if DEBUG\n", "#else\n", "#endif\n",
    "#if os(Linux)\n", "@available(*, deprecated)\n", "static let shared = Self()\n",
    "static var shared: Self { fatalError() }\n", "  static let shared = Shared()\n", "class var shared: Self\n",
    ".shared", ".shared.", "Self.shared", "self.", "super.", "typealias T = Int\n", "associatedtype A\n",
    "subscript(i: Int) -> Int { i }\n", "var x: Int { get set }\n", "var x = 0 { didSet {} }\n",
    "func f() {}\n", "func f<T: Equatable>(_ t: T) where T: Hashable {}\n", "case a, b\n",
    "switch x {\ncase _: break\n}\n",
    "extension Never {}\n", "protocol P { func p() }\n", "enum E { static let shared = E.a; case a }\n",
    "struct S { static let shared = S() }\n", "final class C { static let shared = C(); private init() {} }\n",
    "let global = ", "_ = ", "$0", "#selector(f)", "#file", "@escaping ", "@Sendable ", "borrowing ", "consuming ",
    "~Copyable", "package ", "macro ", "#warning(\"w\")\n", "@freestanding(expression) ",
  ]

  /// Words swapped in for an identifier.
  static let keywords: [String] = [
    "static", "class", "struct", "enum", "actor", "protocol", "extension", "let", "var", "func", "init", "deinit",
    "private", "fileprivate", "internal", "public", "open", "final", "override", "lazy", "weak", "mutating",
    "nonmutating", "async", "throws", "rethrows", "inout", "some", "any", "self", "Self", "super", "shared",
    "default", "sharedInstance", "instance", "get", "set", "didSet", "willSet", "return", "if", "guard", "else",
    "switch", "case", "where", "typealias", "associatedtype", "subscript", "operator", "import", "true", "nil",
    "_", "Type", "Protocol", "convenience", "required", "dynamic", "indirect", "package", "consume", "each",
  ]
}
