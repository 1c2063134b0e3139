import DesingletonCore
import DesingletonIndex

/// Where Objective-C code in the project uses a Swift type that a command would change: it sends the
/// accessor message (`[Options shared]`, `Options.shared`) or creates an instance (`[Badge alloc]`,
/// `[Badge new]`). desingleton does not rewrite Objective-C, so such a use blocks the change that
/// would break it. Files are searched by their bytes, never parsed; comments are not told apart, so a
/// use in a comment blocks too (a refusal, never a wrong rewrite).
enum ObjectiveCUses {
  /// `[Type selector]` and `Type.selector` in the project's Objective-C files.
  static func messages(to typeName: String, selectors: Set<String>, in project: Project) -> [Location] {
    uses(of: typeName, in: project) { bytes, start, end in
      // `[Type selector` ... or `Type.selector`
      if end < bytes.count, bytes[end] == UInt8(ascii: "."), let word = word(in: bytes, at: end + 1) {
        return selectors.contains(word)
      }
      guard previousNonSpace(in: bytes, before: start) == UInt8(ascii: "["),
        let word = word(in: bytes, at: skipSpaces(bytes, from: end))
      else { return false }
      return selectors.contains(word)
    }
  }

  /// `[Type alloc]`, `[Type new]`: instances made by Objective-C, which cannot pass new init arguments.
  static func creations(of typeName: String, in project: Project) -> [Location] {
    messages(to: typeName, selectors: ["alloc", "new"], in: project)
  }

  /// Whether Objective-C can see a Swift class: marked `@objc`/`@objcMembers`, or an `NSObject` subclass
  /// (every framework class the model knows is one).
  static func isVisible(_ typeName: String, index: Index) -> Bool {
    let primary = index.primaryDeclaration(of: typeName)
    if primary?.attributes.contains(where: { $0 == "@objc" || $0 == "@objcMembers" }) == true { return true }
    return index.superclassChain(of: typeName).contains { if case .framework = $0 { return true } else { return false } }
  }

  private static func uses(of typeName: String, in project: Project, matches: ([UInt8], Int, Int) -> Bool) -> [Location] {
    let simpleName = typeName.split(separator: ".").last.map(String.init) ?? typeName
    let name = Array(simpleName.utf8)
    var found: [Location] = []
    for path in project.objectiveCPaths(containing: simpleName) {
      guard let bytes = project.writtenBytes(path) else { continue }
      let source = SourceText(path: path, bytes: bytes)
      for offset in occurrences(of: [name], in: bytes) {
        let end = offset + name.count
        let boundedBefore = offset == 0 || !isIdentifierByte(bytes[offset - 1])
        let boundedAfter = end == bytes.count || !isIdentifierByte(bytes[end])
        if boundedBefore && boundedAfter && matches(bytes, offset, end) {
          found.append(source.location(ofOffset: offset))
        }
      }
    }
    return found
  }

  private static func isIdentifierByte(_ byte: UInt8) -> Bool {
    (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || byte == 95
  }

  private static func skipSpaces(_ bytes: [UInt8], from start: Int) -> Int {
    var position = start
    while position < bytes.count, [32, 9, 10, 13].contains(bytes[position]) { position += 1 }
    return position
  }

  private static func previousNonSpace(in bytes: [UInt8], before end: Int) -> UInt8? {
    var position = end - 1
    while position >= 0, [32, 9, 10, 13].contains(bytes[position]) { position -= 1 }
    return position >= 0 ? bytes[position] : nil
  }

  private static func word(in bytes: [UInt8], at start: Int) -> String? {
    var end = start
    while end < bytes.count, isIdentifierByte(bytes[end]) { end += 1 }
    return end > start ? String(decoding: bytes[start..<end], as: UTF8.self) : nil
  }
}
