import DesingletonCore
import DesingletonIndex
import SwiftSyntax

/// A place that creates an instance of a type: `T(...)`, `T.init(...)`, or `super.init(...)` in a subclass.
struct InitCall {
  var path: String
  var call: FunctionCallExprSyntax
  /// The type created.
  var typeName: String
  var isSuperInit: Bool
  /// `self.init(...)` delegating to another init of the same type.
  var isSelfInit: Bool = false
  /// Argument labels as written (`_` for none); trailing closures are counted in `trailingClosures`.
  var labels: [String]
  var trailingClosures: Int
  var context: ReferenceContext
}

enum InitCallFinder {
  /// Every call of an init of `types` (qualified names) in the given files.
  static func calls(of types: Set<String>, superclassOf subclasses: [String: String], in files: [ParsedFile], index: Index) -> [InitCall] {
    var result: [InitCall] = []
    for file in files {
      let visitor = Visitor(types: types, subclasses: subclasses, index: index, path: file.path)
      visitor.walk(file.tree)
      result.append(contentsOf: visitor.found)
    }
    return result
  }

  private final class Visitor: SyntaxVisitor {
    let types: Set<String>
    /// Subclass → the superclass in `types` whose inits its `super.init` calls.
    let subclasses: [String: String]
    let index: Index
    let path: String
    var found: [InitCall] = []
    private let simpleNames: Set<String>

    init(types: Set<String>, subclasses: [String: String], index: Index, path: String) {
      self.types = types
      self.subclasses = subclasses
      self.index = index
      self.path = path
      self.simpleNames = Set(types.map { $0.split(separator: ".").last.map(String.init) ?? $0 })
      super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
      var called = node.calledExpression
      var isSuper = false
      if let member = called.as(MemberAccessExprSyntax.self), member.declName.baseName.tokenKind == .keyword(.`init`) {
        guard let base = member.base else { return .visitChildren }
        if base.is(SuperExprSyntax.self) {
          isSuper = true
        } else {
          called = base
        }
      }
      var typeName: String?
      let isSelfInit = node.calledExpression.as(MemberAccessExprSyntax.self).map {
        $0.declName.baseName.tokenKind == .keyword(.`init`) && $0.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self)
      } ?? false
      if isSelfInit {
        // `self.init(...)` in a convenience init delegates to the type's own init.
        let context = ReferenceContextFinder.context(of: Syntax(node))
        if let owner = context.typeName.map(index.resolveType), types.contains(owner) { typeName = owner }
      } else if isSuper {
        let context = ReferenceContextFinder.context(of: Syntax(node))
        if let owner = context.typeName.map(index.resolveType), let parent = subclasses[owner] {
          typeName = parent
        }
      } else if let written = called.typeReferenceText {
        let last = written.split(separator: ".").last.map(String.init) ?? written
        if simpleNames.contains(last) {
          let resolved = index.resolveType(written)
          if types.contains(resolved) { typeName = resolved }
        }
      }
      guard let typeName else { return .visitChildren }
      let labels = node.arguments.map { $0.label?.text ?? "_" }
      let trailing = (node.trailingClosure == nil ? 0 : 1) + node.additionalTrailingClosures.count
      found.append(
        InitCall(
          path: path, call: node, typeName: typeName, isSuperInit: isSuper, isSelfInit: isSelfInit, labels: labels,
          trailingClosures: trailing, context: ReferenceContextFinder.context(of: Syntax(node))))
      return .visitChildren
    }
  }

  /// Whether a call with these labels can call an init with these parameters (labels, and whether each has a default).
  static func matches(labels: [String], trailingClosures: Int, parameters: [(label: String, hasDefault: Bool)]) -> Bool {
    var position = 0
    var remainingTrailing = trailingClosures
    for parameter in parameters {
      if position < labels.count && labels[position] == parameter.label {
        position += 1
      } else if parameter.hasDefault {
        continue
      } else if position == labels.count && remainingTrailing > 0 {
        remainingTrailing -= 1
      } else {
        return false
      }
    }
    return position == labels.count
  }
}
