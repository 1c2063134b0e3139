import Foundation
import SwiftParser
import SwiftSyntax
import Testing

/// The size rules of the house: no source file over 600 lines and no function over 80 lines in
/// `Sources/`. The files and functions that break them today are listed, each with its size, in
/// `Tests/House/oversized.txt`; the list only shrinks. A new offender, or a listed one that grew,
/// fails; one that shrank must have its size lowered, and one within the rules taken off the list.
@Suite struct HouseTests {
  static let fileLimit = 600
  static let functionLimit = 80

  /// `path` for a file, `path function` for a function, each with its line count.
  static func offenders() throws -> [String: Int] {
    let sources = URL(fileURLWithPath: packageRoot).appendingPathComponent("Sources")
    let paths = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
    var result: [String: Int] = [:]
    for relative in paths.sorted() where relative.hasSuffix(".swift") {
      let path = "Sources/" + relative
      let text = try String(contentsOfFile: packageRoot + "/" + path, encoding: .utf8)
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count - (text.hasSuffix("\n") ? 1 : 0)
      if lines > fileLimit { result[path] = lines }
      let tree = Parser.parse(source: text)
      let finder = FunctionSizes(converter: SourceLocationConverter(fileName: path, tree: tree))
      finder.walk(tree)
      // Overloads with one name: the largest counts.
      for (name, count) in finder.sizes where count > functionLimit {
        result["\(path) \(name)"] = max(result["\(path) \(name)"] ?? 0, count)
      }
    }
    return result
  }

  static func listed() throws -> [String: Int] {
    let text = try String(contentsOfFile: packageRoot + "/Tests/House/oversized.txt", encoding: .utf8)
    var result: [String: Int] = [:]
    for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.isEmpty {
      guard let space = line.lastIndex(of: " "), let count = Int(line[line.index(after: space)...]) else { continue }
      result[String(line[..<space])] = count
    }
    return result
  }

  @Test func sourcesKeepToTheSizeRules() throws {
    let found = try HouseTests.offenders()
    let allowed = try HouseTests.listed()
    var problems: [String] = []
    for (name, count) in found.sorted(by: { $0.key < $1.key }) {
      if let limit = allowed[name] {
        if count > limit { problems.append("\(name): \(count) lines, more than the \(limit) listed; make it smaller") }
        if count < limit { problems.append("\(name): \(count) lines now; lower the \(limit) listed to it") }
      } else {
        problems.append("\(name): \(count) lines; the limit is \(name.contains(" ") ? HouseTests.functionLimit : HouseTests.fileLimit)")
      }
    }
    for name in allowed.keys.sorted() where found[name] == nil {
      problems.append("\(name): within the rules now; take it off Tests/House/oversized.txt")
    }
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
  }

  /// Each command's planner, by the folder it lives in.
  static let planners: [String: Set<String>] = [
    "Extract": ["ExtractProtocolPlanner"], "Inject": ["InjectPlanner", "InjectContext", "InjectDraft", "InjectWriter"],
    "Finish": ["FinishPlanner"], "Mocks": ["MocksPlanner"],
  ]

  /// No command calls another command's planner, and what they share (`Shared/`, `Slicing/`, the
  /// rest) calls none: a question two commands ask lives in a shared folder or in the model. The
  /// commands are composed in `Journey/` (what a refusal suggests next) and reported in `Reports/`.
  @Test func noCommandCallsAnotherCommandsPlanner() throws {
    let planner = packageRoot + "/Sources/DesingletonPlanner"
    let folders = try FileManager.default.contentsOfDirectory(atPath: planner).sorted()
    #expect(Set(HouseTests.planners.keys).isSubset(of: folders))
    var problems: [String] = []
    for folder in folders where !["Journey", "Reports"].contains(folder) {
      let forbidden = HouseTests.planners.filter { $0.key != folder }.values.reduce(into: Set<String>()) { $0.formUnion($1) }
      let files = FileManager.default.enumerator(atPath: planner + "/" + folder)?.compactMap { $0 as? String } ?? []
      for file in files.sorted() where file.hasSuffix(".swift") {
        let text = try String(contentsOfFile: planner + "/" + folder + "/" + file, encoding: .utf8)
        let named = Set(Parser.parse(source: text).tokens(viewMode: .sourceAccurate).map(\.text)).intersection(forbidden)
        for name in named.sorted() { problems.append("\(folder)/\(file) names \(name)") }
      }
    }
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
  }

  /// Inject's steps live one file each in `Inject/Steps/`, each file opening with the step it is
  /// (`/// Step 7: ...`), and `InjectPlanner.swift` runs them in one list, numbered the same, with
  /// the reason for the order beside each: every step has one file, and the list names each once, in order.
  @Test func injectStepsAreOneFileEachAndListedOnceInOrder() throws {
    let inject = packageRoot + "/Sources/DesingletonPlanner/Inject"
    var declared: [Int: String] = [:]
    var problems: [String] = []
    for file in try FileManager.default.contentsOfDirectory(atPath: inject + "/Steps").sorted() where file.hasSuffix(".swift") {
      let text = try String(contentsOfFile: inject + "/Steps/" + file, encoding: .utf8)
      let headers = text.split(separator: "\n").filter { $0.hasPrefix("/// Step ") }
      guard headers.count == 1, let number = headers[0].dropFirst(9).split(separator: ":").first.flatMap({ Int($0) }) else {
        problems.append("Steps/\(file) does not open with one '/// Step N: ...' line")
        continue
      }
      if let other = declared[number] { problems.append("step \(number) is in both Steps/\(other) and Steps/\(file)") }
      declared[number] = file
    }
    let planner = try String(contentsOfFile: inject + "/InjectPlanner.swift", encoding: .utf8)
    let listed = planner.split(separator: "\n").compactMap { line -> Int? in
      let trimmed = line.drop { $0 == " " }
      guard trimmed.hasPrefix("// "), let number = trimmed.dropFirst(3).split(separator: ".").first.flatMap({ Int($0) }) else { return nil }
      return number
    }
    #expect(!listed.isEmpty, "InjectPlanner.swift lists no numbered step")
    #expect(listed == Array(0..<listed.count).map { $0 + 1 }, "InjectPlanner lists the steps \(listed), not 1 to \(listed.count) in order")
    #expect(Set(declared.keys) == Set(listed), "steps with files: \(declared.keys.sorted()); steps listed: \(listed)")
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
  }

  @Test func functionSizesCountTheDeclarationsLines() {
    let source = """
      struct A {
        /// Documented.
        func one() {
          _ = 1
        }
        init() {}
        var b: Int {
          get { 1 }
        }
      }
      """
    let tree = Parser.parse(source: source)
    let finder = FunctionSizes(converter: SourceLocationConverter(fileName: "a.swift", tree: tree))
    finder.walk(tree)
    #expect(finder.sizes.map { "\($0.0) \($0.1)" } == ["A.one() 3", "A.init() 1"])
  }
}

/// The line count of every function and init, by its enclosing types' names and its own.
private final class FunctionSizes: SyntaxVisitor {
  let converter: SourceLocationConverter
  var sizes: [(String, Int)] = []
  private var types: [String] = []

  init(converter: SourceLocationConverter) {
    self.converter = converter
    super.init(viewMode: .sourceAccurate)
  }

  private func lines(_ node: some SyntaxProtocol) -> Int {
    let start = node.positionAfterSkippingLeadingTrivia
    let end = node.endPositionBeforeTrailingTrivia
    return converter.location(for: end).line - converter.location(for: start).line + 1
  }

  private func name(_ own: String) -> String { (types + [own]).joined(separator: ".") }

  private func enter(_ name: String) -> SyntaxVisitorContinueKind {
    types.append(name)
    return .visitChildren
  }

  override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.name.text) }
  override func visitPost(_ node: ClassDeclSyntax) { types.removeLast() }
  override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.name.text) }
  override func visitPost(_ node: StructDeclSyntax) { types.removeLast() }
  override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.name.text) }
  override func visitPost(_ node: EnumDeclSyntax) { types.removeLast() }
  override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.name.text) }
  override func visitPost(_ node: ActorDeclSyntax) { types.removeLast() }
  override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
    enter(node.extendedType.trimmedDescription)
  }
  override func visitPost(_ node: ExtensionDeclSyntax) { types.removeLast() }

  override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
    let labels = node.signature.parameterClause.parameters.map { "\($0.firstName.text):" }.joined()
    sizes.append((name("\(node.name.text)(\(labels))"), lines(node)))
    return .visitChildren
  }

  override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
    let labels = node.signature.parameterClause.parameters.map { "\($0.firstName.text):" }.joined()
    sizes.append((name("init\(node.optionalMark?.text ?? "")(\(labels))"), lines(node)))
    return .visitChildren
  }
}
