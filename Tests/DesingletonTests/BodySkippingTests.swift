import DesingletonCore
@testable import DesingletonIndex
import Foundation
import Testing

/// A file's summary made with the bodies that hold no reference left unparsed is the summary of
/// the whole file: the bytes that would make the lexer here lose its way are parsed in full, and
/// so are the files whose references reach beyond one body.
@Suite struct BodySkippingTests {
  func check(_ text: String) -> BodySkippingCheck.Outcome {
    BodySkippingCheck.check(SourceText(path: "File.swift", bytes: Array(text.utf8)))
  }

  /// Shapes whose braces the lexer must follow exactly, and whether a body is blanked.
  @Test(arguments: [
    // Strings: braces inside, escapes, interpolations holding closures and strings.
    (#"  func a() { let s = "}{"; print(s) }"#, true),
    (#"  func a() { let s = "\"}"; let t = "\(items.map { "\($0)}" })"; print(s, t) }"#, true),
    // Raw and multi-line strings are followed, and their bodies parsed: their rules reach further.
    (###"  func a() { let s = #"}"\"#; let t = ##"\#(x) "# }"##; print(s, t) }"###, false),
    ("  func a() {\n    let s = \"\"\"\n      } \" \"\" \\(f { 1 })\n      \"\"\"\n    print(s)\n  }", false),
    ("  func a() {\n    let s = #\"\"\"\n      }\"\"\" \\#(x)\n      \"\"\"#\n    print(s)\n  }", false),
    // `#"""#` is a one-line string of `"`, not the start of a multi-line one.
    ("  func a() { test(#\"\"\"#) }\n  func b() { print(1) }\n  func c() {\n    let s = #\"\"\"\n      x\n      \"\"\"#\n  }", true),
    // Comments: braces inside, nested block comments.
    ("  func a() { // }\n    /* } /* { */ } */ print(1)\n  }", true),
    // Division beside braces; a closure; a switch.
    ("  func a(x: Int) -> Int { let y = x / 2; return [1].map { $0 / y }.reduce(0, +) }", true),
    ("  func a(x: Int) -> String {\n    switch x { case 1: return \"{\"\n    default: return \"}\" }\n  }", true),
    // Getters of computed properties, not their accessors, not observers, not a closure's value.
    ("  var a: String { \"}\" + name }", true),
    ("  var a: Int { get { 1 } set { print(newValue) } }", false),
    ("  var a = 1 { didSet { print(a) } }", false),
    ("  lazy var a: Int = { 1 }()", false),
    ("  var a: Int {\n    @inline(__always) get { 1 }\n  }", false),
    // Inits, deinits, failable inits, generic functions with `where` and default closures.
    ("  init?(x: Int) { if x < 0 { return nil } }\n  deinit { print(\"}\") }", true),
    ("  func a<T>(_ t: T, f: () -> Void = { }) -> [T] where T: Equatable { f(); return [t] }", true),
    // What a static member returns is kept; a `class` modifier is static, a `class` keyword a type.
    ("  static func make() -> Box { Box(size: 1) }\n  class func other() -> Box { Box(size: 2) }\n  class Inner { func f() { print(0) } }", true),
    ("  static var defaults: Box { Box(size: 3) }", false),
    // Declarations in `#if` clauses, and operators.
    ("  #if DEBUG\n  func a() { print(1) }\n  #else\n  func a() { print(2) }\n  #endif", true),
    ("  static func == (l: Box, r: Box) -> Bool { l.size == r.size }\n  func b() -> Int { size / 2 }", true),
  ])
  func summariesAreTheWholeFiles(_ members: String, blanks: Bool) {
    let text = "final class Box {\n  var size = 1\n  var name = \"\"\n  var items: [Int] = []\n\(members)\n}\n"
    let outcome = check(text)
    #expect(outcome.differences.isEmpty, "\(outcome.differences)")
    #expect(outcome.fallbacks.isEmpty)
    #expect((outcome.blankedBytes > 0) == blanks)
  }

  /// The lexer's own answers: what it blanks, and what it leaves to a full parse.
  @Test func blanksOnlyBodiesWithoutReferences() {
    let outcome = check(
      """
      final class Shop {
        func buy() { Store.shared.add(1) }
        func sell() { print("sold") }
        var title: String { "Shop" }
        var owner: String { Store.shared.name }
      }
      """)
    #expect(outcome.skipped == 1)
    // `print("sold")` and `"Shop"`, spaces for spaces.
    #expect(outcome.blankedBytes == #" print("sold") "#.count - 2 + #" "Shop" "#.count - 2)
    #expect(outcome.differences.isEmpty)
  }

  @Test(arguments: [
    // A regular expression literal may hold any brace.
    "func a() -> Bool { \"x\".contains(/}/) }",
    "func a() -> Bool { \"x\".contains(#/}/#) }",
    // What does not end: a string, a block comment, a brace.
    "func a() { print(\"}) }",
    "func a() { /* } }",
    "func a() { {",
    // `/` where a regular expression literal may start; a character in single quotes.
    "func a(b: Int) -> Int { return /}/ ~= b }",
    "func a() { let c = '}' }",
  ])
  func leavesWhatItCannotFollowToTheParser(_ text: String) {
    let outcome = check(text)
    #expect(outcome.skipped == 0)
    #expect(outcome.fallbacks.isEmpty)
    #expect(outcome.differences.isEmpty)
  }

  /// An alias kept in a stored property, or an init's parameter defaulting to the accessor, has
  /// uses in any member's body: such a file is parsed in full.
  @Test(arguments: [
    "final class Shop {\n  let store = Store.shared\n  func buy() { store.add(1) }\n}",
    "final class Shop {\n  private let store: Store\n  init(store: Store = .shared) { self.store = store }\n  func buy() { store.add(1) }\n}",
  ])
  func parsesInFullWhereUsesReachEveryBody(_ text: String) {
    let outcome = check(text)
    #expect(outcome.skipped == 0)
    #expect(outcome.fallbacks == ["File.swift"])
    #expect(outcome.differences.isEmpty)
  }

  /// Only the errors inside a blanked body go unseen.
  @Test func keepsTheSyntaxErrorsOutsideBlankedBodies() {
    let source = SourceText(path: "File.swift", bytes: Array("final class A {\n  func a() { let x = }\n  var b: Int = \n}\n".utf8))
    let skipping = FileIndexer.index(source, skippingBodies: true)
    let full = FileIndexer.index(source)
    #expect(!full.syntaxErrors.isEmpty)
    #expect(skipping.syntaxErrors.map(\.description) == full.syntaxErrors.map(\.description))
  }

  /// A scan's widening may leave out whole the top-level types and extensions that hold no
  /// reference: the summary is the whole file's less what they declare (`BodySkippingCheck`
  /// compares), and where the lexer here may have misread where one starts, the tree's check
  /// parses them.
  @Test(arguments: [
    // Attributes with arguments, modifiers, a `where` clause, a qualified extension.
    ("@available(iOS 13, *)\npublic final class A: B, C { var x = 1 }\n", 1),
    ("extension Array where Element == Int, Index != Int { func f() {} }\nextension A.B { }\n", 2),
    // An import of one declaration names a kind; the next declaration is left out from its own start.
    ("import struct Foundation.Date\n@objc(Named) enum E: Int { case a }\n", 1),
    // Top-level code whose words are modifiers or type keywords is no declaration's head.
    ("let open = 1\nvar actor = open\nstruct A {}\n", 1),
    ("print(1); protocol P { func f() }\nactor Q {}\n", 2),
    // Nothing inside `#if` clauses; nested types go with their type.
    ("#if DEBUG\nstruct A {}\n#endif\nstruct B { struct C {}; enum D {} }\n", 1),
    // What the lexer here does not follow for sure stays.
    ("struct A { let s = #\"}\"# }\nstruct B {}\n", 1),
  ])
  func leavesOutWholeTheTopLevelTypesThatHoldNoReference(_ text: String, omitted: Int) {
    let shop = "final class Shop {\n  func buy() { Store.shared.add(1) }\n}\n"
    let outcome = check(shop + text)
    #expect(outcome.differences.isEmpty, "\(outcome.differences)")
    #expect(outcome.omissionFallbacks.isEmpty)
    #expect(outcome.omitted == 1)
    let bytes = Array((shop + text).utf8)
    let regions = BodySkipping.blanked(bytes, keeping: FileIndexer.candidateOffsets(bytes, .standard), omitting: { _ in true })
    #expect(regions?.omitted.count == omitted)
  }

  /// An attribute in a `#if` clause of its own, before a declaration: the tree's check finds the
  /// declaration was not the whole item, and it is parsed.
  @Test func parsesADeclarationWhoseStartTheTreeDoesNotConfirm() {
    let outcome = check("final class Shop {\n  func buy() { Store.shared.add(1) }\n}\n#if compiler(>=6.0)\n@_unavailableInEmbedded\n#endif\nextension Shop: Decodable {}\n")
    #expect(outcome.differences.isEmpty)
    #expect(outcome.omitted == 0)
    #expect(outcome.omissionFallbacks.count == 1)
  }

  /// Every sample's files: the same summaries, and most of them skip a body.
  @Test func samplesHaveTheSameSummaries() throws {
    let files = try FileLoader().swiftFiles(in: [packageRoot + "/Samples"]).files
    let outcome = BodySkippingCheck.check(files, threads: nil)
    #expect(outcome.differences.isEmpty, "\(outcome.differences)")
    #expect(outcome.files == files.count)
    #expect(outcome.skipped * 2 > outcome.files)
    #expect(outcome.omitted * 4 > outcome.files)
  }
}
