/// The one answer to "is this test code?" that every planner asks.
extension Index {
  /// Whether a type is a test: an `XCTestCase` subclass (through any chain of superclasses the index
  /// declares), a `@Suite`, a type with `@Test` members, or a type declared in a test file. A type
  /// nested in a test counts as one too.
  public func isTestType(_ qualifiedName: String) -> Bool {
    var enclosing = qualifiedName
    while true {
      if isTestTypeItself(enclosing) { return true }
      guard let dot = enclosing.lastIndex(of: ".") else { return false }
      enclosing = String(enclosing[..<dot])
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
  public static func isTestPath(_ path: String) -> Bool {
    let components = path.split(separator: "/")
    if let file = components.last, file.hasSuffix("Tests.swift") { return true }
    return components.dropLast().contains { $0.hasSuffix("Tests") }
  }

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
