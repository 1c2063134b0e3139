import DesingletonCore
import DesingletonIndex
import SwiftSyntax

/// The `import` lines a file holds, as written: at top level, in its `#if` clauses, and around a
/// declaration. A new file copies them from the file it is cut from (a protocol, a mock).
enum ImportText {
  /// The file's top-level imports.
  static func lines(of file: ParsedFile) -> [String] {
    file.tree.statements.compactMap { $0.item.as(ImportDeclSyntax.self)?.trimmedDescription }
  }

  /// The imports in a file's top-level `#if` clauses, by the condition that holds exactly in each
  /// clause (`canImport(UIKit)`; `!canImport(UIKit)` for its `#else`); nested `#if`s add theirs.
  static func conditionedLines(
    of file: ParsedFile, outside declarations: [Range<Int>]
  ) -> [(condition: String, lines: [String])] {
    var result: [(condition: String, lines: [String])] = []
    func collect(_ items: CodeBlockItemListSyntax, conditions: [String]) {
      for item in items {
        guard let ifConfig = item.item.as(IfConfigDeclSyntax.self) else { continue }
        let clauseConditions = IfConfigCondition.conditions(
          ofClauses: ifConfig.clauses.map { clause in clause.condition.map { ($0.trimmedDescription, $0.kind) } })
        for (clause, condition) in zip(ifConfig.clauses, clauseConditions) {
          guard case .statements(let nested) = clause.elements else { continue }
          let lines = nested.compactMap { $0.item.as(ImportDeclSyntax.self)?.trimmedDescription }
          let range = clause.position.utf8Offset..<clause.endPosition.utf8Offset
          if !lines.isEmpty, !declarations.contains(where: { range.contains($0.lowerBound) }) { result.append((ConditionalText.condition(conditions + [condition]), lines)) }
          collect(nested, conditions: conditions + [condition])
        }
      }
    }
    collect(file.tree.statements, conditions: [])
    return result
  }

  /// The imports in the `#if` clauses around a declaration, outermost first.
  static func lines(around node: Syntax) -> [String] {
    var lines: [String] = []
    var current = node
    while let parent = current.parent {
      if let clause = parent.as(IfConfigClauseSyntax.self), case .statements(let items) = clause.elements {
        lines.insert(contentsOf: items.compactMap { $0.item.as(ImportDeclSyntax.self)?.trimmedDescription }, at: 0)
      }
      current = parent
    }
    return lines
  }
}
