import Foundation

/// `#if` conditions as boolean formulas over their atoms (`os(Linux)`, `canImport(UIKit)`, `DEBUG`,
/// `swift(>=6)`), so that a member declared once per branch of an `#if` becomes one requirement.
///
/// Atoms are treated as independent, even where they are not (`os(Linux)` and `os(macOS)` exclude
/// each other): a formula is called always true only when it is, whatever the platform, so a
/// simplification can be missed but is never wrong.
enum ConditionLogic {
  indirect enum Formula: Equatable {
    case atom(String)
    case not(Formula)
    case and(Formula, Formula)
    case or(Formula, Formula)
  }

  /// Above this many atoms no formula is simplified (2^n assignments are tried).
  static let maximumAtoms = 12

  /// The formula of a `#if` condition's text; nil when it is not one this reader understands.
  static func formula(_ text: String) -> Formula? {
    var reader = Reader(Array(text.utf8))
    guard let formula = reader.disjunction(), reader.atEnd else { return nil }
    return formula
  }

  /// The formula of nested clauses (`MemberDecl.conditions`): all of them hold. nil for none.
  static func conjunction(_ conditions: [String]) -> Formula? {
    var result: Formula?
    for text in conditions {
      guard let next = formula(text) else { return nil }
      result = result.map { .and($0, next) } ?? next
    }
    return result
  }

  /// Whether `premise` implies `conclusion` on every assignment of their atoms (nil premise: always true).
  static func implies(_ premise: Formula?, _ conclusion: Formula) -> Bool {
    var atoms: [String] = []
    premise?.collectAtoms(into: &atoms)
    conclusion.collectAtoms(into: &atoms)
    guard atoms.count <= maximumAtoms else { return false }
    for assignment in 0..<(1 << atoms.count) {
      let value: (String) -> Bool = { atom in assignment & (1 << atoms.firstIndex(of: atom)!) != 0 }
      if premise?.evaluate(value) ?? true, !conclusion.evaluate(value) { return false }
    }
    return true
  }

  /// One condition that holds when any of the alternatives (each a list of nested clauses) does:
  /// nil when one of them is unconditional.
  static func anyOf(_ alternatives: [[String]]) -> String? {
    var texts: [String] = []
    for conditions in alternatives {
      if conditions.isEmpty { return nil }
      var text = ConditionalText.condition(conditions)
      // `#elseif B` after `#if A` reads `!A && B`; next to `A ||` it is just `B`.
      let parts = topLevelConjuncts(text).filter { part in
        !texts.contains { part == "!" + $0 || part == "!(\($0))" }
      }
      if !parts.isEmpty {
        let shorter = parts.count == 1 && parts[0].hasPrefix("(") && parts[0].hasSuffix(")") ? String(parts[0].dropFirst().dropLast()) : parts.joined(separator: " && ")
        let before = texts.map { "(\($0))" }.joined(separator: " || ")
        if texts.isEmpty {
          text = shorter
        } else if let old = formula("\(before) || (\(text))"), let new = formula("\(before) || (\(shorter))"),
          implies(old, new), implies(new, old)
        {
          text = shorter
        }
      }
      if !texts.contains(text) { texts.append(text) }
    }
    if texts.count == 1 { return texts[0] }
    return texts.map { text in formula(text).map(\.isAtomicOrNegation) ?? false ? text : "(\(text))" }
      .joined(separator: " || ")
  }

  /// The parts of `A && (B || C) && !D` joined by `&&` outside parentheses.
  static func topLevelConjuncts(_ text: String) -> [String] {
    var parts: [String] = []
    var depth = 0
    var current = ""
    var characters = Array(text)[...]
    while let character = characters.first {
      if character == "(" { depth += 1 }
      if character == ")" { depth -= 1 }
      if depth == 0, character == "&", characters.dropFirst().first == "&" {
        parts.append(current.trimmingCharacters(in: .whitespaces))
        current = ""
        characters = characters.dropFirst(2)
        continue
      }
      current.append(character)
      characters = characters.dropFirst()
    }
    parts.append(current.trimmingCharacters(in: .whitespaces))
    return parts
  }

  private struct Reader {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool {
      mutating get {
        skipSpaces()
        return position == bytes.count
      }
    }

    mutating func skipSpaces() {
      while position < bytes.count, [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains(bytes[position]) {
        position += 1
      }
    }

    mutating func take(_ text: String) -> Bool {
      skipSpaces()
      let token = Array(text.utf8)
      guard position + token.count <= bytes.count, Array(bytes[position..<position + token.count]) == token else { return false }
      position += token.count
      return true
    }

    mutating func disjunction() -> Formula? {
      guard var result = conjunction() else { return nil }
      while take("||") {
        guard let next = conjunction() else { return nil }
        result = .or(result, next)
      }
      return result
    }

    mutating func conjunction() -> Formula? {
      guard var result = unary() else { return nil }
      while take("&&") {
        guard let next = unary() else { return nil }
        result = .and(result, next)
      }
      return result
    }

    mutating func unary() -> Formula? {
      if take("!") { return unary().map { .not($0) } }
      if take("(") {
        guard let inner = disjunction(), take(")") else { return nil }
        return inner
      }
      return atom()
    }

    /// A name, optionally with a balanced argument list: `DEBUG`, `os(iOS)`, `swift(>=5.9)`.
    mutating func atom() -> Formula? {
      skipSpaces()
      let start = position
      while position < bytes.count, isNameByte(bytes[position]) { position += 1 }
      guard position > start else { return nil }
      skipSpaces()
      if position < bytes.count, bytes[position] == UInt8(ascii: "(") {
        var depth = 0
        repeat {
          if bytes[position] == UInt8(ascii: "(") { depth += 1 }
          if bytes[position] == UInt8(ascii: ")") { depth -= 1 }
          position += 1
        } while depth > 0 && position < bytes.count
        guard depth == 0 else { return nil }
      }
      let text = String(decoding: bytes[start..<position], as: UTF8.self).filter { !$0.isWhitespace }
      return .atom(text)
    }

    func isNameByte(_ byte: UInt8) -> Bool {
      (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
        || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte >= 0x80
    }
  }
}

extension ConditionLogic.Formula {
  func evaluate(_ value: (String) -> Bool) -> Bool {
    switch self {
    case .atom(let name): value(name)
    case .not(let inner): !inner.evaluate(value)
    case .and(let left, let right): left.evaluate(value) && right.evaluate(value)
    case .or(let left, let right): left.evaluate(value) || right.evaluate(value)
    }
  }

  func collectAtoms(into atoms: inout [String]) {
    switch self {
    case .atom(let name): if !atoms.contains(name) { atoms.append(name) }
    case .not(let inner): inner.collectAtoms(into: &atoms)
    case .and(let left, let right), .or(let left, let right):
      left.collectAtoms(into: &atoms)
      right.collectAtoms(into: &atoms)
    }
  }

  /// Whether the text of this formula needs no parentheses next to `||`: an atom, a negation, or a conjunction.
  var isAtomicOrNegation: Bool {
    switch self {
    case .or: false
    default: true
    }
  }
}
