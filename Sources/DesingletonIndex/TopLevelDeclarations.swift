extension BytePrefilter {
  /// Whether the file can declare or extend a type named one of `names` at its top level (outside
  /// every brace), which is where a type whose qualified name has no dot is declared: `struct Name`,
  /// `extension Name`. A type of that simple name nested in another (`Outer.Name`) is another type.
  ///
  /// The braces are counted outside comments and string literals (with their interpolations, raw
  /// and multi-line ones too). Where the bytes cannot be read that far for sure (a `/` that may
  /// open a regular expression, an extended regular expression literal, a string left open,
  /// braces that do not balance), the answer is `canDeclare`'s, which does not look at braces.
  public static func canDeclareAtTopLevel(_ names: [[UInt8]], in bytes: [UInt8]) -> Bool {
    let wanted = Set(names.map { $0[...] })
    switch bytes.withUnsafeBufferPointer({ TopLevelScanner(buffer: $0, names: wanted).run() }) {
    case .declares: return true
    case .doesNotDeclare: return false
    case .unsure: return canDeclare(names, in: bytes)
    }
  }
}

/// One pass over a file's bytes, counting braces outside comments and literals, for
/// `BytePrefilter.canDeclareAtTopLevel`.
private struct TopLevelScanner {
  enum Answer { case declares, doesNotDeclare, unsure }

  let buffer: UnsafeBufferPointer<UInt8>
  let names: Set<ArraySlice<UInt8>>
  private var count: Int { buffer.count }

  init(buffer: UnsafeBufferPointer<UInt8>, names: Set<ArraySlice<UInt8>>) {
    self.buffer = buffer
    self.names = names
  }

  /// Thrown where the bytes cannot be read for sure.
  private struct Unsure: Error {}

  func run() -> Answer {
    do {
      return try scanTopLevel() ? .declares : .doesNotDeclare
    } catch {
      return .unsure
    }
  }

  private func byte(_ index: Int) -> UInt8? { index < count ? buffer[index] : nil }

  /// The whole file: true at the first wanted name after a type's keyword outside braces.
  private func scanTopLevel() throws -> Bool {
    var depth = 0
    var afterTypeKeyword = false
    var index = 0
    while index < count {
      let current = buffer[index]
      if BytePrefilter.isIdentifierByte(current) || current == UInt8(ascii: "`") {
        let quoted = current == UInt8(ascii: "`")
        let start = quoted ? index + 1 : index
        var end = start
        while end < count, BytePrefilter.isIdentifierByte(buffer[end]) { end += 1 }
        if afterTypeKeyword && depth == 0 && names.contains(Array(buffer[start..<end])[...]) { return true }
        afterTypeKeyword = !quoted && isTypeKeyword(start..<end)
        index = quoted && byte(end) == UInt8(ascii: "`") ? end + 1 : max(end, index + 1)
        continue
      }
      if let next = try skipTrivia(at: index) {
        // A comment between the keyword and the name keeps the keyword's meaning.
        index = next
        continue
      }
      if let next = try skipLiteral(at: index) {
        index = next
        afterTypeKeyword = false
        continue
      }
      switch current {
      case UInt8(ascii: "{"): depth += 1
      case UInt8(ascii: "}"):
        depth -= 1
        if depth < 0 { throw Unsure() }
      default: break
      }
      afterTypeKeyword = false
      index += 1
    }
    if depth != 0 { throw Unsure() }
    return false
  }

  /// Past whitespace or a comment starting at `index`; nil when none starts there.
  private func skipTrivia(at index: Int) throws -> Int? {
    switch buffer[index] {
    case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), 0x0B, 0x0C:
      return index + 1
    case UInt8(ascii: "/"):
      if byte(index + 1) == UInt8(ascii: "/") {
        var end = index + 2
        while end < count, buffer[end] != UInt8(ascii: "\n") { end += 1 }
        return end
      }
      if byte(index + 1) == UInt8(ascii: "*") {
        // Block comments nest.
        var nesting = 1
        var end = index + 2
        while end < count, nesting > 0 {
          if buffer[end] == UInt8(ascii: "/"), byte(end + 1) == UInt8(ascii: "*") {
            nesting += 1
            end += 2
          } else if buffer[end] == UInt8(ascii: "*"), byte(end + 1) == UInt8(ascii: "/") {
            nesting -= 1
            end += 2
          } else {
            end += 1
          }
        }
        if nesting > 0 { throw Unsure() }
        return end
      }
      // `/=`, or `/` between spaces, is division; any other `/` may open a regular expression.
      let isSpace: (UInt8?) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\t") }
      if byte(index + 1) == UInt8(ascii: "=") || (index > 0 && isSpace(buffer[index - 1]) && isSpace(byte(index + 1))) {
        return nil
      }
      throw Unsure()
    default:
      return nil
    }
  }

  /// Past a string literal starting at `index` (its `#`s included); nil when none starts there.
  private func skipLiteral(at index: Int) throws -> Int? {
    var hashes = 0
    while byte(index + hashes) == UInt8(ascii: "#") { hashes += 1 }
    guard byte(index + hashes) == UInt8(ascii: "\"") else {
      // `#/.../#`: an extended regular expression literal.
      if hashes > 0 && byte(index + hashes) == UInt8(ascii: "/") { throw Unsure() }
      return nil
    }
    var position = index + hashes + 1
    let multiline = byte(position) == UInt8(ascii: "\"") && byte(position + 1) == UInt8(ascii: "\"")
    if multiline { position += 2 }
    while position < count {
      let current = buffer[position]
      if current == UInt8(ascii: "\\") && hasHashes(hashes, at: position + 1) {
        let escaped = position + 1 + hashes
        if byte(escaped) == UInt8(ascii: "(") {
          position = try skipInterpolation(at: escaped + 1)
        } else {
          position = escaped + 1
        }
        continue
      }
      if current == UInt8(ascii: "\n") && !multiline { throw Unsure() }
      if current == UInt8(ascii: "\"") {
        if multiline {
          if byte(position + 1) == UInt8(ascii: "\""), byte(position + 2) == UInt8(ascii: "\""),
            hasHashes(hashes, at: position + 3)
          {
            return position + 3 + hashes
          }
        } else if hasHashes(hashes, at: position + 1) {
          return position + 1 + hashes
        }
      }
      position += 1
    }
    throw Unsure()
  }

  /// Whether `hashes` `#`s stand at `index`.
  private func hasHashes(_ hashes: Int, at index: Int) -> Bool {
    (0..<hashes).allSatisfy { byte(index + $0) == UInt8(ascii: "#") }
  }

  /// Past the `)` that closes an interpolation whose code starts at `index`.
  private func skipInterpolation(at index: Int) throws -> Int {
    var parentheses = 0
    var position = index
    while position < count {
      if let next = try skipTrivia(at: position) {
        position = next
        continue
      }
      if let next = try skipLiteral(at: position) {
        position = next
        continue
      }
      switch buffer[position] {
      case UInt8(ascii: "("): parentheses += 1
      case UInt8(ascii: ")"):
        if parentheses == 0 { return position + 1 }
        parentheses -= 1
      default: break
      }
      position += 1
    }
    throw Unsure()
  }

  /// Whether the word at `range` is a keyword that declares or extends a type, or an alias of one.
  private func isTypeKeyword(_ range: Range<Int>) -> Bool {
    let word = buffer[range]
    switch range.count {
    case 4: return word.elementsEqual("enum".utf8)
    case 5: return word.elementsEqual("class".utf8) || word.elementsEqual("actor".utf8)
    case 6: return word.elementsEqual("struct".utf8)
    case 8: return word.elementsEqual("protocol".utf8)
    case 9: return word.elementsEqual("extension".utf8) || word.elementsEqual("typealias".utf8)
    default: return false
    }
  }
}
