import DesingletonCore
import SwiftParser
import SwiftParserDiagnostics
import SwiftSyntax

/// Indexes one parsed file: its type declarations and extensions with their members, and every
/// place that reaches for something that looks like a singleton accessor.
public enum FileIndexer {
  public static func index(_ source: SourceText) -> FileSummary {
    let tree = source.bytes.withUnsafeBufferPointer { Parser.parse(source: $0) }
    return index(tree, source: source)
  }

  public static func index(_ tree: SourceFileSyntax, source: SourceText) -> FileSummary {
    let needleOffsets = occurrences(of: accessorNeedles, in: source.bytes)
    let visitor = IndexingVisitor(source: source, needleOffsets: needleOffsets)
    visitor.walk(tree)
    var errors: [Diagnostic] = []
    if tree.hasError {
      errors = syntaxErrors(in: tree, source: source)
    }
    return FileSummary(
      path: source.path,
      lineCount: source.lineStarts.count,
      byteCount: source.bytes.count,
      types: visitor.types,
      candidateReferences: visitor.references,
      syntaxErrors: errors
    )
  }

  /// The parser's own diagnostics for a tree with errors, as `path:line:col: error:` diagnostics.
  public static func syntaxErrors(in tree: SourceFileSyntax, source: SourceText) -> [Diagnostic] {
    ParseDiagnosticsGenerator.diagnostics(for: tree).compactMap { diagnostic in
      guard diagnostic.diagMessage.severity == .error else { return nil }
      let offset = diagnostic.position.utf8Offset
      return .error(diagnostic.message, at: source.location(ofOffset: offset))
    }
  }
}

final class IndexingVisitor: SyntaxVisitor {
  let source: SourceText
  let needleOffsets: [Int]
  var types: [TypeDecl] = []
  var references: [Reference] = []
  /// Qualified names of the enclosing type declarations.
  private var typeStack: [String] = []

  init(source: SourceText, needleOffsets: [Int]) {
    self.source = source
    self.needleOffsets = needleOffsets
    super.init(viewMode: .sourceAccurate)
  }

  // MARK: Skipping what cannot matter

  override func visit(_ node: CodeBlockSyntax) -> SyntaxVisitorContinueKind {
    contains(needleOffsets, in: node.position.utf8Offset..<node.endPosition.utf8Offset) ? .visitChildren : .skipChildren
  }

  override func visit(_ node: AccessorBlockSyntax) -> SyntaxVisitorContinueKind {
    contains(needleOffsets, in: node.position.utf8Offset..<node.endPosition.utf8Offset) ? .visitChildren : .skipChildren
  }

  // MARK: Types

  override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
    enterType(node.name.text, kind: .class, node: node, inheritance: node.inheritanceClause, attributes: node.attributes,
      modifiers: node.modifiers, memberBlock: node.memberBlock)
  }
  override func visitPost(_ node: ClassDeclSyntax) { typeStack.removeLast() }

  override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
    enterType(node.name.text, kind: .struct, node: node, inheritance: node.inheritanceClause, attributes: node.attributes,
      modifiers: node.modifiers, memberBlock: node.memberBlock)
  }
  override func visitPost(_ node: StructDeclSyntax) { typeStack.removeLast() }

  override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
    enterType(node.name.text, kind: .enum, node: node, inheritance: node.inheritanceClause, attributes: node.attributes,
      modifiers: node.modifiers, memberBlock: node.memberBlock)
  }
  override func visitPost(_ node: EnumDeclSyntax) { typeStack.removeLast() }

  override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
    enterType(node.name.text, kind: .actor, node: node, inheritance: node.inheritanceClause, attributes: node.attributes,
      modifiers: node.modifiers, memberBlock: node.memberBlock)
  }
  override func visitPost(_ node: ActorDeclSyntax) { typeStack.removeLast() }

  override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind {
    enterType(node.name.text, kind: .protocol, node: node, inheritance: node.inheritanceClause,
      attributes: node.attributes, modifiers: node.modifiers, memberBlock: node.memberBlock)
  }
  override func visitPost(_ node: ProtocolDeclSyntax) { typeStack.removeLast() }

  override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
    let extended = node.extendedType.text(in: source)
    let qualified = typeStack.last.map { "\($0).\(extended)" } ?? extended
    let name = node.extendedType.simpleName ?? extended
    recordType(name: name, qualifiedName: qualified, kind: .extension, node: node, inheritance: node.inheritanceClause,
      attributes: node.attributes, modifiers: node.modifiers, memberBlock: node.memberBlock)
    typeStack.append(qualified)
    return .visitChildren
  }
  override func visitPost(_ node: ExtensionDeclSyntax) { typeStack.removeLast() }

  private func enterType(
    _ name: String, kind: TypeDecl.Kind, node: some DeclSyntaxProtocol, inheritance: InheritanceClauseSyntax?,
    attributes: AttributeListSyntax, modifiers: DeclModifierListSyntax, memberBlock: MemberBlockSyntax
  ) -> SyntaxVisitorContinueKind {
    let qualified = typeStack.last.map { "\($0).\(name)" } ?? name
    recordType(name: name, qualifiedName: qualified, kind: kind, node: node, inheritance: inheritance,
      attributes: attributes, modifiers: modifiers, memberBlock: memberBlock)
    typeStack.append(qualified)
    return .visitChildren
  }

  private func recordType(
    name: String, qualifiedName: String, kind: TypeDecl.Kind, node: some DeclSyntaxProtocol,
    inheritance: InheritanceClauseSyntax?, attributes: AttributeListSyntax, modifiers: DeclModifierListSyntax,
    memberBlock: MemberBlockSyntax
  ) {
    var members: [MemberDecl] = []
    collectMembers(memberBlock.members, into: &members)
    types.append(
      TypeDecl(
        name: name,
        qualifiedName: qualifiedName,
        kind: kind,
        inherited: inheritance?.inheritedTypes.map { $0.type.text(in: source) } ?? [],
        attributes: attributes.names(in: source),
        modifiers: modifiers.otherModifierNames,
        access: modifiers.accessLevel,
        members: members,
        range: node.sourceRange(in: source),
        bodyOpen: memberBlock.leftBrace.endPositionBeforeTrailingTrivia.utf8Offset,
        bodyClose: memberBlock.rightBrace.positionAfterSkippingLeadingTrivia.utf8Offset
      ))
  }

  private func collectMembers(_ list: MemberBlockItemListSyntax, into members: inout [MemberDecl]) {
    for item in list {
      if let ifConfig = item.decl.as(IfConfigDeclSyntax.self) {
        for clause in ifConfig.clauses {
          if case .decls(let nested) = clause.elements { collectMembers(nested, into: &members) }
        }
        continue
      }
      members.append(contentsOf: MemberExtractor.members(of: item.decl, in: source))
    }
  }

  // MARK: References

  override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
    let name = node.declName.baseName.text
    guard isAccessorLikeName(name), node.declName.argumentNames == nil, let base = node.base,
      let baseText = base.typeReferenceText
    else { return .visitChildren }
    var instance = ExprSyntax(node)
    if let call = node.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == node.id,
      call.arguments.isEmpty, call.trailingClosure == nil
    {
      instance = ExprSyntax(call)
    }
    record(instance: instance, baseName: baseText, accessor: name, alias: nil)
    return .visitChildren
  }

  private func record(instance: ExprSyntax, baseName: String, accessor: String, alias: String?) {
    let analysis = ReferenceAnalysis(instance: instance)
    let context = ReferenceContextFinder.context(of: Syntax(instance))
    references.append(
      Reference(
        baseName: baseName, accessor: accessor, use: analysis.use, alias: alias,
        range: instance.sourceRange(in: source), context: context))
    if alias == nil, case .alias(let aliasName) = analysis.use, let scope = analysis.aliasScope {
      for use in AliasUseFinder.uses(of: aliasName, in: scope, after: instance.endPosition.utf8Offset) {
        record(instance: use, baseName: baseName, accessor: accessor, alias: aliasName)
      }
    }
  }
}
