import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftParser
import SwiftSyntax

extension ExtractProtocolPlanner {
  /// Step 3: the new protocol files, the moved members' removals, and the conformance extension.
  static func write(_ design: Design, traits: ProtocolTraits, _ context: Context) throws -> Plan {
    let lineEnding = context.singletonFile.source.lineEnding
    let imports = try DeclarationImports(context)
    var plan = Plan(notes: design.notes)
    var inSingletonFile: [String] = []
    // An Objective-C class conforms in Swift: each new protocol's file declares its conformance.
    let conformsInProtocolFiles = context.index.isObjectiveC(context.primary.path) && context.accessorProtocol == nil
    let created = Set(design.protocols.map(\.name))
    let elsewhere = design.conformances.filter { !created.contains($0) }
    if conformsInProtocolFiles && !elsewhere.isEmpty && design.protocols.isEmpty {
      throw Refusal(
        "'\(context.singleton.typeName)' is declared in Objective-C, and no new protocol file can declare its conformance to \(elsewhere.joined(separator: ", "))",
        at: context.primary.location)
    }
    for (position, created) in design.protocols.enumerated() {
      var text = protocolText(created, traits: traits, context)
      if conformsInProtocolFiles {
        let names = design.conformances.filter { $0 == created.name } + (position == 0 ? elsewhere : [])
        if !names.isEmpty { text += "\nextension \(context.singleton.typeName): \(names.joined(separator: ", ")) {}\n" }
      }
      if context.options.protocolsInSingletonFile && !conformsInProtocolFiles {
        // The singleton's file has the imports already, and its own `#if` around the type.
        inSingletonFile.append(imports.typeCondition.map { "#if \($0)\n" + text + "#endif\n" } ?? text)
        continue
      }
      plan.newFiles[created.path] = imports.wrap(text, for: created, context).withLineEnding(lineEnding)
      plan.companions[created.path] = ProtocolHome.companion(
        primary: context.primary, references: context.analysis.references, index: context.index)
    }
    if !inSingletonFile.isEmpty, let item = context.singletonFile.topLevelItem(at: context.primary.range.bytes) {
      // After the file-level declaration holding the type (its `#if` block, when it is in one).
      let text = inSingletonFile.map { lineEnding + lineEnding + $0.trimmingTrailingNewlines().withLineEnding(lineEnding) }
      plan.add(.insert(text.joined(), at: item.endPositionBeforeTrailingTrivia.utf8Offset), in: context.primary.path)
    }
    for (path, nodes) in design.removals.sorted(by: { $0.key < $1.key }) {
      let file = try context.project.file(path).source
      for range in file.removalRanges(of: nodes) { plan.add(TextEdit(range: range, replacement: ""), in: path) }
    }
    if !conformsInProtocolFiles { try addConformances(design, typeCondition: imports.typeCondition, context, to: &plan) }
    return plan
  }

  /// A new protocol's declaration, its `Mutable...` refinement and its extension (`\n` line ends, no imports).
  static func protocolText(_ created: Design.NewProtocol, traits: ProtocolTraits, _ context: Context) -> String {
    let indent = context.singletonFile.source.indentUnit
    var text = traits.protocolHeader(name: created.name, refining: nil, access: created.access)
    text += indented(ConditionalText.blocks(created.requirements, separator: "\n"), indent: indent, separator: "\n") + "}\n"
    if !created.mutableRequirements.isEmpty {
      text += "\n" + traits.protocolHeader(name: "Mutable" + created.name, refining: created.name, access: created.access)
      let mutableBlocks = ConditionalText.blocks(created.mutableRequirements, separator: "\n")
      text += indented(mutableBlocks, indent: indent, separator: "\n") + "}\n"
    }
    if !created.extensionMembers.isEmpty {
      text += "\n" + traits.extensionAttributes + "extension \(created.name) {\n"
      let extensionBlocks = ConditionalText.blocks(created.extensionMembers, separator: "\n\n")
      text += indented(extensionBlocks, indent: indent, separator: "\n\n") + "}\n"
    }
    return text
  }

  /// The singleton conforms to the new protocols: an extension after its declaration, or, when the
  /// accessor is typed as a protocol, that protocol refines them.
  static func addConformances(_ design: Design, typeCondition: String?, _ context: Context, to plan: inout Plan) throws {
    guard !design.conformances.isEmpty else { return }
    let source = context.singletonFile.source
    let lineEnding = source.lineEnding
    if let typed = context.accessorProtocol {
      // `protocol ServiceLocating: AnyObject, AccountRefreshing`: what the accessor hands out is the
      // protocol, so the protocol, not only the type, must be each slice.
      let file = try context.project.file(typed.path)
      guard let node = file.node(at: typed.range.bytes)?.as(ProtocolDeclSyntax.self) else {
        throw Refusal("cannot read the declaration of protocol '\(typed.name)'", at: typed.location)
      }
      let names = design.conformances.joined(separator: ", ")
      if let clause = node.inheritanceClause {
        plan.add(.insert(", " + names, at: clause.endPositionBeforeTrailingTrivia.utf8Offset), in: typed.path)
      } else {
        let after = node.primaryAssociatedTypeClause.map { Syntax($0) } ?? Syntax(node.name)
        plan.add(.insert(": " + names, at: after.endPositionBeforeTrailingTrivia.utf8Offset), in: typed.path)
      }
      return
    }
    let endsWithNewline = source.bytes.last == UInt8(ascii: "\n")
    var conformance =
      "extension \(context.singleton.typeName): \(design.conformances.joined(separator: ", ")) {}" + lineEnding
    if let typeCondition { conformance = "#if \(typeCondition)" + lineEnding + conformance + "#endif" + lineEnding }
    let text = (endsWithNewline ? "" : lineEnding) + lineEnding + conformance
    plan.add(.insert(text, at: source.bytes.count), in: context.primary.path)
  }

  /// Members some code reaches through the accessor inside `#selector(...)` or `#keyPath(...)`: once
  /// the code holds a protocol instead, the protocol must be `@objc` for those to compile.
  static func objcDispatchedMembers(_ context: Context) -> Set<String> {
    var names: Set<String> = []
    for reference in context.analysis.references where reference.inSelectorOrKeyPath {
      if case .member(let name, _) = reference.use { names.insert(name) }
    }
    return names
  }

  /// Blocks of code (no indentation, `\n` line ends) indented by one level; blank lines stay empty.
  static func indented(_ blocks: [String], indent: String, separator: String) -> String {
    guard !blocks.isEmpty else { return "" }
    return blocks.map { block in
      block.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : indent + $0 }
        .joined(separator: "\n")
    }.joined(separator: separator) + "\n"
  }

  /// A moved member keeps its doc comment and body; `final`, `dynamic` and its own access go, and the
  /// protocol's access (when it is not internal) comes in their place.
  static func movedText(of node: Syntax, in source: SourceText, access: AccessLevel?, nestedTypes: Set<String> = [], typeName: String = "") -> String {
    let range = source.removalRange(of: node)
    var modifiers: DeclModifierListSyntax?
    var keyword: TokenSyntax?
    if let variable = node.as(VariableDeclSyntax.self) {
      modifiers = variable.modifiers
      keyword = variable.bindingSpecifier
    } else if let function = node.as(FunctionDeclSyntax.self) {
      modifiers = function.modifiers
      keyword = function.funcKeyword
    }
    guard let keyword else { return source.text(range) }
    var edits: [TextEdit] = []
    let dropped: Set<String> = ["final", "dynamic", "public", "internal", "package", "open"]
    var insertAt = keyword.positionAfterSkippingLeadingTrivia.utf8Offset
    for modifier in modifiers ?? [] {
      let start = modifier.positionAfterSkippingLeadingTrivia.utf8Offset
      if dropped.contains(modifier.name.text) && modifier.detail == nil {
        edits.append(TextEdit(range: start..<modifier.endPosition.utf8Offset, replacement: ""))
      } else {
        insertAt = min(insertAt, start)
      }
    }
    if let access { edits.append(.insert(access.keyword + " ", at: insertAt)) }
    // The singleton's nested types are not in scope in a protocol extension: qualify them.
    if !nestedTypes.isEmpty {
      let finder = NameUseFinder(names: nestedTypes)
      finder.walk(node)
      for use in finder.uses { edits.append(.insert(typeName + ".", at: use.offset)) }
    }
    var bytes = Array(source.bytes[range])
    for edit in edits.sorted(by: >) {
      bytes.replaceSubrange((edit.range.lowerBound - range.lowerBound)..<(edit.range.upperBound - range.lowerBound), with: Array(edit.replacement.utf8))
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

extension String {
  /// Drops whole blank lines at the start, keeping the indentation of the first line with text.
  func trimmingLeadingBlankLines() -> String {
    var lines = split(separator: "\n", omittingEmptySubsequences: false)
    while let first = lines.first, first.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }), lines.count > 1 { lines.removeFirst() }
    return lines.joined(separator: "\n")
  }

  func trimmingTrailingNewlines() -> String {
    var result = self
    while let last = result.last, last == "\n" || last == "\r" { result.removeLast() }
    return result
  }
}

/// The imports the singleton's declarations see, and the `#if` around the type: a new protocol file
/// keeps those its text needs, each where it was.
struct DeclarationImports {
  /// The file's own imports.
  var file: [String]
  /// The file's imports in top-level `#if` clauses (`#if canImport(UIKit)`), each clause with the
  /// condition that holds exactly in it.
  var fileConditioned: [(condition: String, lines: [String])] = []
  /// Imports inside the `#if` clauses around the declaration: with one declaration they go
  /// inside the protocol's `#if`; with one per platform, each in its own declaration's.
  var inner: [String] = []
  var conditioned: [(condition: String, lines: [String])] = []
  var typeCondition: String?

  init(_ context: ExtractProtocolPlanner.Context) throws {
    // The imports of each file declaring the type or extending it (a requirement's types may come
    // from an extension's file, `Data` in `write(_ data: Data, ...)`): those at top level, and
    // those in `#if` clauses (nested ones too) other than the clauses around the type's own
    // declarations, which are `inner` or `conditioned`. `ImportNeeds` keeps what the text needs.
    var paths = [context.singletonFile.path]
    for declaration in context.analysis.declarations
    where !paths.contains(declaration.path)
      && context.project.modules.file(context.singletonFile.path, canSee: declaration.path)
    {
      paths.append(declaration.path)
    }
    file = []
    for path in paths {
      let parsed = try context.project.file(path)
      for line in ImportText.lines(of: parsed) where !file.contains(line) { file.append(line) }
      let declared = context.analysis.declarations.filter { $0.path == path }.map(\.range.bytes)
      for block in ImportText.conditionedLines(of: parsed, outside: declared)
      where !fileConditioned.contains(where: { $0.condition == block.condition && $0.lines == block.lines }) {
        fileConditioned.append(block)
      }
    }
    typeCondition = context.typeConditions.isEmpty ? nil : ConditionalText.condition(context.typeConditions)
    if context.declarationConditions == nil {
      inner = context.singletonFile.node(at: context.primary.range.bytes).map(ImportText.lines(around:)) ?? []
      return
    }
    for declaration in context.analysis.declarations where !declaration.isExtension {
      let file = try context.project.file(declaration.path)
      guard let node = file.node(at: declaration.range.bytes) else { continue }
      let lines = ImportText.lines(around: node)
      let conditions = IfConfigCondition.conditions(around: node)
      if !lines.isEmpty, !conditions.isEmpty {
        conditioned.append((ConditionalText.condition(conditions), lines))
      }
    }
  }

  /// A new protocol file: the imports its text needs and the type's `#if` around it.
  func wrap(_ protocolText: String, for created: ExtractProtocolPlanner.Design.NewProtocol, _ context: ExtractProtocolPlanner.Context) -> String {
    // One decision over every import the declarations see, then each kept where it was.
    // A file never imports its own module (a test target's `@testable import` of it).
    let modules = context.project.modules
    // A class declared in Objective-C is declared in Swift by no file here: the new file imports the
    // header's module (a C-family target's) when it is in another, for its conformance.
    let objectiveC = context.index.isObjectiveC(context.primary.path)
    let headerImports = objectiveC
      ? modules.modules(of: context.primary.path).filter { !modules.modules(of: created.path).contains($0) }.map { "import \($0)" } : []
    let own = Set(modules.modules(of: created.path) + (objectiveC ? [] : modules.modules(of: context.primary.path)))
    let kept = Set(
      ImportNeeds(protocolText: created, context: context, excludingModules: own).filter(
        file + fileConditioned.flatMap(\.lines) + inner + conditioned.flatMap(\.lines)))
    var text = protocolText
    if let typeCondition {
      let innerImports = inner.filter(kept.contains)
      let lines = innerImports.isEmpty ? "" : innerImports.joined(separator: "\n") + "\n\n"
      text = "#if \(typeCondition)\n" + lines + text + "#endif\n"
    }
    for block in conditioned.reversed() {
      let lines = block.lines.filter(kept.contains)
      if !lines.isEmpty { text = "#if \(block.condition)\n" + lines.joined(separator: "\n") + "\n#endif\n\n" + text }
    }
    var header = (headerImports + file.filter { kept.contains($0) && !headerImports.contains($0) }).map { $0 + "\n" }.joined()
    for block in fileConditioned {
      let lines = block.lines.filter(kept.contains)
      if !lines.isEmpty { header += "#if \(block.condition)\n" + lines.joined(separator: "\n") + "\n#endif\n" }
    }
    if !header.isEmpty { text = header + "\n" + text }
    return text
  }
}
