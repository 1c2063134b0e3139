import SwiftSyntax

/// Whether the declaration around a node binds a name anywhere inside it: as a parameter (of it,
/// a nested function or a closure), a local variable, a pattern or a local function. An
/// over-approximation: a name bound anywhere in the enclosing member counts.
enum LocalNames {
  static func binds(_ name: String, around node: Syntax) -> Bool {
    guard let outermost = outermostScope(around: node) else { return false }
    let finder = Finder(name: name, limit: 1)
    finder.walk(outermost)
    return finder.found > 0
  }

  /// The one declaration that binds `name` in the member around `node` (a parameter, an identifier
  /// pattern); nil when none or several do.
  static func onlyBinding(of name: String, around node: Syntax) -> Syntax? {
    guard let outermost = outermostScope(around: node) else { return nil }
    let finder = Finder(name: name, limit: 2)
    finder.walk(outermost)
    return finder.found == 1 ? finder.first : nil
  }

  /// Where a binding can be named: a parameter's function or init, a local's block, a `guard
  /// let`'s block, an `if let`'s or `while let`'s body; nil for any other binding.
  static func scope(of binding: Syntax) -> Syntax? {
    func nearest(from node: Syntax, _ matches: (Syntax) -> Bool) -> Syntax? {
      sequence(first: node, next: \.parent).first(where: matches)
    }
    if binding.is(FunctionParameterSyntax.self) {
      return nearest(from: binding) { $0.is(FunctionDeclSyntax.self) || $0.is(InitializerDeclSyntax.self) }
    }
    guard let pattern = binding.as(IdentifierPatternSyntax.self) else { return nil }
    if pattern.parent?.is(PatternBindingSyntax.self) == true {
      return nearest(from: binding) { $0.is(CodeBlockItemListSyntax.self) }
    }
    guard let condition = pattern.parent?.as(OptionalBindingConditionSyntax.self),
      let statement = condition.parent?.parent?.parent
    else { return nil }
    if statement.is(GuardStmtSyntax.self) { return nearest(from: statement) { $0.is(CodeBlockItemListSyntax.self) } }
    if let ifExpr = statement.as(IfExprSyntax.self) { return Syntax(ifExpr.body) }
    return statement.as(WhileStmtSyntax.self).map { Syntax($0.body) }
  }

  /// The member, or top-level statement, around `node`: where the names it can see are bound.
  private static func outermostScope(around node: Syntax) -> Syntax? {
    var outermost: Syntax?
    var current = node.parent
    while let syntax = current {
      if syntax.is(MemberBlockItemSyntax.self) || syntax.is(SourceFileSyntax.self) { break }
      if syntax.is(CodeBlockItemSyntax.self), syntax.parent?.parent?.is(SourceFileSyntax.self) == true {
        outermost = syntax
        break
      }
      outermost = syntax
      current = syntax.parent
    }
    return outermost
  }

  private final class Finder: SyntaxVisitor {
    let name: String
    let limit: Int
    var found = 0
    /// The first declaration found.
    var first: Syntax?

    init(name: String, limit: Int) {
      self.name = name
      self.limit = limit
      super.init(viewMode: .sourceAccurate)
    }

    private func check(_ token: TokenSyntax?) -> SyntaxVisitorContinueKind {
      if let token, unquoted(token.text) == name {
        found += 1
        if first == nil { first = token.parent }
      }
      return found >= limit ? .skipChildren : .visitChildren
    }

    override func visit(_ node: IdentifierPatternSyntax) -> SyntaxVisitorContinueKind { check(node.identifier) }
    override func visit(_ node: FunctionParameterSyntax) -> SyntaxVisitorContinueKind {
      // `from mode: T` binds `mode`; `mode: T` binds its one name.
      check(node.secondName ?? node.firstName)
    }
    override func visit(_ node: ClosureParameterSyntax) -> SyntaxVisitorContinueKind {
      check(node.secondName ?? node.firstName)
    }
    override func visit(_ node: ClosureShorthandParameterSyntax) -> SyntaxVisitorContinueKind { check(node.name) }
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { check(node.name) }
    override func visit(_ node: ClosureCaptureSyntax) -> SyntaxVisitorContinueKind { check(node.name) }
    /// `set(value)`, `willSet(next)`, `didSet(previous)`.
    override func visit(_ node: AccessorParametersSyntax) -> SyntaxVisitorContinueKind { check(node.name) }
  }
}
