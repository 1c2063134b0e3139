import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftSyntax

/// A stored property of the root whose initial value uses the accessor.
struct MovedProperty {
  var binding: PatternBindingSyntax
  var name: String
  var references: [Reference]
}

extension FinishPlanner {
  /// The names the root's new property cannot take: what its declarations and its superclasses'
  /// members declare or refer to (`NamesInScope`), but a local that only names the instance (`let
  /// store = Store.shared`: it becomes `let store = self.store`, the same instance) unless the name
  /// is declared otherwise too (a parameter would take the uses the property replaces).
  static func rootNames(_ root: String, remaining: [RemainingReference], project: Project) throws -> Set<String> {
    let index = project.index
    var taken = Set(index.members(of: root).map(\.name))
    for step in index.superclassChain(of: root) {
      if case .project(let name) = step { taken.formUnion(index.members(of: name).map(\.name)) }
    }
    var aliases: [String: Int] = [:]
    for item in remaining where item.kind == .root && !item.reference.context.isStatic {
      if case .alias(let name) = item.reference.use { aliases[name] = item.reference.range.bytes.lowerBound }
    }
    let nodes = try index.declarations(of: root).compactMap { try project.file($0.path).node(at: $0.range.bytes) }
    let declared = NamesInScope.declaredLocally(in: nodes, skipping: Set(aliases.values))
    return taken.union(NamesInScope.names(in: nodes).subtracting(aliases.keys)).union(declared)
  }

  /// The root's stored instance property whose whole initial value is the accessor
  /// (`@State var store = Store.shared`, `let store: Store = Store.shared`): the root holds the
  /// instance there already, so that value becomes the creation and what reads the property stays.
  /// Nil when there is none, several, a local alias of the same name (`let store = store` would
  /// not compile), or a parameter or local of its name elsewhere in the root (it would take the
  /// uses the property replaces).
  static func ownerProperty(
    among references: [RemainingReference], singleton: Singleton, root: String, project: Project
  ) throws -> (name: String, reference: Reference)? {
    var found: [(name: String, reference: Reference)] = []
    for item in references {
      guard case .alias = item.reference.use, item.reference.alias == nil, item.reference.context.inPropertyInitializer,
        let node = try project.file(item.reference.range.path).expression(at: item.reference.range.bytes),
        let property = try storedProperty(around: Syntax(node), item: item, singleton: singleton),
        property.binding.initializer?.value.id == node.id, property.binding.parent?.as(PatternBindingListSyntax.self)?.count == 1
      else { continue }
      found.append((property.name, item.reference))
    }
    guard found.count == 1, let owner = found.first else { return nil }
    let shadowed = references.contains { item in
      guard case .alias(let name) = item.reference.use else { return false }
      return name == owner.name && item.reference != owner.reference
    }
    // A parameter or local of its name would take the uses the property replaces.
    let declared = try project.index.declarations(of: root).compactMap { try project.file($0.path).node(at: $0.range.bytes) }
    return shadowed || NamesInScope.declaredLocally(in: declared).contains(owner.name) ? nil : owner
  }

  /// The stored instance property whose initial value holds `node`, unless it is `lazy` (a lazy
  /// initializer may use instance members). A use inside a closure there is refused: moved into an
  /// init, the closure would capture `self` before it is initialized.
  static func storedProperty(
    around node: Syntax, item: RemainingReference, singleton: Singleton
  ) throws -> (binding: PatternBindingSyntax, name: String)? {
    var current = node.parent
    var closure = false
    while let syntax = current {
      if syntax.is(ClosureExprSyntax.self) { closure = true }
      if syntax.is(MemberBlockItemSyntax.self) || syntax.is(CodeBlockSyntax.self) || syntax.is(AccessorBlockSyntax.self) {
        return nil
      }
      if let clause = syntax.as(InitializerClauseSyntax.self), let binding = clause.parent?.as(PatternBindingSyntax.self),
        let variable = binding.parent?.parent?.as(VariableDeclSyntax.self),
        variable.parent?.is(MemberBlockItemSyntax.self) == true
      {
        let modifiers = variable.modifiers.map(\.name.tokenKind)
        if modifiers.contains(.keyword(.lazy)) || variable.modifiers.isStatic { return nil }
        let name = binding.pattern.trimmedDescription
        if closure {
          throw Refusal(
            "'\(name)' uses '\(singleton.accessExpression)' in a closure in its initial value, where the root's own "
              + "instance cannot be used; assign '\(name)' in the root's init by hand",
            at: item.reference.location)
        }
        if MovedInitialValue.isUnderIfConfig(variable) {
          throw Refusal(
            "'\(name)' is declared under '#if' and uses '\(singleton.accessExpression)' in its initial value, which "
              + "moves into the root's inits, outside that '#if'; assign '\(name)' in the root's init by hand",
            at: item.reference.location)
        }
        return (binding, name)
      }
      current = syntax.parent
    }
    return nil
  }

  /// Stored properties cannot use an instance member in their initial value, so each property that
  /// used the accessor there is assigned in every init that does not delegate, keeping `let` and the
  /// time of creation (while the root is created); a root with no init gets `init()` where that
  /// changes nothing else.
  static func assignInInits(
    _ moved: [MovedProperty], root: TypeDecl, instanceName: String, replacement: (Reference) -> String,
    singleton: Singleton, project: Project, plan: inout Plan
  ) throws {
    let index = project.index
    let file = try project.file(root.path)
    let source = file.source
    var statements: [String] = []
    for property in moved {
      guard let initializer = property.binding.initializer else { continue }
      let value = initializer.value
      let valueRange = value.positionAfterSkippingLeadingTrivia.utf8Offset..<value.endPositionBeforeTrailingTrivia.utf8Offset
      let text = source.text(valueRange, replacing: property.references.map { ($0.range.bytes, replacement($0)) })
      statements.append("self.\(property.name) = \(text)")
      let end = initializer.endPositionBeforeTrailingTrivia.utf8Offset
      if let annotation = property.binding.typeAnnotation {
        plan.add(TextEdit(range: annotation.endPositionBeforeTrailingTrivia.utf8Offset..<end, replacement: ""), in: root.path)
      } else if let type = InitCallFinder.writtenType(of: value, index: index) {
        let start = property.binding.pattern.endPositionBeforeTrailingTrivia.utf8Offset
        plan.add(TextEdit(range: start..<end, replacement: ": \(type)"), in: root.path)
      } else {
        throw Refusal(
          "'\(property.name)' uses '\(singleton.accessExpression)' in its initial value, where the root's own instance "
            + "cannot be used, and its type is not written; give '\(property.name)' a type annotation and run again",
          at: property.references[0].location)
      }
    }

    let unit = source.indentUnit
    var assignedIn: [String] = []
    for member in index.members(of: root.qualifiedName) where member.kind == .initializer && !member.isStatic {
      let initFile = try project.file(member.range.path)
      guard let node = initFile.node(at: member.range.bytes)?.as(InitializerDeclSyntax.self), let body = node.body,
        !node.modifiers.contains(where: { $0.name.tokenKind == .keyword(.convenience) }), !InitBodyScanner.delegatesToSelf(body)
      else { continue }
      let lineEnding = initFile.source.lineEnding
      if let first = body.statements.first {
        let start = first.positionAfterSkippingLeadingTrivia.utf8Offset
        let indent = initFile.source.indentation(at: start)
        plan.add(.insert(statements.map { $0 + lineEnding + indent }.joined(), at: start), in: initFile.path)
      } else {
        let indent = initFile.source.indentation(at: body.rightBrace.positionAfterSkippingLeadingTrivia.utf8Offset)
        let range = body.leftBrace.endPosition.utf8Offset..<body.rightBrace.positionAfterSkippingLeadingTrivia.utf8Offset
        let text = statements.map { lineEnding + indent + unit + $0 }.joined() + lineEnding + indent
        plan.add(TextEdit(range: range, replacement: text), in: initFile.path)
      }
      assignedIn.append(member.displayName)
    }
    let location = moved[0].references[0].location
    let names = moved.map { "'\($0.name)'" }.joined(separator: ", ")
    if assignedIn.isEmpty {
      if let reason = whyNoInitCanBeAdded(root, moved: moved, index: index) {
        throw Refusal(
          "\(names) \(moved.count == 1 ? "passes" : "pass") '\(singleton.accessExpression)' in \(moved.count == 1 ? "its" : "their") "
            + "initial value, where the root's own instance cannot be used, and '\(root.qualifiedName)' has no init to "
            + "assign it in; \(reason)",
          at: location)
      }
      let memberIndent = source.indentation(at: moved[0].binding.positionAfterSkippingLeadingTrivia.utf8Offset)
      let lineEnding = source.lineEnding
      let lastStored = root.members.filter { $0.kind == .property && $0.isStored && !$0.isStatic }
        .map(\.range.bytes.upperBound).max() ?? moved[0].binding.endPosition.utf8Offset
      let at = source.lineEnd(of: lastStored)
      var text = lineEnding + memberIndent + "init() {" + lineEnding
        + statements.map { memberIndent + unit + $0 + lineEnding }.joined() + memberIndent + "}" + lineEnding
      let nextLineEnd = source.lineEnd(of: at)
      if at < source.bytes.count, !source.isBlank(at..<nextLineEnd), source.firstNonBlank(from: at) != UInt8(ascii: "}") {
        text += lineEnding
      }
      plan.add(.insert(text, at: at), in: root.path)
      assignedIn.append("init()")
    }
    plan.notes.append(
      Note(
        .moved,
        "\(names) \(moved.count == 1 ? "is" : "are") now assigned in "
          + "\(assignedIn.joined(separator: ", ")): \(moved.count == 1 ? "its" : "their") initial value uses '\(instanceName)'",
        at: Note.Place(line: location)))
  }

  /// Why the root cannot simply be given `init()`: a superclass whose inits it inherits (an init of
  /// its own would stop that), or a struct whose memberwise init takes arguments.
  static func whyNoInitCanBeAdded(_ root: TypeDecl, moved: [MovedProperty], index: Index) -> String? {
    switch root.kind {
    case .class:
      switch index.superclass(of: root.qualifiedName) {
      case .none: return nil
      case .project(let name), .framework(let name), .unknown(let name):
        return "declare the inits '\(root.qualifiedName)' inherits from '\(name)' and run again"
      }
    case .struct:
      let movedNames = Set(moved.map(\.name))
      let takesArguments = root.members.contains {
        $0.kind == .property && $0.isStored && !$0.isStatic && !movedNames.contains($0.name)
          && !($0.isLet && $0.initializerText != nil) && !$0.modifiers.contains("lazy")
      }
      return takesArguments ? "declare its init (an init of its own replaces the memberwise one) and run again" : nil
    default:
      return nil
    }
  }
}

// MARK: - Private inits

extension FinishPlanner {
  /// Makes every `private`/`fileprivate` init internal so the root can call it: its own modifier goes,
  /// and an init made private by its extension moves to an extension without one (or the extension
  /// loses its modifier when it holds nothing but such inits).
  static func widenInits(
    of declarations: [TypeDecl], to access: String, removals: inout [String: [Syntax]], plan: inout Plan,
    project: Project
  ) throws {
    // `internal` is written as no modifier at all.
    let written = access == "internal" ? "" : access + " "
    for declaration in declarations {
      let extensionIsPrivate = declaration.isExtension && (declaration.access.map { $0 <= .fileprivate } ?? false)
      let file = try project.file(declaration.path)
      let source = file.source
      var moved: [String] = []
      var movedNodes: [Syntax] = []
      var widened = false
      let inits = declaration.members.filter { $0.kind == .initializer }
      for member in inits {
        let ownPrivate = member.access.map { $0 <= .fileprivate } ?? false
        // From another module only a public init can be called.
        let tooLow = access == "public" && !extensionIsPrivate && (member.access ?? .internal) == .internal
        guard ownPrivate || (extensionIsPrivate && member.access == nil) || tooLow,
          let node = file.node(at: member.range.bytes)?.as(InitializerDeclSyntax.self)
        else { continue }
        let modifier = node.modifiers.first { AccessLevel(keyword: $0.name.text) != nil && $0.detail == nil }
        let modifierRange = modifier.map { $0.positionAfterSkippingLeadingTrivia.utf8Offset..<$0.endPosition.utf8Offset }
        plan.notes.append(Note(.changed, "init is now \(access) so the root can create the instance", at: Note.Place(line: member.location)))
        widened = true
        if extensionIsPrivate && inits.count < declaration.members.count {
          var text = source.text(member.range.bytes, replacing: modifierRange.map { [($0, written)] } ?? [])
          if modifierRange == nil { text = written + text }
          moved.append(source.indentation(at: member.range.bytes.lowerBound) + text)
          movedNodes.append(Syntax(node))
        } else if let modifierRange {
          plan.add(TextEdit(range: modifierRange, replacement: written), in: file.path)
        } else if !written.isEmpty {
          plan.add(.insert(written, at: node.initKeyword.positionAfterSkippingLeadingTrivia.utf8Offset), in: file.path)
        }
      }
      guard extensionIsPrivate,
        let node = file.node(at: declaration.range.bytes)?.as(ExtensionDeclSyntax.self),
        let modifier = node.modifiers.first(where: { AccessLevel(keyword: $0.name.text) != nil && $0.detail == nil })
      else { continue }
      if moved.isEmpty {
        // Nothing but inits: the extension's own access goes.
        guard widened, inits.count == declaration.members.count else { continue }
        let range = modifier.positionAfterSkippingLeadingTrivia.utf8Offset..<modifier.endPosition.utf8Offset
        plan.add(TextEdit(range: range, replacement: written), in: file.path)
        continue
      }
      removals[file.path, default: []].append(contentsOf: movedNodes)
      let lineEnding = source.lineEnding
      let indent = source.indentation(at: node.positionAfterSkippingLeadingTrivia.utf8Offset)
      var header = node.attributes.isEmpty ? "" : node.attributes.trimmedDescription + " "
      header += "extension " + node.extendedType.trimmedDescription
      if let clause = node.genericWhereClause { header += " " + clause.trimmedDescription }
      let text = lineEnding + lineEnding + indent + header + " {" + lineEnding
        + moved.joined(separator: lineEnding + lineEnding) + lineEnding + indent + "}"
      plan.add(.insert(text, at: node.memberBlock.rightBrace.endPositionBeforeTrailingTrivia.utf8Offset), in: file.path)
    }
    // No init declared: the implicit one is internal, and another module needs a public one.
    guard access == "public", !declarations.flatMap(\.members).contains(where: { $0.kind == .initializer }),
      let primary = declarations.first(where: { !$0.isExtension }), [.class, .struct, .actor].contains(primary.kind),
      primary.kind != .class || project.index.superclassChain(of: project.index.resolveType(primary.name)).isEmpty
    else { return }
    let file = try project.file(primary.path)
    guard let node = file.node(at: primary.range.bytes)?.asProtocol(DeclGroupSyntax.self) else { return }
    let source = file.source
    let indent = primary.members.first.map { source.indentation(at: $0.range.bytes.lowerBound) }
      ?? source.indentation(at: primary.range.bytes.lowerBound) + source.indentUnit
    plan.add(
      .insert(source.lineEnding + indent + "public init() {}" + source.lineEnding, at: node.memberBlock.leftBrace.endPositionBeforeTrailingTrivia.utf8Offset),
      in: file.path)
    plan.notes.append(Note(.changed, "init is now public so the root can create the instance", at: Note.Place(line: primary.location)))
  }
}

extension SourceText {
  /// The text of `range` with some of its sub-ranges replaced.
  func text(_ range: Range<Int>, replacing replacements: [(Range<Int>, String)]) -> String {
    var result = ""
    var position = range.lowerBound
    for (replaced, text) in replacements.sorted(by: { $0.0.lowerBound < $1.0.lowerBound })
    where replaced.lowerBound >= position && replaced.upperBound <= range.upperBound {
      result += self.text(position..<replaced.lowerBound) + text
      position = replaced.upperBound
    }
    return result + self.text(position..<range.upperBound)
  }
}
