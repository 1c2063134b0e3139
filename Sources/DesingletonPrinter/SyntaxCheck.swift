import DesingletonCore
import Foundation
import SwiftParser
import SwiftSyntax

/// Counts the syntax errors SwiftParser finds in a file: missing tokens, unexpected nodes and tokens
/// the lexer marks as errors.
struct SyntaxCheck: Sendable {
  let errorCount: Int
  /// The UTF-8 offset of the first error in the text.
  let firstErrorOffset: Int?

  init(_ bytes: [UInt8]) {
    self.init(tree: bytes.withUnsafeBufferPointer { Parser.parse(source: $0, maximumNestingLevel: swiftParserNestingLimit) })
  }

  init(tree: SourceFileSyntax) {
    var count = 0
    var first: Int?
    func record(_ offset: Int) {
      count += 1
      first = min(first ?? offset, offset)
    }
    var pending: [Syntax] = tree.hasError ? [Syntax(tree)] : []
    while let node = pending.popLast() {
      if let token = node.as(TokenSyntax.self) {
        if token.presence == .missing {
          record(token.positionAfterSkippingLeadingTrivia.utf8Offset)
        } else if let diagnostic = token.tokenDiagnostic, diagnostic.severity == .error {
          record(token.position.utf8Offset + Int(diagnostic.byteOffset))
        }
      } else if node.is(UnexpectedNodesSyntax.self) {
        record(node.positionAfterSkippingLeadingTrivia.utf8Offset)
      } else {
        pending.append(contentsOf: node.children(viewMode: .all).filter(\.hasError))
      }
    }
    errorCount = count
    firstErrorOffset = first
  }

  /// The check of these bytes, made once per process: a command renders the same plan more than
  /// once (to check it on the rewritten project, then to print or write it).
  static func of(_ bytes: [UInt8]) -> SyntaxCheck {
    if let known = checks.value(for: bytes) { return known }
    let check = SyntaxCheck(bytes)
    checks.store(check, for: bytes)
    return check
  }

  /// Keeps the check of a tree parsed elsewhere from exactly these bytes (`Printer.remember`).
  static func remember(_ tree: SourceFileSyntax, of bytes: [UInt8]) {
    if checks.value(for: bytes) == nil { checks.store(SyntaxCheck(tree: tree), for: bytes) }
  }

  private static let checks = Checks()

  /// The checks made, by the bytes checked.
  private final class Checks: @unchecked Sendable {
    private let lock = NSLock()
    private var byBytes: [ByteKey: SyntaxCheck] = [:]

    func value(for bytes: [UInt8]) -> SyntaxCheck? {
      lock.lock()
      defer { lock.unlock() }
      return byBytes[ByteKey(bytes)]
    }

    func store(_ check: SyntaxCheck, for bytes: [UInt8]) {
      lock.lock()
      byBytes[ByteKey(bytes)] = check
      lock.unlock()
    }
  }
}
