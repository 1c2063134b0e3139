import DesingletonCore

/// Whether a path is Objective-C source: a header, or an implementation desingleton reads but never
/// rewrites. The one answer to that question (the file walk and the index ask it).
public enum ObjectiveCFiles {
  public static func isObjectiveC(_ path: String) -> Bool {
    path.hasSuffix(".h") || path.hasSuffix(".m") || path.hasSuffix(".mm")
  }

  public static func isHeader(_ path: String) -> Bool { path.hasSuffix(".h") }
}

/// One token of Objective-C source: comments and preprocessor lines are gone, except that
/// `#pragma clang assume_nonnull begin`/`end` become the identifiers `NS_ASSUME_NONNULL_BEGIN`/`END`
/// (what the Foundation macros expand to), so that one rule reads both spellings.
struct ObjectiveCToken: Equatable {
  enum Kind: Equatable {
    /// A word: `NSString`, `nonatomic`, `__attribute__`.
    case identifier
    /// `@interface`, `@property`, `@end` (the text keeps the `@`).
    case keyword
    /// A string or character literal, quotes included.
    case literal
    case number
    /// One character of punctuation: `(`, `*`, `^`, `;`, `:`.
    case punctuation
  }

  var kind: Kind
  var text: String
  /// Byte offset of the token's first byte in the file.
  var offset: Int

  func `is`(_ punctuation: String) -> Bool { kind == .punctuation && text == punctuation }
}

enum ObjectiveCLexer {
  static func tokens(_ bytes: [UInt8]) -> [ObjectiveCToken] {
    var result: [ObjectiveCToken] = []
    var position = 0
    var atLineStart = true
    func isWordByte(_ byte: UInt8) -> Bool { BytePrefilter.isIdentifierByte(byte) || byte == UInt8(ascii: "$") }
    func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
    while position < bytes.count {
      let byte = bytes[position]
      if byte == 10 { atLineStart = true; position += 1; continue }
      if byte == 32 || byte == 9 || byte == 13 || byte == 12 { position += 1; continue }
      if byte == UInt8(ascii: "/"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "/") {
        while position < bytes.count, bytes[position] != 10 { position += 1 }
        continue
      }
      if byte == UInt8(ascii: "/"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "*") {
        position += 2
        while position + 1 < bytes.count, !(bytes[position] == UInt8(ascii: "*") && bytes[position + 1] == UInt8(ascii: "/")) {
          position += 1
        }
        position = min(bytes.count, position + 2)
        continue
      }
      if byte == UInt8(ascii: "#") && atLineStart {
        let start = position
        while position < bytes.count, bytes[position] != 10 || (position > 0 && bytes[position - 1] == UInt8(ascii: "\\")) {
          position += 1
        }
        let words = text(start..<position).split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "#" })
        if words.count >= 4, words[0] == "pragma", words[1] == "clang", words[2] == "assume_nonnull" {
          let marker = words[3] == "begin" ? "NS_ASSUME_NONNULL_BEGIN" : "NS_ASSUME_NONNULL_END"
          result.append(ObjectiveCToken(kind: .identifier, text: marker, offset: start))
        }
        continue
      }
      atLineStart = false
      let start = position
      if isWordByte(byte) && !(byte >= 48 && byte <= 57) {
        while position < bytes.count, isWordByte(bytes[position]) { position += 1 }
        result.append(ObjectiveCToken(kind: .identifier, text: text(start..<position), offset: start))
      } else if byte >= 48 && byte <= 57 {
        while position < bytes.count, isWordByte(bytes[position]) || bytes[position] == UInt8(ascii: ".") { position += 1 }
        result.append(ObjectiveCToken(kind: .number, text: text(start..<position), offset: start))
      } else if byte == UInt8(ascii: "@"), position + 1 < bytes.count, isWordByte(bytes[position + 1]) {
        position += 1
        while position < bytes.count, isWordByte(bytes[position]) { position += 1 }
        result.append(ObjectiveCToken(kind: .keyword, text: text(start..<position), offset: start))
      } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
        || (byte == UInt8(ascii: "@") && position + 1 < bytes.count && bytes[position + 1] == UInt8(ascii: "\""))
      {
        if byte == UInt8(ascii: "@") { position += 1 }
        let quote = bytes[position]
        position += 1
        while position < bytes.count, bytes[position] != quote, bytes[position] != 10 {
          position += bytes[position] == UInt8(ascii: "\\") ? 2 : 1
        }
        position = min(bytes.count, position + 1)
        result.append(ObjectiveCToken(kind: .literal, text: text(start..<position), offset: start))
      } else {
        position += 1
        result.append(ObjectiveCToken(kind: .punctuation, text: text(start..<position), offset: start))
      }
    }
    return result
  }

  /// The modules a file imports, by line (from 0): `#import <UIKit/UIKit.h>` and `@import UIKit;`
  /// import `UIKit` (a framework's module has its name); quoted includes import no module.
  static func moduleImports(_ bytes: [UInt8]) -> [(line: Int, module: String)] {
    var result: [(line: Int, module: String)] = []
    let text = String(decoding: bytes, as: UTF8.self)
    for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let trimmed = line.drop { $0 == " " || $0 == "\t" }
      var module: Substring?
      for directive in ["#import <", "#include <", "# import <"] where trimmed.hasPrefix(directive) {
        let rest = trimmed.dropFirst(directive.count)
        if let slash = rest.firstIndex(of: "/") { module = rest[..<slash] }
      }
      if trimmed.hasPrefix("@import ") {
        module = trimmed.dropFirst(8).prefix { $0.isLetter || $0.isNumber || $0 == "_" }
      }
      if let module, !module.isEmpty, module.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) {
        result.append((number, String(module)))
      }
    }
    return result
  }

  /// The position of the `(` that opens the group whose `)` is at `close`; -1 when none does.
  static func opening(_ tokens: [ObjectiveCToken], closingAt close: Int) -> Int {
    var depth = 0
    var position = close
    while position >= 0 {
      if tokens[position].is(")") { depth += 1 }
      if tokens[position].is("(") {
        depth -= 1
        if depth == 0 { return position }
      }
      position -= 1
    }
    return -1
  }

  /// The position just after the group that opens at `start` (`(`, `[`, `{` or `<`), or the end.
  static func closing(_ tokens: [ObjectiveCToken], from start: Int) -> Int {
    let open = tokens[start].text
    let close = ["(": ")", "[": "]", "{": "}", "<": ">"][open] ?? open
    var depth = 0
    var position = start
    while position < tokens.count {
      if tokens[position].is(open) { depth += 1 }
      if tokens[position].is(close) {
        depth -= 1
        if depth == 0 { return position + 1 }
      }
      position += 1
    }
    return tokens.count
  }
}
