import DesingletonCore
import Foundation
@_spi(RawSyntax) import SwiftSyntax

/// Names a singleton's accessor can have: `shared`, `sharedController`, `sharedInstance`,
/// `default`, `defaultManager`, `standard`, `instance`, and the project's own (`--accessor current`).
public struct AccessorNames: Sendable, Hashable {
  /// Names given by the project, matched exactly.
  public var extra: [String]

  public init(extra: [String] = []) {
    self.extra = extra.map(unquoted).filter { !$0.isEmpty }
  }

  public static let standard = AccessorNames()

  /// Whether a static member of this name may be an accessor (backticks ignored: `` `default` ``).
  public func matches(_ written: String) -> Bool {
    let name = unquoted(written)
    return name.hasPrefix("shared") || name.hasPrefix("default") || name == "standard" || name == "instance"
      || extra.contains(name)
  }

  /// The byte strings whose absence lets the indexer skip a code block without walking it.
  var needles: [[UInt8]] { (["shared", "default", "standard", "instance"] + extra).map { Array($0.utf8) } }
}

extension SyntaxProtocol {
  /// The node's text without its outer trivia, read from the file's bytes.
  public func text(in source: SourceText) -> String {
    let range = trimmedByteRange
    guard range.lowerBound >= 0, range.upperBound <= source.bytes.count, range.lowerBound <= range.upperBound else {
      return trimmedDescription
    }
    return String(decoding: source.bytes[range], as: UTF8.self)
  }

  /// Byte range without leading and trailing trivia.
  public var trimmedByteRange: Range<Int> {
    positionAfterSkippingLeadingTrivia.utf8Offset..<endPositionBeforeTrailingTrivia.utf8Offset
  }

  public func sourceRange(in source: SourceText) -> SourceRange {
    let range = trimmedByteRange
    return SourceRange(path: source.path, bytes: range, start: source.location(ofOffset: range.lowerBound))
  }
}

extension DeclModifierListSyntax {
  public var isStatic: Bool { contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) } }

  /// The access level written without a detail: `public` but not `private(set)`.
  public var accessLevel: AccessLevel? { ModifierSummary(self).access }
}

/// What a declaration's modifiers say, read from the raw tokens in one pass over the list.
struct ModifierSummary {
  /// `static` or `class`.
  var isStatic = false
  /// `class`.
  var isClass = false
  /// The first access level written without a detail: `public`, not `private(set)`.
  var access: AccessLevel?
  /// The first level written as `private(set)` and the like.
  var setterAccess: AccessLevel?
  /// Modifiers other than access levels, as written.
  var others: [String] = []

  init(_ list: DeclModifierListSyntax) {
    self.init(RawDeclModifierListSyntax(list.raw)!)
  }

  init(_ list: RawDeclModifierListSyntax) {
    guard !list.isEmpty else { return }
    for modifier in list.elements {
      let name = modifier.name.text
      if let level = AccessLevel(keyword: name) {
        if let detail = modifier.detail {
          if setterAccess == nil, detail.detail.tokenText == "set" { setterAccess = level }
        } else if access == nil {
          access = level
        }
        continue
      }
      if modifier.name.tokenKind == .keyword {
        if name == "static" { isStatic = true }
        if name == "class" { isStatic = true; isClass = true }
      }
      others.append(name)
    }
  }
}

extension AttributeListSyntax {
  /// `@MainActor`, `@objc`, ... without arguments; read from the source bytes, which is far cheaper than `trimmedDescription`.
  public func names(in source: SourceText) -> [String] {
    guard !isEmpty else { return [] }
    return compactMap { element in
      if case .attribute(let attribute) = element {
        return "@" + attribute.attributeName.text(in: source)
      }
      return nil
    }
  }
}

extension TypeSyntax {
  /// The last component of a type name: `Outer.Inner<T>` → `Inner`; `X!`/`X?` → `X`.
  public var simpleName: String? {
    if let identifier = self.as(IdentifierTypeSyntax.self) { return identifier.name.text }
    if let member = self.as(MemberTypeSyntax.self) { return member.name.text }
    if let unwrapped = self.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return unwrapped.wrappedType.simpleName }
    if let attributed = self.as(AttributedTypeSyntax.self) { return attributed.baseType.simpleName }
    return nil
  }
}

extension ExprSyntax {
  /// `Foo`, `Module.Foo`, `Outer.Foo`, `Self`: an expression that names a type, as written; its
  /// metatype (`Foo.self`) names it too.
  public var typeReferenceText: String? {
    if let member = self.as(MemberAccessExprSyntax.self), member.declName.baseName.tokenKind == .keyword(.self) {
      return member.base?.typeReferenceText
    }
    if let reference = self.as(DeclReferenceExprSyntax.self) {
      let name = reference.baseName.text
      guard reference.argumentNames == nil, let first = name.unicodeScalars.first else { return nil }
      if name == "Self" || (first.properties.isUppercase) { return name }
      return nil
    }
    if let member = self.as(MemberAccessExprSyntax.self), let base = member.base {
      let name = member.declName.baseName.text
      guard let first = name.unicodeScalars.first, first.properties.isUppercase else { return nil }
      if let baseText = base.typeReferenceText ?? base.as(DeclReferenceExprSyntax.self)?.baseName.text {
        return baseText + "." + name
      }
    }
    if let specialized = self.as(GenericSpecializationExprSyntax.self) {
      return specialized.expression.typeReferenceText
    }
    return nil
  }
}

/// Finds every occurrence of any of `needles` in `bytes`; the offsets are sorted. Scans with
/// `memchr` for each needle's rarest byte in Swift source (`h` of `shared`, not its `s`), so the
/// cost is close to one pass over memory per needle.
public func occurrences(of needles: [[UInt8]], in bytes: [UInt8], firstOnly: Bool = false) -> [Int] {
  var result: [Int] = []
  bytes.withUnsafeBufferPointer { buffer in
    guard let base = buffer.baseAddress else { return }
    let count = buffer.count
    for needle in needles where !needle.isEmpty && needle.count <= count {
      let anchor = anchorIndex(of: needle)
      let anchorByte = Int32(needle[anchor])
      // `start` is where the next match may begin; its anchor byte is `anchor` bytes further.
      var start = 0
      while start <= count - needle.count {
        let from = start + anchor
        guard let found = memchr(base + from, anchorByte, count - needle.count - start + 1) else { break }
        let offset = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) - anchor
        var matches = true
        var index = 0
        while index < needle.count {
          if buffer[offset + index] != needle[index] {
            matches = false
            break
          }
          index += 1
        }
        if matches {
          result.append(offset)
          if firstOnly { return }
        }
        start = offset + 1
      }
    }
  }
  if needles.count > 1 { result.sort() }
  return result
}

/// The offsets where one of `words` occurs as a whole identifier (no identifier byte right before or
/// after it, `BytePrefilter.isIdentifierByte`), sorted.
public func wordOccurrences(of words: [[UInt8]], in bytes: [UInt8]) -> [Int] {
  var result: [Int] = []
  for word in words {
    for offset in occurrences(of: [word], in: bytes) {
      let end = offset + word.count
      if (offset == 0 || !BytePrefilter.isIdentifierByte(bytes[offset - 1]))
        && (end == bytes.count || !BytePrefilter.isIdentifierByte(bytes[end]))
      {
        result.append(offset)
      }
    }
  }
  if words.count > 1 { result.sort() }
  return result
}

/// The position of the needle's byte that is rarest in Swift source, by a fixed ranking of letters
/// from common to rare (measured over a million lines of real and generated Swift).
private func anchorIndex(of needle: [UInt8]) -> Int {
  let common = Array("etaionrslducfmph".utf8)
  var best = 0
  var bestRank = -1
  for (position, byte) in needle.enumerated() {
    let rank = common.firstIndex(of: byte) ?? common.count
    if rank > bestRank {
      best = position
      bestRank = rank
    }
  }
  return best
}

/// Whether `bytes` contain one of `needles`.
public func containsAny(_ needles: [[UInt8]], in bytes: [UInt8]) -> Bool {
  !occurrences(of: needles, in: bytes, firstOnly: true).isEmpty
}

extension String {
  /// `split(separator:).first` for an ASCII separator, by bytes: the first non-empty component
  /// (`Outer.Inner<T>` → `Outer.Inner` for `<`); nil when there is none. Type names are split this
  /// way thousands of times per index.
  public func firstComponent(separatedBy separator: UInt8) -> Substring? {
    let utf8 = self.utf8
    var start = utf8.startIndex
    while start != utf8.endIndex, utf8[start] == separator { start = utf8.index(after: start) }
    guard start != utf8.endIndex else { return nil }
    let end = utf8[start...].firstIndex(of: separator) ?? utf8.endIndex
    return Substring(self[start..<end])
  }

  /// `split(separator:).last` for an ASCII separator, by bytes: the last non-empty component
  /// (`Outer.Inner` → `Inner` for `.`); nil when there is none.
  public func lastComponent(separatedBy separator: UInt8) -> Substring? {
    let utf8 = self.utf8
    var end = utf8.endIndex
    while end != utf8.startIndex, utf8[utf8.index(before: end)] == separator { end = utf8.index(before: end) }
    guard end != utf8.startIndex else { return nil }
    let start = utf8[..<end].lastIndex(of: separator).map { utf8.index(after: $0) } ?? utf8.startIndex
    return Substring(self[start..<end])
  }
}

/// `lazy var reporting: Reporting = SyncService.shared` in a type that makes its own shared instance
/// (`static let shared = Player()`): a settable stored property typed other than the singleton,
/// whose initial value is read at its first use unless it was set before (what `inject` gives a type
/// in a creation cycle, and how such a cycle is broken by hand). Its uses are the property's, not the
/// accessor's: the value is handed to the property, like passing it to a parameter of that type. In
/// a type that does not make its own instance, the same property is an alias of the accessor, which
/// `inject` turns into an injected one.
public func isSetAfterCreationProperty(_ binding: PatternBindingSyntax, _ type: TypeSyntax, instance: ExprSyntax) -> Bool {
  guard let variable = binding.parent?.parent?.as(VariableDeclSyntax.self), variable.parent?.is(MemberBlockItemSyntax.self) == true,
    variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.lazy) }),
    let members = variable.parent?.parent?.as(MemberBlockItemListSyntax.self),
    let owner = members.parent?.parent, let ownerName = owner.asProtocol(NamedDeclSyntax.self)?.name.text,
    owner.is(ClassDeclSyntax.self) || owner.is(ActorDeclSyntax.self)
  else { return false }
  var base = instance.as(FunctionCallExprSyntax.self)?.calledExpression ?? instance
  if let member = base.as(MemberAccessExprSyntax.self), let typeExpression = member.base { base = typeExpression }
  let typeName = base.as(MemberAccessExprSyntax.self)?.declName.baseName.text ?? base.trimmedDescription
  let annotated = type.as(MemberTypeSyntax.self)?.name.text ?? type.trimmedDescription
  return annotated != typeName && makesItsOwnInstance(members, typeName: ownerName)
}

/// Whether a type's members hold a static stored property whose initial value makes the type
/// (`static let shared = Player()`, `Self()`, `.init()`, `Player.init()`).
func makesItsOwnInstance(_ members: MemberBlockItemListSyntax, typeName: String) -> Bool {
  members.contains { item in
    guard let variable = item.decl.as(VariableDeclSyntax.self), variable.modifiers.isStatic else { return false }
    return variable.bindings.contains { binding in
      guard let call = binding.initializer?.value.as(FunctionCallExprSyntax.self) else { return false }
      var called = call.calledExpression
      if let member = called.as(MemberAccessExprSyntax.self), member.declName.baseName.tokenKind == .keyword(.`init`) {
        guard let base = member.base else { return true }
        called = base
      }
      let name = called.as(DeclReferenceExprSyntax.self)?.baseName.text
      return name == typeName || name == "Self"
    }
  }
}
