import DesingletonCore
import DesingletonIndex
import SwiftSyntax

/// A static method that creates consumers (`enum ScreenFactory { static func makeList() -> ListScreen }`):
/// it cannot hold injected properties, so it takes what the consumers it creates need as
/// parameters, first in its parameter list, and every call of it passes them, from the caller's own
/// properties, or the accessor where the caller is a composition root or a test.
struct Factory {
  /// The type that declares the method.
  var owner: String
  /// The method's name as the code calls it.
  var name: String
  var declaration: FunctionDeclSyntax
  var path: String
  /// The consumers it creates.
  var created: Set<String>
  /// The protocols it takes, in catalog order, each as a parameter of that name.
  var protocols: [String] = []
  /// Every call of it in the project.
  var calls: [InitCall] = []

  /// Identifies the method: its file and where its declaration starts.
  var key: String { "\(path):\(declaration.positionAfterSkippingLeadingTrivia.utf8Offset)" }
  var title: String { "\(owner).\(name)" }

  func parameterName(_ protocolName: String) -> String { lowerCamel(protocolName) }

  /// Whether `call` is made inside this method.
  func contains(_ call: InitCall) -> Bool {
    call.path == path && declaration.trimmedByteRange.contains(call.call.positionAfterSkippingLeadingTrivia.utf8Offset)
  }
}

/// A call of a factory and what it passes, first in its arguments.
struct FactorySite {
  var factory: String
  var call: InitCall
  var arguments: [String]
  var captured: [String]
}

/// Step 7: the static methods that create consumers.
extension InjectContext {
  /// The static methods that create consumers and can take what those need as parameters: each is
  /// a member of a project type, not `public`, `open`, `@objc`, `class` or `dynamic`, the only
  /// method of its name in its type, and every mention of its name in the project is a call of it
  /// (`Factory.make()`, `Self.make()`, or `make()` in the type's static code) made where the
  /// arguments can come from: a test, a composition root, a type that creates consumers and holds
  /// what it hands down, or the method itself. Any other mention leaves the method as it is, and its
  /// creations pass the accessor.
  /// `leavingAlone`: factories an earlier attempt found one of whose calls cannot pass the parameters.
  func findFactories(
    _ calls: [InitCall], in draft: InjectDraft, promoting: Bool = false, leavingAlone unthreaded: Set<String> = []
  ) throws -> [String: Factory] {
    var found: [String: Factory] = [:]
    func add(_ call: InitCall) -> String? {
      guard let owner = call.context.typeName.map(index.resolveType), let declaration = Self.memberFunction(around: Syntax(call.call)) else {
        return nil
      }
      let factory = Factory(owner: owner, name: declaration.name.text, declaration: declaration, path: call.path, created: [])
      if found[factory.key] == nil { found[factory.key] = factory }
      return factory.key
    }
    // The methods that create consumers, and what each creates itself.
    var direct: [String: Set<String>] = [:]
    for call in calls where call.context.isStatic && !call.isSelfInit && !call.isSuperInit && !call.context.inPropertyInitializer {
      guard draft.consumers[call.typeName] != nil, let key = add(call) else { continue }
      direct[key, default: []].insert(call.typeName)
    }
    // A static method that calls one of them creates what it creates: it is one too.
    var pending = Array(found.keys)
    while let key = pending.popLast() {
      guard var factory = found[key], factory.calls.isEmpty, !unthreaded.contains(key), try canTakeParameters(factory),
        let calls = try callsOf(factory)
      else { continue }
      factory.calls = calls
      found[key] = factory
      for call in calls where call.context.isStatic && !call.context.inPropertyInitializer && !factory.contains(call) {
        guard let caller = add(call), found[caller]?.calls.isEmpty == true else { continue }
        pending.append(caller)
      }
    }
    // Keep those whose every call can pass the parameters, until none is dropped.
    var kept = found.filter { !$0.value.calls.isEmpty }
    while true {
      for key in kept.keys {
        kept[key]?.created = direct[key] ?? []
      }
      var grew = true
      while grew {
        grew = false
        for factory in kept.values {
          for call in factory.calls where call.context.isStatic && !factory.contains(call) {
            guard let caller = kept.first(where: { $0.value.contains(call) })?.key,
              !factory.created.isSubset(of: kept[caller]?.created ?? [])
            else { continue }
            kept[caller]?.created.formUnion(factory.created)
            grew = true
          }
        }
      }
      let dropped = try kept.filter { try !callersCanPass($0.value, among: kept, in: draft, promoting: promoting) }.map(\.key)
      if dropped.isEmpty { return kept }
      for key in dropped { kept[key] = nil }
    }
  }

  /// The `static func` a node is in, when it is a member of a type (a local function inside one counts as it).
  static func memberFunction(around node: Syntax) -> FunctionDeclSyntax? {
    var current = node.parent
    var found: FunctionDeclSyntax?
    while let syntax = current {
      if let function = syntax.as(FunctionDeclSyntax.self), syntax.parent?.is(MemberBlockItemSyntax.self) == true {
        found = function
        break
      }
      if syntax.is(MemberBlockItemSyntax.self) && syntax.as(MemberBlockItemSyntax.self)?.decl.is(FunctionDeclSyntax.self) != true {
        return nil
      }
      current = syntax.parent
    }
    guard let found, found.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) }) else { return nil }
    return found
  }

  /// The method's own shape lets parameters be added: a struct's, enum's, final class's or actor's
  /// static method, callable only from this project, overriding and witnessing nothing.
  func canTakeParameters(_ factory: Factory) throws -> Bool {
    let function = factory.declaration
    guard let primary = index.primaryDeclaration(of: factory.owner), [.struct, .enum, .class, .actor].contains(primary.kind) else {
      return false
    }
    let closed: Set<Keyword> = [.public, .open, .package, .override, .dynamic, .class]
    if function.modifiers.contains(where: { if case .keyword(let word) = $0.name.tokenKind { return closed.contains(word) } else { return false } }) {
      return false
    }
    if function.attributes.contains(where: { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription.hasPrefix("objc") ?? true }) {
      return false
    }
    // One method of that name in the type, and none in the protocols it adopts.
    let sameName = index.members(of: factory.owner).filter { $0.kind == .method && $0.name == factory.name }
    if sameName.count != 1 { return false }
    for declaration in index.declarations(of: factory.owner) {
      for inherited in declaration.inherited.map(index.resolveType) {
        if index.members(of: inherited).contains(where: { $0.name == factory.name }) { return false }
      }
    }
    // The new parameters' names are free.
    let taken = Set(function.signature.parameterClause.parameters.flatMap { [$0.firstName.text, ($0.secondName ?? $0.firstName).text] })
    return !catalog.entries.contains { taken.contains(factory.parameterName($0.name)) }
  }

  /// Whether every call of the factory can pass what it takes: from a test, a composition root, a
  /// consumer (which holds the protocols, or is given them because it creates through the factory),
  /// or a factory among `factories` (itself included). Elsewhere the accessor would only move from the factory to its caller.
  /// While creators are promoted (`promoting`), a caller that is none of these may still become one.
  func callersCanPass(_ factory: Factory, among factories: [String: Factory], in draft: InjectDraft, promoting: Bool) throws -> Bool {
    if factory.created.isEmpty { return false }
    // A method only tests call, or nothing in the project does, is where the instance comes from,
    // as a type only tests create is a composition root.
    let inTest = { (call: InitCall) in index.isInTest(path: call.path, enclosingType: call.context.typeName.map(index.resolveType)) }
    let outsideTests = factory.calls.filter { !factory.contains($0) && !inTest($0) }
    if outsideTests.isEmpty { return false }
    for call in factory.calls {
      if call.context.isStatic {
        if factories.values.contains(where: { $0.contains(call) }) { continue }
        return false
      }
      if inTest(call) { continue }
      if call.context.inPropertyInitializer || isInParameterDefault(Syntax(call.call)) { return false }
      guard let creator = call.context.typeName.map(index.resolveType) else { return false }
      if creator == singleton.typeName || draft.readsEnvironmentOrConfigured(creator) { return false }
      if draft.consumers[creator] != nil && draft.order.contains(creator) { continue }
      if try !isCreatedOutsideTests(creator) { continue }
      if !promoting { return false }
    }
    return true
  }

  /// Every call of the method, or nil when its name is mentioned somewhere that is not one.
  /// Worked out once per project: the designer asks again each time it plans.
  func callsOf(_ factory: Factory) throws -> [InitCall]? {
    try project.answer("calls of the static method at \(factory.key)") { try findCallsOf(factory).map { [$0] } ?? [] }.first
  }

  private func findCallsOf(_ factory: Factory) throws -> [InitCall]? {
    var calls: [InitCall] = []
    for path in project.paths(naming: [factory.name]) {
      let file = try project.file(path)
      for use in IdentifierTokens.spelled(factory.name, in: file) {
        if path == factory.path && use.id == factory.declaration.name.id { continue }
        let context = ReferenceContextFinder.context(of: Syntax(use))
        let enclosing = context.typeName.map(index.resolveType)
        let inOwner = enclosing == factory.owner
        // Code that can name the method without its type: the type's own, its nested types' and
        // its subclasses'.
        let seesBareName = enclosing.map { inOwner || $0.hasPrefix(factory.owner + ".") || inherits($0, from: factory.owner) } ?? false
        guard let reference = use.parent?.as(DeclReferenceExprSyntax.self) else {
          // An argument label is no use; a parameter or a local of that name where the bare name
          // could mean the method would hide it.
          if use.parent?.is(LabeledExprSyntax.self) == true || !seesBareName { continue }
          return nil
        }
        var called = ExprSyntax(reference)
        if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id {
          guard let base = member.base else { return nil }
          let written = base.trimmedDescription
          if written == "Self" || written == "self" {
            guard inOwner && context.isStatic else { return nil }
          } else {
            let resolved = index.resolveType(written)
            if resolved != factory.owner {
              // Another project type's own member of that name; any other base (a value,
              // `type(of:)`, a subclass) may reach the method.
              guard index.primaryDeclaration(of: resolved) != nil, !inherits(resolved, from: factory.owner),
                index.members(of: resolved).contains(where: { $0.name == factory.name })
              else { return nil }
              continue
            }
          }
          called = ExprSyntax(member)
        } else if !(inOwner && context.isStatic) {
          // Outside the type's static code a bare name is a free function, a local or an instance
          // member, except where the type's nested types and subclasses can name the method.
          if seesBareName && !inOwner { return nil }
          continue
        } else if LocalBindingFinder.declares(factory.name, before: Syntax(reference)) {
          return nil
        }
        guard let call = called.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == called.id else { return nil }
        let labels = call.arguments.map { $0.label?.text ?? "_" }
        let trailing = (call.trailingClosure == nil ? 0 : 1) + call.additionalTrailingClosures.count
        calls.append(
          InitCall(path: path, call: call, typeName: factory.key, isSuperInit: false, labels: labels, trailingClosures: trailing, context: context))
      }
    }
    return calls
  }

  /// Whether `type` is a subclass of `ancestor`, through the project's classes.
  func inherits(_ type: String, from ancestor: String) -> Bool {
    index.superclassChain(of: type).contains { if case .project(let name) = $0 { return name == ancestor } else { return false } }
  }

  /// The creations the factories stand for: each call of a factory made where it can pass values,
  /// once for each consumer the factory creates, as if the caller created that consumer itself.
  func forwardedCreations(_ calls: [InitCall], through factories: [String: Factory]) -> [InitCall] {
    factories.values.sorted { $0.key < $1.key }.flatMap { factory in
      factory.calls.filter { !$0.context.isStatic }.flatMap { call in
        factory.created.sorted().map { created in
          var forwarded = call
          forwarded.typeName = created
          return forwarded
        }
      }
    }
  }
}

/// Every identifier token spelled `name` (or `` `name` ``), in source order: the tokens where the
/// file's bytes hold `name` as a whole word, not a walk of every node.
enum IdentifierTokens {
  static func spelled(_ name: String, in file: ParsedFile) -> [TokenSyntax] {
    let word = Array(name.utf8).filter { $0 != UInt8(ascii: "`") }
    let offsets = wordOccurrences(of: [word], in: file.source.bytes)
    return ReferenceCollector.tokens(at: offsets, in: Syntax(file.tree)).filter { token in
      if case .identifier(let text) = token.tokenKind { return text == name || text == "`\(name)`" }
      return false
    }
  }
}
