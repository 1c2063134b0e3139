import Foundation
/// The one answer to "is this test code?" that every planner asks.
extension Index {
  /// Whether a type is a test: an `XCTestCase` subclass (through any chain of superclasses the index
  /// declares), a `@Suite`, a type with `@Test` members, or a type declared in a test file. A type
  /// nested in a test counts as one too.
  /// Worked out once per type for the index's life (a report asks it for every consumer).
  public func isTestType(_ qualifiedName: String) -> Bool {
    testTypes.answer(qualifiedName) {
      var enclosing = qualifiedName
      while true {
        if isTestTypeItself(enclosing) { return true }
        guard let dot = enclosing.lastIndex(of: ".") else { return false }
        enclosing = String(enclosing[..<dot])
      }
    }
  }

  /// Whether a reference sits in test code: in a test file or in a test type.
  public func isInTest(_ reference: Reference) -> Bool {
    isInTest(path: reference.range.path, enclosingType: enclosingType(of: reference))
  }

  /// Whether code in `path`, inside the type `enclosingType` (qualified; nil at top level), is test code.
  public func isInTest(path: String, enclosingType: String?) -> Bool {
    if Index.isTestPath(path) { return true }
    guard let owner = enclosingType else { return false }
    return isTestType(owner)
  }

  /// A file under a `Tests` directory (`Tests/`, `AppTests/`, `AppUITests/`) or named `*Tests.swift`.
  /// (Read from the path's bytes: it is asked for every reference and consumer a report counts.)
  public static func isTestPath(_ path: String) -> Bool {
    var bytes = Array(path.utf8)
    while bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
    // The file's name ends with `Tests.swift`, or a folder's name with `Tests`: `Tests/` then more.
    if bytes.count >= testsSwift.count, bytes[(bytes.count - testsSwift.count)...].elementsEqual(testsSwift) { return true }
    guard bytes.count > testsFolder.count else { return false }
    for start in 0...(bytes.count - testsFolder.count) where bytes[start] == UInt8(ascii: "T") {
      if bytes[start..<(start + testsFolder.count)].elementsEqual(testsFolder) { return true }
    }
    return false
  }

  private static let testsSwift = Array("Tests.swift".utf8)
  private static let testsFolder = Array("Tests/".utf8)

  private func isTestTypeItself(_ qualifiedName: String) -> Bool {
    if hasTestMarks(qualifiedName) { return true }
    for step in superclassChain(of: qualifiedName) {
      switch step {
      case .project(let name):
        if hasTestMarks(name) { return true }
      case .framework(let name), .unknown(let name):
        if FrameworkTypes.lastComponent(name) == "XCTestCase" { return true }
      }
    }
    return false
  }

  /// `@Suite`, `@Test` members, or a declaration in a test file.
  private func hasTestMarks(_ qualifiedName: String) -> Bool {
    outlineDeclarations(of: qualifiedName).contains { declaration in
      declaration.attributes.contains("@Suite") || declaration.hasTestMethod
        || (!declaration.isExtension && Index.isTestPath(declaration.path))
    }
  }
}

/// Whether each type asked about is a test, as first worked out: the index does not change, and
/// what the question asked its coverage for was recorded then.
final class TestTypeAnswers: @unchecked Sendable {
  private let lock = NSLock()
  private var answers: [String: Bool] = [:]

  func answer(_ qualifiedName: String, _ work: () -> Bool) -> Bool {
    lock.lock()
    let known = answers[qualifiedName]
    lock.unlock()
    if let known { return known }
    let answer = work()
    lock.lock()
    answers[qualifiedName] = answer
    lock.unlock()
    return answer
  }
}
