import DesingletonCore
import DesingletonIndex
import SwiftSyntax

public struct MocksOptions: Sendable {
  /// The protocols to mock, by name; nil: every project protocol the singleton conforms to.
  public var protocols: [String]?
  /// Write the mocks here instead of into the test target of each protocol's module.
  public var outputDirectory: String?
  /// Replace a mock file that was edited by hand, or a file desingleton did not generate.
  public var force: Bool

  public init(protocols: [String]? = nil, outputDirectory: String? = nil, force: Bool = false) {
    self.protocols = protocols
    self.outputDirectory = outputDirectory
    self.force = force
  }
}

/// Writes one test double per slice protocol, in mockolo's naming (`CurrentCartMock`,
/// `addItemToCartCallCount`, `addItemToCartArgValues`, `addItemToCartHandler`, `cartSetCallCount`),
/// into the test target of the module that declares the protocol.
///
/// Steps, in order: pick the protocols (the singleton's project protocols, or the ones named);
/// design each mock (`MockDesign`: where it goes, its shape from the protocol's isolation, its
/// imports, its requirements read from the protocol's syntax with the `#if` structure they sit in);
/// decide what happens to an existing file (regenerate one whose header hash still matches, refuse
/// one edited by hand unless `force`); write the text (`MockWriter`).
///
/// ## Before
/// ```swift
/// @MainActor
/// protocol CurrentCart: AnyObject, Sendable {
///   var cart: Cart { get }
///   func addItemToCart(item: Item)
/// }
/// ```
/// ## After (`Tests/ShoppingAppTests/Mocks/CurrentCartMock.swift`)
/// ```swift
/// @MainActor
/// final class CurrentCartMock: CurrentCart {
///   private(set) var cartSetCallCount = 0
///   var cart: Cart { didSet { cartSetCallCount += 1 } }
///   private(set) var addItemToCartCallCount = 0
///   private(set) var addItemToCartArgValues: [Item] = []
///   var addItemToCartHandler: (@MainActor (Item) -> Void)?
///   init(cart: Cart) { self.cart = cart }
///   func addItemToCart(item: Item) { ... }
/// }
/// ```
public enum MocksPlanner {
  /// `typeName`: the singleton (or former singleton) whose protocols are mocked; may be nil when
  /// `options.protocols` names them.
  public static func plan(typeName: String?, options: MocksOptions, project: Project) throws -> Plan {
    try run(typeName: typeName, options: options, project: project).plan
  }

  /// The plan and what it decided (`--format json`).
  public static func run(typeName: String?, options: MocksOptions, project: Project) throws -> (plan: Plan, report: MocksReport) {
    let declarations = try protocols(of: typeName, options: options, index: project.index)
    var designs: [MockDesign] = []
    var problems: [Diagnostic] = []
    for declaration in declarations {
      do {
        designs.append(try design(declaration, options: options, project: project))
      } catch let refusal as Refusal {
        problems += refusal.diagnostics
      }
    }
    if !problems.isEmpty { throw Refusal(problems) }
    var seen: [String: String] = [:]
    for design in designs {
      if let other = seen[design.path] {
        throw Refusal(
          "the mocks of '\(other)' and '\(design.protocolName)' would both be written to '\(design.path)'; give --output-dir or mock one at a time"
        )
      }
      seen[design.path] = design.protocolName
    }
    var plan = Plan()
    var report = MocksReport(singleton: typeName)
    for design in designs {
      let outcome = try write(design, options: options, project: project, into: &plan)
      report.mocks.append(MocksReport.Mock(design: design, outcome: outcome))
      // Each double is a piece of its own (`--split-by`): nothing else needs it to build.
      let whole = project.bytes(design.path).map { [design.path: [0..<$0.count]] } ?? [:]
      plan.parts.append(PlanPart(name: design.mockName, ranges: whole, newFiles: [design.path]))
    }
    return (plan, report)
  }

  // MARK: Step 1: the protocols

  static func protocols(of typeName: String?, options: MocksOptions, index: Index) throws -> [TypeDecl] {
    var names: [String] = []
    if let named = options.protocols {
      for name in named {
        let found = index.types(named: name).filter { index.primaryDeclaration(of: $0)?.kind == .protocol }
        guard !found.isEmpty else { throw Refusal("no protocol named '\(name)' in the project") }
        names += found
      }
    } else if let typeName {
      names = index.conformances(of: typeName).filter { index.kind(ofWritten: $0) == .project(.protocol) }
      if names.isEmpty {
        throw Refusal(
          "'\(typeName)' conforms to no protocol of the project; run 'desingleton extract-protocol' first, or name protocols with --slice"
        )
      }
    } else {
      throw Refusal("give the singleton with --singleton, or the protocols with --slice")
    }
    var result: [TypeDecl] = []
    for name in names {
      for declaration in index.declarations(of: name) where declaration.kind == .protocol && !declaration.isExtension {
        // A protocol declared in a test (an earlier hand-written double's) is not a slice.
        if options.protocols == nil && Index.isTestPath(declaration.path) { continue }
        if !result.contains(declaration) { result.append(declaration) }
      }
    }
    return result
  }

  // MARK: Step 2: the design

  static func design(_ declaration: TypeDecl, options: MocksOptions, project: Project) throws -> MockDesign {
    let index = project.index
    let file = try project.file(declaration.path)
    guard let node = MockRequirements.protocolNode(of: declaration, in: file.tree) else {
      throw Refusal("internal error: the protocol '\(declaration.name)' was not found again", at: declaration.location)
    }
    let mockName = declaration.name + "Mock"
    let (refined, attributes, inherited) = try refinedProtocols(of: declaration, project: project)
    let isolation = attributes.first(where: index.isGlobalActorAttribute)
    let shape: MockDesign.Shape
    if inherited.contains("Actor") {
      shape = .actor
    } else if let isolation {
      shape = .globalActor(isolation)
    } else if index.protocolIsSendable(index.resolveType(declaration.qualifiedName)) || inherited.contains("Sendable") {
      shape = .sendable
    } else {
      shape = .plain
    }

    var items = try MockRequirements.items(of: node, file: file, index: index)
    for other in refined {
      let otherFile = try project.file(other.path)
      guard let otherNode = MockRequirements.protocolNode(of: other, in: otherFile.tree) else { continue }
      items += try MockRequirements.items(of: otherNode, file: otherFile, index: index)
    }
    items = MockRequirements.named(items)
    let place = try placement(of: declaration, mockName: mockName, options: options, project: project)
    try checkNoClash(mockName, at: place.path, declaration: declaration, index: index, modules: project.modules)

    // The double names the types the protocols' requirements name: it keeps their files' imports,
    // those in `#if` clauses under the same conditions, and those around the protocol inside its `#if`.
    var imports: [String] = []
    var conditionedImports: [ConditionedImports] = []
    if shape.isGuarded { imports.append("import Foundation") }
    func kept(_ line: String) -> Bool { !line.hasPrefix("@testable") }
    for (other, otherFile) in [(declaration, file)] + refined.compactMap({ other in (try? project.file(other.path)).map { (other, $0) } }) {
      for line in ImportText.lines(of: otherFile) where kept(line) && !imports.contains(line) {
        imports.append(line)
      }
      for block in ImportText.conditionedLines(of: otherFile, outside: [other.range.bytes]) {
        let lines = block.lines.filter(kept)
        let entry = ConditionedImports(condition: block.condition, lines: lines)
        if !lines.isEmpty, !conditionedImports.contains(entry) { conditionedImports.append(entry) }
      }
    }
    if let importLine = place.importLine, !imports.contains(importLine) { imports.append(importLine) }
    let innerImports = ImportText.lines(around: Syntax(node)).filter { kept($0) && !imports.contains($0) }

    return MockDesign(
      protocolName: declaration.name,
      mockName: mockName,
      path: place.path,
      shape: shape,
      imports: imports,
      conditionedImports: conditionedImports,
      condition: MockRequirements.enclosingCondition(of: node),
      innerImports: innerImports,
      items: items,
      indent: MockRequirements.indentUnit(of: node, file: file),
      companion: place.companion
    )
  }

  /// The protocols `declaration` refines, with their attributes and every name inherited: project
  /// protocols add their requirements; the framework's must be ones a class or actor gets for free.
  static func refinedProtocols(
    of declaration: TypeDecl, project: Project
  ) throws -> (refined: [TypeDecl], attributes: [String], inherited: Set<String>) {
    let index = project.index
    var refined: [TypeDecl] = []
    var attributes = declaration.attributes
    var inherited: Set<String> = []
    var queue = declaration.inherited
    while !queue.isEmpty {
      let written = queue.removeFirst()
      guard inherited.insert(written).inserted else { continue }
      switch index.kind(ofWritten: written) {
      case .project(.protocol):
        for other in index.declarations(of: index.resolveType(written))
        where other.kind == .protocol && !other.isExtension {
          if !project.modules.file(declaration.path, canSee: other.path) { continue }
          refined.append(other)
          attributes += other.attributes
          queue += other.inherited
        }
      default:
        let bare = written.replacingOccurrences(of: "Swift.", with: "").replacingOccurrences(
          of: "_Concurrency.",
          with: ""
        )
        guard ["AnyObject", "Sendable", "Actor", "class"].contains(bare) else {
          throw Refusal(
            "a mock of '\(declaration.name)' cannot implement '\(written)', which it refines; write this double by hand",
            at: declaration.location
          )
        }
      }
    }
    if attributes.contains("@objc") {
      throw Refusal(
        "'\(declaration.name)' is @objc; its double needs an NSObject subclass, write it by hand",
        at: declaration.location
      )
    }
    return (refined, attributes, inherited)
  }

  /// Where the mock goes: --output-dir, else the test target that depends on the protocol's module;
  /// and the import of that module it then needs.
  static func placement(
    of declaration: TypeDecl, mockName: String, options: MocksOptions, project: Project
  ) throws -> (path: String, importLine: String?, companion: String?) {
    let index = project.index
    let module = project.modules.module(of: declaration.path)
    let directory: String
    var importLine: String?
    var companion: String?
    if let output = options.outputDirectory {
      directory = output.hasSuffix("/") ? String(output.dropLast()) : output
      // The module's own folder needs no import; anywhere else (a test target) does.
      if let module, project.modules.module(of: directory + "/" + mockName + ".swift") != module {
        importLine = moduleImport(module, declaration: declaration)
      }
    } else {
      guard let module else {
        throw Refusal(
          "'\(declaration.name)' is in no module of a Package.swift under the paths given; say where its mock goes with --output-dir",
          at: declaration.location
        )
      }
      guard let target = testTarget(of: module, modules: project.modules) else {
        throw Refusal(
          "no test target depends on the module '\(module)' that declares '\(declaration.name)'; say where its mock goes with --output-dir",
          at: declaration.location
        )
      }
      importLine = moduleImport(module, declaration: declaration)
      companion = index.allPaths.filter {
        (target.directory.isEmpty || $0.hasPrefix(target.directory + "/")) && project.modules.modules(of: $0).contains(target.name)
      }.min()
      // A package's test target whose folder has no Swift file is not built (its tests lie elsewhere):
      // a new folder there would change what the package builds.
      if companion == nil, target.kind == .swiftPM {
        throw Refusal(
          "the test target '\(target.name)' that depends on the module '\(module)' has no Swift file in '\(target.directory)', so the package does not build it; say where the mock of '\(declaration.name)' goes with --output-dir",
          at: declaration.location
        )
      }
      // An Xcode target that lists its files has no folder of its own: the doubles go beside its files.
      let folder = companion.flatMap { path in path.lastIndex(of: "/").map { String(path[..<$0]) } } ?? ""
      let base = target.directory.isEmpty ? folder : target.directory
      directory = base.isEmpty ? "Mocks" : base + "/Mocks"
    }
    let path = (directory.isEmpty || directory == "." ? "" : directory + "/") + mockName + ".swift"

    return (path, importLine, companion)
  }

  /// A type of the mock's name in the same module is in the way.
  static func checkNoClash(_ mockName: String, at path: String, declaration: TypeDecl, index: Index, modules: ModuleMap) throws {
    for existing in index.types(named: mockName) {
      // Another module's type of the same name (a twin target's double) does not clash.
      let here = Set(modules.modules(of: path))
      for other in index.declarations(of: existing) where !other.isExtension && other.path != path {
        let there = Set(modules.modules(of: other.path))
        if !here.isEmpty && !there.isEmpty && here.isDisjoint(with: there) { continue }
        throw Refusal(
          "'\(mockName)' is already declared here; rename it, or mock '\(declaration.name)' into another folder",
          at: other.location
        )
      }
    }

  }

  /// The test target that tests `module`: one named `<module>Tests` that depends on it, else the
  /// first (by name) that depends on it.
  static func testTarget(of module: String, modules: ModuleMap) -> ModuleMap.Target? {
    let candidates = modules.targets.filter { $0.isTest && $0.dependencies.contains(module) }.sorted {
      $0.name < $1.name
    }
    return candidates.first { $0.name == module + "Tests" } ?? candidates.first
  }

  static func moduleImport(_ module: String, declaration: TypeDecl) -> String {
    (declaration.access ?? .internal) >= .public ? "import \(module)" : "@testable import \(module)"
  }

  // MARK: Step 3: the file

  static func write(
    _ design: MockDesign, options: MocksOptions, project: Project, into plan: inout Plan
  ) throws -> MocksReport.Outcome {
    let text = MockWriter(design: design).file()
    guard let existing = project.bytes(design.path) else {
      plan.newFiles[design.path] = text
      if let companion = design.companion { plan.companions[design.path] = companion }
      plan.notes.append(Note(.created, "\(design.mockName), a double of '\(design.protocolName)'", at: Note.Place(path: design.path)))
      return .created
    }
    let old = String(decoding: existing, as: UTF8.self)
    if old == text { return .unchanged }
    if !options.force {
      switch MockHeader.state(of: old) {
      case .generated:
        break
      case .edited:
        throw Refusal(
          "this mock was edited by hand since it was generated; keep your edits, or replace it with --force",
          at: Location(path: design.path, line: 1, column: 1)
        )
      case .foreign:
        throw Refusal(
          "this file was not generated by 'desingleton mocks'; move it, or replace it with --force",
          at: Location(path: design.path, line: 1, column: 1)
        )
      }
    }
    // Loaded so the Printer reads it as the plan does.
    _ = try project.file(design.path)
    plan.add(TextEdit(range: 0..<existing.count, replacement: text), in: design.path)
    plan.notes.append(Note(.changed, "\(design.mockName) regenerated from '\(design.protocolName)'", at: Note.Place(path: design.path)))
    return .regenerated
  }
}
