import DesingletonCore
import Foundation
import SwiftParser
import SwiftSyntax

/// Which module (compilation unit) each file belongs to, read without building anything.
///
/// SwiftPM manifests (`Package.swift`) under the command's paths give every `.target`,
/// `.executableTarget`, `.testTarget` and `.macro` with its `path:` (or the default `Sources/NAME`,
/// `Tests/NAME`), `sources:`, `exclude:` and the targets it depends on. The manifest is read with
/// swift-syntax rather than `swift package describe`, which needs the package's dependencies resolved
/// and cannot run offline. Xcode projects add targets with an explicit list of files (see
/// `XcodeProject`). A file can belong to several targets (a file shared by an iOS and a Mac app);
/// a file in no known target has no module, and the planners treat it as they would without a map.
public struct ModuleMap: Sendable {
  public struct Target: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable { case swiftPM, xcode }

    public var name: String
    /// The target's folder, as the command's paths spell it (`Sources/Core`, `App/Sources/Core`).
    public var directory: String
    public var isTest: Bool
    /// When set, exactly these files (as the command's paths spell them) are the target's, wherever
    /// they are: an Xcode target's Sources build phase. Otherwise every file under `directory`.
    public var files: Set<String>?
    /// Files and folders under `directory` that are not the target's (SwiftPM's `exclude:`, Xcode's
    /// membership exceptions), as the command's paths spell them.
    public var excluded: [String]
    /// When set, only files under these folders or equal to these files (SwiftPM's `sources:`).
    public var sources: [String]?
    /// The names of the targets this one depends on (in the same manifest or project).
    public var dependencies: [String]
    public var kind: Kind
    /// The manifest or project file that declares the target.
    public var declaredIn: String
    /// Whether the targets of its package can share `package` declarations: a SwiftPM manifest of
    /// tools version 5.9 or later.
    public var allowsPackageAccess = false
    /// Whether it builds a program of its own, a process with its own statics: an application,
    /// an app or widget extension, a command-line tool (SwiftPM's `.executableTarget`).
    public var isProgram = false

    public init(
      name: String, directory: String, isTest: Bool, files: Set<String>? = nil, excluded: [String] = [],
      sources: [String]? = nil, dependencies: [String] = [], kind: Kind = .swiftPM, declaredIn: String = "",
      isProgram: Bool = false
    ) {
      self.isProgram = isProgram
      self.name = name
      self.directory = directory
      self.isTest = isTest
      self.files = files
      self.excluded = excluded
      self.sources = sources
      self.dependencies = dependencies
      self.kind = kind
      self.declaredIn = declaredIn
    }

    /// Whether the file at `path` is compiled into this target.
    public func contains(_ path: String) -> Bool {
      if let files { return files.contains(path) }
      guard directory.isEmpty || path.hasPrefix(directory + "/") else { return false }
      func under(_ folder: String) -> Bool { path == folder || path.hasPrefix(folder + "/") }
      if excluded.contains(where: under) { return false }
      if let sources, !sources.contains(where: under) { return false }
      return true
    }
  }

  public var targets: [Target]
  /// The manifests' products: name → the targets it is made of. A dependency on a product (an
  /// Xcode app linking a package's library, a package depending on another's) reaches them.
  public var products: [String: [String]] = [:]
  /// The Xcode projects the targets of kind `.xcode` come from.
  public var xcodeProjects: [XcodeProject] = []

  public init(targets: [Target] = [], products: [String: [String]] = [:]) {
    self.targets = targets
    self.products = products
  }

  /// Reads the SwiftPM manifests and adds the Xcode projects' targets; each path is as the
  /// command's paths spell it.
  public init(manifests: [SourceText], xcodeProjects: [XcodeProject]) {
    self.init(manifests: manifests)
    self.xcodeProjects = xcodeProjects
    targets += xcodeProjects.flatMap(\.mapTargets)
  }

  /// Reads the manifests; `path` is where each one is, as the command's paths spell it.
  public init(manifests: [SourceText]) {
    var targets: [Target] = []
    // A code base of many packages has many manifests: they are parsed on every thread.
    let foundTargets = parallelMap(count: manifests.count) { position -> (targets: [TargetFinder.Found], products: [String: [String]]) in
      let tree = manifests[position].bytes.withUnsafeBufferPointer { Parser.parse(source: $0, maximumNestingLevel: swiftParserNestingLimit) }
      let finder = TargetFinder(viewMode: .sourceAccurate)
      finder.walk(tree)
      return (finder.found, finder.products)
    }
    var products: [String: [String]] = [:]
    for (manifest, (foundInManifest, foundProducts)) in zip(manifests, foundTargets) {
      for (name, targets) in foundProducts { products[name, default: []] += targets }
      // The manifest's folder as the paths spell it: `/work/App` for `/work/App/Package.swift`.
      let root = manifest.path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
      func joined(_ relative: String) -> String {
        let trimmed = relative.hasSuffix("/") ? String(relative.dropLast()) : relative
        if trimmed.isEmpty || trimmed == "." { return root }
        return root.isEmpty ? trimmed : "\(root)/\(trimmed)"
      }
      let allowsPackageAccess = Self.toolsVersion(of: manifest).map { !$0.lexicographicallyPrecedes([5, 9]) } ?? false
      for found in foundInManifest {
        let directory = joined(found.path ?? "\(found.isTest ? "Tests" : "Sources")/\(found.name)")
        func inside(_ relative: String) -> String {
          let trimmed = relative.hasSuffix("/") ? String(relative.dropLast()) : relative
          return directory.isEmpty ? trimmed : "\(directory)/\(trimmed)"
        }
        var target = Target(
          name: found.name, directory: directory, isTest: found.isTest, excluded: found.exclude.map(inside),
          sources: found.sources.map { $0.map(inside) }, dependencies: found.dependencies, kind: .swiftPM,
          declaredIn: manifest.path)
        target.allowsPackageAccess = allowsPackageAccess
        target.isProgram = found.isExecutable
        targets.append(target)
      }
    }
    self.targets = targets
    self.products = products
  }

  /// `// swift-tools-version:5.9` on the manifest's first line, as numbers.
  static func toolsVersion(of manifest: SourceText) -> [Int]? {
    let firstLine = String(decoding: manifest.bytes.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
    guard let marker = firstLine.range(of: "swift-tools-version:") else { return nil }
    let version = firstLine[marker.upperBound...].trimmingCharacters(in: .whitespaces)
      .prefix { $0.isNumber || $0 == "." }
    let parts = version.split(separator: ".").compactMap { Int($0) }
    return parts.isEmpty ? nil : parts
  }

  /// Whether code in `module` can use `package` declarations of `other`: targets of one SwiftPM
  /// package whose tools version has `package` access.
  public func module(_ module: String, sharesPackageWith other: String) -> Bool {
    let first = targets(named: module)
    let second = targets(named: other)
    return first.contains { target in
      target.kind == .swiftPM && target.allowsPackageAccess
        && second.contains { $0.kind == .swiftPM && $0.declaredIn == target.declaredIn }
    }
  }

  /// Every module the file is compiled into, by name (sorted). Nested SwiftPM folders: the deepest
  /// target's folder wins, as SwiftPM forbids overlapping targets; Xcode targets (explicit files or
  /// synchronized folders) may share files and all count.
  public func modules(of path: String) -> [String] {
    var explicit: [String] = []
    var best: Target?
    for target in targets where target.contains(path) {
      if target.files != nil || target.kind == .xcode {
        explicit.append(target.name)
      } else if best.map({ target.directory.count > $0.directory.count }) ?? true {
        best = target
      }
    }
    return Set(explicit + (best.map { [$0.name] } ?? [])).sorted()
  }

  /// The module of a file: the one it is compiled into (the first by name when it is in several).
  /// The programs (`Target.isProgram`) the file at `path` is compiled into.
  public func programs(of path: String) -> [String] {
    targets.filter { $0.isProgram && $0.contains(path) }.map(\.name)
  }

  public func module(of path: String) -> String? {
    modules(of: path).first
  }

  /// Whether the two files are in different known modules: both are in some module, and in no
  /// module together (a file shared by an iOS and a Mac target is with each of its neighbours).
  public func crossesModules(_ path: String, _ other: String) -> Bool {
    let first = modules(of: path)
    let second = modules(of: other)
    guard !first.isEmpty, !second.isEmpty else { return false }
    return Set(first).isDisjoint(with: second)
  }

  /// The targets named `name` (one per manifest or project that declares it).
  public func targets(named name: String) -> [Target] {
    targets.filter { $0.name == name }
  }

  /// Whether code in the file at `path` can name what the file at `declarationPath` declares: in
  /// every module the file is compiled into, some module of the other file is that module or one
  /// it depends on (two app targets sharing the singleton's file each see it). A file in no known
  /// module sees everything, and everything is seen from one.
  public func file(_ path: String, canSee declarationPath: String) -> Bool {
    let own = modules(of: path)
    let theirs = modules(of: declarationPath)
    guard !own.isEmpty, !theirs.isEmpty else { return true }
    return own.allSatisfy { module in theirs.contains { self.module(module, canSee: $0) } }
  }

  /// The modules of the file at `declarationPath` that code in every module of the file at `path`
  /// can import, sorted: the one a file names in its `import` (none for a file compiled with the
  /// other in each of its modules, which needs no import).
  public func modules(of declarationPath: String, visibleFrom path: String) -> [String] {
    let own = modules(of: path)
    return modules(of: declarationPath).filter { candidate in own.allSatisfy { module($0, canSee: candidate) } }
  }

  /// Whether code in `module` can import `other`: it is `other`, or depends on it, directly or not.
  /// Unknown modules (no target of that name) can see everything, as without a map.
  public func module(_ module: String, canSee other: String) -> Bool {
    if module == other { return true }
    guard !targets(named: module).isEmpty else { return true }
    var seen: Set<String> = [module]
    var queue = [module]
    while let next = queue.popLast() {
      for target in targets(named: next) {
        for named in target.dependencies {
          // A product stands for its targets; a target and a product may share a name.
          for dependency in [named] + (products[named] ?? []) where seen.insert(dependency).inserted {
            if dependency == other { return true }
            queue.append(dependency)
          }
        }
      }
    }
    return false
  }

  private final class TargetFinder: SyntaxVisitor {
    struct Found {
      var name: String
      var path: String?
      var isTest: Bool
      var exclude: [String]
      var sources: [String]?
      var dependencies: [String]
      var isExecutable = false
    }
    var found: [Found] = []
    /// Product name → the names of its targets (`.library(name: "Kit", type: .dynamic, targets: [...])`).
    var products: [String: [String]] = [:]
    /// The manifest's top-level `let`s and `var`s with a value: a list of targets or dependencies
    /// kept in a variable (`let kitTargets = ["Core", "UI"]`) is read through them.
    private var variables: [String: ExprSyntax] = [:]

    override func visit(_ node: SourceFileSyntax) -> SyntaxVisitorContinueKind {
      for item in node.statements {
        guard let variable = item.item.as(VariableDeclSyntax.self) else { continue }
        for binding in variable.bindings {
          if let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
            let value = binding.initializer?.value
          {
            variables[name] = value
          }
        }
      }
      return .visitChildren
    }

    private func string(_ expression: ExprSyntax?) -> String? {
      guard let literal = expression?.as(StringLiteralExprSyntax.self) else { return nil }
      return literal.segments.compactMap { $0.as(StringSegmentSyntax.self)?.content.text }.joined()
    }

    /// The names a list of targets or dependencies gives: string literals, `.target(name:)`,
    /// `.product(name:)`, `.byName(name:)`, through variables and `+`; nil for what it cannot read.
    private func names(_ expression: ExprSyntax?, depth: Int = 0) -> [String]? {
      guard let expression, depth < 8 else { return nil }
      if let array = expression.as(ArrayExprSyntax.self) {
        return array.elements.compactMap { element in
          let expression = element.expression
          if let literal = string(expression) { return literal }
          if let call = expression.as(FunctionCallExprSyntax.self),
            let called = call.calledExpression.as(MemberAccessExprSyntax.self),
            ["target", "product", "byName"].contains(called.declName.baseName.text)
          {
            return string(call.arguments.first(where: { $0.label?.text == "name" })?.expression)
          }
          return nil
        }
      }
      if let reference = expression.as(DeclReferenceExprSyntax.self) {
        return names(variables[reference.baseName.text], depth: depth + 1)
      }
      if let sequence = expression.as(SequenceExprSyntax.self) {
        let parts = sequence.elements.filter { !$0.is(BinaryOperatorExprSyntax.self) }
        guard sequence.elements.allSatisfy({ $0.as(BinaryOperatorExprSyntax.self).map { $0.operator.text == "+" } ?? true })
        else { return nil }
        var result: [String] = []
        for part in parts {
          guard let found = names(part, depth: depth + 1) else { return nil }
          result += found
        }
        return result
      }
      return nil
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
      guard let member = node.calledExpression.as(MemberAccessExprSyntax.self), member.base == nil else {
        return .visitChildren
      }
      let kind = member.declName.baseName.text
      func argument(_ label: String) -> ExprSyntax? {
        node.arguments.first(where: { $0.label?.text == label })?.expression
      }
      if ["library", "executable", "plugin"].contains(kind), let name = string(argument("name")),
        let targets = names(argument("targets"))
      {
        products[name, default: []] += targets
        return .skipChildren
      }
      guard ["target", "executableTarget", "testTarget", "macro", "systemLibrary", "binaryTarget"].contains(kind)
      else { return .visitChildren }
      func strings(_ label: String) -> [String]? {
        guard let array = argument(label)?.as(ArrayExprSyntax.self) else { return nil }
        return array.elements.compactMap { string($0.expression) }
      }
      guard let name = string(argument("name")) else { return .visitChildren }
      let dependencies = names(argument("dependencies")) ?? []
      found.append(
        Found(
          name: name, path: string(argument("path")), isTest: kind == "testTarget", exclude: strings("exclude") ?? [],
          sources: strings("sources"), dependencies: dependencies, isExecutable: kind == "executableTarget"))
      // `.target(name:)` inside `dependencies:` names a dependency, not another target.
      return .skipChildren
    }
  }
}
