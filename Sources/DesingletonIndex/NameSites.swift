/// The identifiers of a file that sit where a declaration or a member access can name them, kept as
/// 32-bit hashes: what `BytePrefilter.canDeclare` and `canReference` would answer for any name,
/// from one pass over the bytes. A scan reads every file once, keeps this for the files it does not
/// parse, and asks it in each later phase instead of reading and searching the files again.
///
/// Every answer is a superset of the byte tests' (two names with one hash both answer "maybe").
public struct NameSites: Sendable {
  /// Identifiers after a `.`, or where a comment may sit in between (`canReference`), in the order
  /// they occur (a file's names repeat; asking is one pass, cheaper than sorting them out).
  let memberSites: [UInt32]
  /// For each member site, what stands before its dot (`BytePrefilter.referenceBase`): the hash of
  /// the name, or `unknownBase` or `notAType`.
  let memberBases: [UInt32]
  /// The member sites whose name can end an extended type's (`extension Outer.Name`:
  /// `BytePrefilter.canNameExtendedType`), and those where a comment may sit before the name.
  let extendedSites: [UInt32]
  /// The member sites where an implicit member expression can stand (`f(.shared)`, a comment in
  /// between): `BytePrefilter.canReferenceImplicitly`.
  let implicitSites: [UInt32]
  /// Identifiers right after a declaration keyword (`class`, `extension`, `func`, …). `canDeclare`
  /// takes both.
  let keywordSites: [UInt32]
  /// Identifiers right after `var`, `let` or `case`: a property, variable or enum case.
  /// `canDeclareValue` takes these and the keyword sites.
  let bindingSites: [UInt32]
  /// Whether `mutating` occurs in the bytes (inside a longer word too).
  public let mentionsMutating: Bool
  /// Whether `typealias` occurs in the bytes as a word of its own: the file can declare a type alias.
  public let mentionsTypeAlias: Bool

  /// What the byte tests see before an identifier, as `BytePrefilter.preceding` tells it.
  private enum Before {
    case start, dot, comment, declarationKeyword, bindingKeyword, otherWord, other
  }

  /// What a line read so far says about a `//` comment ending it, as `BytePrefilter.lineComment`
  /// tells it: at the line break, what precedes the next line's first name is what preceded the
  /// comment, or "maybe a comment in between" where the line's bytes cannot say where it starts.
  private struct Line {
    /// No `"` or `/` before the line's first `//` (so far, before there is one).
    var plain = true
    /// Whether the line has a `//`, and whether the code before it can be read.
    var comment = Comment.none
    /// What preceded the first `//`, and the last `.` before it.
    var before = Before.start
    var dot = 0

    enum Comment { case none, readable, unknown }

    @inline(__always)
    mutating func slash(at index: Int, _ base: UnsafePointer<UInt8>, count: Int, before current: Before, dot currentDot: Int) {
      switch comment {
      case .none:
        guard index + 1 < count, base[index + 1] == UInt8(ascii: "/") else {
          plain = false
          return
        }
        if plain {
          comment = .readable
          before = current
          dot = currentDot
        } else {
          comment = .unknown
        }
      case .readable:
        // `*/` in a comment's text: a block comment may end there and code go on.
        if index > 0, base[index - 1] == UInt8(ascii: "*") { comment = .unknown }
      case .unknown:
        break
      }
    }

    /// A `"` before the first `//`, or a `\` after it (an interpolation of a multi-line string may open).
    @inline(__always)
    mutating func mark(_ byte: UInt8) {
      if byte == UInt8(ascii: "\"") {
        if comment == .none { plain = false }
      } else if comment == .readable {
        comment = .unknown
      }
    }

    @inline(__always)
    mutating func end(before current: inout Before, dot currentDot: inout Int) {
      switch comment {
      case .none: break
      case .readable:
        current = before
        currentDot = dot
      case .unknown: current = .comment
      }
      self = Line()
    }
  }

  /// The sites of one file as they are found.
  private struct Found {
    var members: [UInt32] = []
    var bases: [UInt32] = []
    var extended: [UInt32] = []
    var implicit: [UInt32] = []
    var keywords: [UInt32] = []
    var bindings: [UInt32] = []
    var typeAlias = false

    /// The identifier from `start` to `end`, after `site` (`dot`: where the last `.` is).
    @inline(__always)
    mutating func add(_ site: Before, _ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, dot: Int, in bytes: [UInt8]) {
      switch site {
      case .dot:
        let hash = NameSites.hash(base, start, end)
        members.append(hash)
        bases.append(NameSites.base(dotAt: dot, in: bytes))
        if BytePrefilter.canNameExtendedType(dotAt: dot, in: bytes) { extended.append(hash) }
        if BytePrefilter.isImplicitMemberDot(at: dot, in: bytes) { implicit.append(hash) }
      case .comment:
        let hash = NameSites.hash(base, start, end)
        members.append(hash)
        bases.append(NameSites.unknownBase)
        extended.append(hash)
        implicit.append(hash)
      case .declarationKeyword: keywords.append(NameSites.hash(base, start, end))
      case .bindingKeyword: bindings.append(NameSites.hash(base, start, end))
      case .start, .otherWord, .other: break
      }
    }
  }

  public init(_ bytes: [UInt8]) {
    var found = Found()
    bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      let count = buffer.count
      NameSites.classes.withUnsafeBufferPointer { classes in
        // What precedes the next byte, skipping whitespace as `preceding` does; and before a
        // backtick, what preceded it (`` Palette.`default` ``: the backtick belongs to the name).
        var before = Before.start
        var beforeBacktick = Before.start
        // What the current line says about a `//` comment ending it.
        var line = Line()
        // Where the last `.` is: the dot of a member site.
        var dot = 0
        var index = 0
        while index < count {
          // The commonest classes first, each a branch of its own: identifiers, spaces (which
          // leave what precedes as it was) and other punctuation.
          let byteClass = classes[Int(base[index])]
          if byteClass == NameSites.identifier {
            var end = index + 1
            while end < count, classes[Int(base[end])] == NameSites.identifier { end += 1 }
            var site = before
            if index > 0, base[index - 1] == UInt8(ascii: "`") {
              site = index > 1 && classes[Int(base[index - 2])] == NameSites.identifier ? .otherWord : beforeBacktick
            }
            if site != .otherWord && site != .other && site != .start {
              found.add(site, base, index, end, dot: dot, in: bytes)
            }
            before = NameSites.before(word: base, index, end - index, found: &found)
            index = end
            continue
          }
          if byteClass == NameSites.space {
            // Indentation and the space between words come in runs.
            index += 1
            while index < count, classes[Int(base[index])] == NameSites.space { index += 1 }
            continue
          }
          if byteClass == NameSites.other {
            before = .other
            index += 1
            continue
          }
          switch byteClass {
          case NameSites.lineBreak:
            line.end(before: &before, dot: &dot)
          case NameSites.dot:
            before = .dot
            dot = index
          case NameSites.slash:
            line.slash(at: index, base, count: count, before: before, dot: dot)
            before = index > 0 && base[index - 1] == UInt8(ascii: "*") ? .comment : .other
          case NameSites.mark:
            line.mark(base[index])
            before = .other
          case NameSites.backtick:
            beforeBacktick = before
            before = .other
          default:
            break
          }
          index += 1
        }
      }
    }
    memberSites = found.members
    memberBases = found.bases
    extendedSites = found.extended
    implicitSites = found.implicit
    mentionsTypeAlias = found.typeAlias
    keywordSites = found.keywords
    bindingSites = found.bindings
    mentionsMutating = BytePrefilter.mentions([NameSites.mutatingWord], in: bytes)
  }

  /// Whether the file can declare a type, extension, type alias or method of one of the names
  /// (`BytePrefilter.canDeclare`).
  public func canDeclare(_ names: Query) -> Bool {
    names.intersects(extendedSites) || names.intersects(keywordSites)
  }

  /// Whether the file can declare a function, property, variable or enum case of one of the names
  /// (not one in a tuple pattern or after the first of a `case` list).
  public func canDeclareValue(_ names: Query) -> Bool {
    names.intersects(keywordSites) || names.intersects(bindingSites)
  }

  /// What a word leaves before the next one: a declaration or binding keyword, or another word.
  /// Only a word of three to nine bytes starting with a keyword's first letter can be a keyword.
  @inline(__always)
  private static func before(word base: UnsafePointer<UInt8>, _ start: Int, _ length: Int, found: inout Found) -> Before {
    guard length >= 3 && length <= 9 && startsKeyword[Int(base[start])] else { return .otherWord }
    if let keyword = BytePrefilter.declarationKeyword(base, start, length) {
      if keyword == .typealias { found.typeAlias = true }
      return .declarationKeyword
    }
    return isBindingKeyword(base, start, length) ? .bindingKeyword : .otherWord
  }

  /// `var`, `let`, `case`.
  private static func isBindingKeyword(_ base: UnsafePointer<UInt8>, _ start: Int, _ length: Int) -> Bool {
    switch length {
    case 3:
      return (base[start] == UInt8(ascii: "v") && base[start + 1] == UInt8(ascii: "a") && base[start + 2] == UInt8(ascii: "r"))
        || (base[start] == UInt8(ascii: "l") && base[start + 1] == UInt8(ascii: "e") && base[start + 2] == UInt8(ascii: "t"))
    case 4:
      return base[start] == UInt8(ascii: "c") && base[start + 1] == UInt8(ascii: "a") && base[start + 2] == UInt8(ascii: "s")
        && base[start + 3] == UInt8(ascii: "e")
    default:
      return false
    }
  }

  /// Whether the file can reference an accessor of one of the names through one of the bases
  /// (`BytePrefilter.canReference`).
  public func canReference(_ query: ReferenceQuery) -> Bool {
    guard let bases = query.bases else { return query.accessors.intersects(memberSites) }
    return query.accessors.intersects(memberSites) { site in
      switch memberBases[site] {
      case NameSites.unknownBase: return true
      case NameSites.notAType: return false
      case let base: return bases.contains(base)
      }
    }
  }

  /// Whether the file can name one of the accessors in an implicit member expression
  /// (`BytePrefilter.canReferenceImplicitly`).
  public func canReferenceImplicitly(_ accessors: Query) -> Bool {
    accessors.intersects(implicitSites)
  }

  /// Accessors' names, and the names that can stand before their dot (nil: any).
  public struct ReferenceQuery: Sendable {
    let accessors: Query
    let bases: Query?

    public init<Names: Sequence>(accessors: Names, bases: Set<String>?) where Names.Element == String {
      self.accessors = Query(accessors)
      self.bases = bases.map { Query($0) }
    }
  }

  static let unknownBase: UInt32 = 0
  static let notAType: UInt32 = 1

  /// What stands before the dot at `position`, as `memberBases` keeps it.
  private static func base(dotAt position: Int, in bytes: [UInt8]) -> UInt32 {
    switch BytePrefilter.referenceBase(dotAt: position, in: bytes) {
    case .unknown: return unknownBase
    case .notAType: return notAType
    case .word(let word): return bytes.withUnsafeBufferPointer { hash($0.baseAddress!, word.lowerBound, word.upperBound) }
    }
  }

  /// Names hashed once for many files: a bitmap rules most of a file's hashes out, a sorted list
  /// confirms the rest.
  public struct Query: Sendable {
    private let hashes: [UInt32]
    private let bitmap: [UInt64]

    public init<Names: Sequence>(_ names: Names) where Names.Element == String {
      var hashes: [UInt32] = []
      var bitmap = [UInt64](repeating: 0, count: Query.words)
      for name in names where !name.isEmpty {
        let hash = Array(name.utf8).withUnsafeBufferPointer { NameSites.hash($0.baseAddress!, 0, $0.count) }
        hashes.append(hash)
        bitmap[Query.word(hash)] |= Query.bit(hash)
      }
      self.hashes = NameSites.sortedUnique(hashes)
      self.bitmap = bitmap
    }

    func intersects(_ sites: [UInt32]) -> Bool {
      guard !hashes.isEmpty else { return false }
      for hash in sites where bitmap[Query.word(hash)] & Query.bit(hash) != 0 {
        if NameSites.binaryContains(hashes, hash) { return true }
      }
      return false
    }

    /// Whether a site has one of the names and `accept` takes its position.
    func intersects(_ sites: [UInt32], where accept: (Int) -> Bool) -> Bool {
      guard !hashes.isEmpty else { return false }
      for (position, hash) in sites.enumerated() where bitmap[Query.word(hash)] & Query.bit(hash) != 0 {
        if NameSites.binaryContains(hashes, hash) && accept(position) { return true }
      }
      return false
    }

    /// Whether one of the names has this hash.
    func contains(_ hash: UInt32) -> Bool {
      bitmap[Query.word(hash)] & Query.bit(hash) != 0 && NameSites.binaryContains(hashes, hash)
    }

    private static let words = 1 << 12
    private static func word(_ hash: UInt32) -> Int { Int(hash >> 6) & (words - 1) }
    private static func bit(_ hash: UInt32) -> UInt64 { 1 << UInt64(hash & 63) }
  }

  private static let other: UInt8 = 0
  private static let identifier: UInt8 = 1
  private static let space: UInt8 = 2
  private static let lineBreak: UInt8 = 3
  private static let dot: UInt8 = 4
  private static let slash: UInt8 = 5
  private static let backtick: UInt8 = 6
  /// `"` and `\`, which decide where a line's comment can start.
  private static let mark: UInt8 = 7
  /// Each byte's class, as `BytePrefilter.preceding` tells bytes apart.
  private static let classes: [UInt8] = (0...255).map { value -> UInt8 in
    let byte = UInt8(value)
    switch byte {
    case _ where BytePrefilter.isIdentifierByte(byte): return identifier
    case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), 0x0B, 0x0C: return space
    case UInt8(ascii: "\n"): return lineBreak
    case UInt8(ascii: "."): return dot
    case UInt8(ascii: "/"): return slash
    case UInt8(ascii: "`"): return backtick
    case UInt8(ascii: "\""), UInt8(ascii: "\\"): return mark
    default: return other
    }
  }

  private static let mutatingWord = Array("mutating".utf8)

  /// The first letters of the declaration and binding keywords (`BytePrefilter.declarationKeyword`,
  /// `isBindingKeyword`): a word starting otherwise is none.
  private static let startsKeyword: [Bool] = (0...255).map { value in
    "aceflpstv".utf8.contains(UInt8(value))
  }

  /// FNV-1a over the identifier's bytes; never `unknownBase` or `notAType` (a name that hashes to
  /// one answers as any name whose hash is 2 does).
  static func hash(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> UInt32 {
    var hash: UInt32 = 2_166_136_261
    var index = start
    while index < end {
      hash = (hash ^ UInt32(base[index])) &* 16_777_619
      index += 1
    }
    return hash <= notAType ? 2 : hash
  }

  private static func sortedUnique(_ values: [UInt32]) -> [UInt32] {
    guard values.count > 1 else { return values }
    let sorted = values.sorted()
    var result: [UInt32] = []
    result.reserveCapacity(sorted.count)
    for value in sorted where result.last != value { result.append(value) }
    return result
  }

  static func binaryContains(_ sorted: [UInt32], _ value: UInt32) -> Bool {
    var low = 0
    var high = sorted.count
    while low < high {
      let middle = (low + high) / 2
      if sorted[middle] < value { low = middle + 1 } else { high = middle }
    }
    return low < sorted.count && sorted[low] == value
  }
}
