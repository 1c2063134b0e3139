import DesingletonCore
import SwiftSyntax

/// Names a singleton's accessor can have: `shared`, `sharedController`, `sharedInstance`,
/// `default`, `defaultManager`, `standard`, `instance`.
public func isAccessorLikeName(_ name: String) -> Bool {
  name.hasPrefix("shared") || name.hasPrefix("default") || name == "standard" || name == "instance"
}

/// The byte strings whose absence lets the indexer skip a code block without walking it.
let accessorNeedles: [[UInt8]] = ["shared", "default", "standard", "instance"].map { Array($0.utf8) }

extension SyntaxProtocol {
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
  public var names: [String] { map { $0.name.text } }

  public var isStatic: Bool { contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) } }

  /// The access level written without a detail: `public` but not `private(set)`.
  public var accessLevel: AccessLevel? {
    for modifier in self where modifier.detail == nil {
      if let level = AccessLevel(keyword: modifier.name.text) { return level }
    }
    return nil
  }

  /// The level written as `private(set)` and the like.
  public var setterAccessLevel: AccessLevel? {
    for modifier in self where modifier.detail?.detail.text == "set" {
      if let level = AccessLevel(keyword: modifier.name.text) { return level }
    }
    return nil
  }

  /// Modifiers other than access levels.
  public var otherModifierNames: [String] {
    compactMap { AccessLevel(keyword: $0.name.text) == nil ? $0.name.text : nil }
  }
}

extension AttributeListSyntax {
  /// `@MainActor`, `@objc`, ... without arguments.
  public var names: [String] {
    compactMap { element in
      if case .attribute(let attribute) = element {
        return "@" + attribute.attributeName.trimmedDescription
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
  /// `Foo`, `Module.Foo`, `Outer.Foo`, `Self`: an expression that names a type, as written.
  public var typeReferenceText: String? {
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

/// Finds every occurrence of any of `needles` in `bytes`; the offsets are sorted.
func occurrences(of needles: [[UInt8]], in bytes: [UInt8], firstOnly: Bool = false) -> [Int] {
  var result: [Int] = []
  bytes.withUnsafeBufferPointer { buffer in
    let count = buffer.count
    var i = 0
    while i < count {
      let byte = buffer[i]
      for needle in needles where needle[0] == byte && i + needle.count <= count {
        var matches = true
        var j = 1
        while j < needle.count {
          if buffer[i + j] != needle[j] {
            matches = false
            break
          }
          j += 1
        }
        if matches {
          result.append(i)
          if firstOnly { return }
          break
        }
      }
      i += 1
    }
  }
  return result
}

/// Whether some offset in the sorted list lies in `range`.
func contains(_ sortedOffsets: [Int], in range: Range<Int>) -> Bool {
  var low = 0
  var high = sortedOffsets.count
  while low < high {
    let mid = (low + high) / 2
    if sortedOffsets[mid] < range.lowerBound { low = mid + 1 } else { high = mid }
  }
  return low < sortedOffsets.count && sortedOffsets[low] < range.upperBound
}
