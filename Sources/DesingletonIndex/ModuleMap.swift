import DesingletonCore
import SwiftParser
import SwiftSyntax

/// Which module each file belongs to, read from the SwiftPM manifests (`Package.swift`) under the
/// command's paths without building anything: every `.target`, `.executableTarget`, `.testTarget`
/// and `.macro` with its `path:` (or the default `Sources/NAME`, `Tests/NAME`). The manifest is read
/// with swift-syntax rather than `swift package describe`, which needs the package's dependencies
/// resolved and cannot run offline. A file in no target's folder has no known module, and the
/// planners treat it as they would without a map.
public struct ModuleMap: Sendable {
  public struct Target: Sendable, Equatable {
    public var name: String
    /// The target's folder, as the command's paths spell it (`Sources/Core`, `App/Sources/Core`).
    public var directory: String
    public var isTest: Bool
  }

  public var targets: [Target]

  public init(targets: [Target] = []) {
    self.targets = targets
  }

  /// Reads the manifests; `path` is where each one is, as the command's paths spell it.
  public init(manifests: [SourceText]) {
    var targets: [Target] = []
    for manifest in manifests {
      let root = manifest.path.split(separator: "/").dropLast().joined(separator: "/")
      let tree = manifest.bytes.withUnsafeBufferPointer { Parser.parse(source: $0) }
      let finder = TargetFinder(viewMode: .sourceAccurate)
      finder.walk(tree)
      for found in finder.found {
        let relative = found.path ?? "\(found.isTest ? "Tests" : "Sources")/\(found.name)"
        let trimmed = relative.hasSuffix("/") ? String(relative.dropLast()) : relative
        targets.append(Target(name: found.name, directory: root.isEmpty ? trimmed : "\(root)/\(trimmed)", isTest: found.isTest))
      }
    }
    self.targets = targets
  }

  /// The module of a file: the target whose folder holds it (the deepest one, when folders nest).
  public func module(of path: String) -> String? {
    var best: Target?
    for target in targets where path.hasPrefix(target.directory + "/") {
      if best.map({ target.directory.count > $0.directory.count }) ?? true { best = target }
    }
    return best?.name
  }

  /// Whether the two files are in different known modules.
  public func crossesModules(_ path: String, _ other: String) -> Bool {
    guard let first = module(of: path), let second = module(of: other) else { return false }
    return first != second
  }

  private final class TargetFinder: SyntaxVisitor {
    var found: [(name: String, path: String?, isTest: Bool)] = []

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
      guard let member = node.calledExpression.as(MemberAccessExprSyntax.self), member.base == nil else {
        return .visitChildren
      }
      let kind = member.declName.baseName.text
      guard ["target", "executableTarget", "testTarget", "macro"].contains(kind) else { return .visitChildren }
      func string(_ label: String) -> String? {
        guard let argument = node.arguments.first(where: { $0.label?.text == label }),
          let literal = argument.expression.as(StringLiteralExprSyntax.self)
        else { return nil }
        return literal.segments.compactMap { $0.as(StringSegmentSyntax.self)?.content.text }.joined()
      }
      if let name = string("name") {
        found.append((name, string("path"), kind == "testTarget"))
      }
      return .visitChildren
    }
  }
}
