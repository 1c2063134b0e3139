import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftParser
import SwiftSyntax

/// Step 10: the init each consumer gets or keeps, with the parameters it adds.
extension InjectContext {
  /// Each consumer's init: which inits gain parameters, which init is generated and how it calls
  /// `super` (the inherited designated inits call sites use, re-declared; required inits kept).
  /// Returns the consumers with their inits, and those whose init cannot take the protocols.
  func shapeInits(_ calls: [InitCall], in draft: InjectDraft) throws -> ([String: Consumer], [String: ConsumerRefusal]) {
    var consumers = draft.consumers
    var problems: [String: ConsumerRefusal] = [:]
    for typeName in draft.order {
      guard let consumer = consumers[typeName], !consumer.protocols.isEmpty else { continue }
      // A type declared once per build configuration (`#if DEBUG` ... `#else`) would get its new
      // property in one declaration only.
      let declared = consumer.declarations.filter { !$0.isExtension && $0.path == consumer.primary.path }
      if declared.count > 1 {
        problems[typeName] = ConsumerRefusal(
          .declaration,
          "'\(typeName)' is declared \(declared.count) times, once per '#if' clause, and each would need the same new properties and init; inject it by hand",
          at: declared[1].location)
        continue
      }
      do {
        consumers[typeName] = try shapeInit(consumer, calls: calls)
      } catch let refusal as ConsumerRefusal {
        problems[typeName, default: ConsumerRefusal(refusal.reason, [])].diagnostics += refusal.diagnostics
      } catch let refusal as Refusal {
        problems[typeName, default: ConsumerRefusal(.declaration, [])].diagnostics += refusal.diagnostics
      }
    }
    return (consumers, problems)
  }

  func shapeInit(_ shaped: Consumer, calls: [InitCall]) throws -> Consumer {
    var consumer = shaped
    let typeName = consumer.typeName
    if consumer.readsEnvironment {
      consumer.propertyAccess = .private
      return consumer
    }
    if consumer.propertyInjected {
      // Set from outside the type: never private.
      consumer.propertyAccess = try propertyAccess(consumer, calls: calls, privateAllowed: false)
      return consumer
    }
    try checkDefaultArgumentIsolation(consumer)
    consumer.propertyAccess = try propertyAccess(consumer, calls: calls)
    let inits = consumer.declarations.flatMap(\.members).filter { $0.kind == .initializer }
    for member in inits where try project.file(member.range.path).node(at: member.range.bytes)?.is(InitializerDeclSyntax.self) != true {
      throw ConsumerRefusal(.declaration, "cannot read this initializer", at: member.location)
    }
    // A public init cannot take an internal protocol.
    if let first = inits.first(where: { ($0.access ?? .internal) >= .public && !project.requiredInitKeepsItsSignature($0, of: typeName) }) {
      let hidden = hiddenProtocols(of: consumer)
      if !hidden.isEmpty {
        throw ConsumerRefusal(
          .declaration,
          "'\(typeName)' has a public init, which cannot take \(hidden.map { "'\($0)'" }.joined(separator: ", ")), not public; make \(hidden.count == 1 ? "it" : "them") public or the init internal first",
          at: first.location)
      }
    }
    // An init cannot take a parameter of a type less visible than itself.
    for member in inits {
      let level = min(member.access ?? .internal, .public)
      for protocolName in consumer.protocols {
        let declared = index.declarations(of: index.resolveType(protocolName)).first { $0.kind == .protocol }
        let protocolLevel = min(declared?.access ?? .internal, .public)
        if level > protocolLevel {
          throw Refusal(
            "its init is \(level.keyword), and '\(protocolName)' is \(protocolLevel.keyword), so the init cannot take it",
            at: member.location)
        }
      }
    }
    let initInPrimary = inits.contains { $0.range.path == consumer.primary.path && consumer.primary.members.contains($0) }
    if !initInPrimary {
      switch consumer.primary.kind {
      case .struct:
        let (parameters, assignments) = try memberwiseParameters(consumer, calls: calls)
        consumer.generatedInit = .memberwise(parameters: parameters, assignments: assignments)
      case .class:
        consumer.generatedInitAccess = try generatedInitAccess(consumer, calls: calls)
        let coderInit = needsCoderInit(consumer) && !inits.contains { $0.labels == ["coder"] }
        let required = try requiredInherited(consumer)
        let used = try usedInheritedInits(consumer, calls: calls)
        if used.isEmpty {
          consumer.generatedInit = .classInit(
            superCall: try superInitCall(consumer), coderInit: coderInit, required: required)
        } else {
          // Calls without arguments keep an init that takes only the injected values.
          let plain = calls.contains { $0.typeName == typeName && !$0.isSuperInit && !$0.isSelfInit && $0.labels.isEmpty && $0.trailingClosures == 0 }
          consumer.generatedInit = .classInit(
            superCall: plain ? try superInitCall(consumer) : nil, coderInit: coderInit, inherited: used, required: required)
        }
      default:
        consumer.generatedInit = .plain
      }
    }
    return consumer
  }

  /// How the consumer's new properties are declared: `private` when every use and every creation is
  /// in the type's own file; `@usableFromInline` when code other modules inline reads one (an
  /// `@inlinable`, `@_alwaysEmitIntoClient` or `@_transparent` body reads only public and
  /// `@usableFromInline` declarations), which needs the protocols public.
  func propertyAccess(_ consumer: Consumer, calls: [InitCall], privateAllowed: Bool = true) throws -> PropertyAccess {
    if let (reference, attribute) = try InlinableCode.firstUse(of: consumer.references, project: project) {
      let hidden = hiddenProtocols(of: consumer)
      guard hidden.isEmpty else {
        throw ConsumerRefusal(
          .declaration,
          "'\(consumer.typeName)' uses the instance in code other modules inline (\(attribute)), which reads its new property only if it is '@usableFromInline', and such a property cannot hold \(hidden.map { "'\($0)'" }.joined(separator: ", ")), not public; make \(hidden.count == 1 ? "it" : "them") public first",
          at: reference.location)
      }
      return .usableFromInline
    }
    let typeName = consumer.typeName
    let ownFile = privateAllowed && consumer.references.allSatisfy { $0.range.path == consumer.primary.path }
      && calls.allSatisfy { call in
        call.isSelfInit || call.context.typeName.map(index.resolveType) != typeName || call.path == consumer.primary.path
      }
    return ownFile ? .private : .internal
  }

  /// A public class created in another module reached a public init it inherited: the init it gets
  /// is `public` too, and takes only public protocols.
  func generatedInitAccess(_ consumer: Consumer, calls: [InitCall]) throws -> String {
    guard (consumer.primary.access ?? .internal) >= .public,
      let outside = calls.first(where: {
        $0.typeName == consumer.typeName && !$0.isSuperInit && !$0.isSelfInit
          && project.modules.crossesModules($0.path, consumer.primary.path)
      })
    else { return "" }
    let hidden = hiddenProtocols(of: consumer)
    if !hidden.isEmpty {
      let location = try project.file(outside.path).source.location(ofOffset: outside.call.positionAfterSkippingLeadingTrivia.utf8Offset)
      throw ConsumerRefusal(
        .declaration,
        "another module creates '\(consumer.typeName)' here, which its new init must be public for, and it cannot take \(hidden.map { "'\($0)'" }.joined(separator: ", ")), not public; make \(hidden.count == 1 ? "it" : "them") public first",
        at: location)
    }
    return "public "
  }

  /// The protocols the consumer receives that are not public: a public init cannot take them.
  func hiddenProtocols(of consumer: Consumer) -> [String] {
    consumer.protocols.filter { (index.primaryDeclaration(of: $0)?.access ?? .internal) < .public }
  }

  func checkDefaultArgumentIsolation(_ consumer: Consumer) throws {
    guard options.defaultArgument, let actor = index.isolation(of: singleton.typeName) else { return }
    if index.isolation(of: consumer.typeName) != actor {
      throw ConsumerRefusal(
        .isolation, "cannot use '\(accessExpression)' as a default argument of '\(consumer.typeName)'s init: '\(singleton.typeName)' is \(actor)-isolated and the init is not, so Swift rejects the default value (SE-0411); mark '\(consumer.typeName)' \(actor) or inject without --default-argument",
        at: consumer.primary.location)
    }
  }

  /// The `super.init(...)` a generated designated init of a class consumer ends with: the first
  /// superclass up the chain with designated inits decides. Nil for a class with no superclass.
  func superInitCall(_ consumer: Consumer) throws -> String? {
    for step in index.superclassChain(of: consumer.typeName) {
      switch step {
      case .project(let name):
        let inits = index.designatedInits(of: name)
        // A class without designated inits of its own inherits its superclass's.
        if inits.isEmpty { continue }
        if inits.contains(where: { $0.labels.isEmpty }) { return "super.init()" }
        if inits.contains(where: { $0.labels == ["nibName", "bundle"] }) { return "super.init(nibName: nil, bundle: nil)" }
        if inits.contains(where: { $0.labels == ["frame"] }) { return "super.init(frame: .zero)" }
        throw ConsumerRefusal(
          .superclassInit, "'\(consumer.typeName)' has no init and its superclass '\(name)' has no init without arguments; add an init to '\(consumer.typeName)' first",
          at: consumer.primary.location)
      case .framework(let name):
        guard let known = FrameworkTypes.class(named: name), !known.defaultSuperInit.isEmpty else {
          throw ConsumerRefusal(
            .superclassInit, "'\(consumer.typeName)' has no init and '\(name)' has no init without arguments; add an init to '\(consumer.typeName)' first",
            at: consumer.primary.location)
        }
        return known.defaultSuperInit
      case .unknown(let written):
        throw ConsumerRefusal(
          .superclassInit, "'\(consumer.typeName)' has no init and inherits from '\(written)', which is not declared in the given paths: desingleton cannot tell whether it is a class and which init to call; add an init to '\(consumer.typeName)' first or include the paths that declare '\(written)'",
          at: consumer.primary.location)
      }
    }
    return nil
  }

  /// The designated inits a class without its own inherits: those of the nearest superclass that
  /// declares some (a project class, or a framework class whose inits the table knows); empty when
  /// they cannot be told.
  func inheritedDesignatedInits(_ typeName: String) throws -> (owner: String, inits: [InheritedInit])? {
    for (position, step) in index.superclassChain(of: typeName).enumerated() {
      switch step {
      case .project(let name):
        let members = index.designatedInits(of: name).filter { !($0.modifiers.contains("required") && $0.labels == ["coder"]) }
        if index.designatedInits(of: name).isEmpty { continue }
        // A generic superclass's parameters (`init(value: T)` of `Box<T>`) are the arguments the
        // class gives it (`IntBox: Box<Int>`): known when it is the direct superclass.
        let generics = index.primaryDeclaration(of: name)?.genericParameters ?? []
        var arguments: [String: String] = [:]
        if !generics.isEmpty {
          guard position == 0, let written = index.primaryDeclaration(of: typeName)?.inherited.first,
            let given = Self.genericArguments(ofWritten: written), given.count == generics.count
          else { return nil }
          arguments = Dictionary(zip(generics, given)) { first, _ in first }
        }
        var result: [InheritedInit] = []
        for member in members where !member.modifiers.contains("private") && !member.modifiers.contains("fileprivate") {
          guard let node = try project.file(member.range.path).node(at: member.range.bytes)?.as(InitializerDeclSyntax.self) else { continue }
          result.append(inheritedInit(arguments.isEmpty ? node : GenericArguments(arguments).rewrite(node).cast(InitializerDeclSyntax.self)))
        }
        return (name, result)
      case .framework(let name):
        guard let known = FrameworkTypes.class(named: name) else { return nil }
        let inits = known.designatedInits.filter { $0 != ["coder"] }.compactMap { labels -> InheritedInit? in
          guard let written = FrameworkTypes.overridableInit(labels: labels) else { return nil }
          return InheritedInit(
            parameters: written.parameters, arguments: written.arguments, failable: "", effects: "",
            shape: labels.map { (label: $0, hasDefault: false) })
        }
        return (name, inits)
      case .unknown:
        return nil
      }
    }
    return nil
  }

  /// `Box<Int, [String]>` → `["Int", "[String]"]`; nil for a type written without them.
  static func genericArguments(ofWritten written: String) -> [String]? {
    let tree = Parser.parse(source: "let _: \(written)")
    guard let binding = tree.statements.first?.item.as(VariableDeclSyntax.self)?.bindings.first,
      let clause = binding.typeAnnotation?.type.as(IdentifierTypeSyntax.self)?.genericArgumentClause
        ?? binding.typeAnnotation?.type.as(MemberTypeSyntax.self)?.genericArgumentClause
    else { return nil }
    return clause.arguments.map { $0.argument.trimmedDescription }
  }

  func inheritedInit(_ node: InitializerDeclSyntax) -> InheritedInit {
    let parameters = node.signature.parameterClause.parameters
    let arguments = parameters.map { parameter -> String in
      let value = (parameter.secondName ?? parameter.firstName).text
      return parameter.firstName.tokenKind == .wildcard ? value : "\(parameter.firstName.text): \(value)"
    }
    let effects = node.signature.effectSpecifiers.map { " " + $0.trimmedDescription } ?? ""
    return InheritedInit(
      parameters: parameters.map { $0.trimmed.with(\.trailingComma, nil).description }.joined(separator: ", "),
      arguments: arguments.joined(separator: ", "),
      failable: node.optionalMark?.text ?? "",
      effects: effects,
      shape: parameters.map { (label: $0.firstName.text, hasDefault: $0.defaultValue != nil) },
      variadic: parameters.enumerated().compactMap { $1.ellipsis == nil ? nil : $0 })
  }

  /// The inherited designated inits (with arguments) some call site of the consumer uses. A call
  /// that reaches an inherited convenience init is refused: a class that declares a designated init
  /// no longer inherits its superclass's convenience inits.
  func usedInheritedInits(_ consumer: Consumer, calls: [InitCall]) throws -> [InheritedInit] {
    let creations = calls.filter { $0.typeName == consumer.typeName && !$0.isSelfInit && !$0.isSuperInit }
    guard creations.contains(where: { !$0.labels.isEmpty || $0.trailingClosures > 0 }),
      let (owner, inherited) = try inheritedDesignatedInits(consumer.typeName)
    else { return [] }
    var used: [InheritedInit] = []
    var problems: [Diagnostic] = []
    let ownerIsProject = index.primaryDeclaration(of: owner) != nil
    for call in creations {
      let plain = call.labels.isEmpty && call.trailingClosures == 0
      let location = { try self.project.file(call.path).source.location(ofOffset: call.call.positionAfterSkippingLeadingTrivia.utf8Offset) }
      if let match = inherited.first(where: {
        InitCallFinder.matches(labels: call.labels, trailingClosures: call.trailingClosures, parameters: $0.shape, variadic: $0.variadic)
      }) {
        if !match.variadic.isEmpty && !plain {
          problems.append(.error(Self.variadicCannotBeForwarded(owner: owner, match, consumer: consumer.typeName, "this call reaches"), at: try location()))
          continue
        }
        // A call without arguments gets the init that takes only the injected values.
        if !plain && !used.contains(match) { used.append(match) }
        continue
      }
      // `T()` of a framework class reaches its convenience `init()`, which the generated init stands for.
      if plain && !ownerIsProject { continue }
      let written = "init(\(call.labels.map { "\($0):" }.joined()))"
      problems.append(
        .error(
          "this call reaches '\(owner).\(written)', which '\(consumer.typeName)' would no longer inherit once it declares an init with the injected values; give '\(consumer.typeName)' that init first",
          at: try location()))
    }
    if !problems.isEmpty { throw ConsumerRefusal(.creationSite, problems) }
    return used
  }

  /// Why the consumer cannot declare an init that stands for `inherited`, whose variadic
  /// parameter it would pass on to `super.init`.
  static func variadicCannotBeForwarded(owner: String, _ inherited: InheritedInit, consumer: String, _ what: String) -> String {
    "\(what) '\(owner).init(\(inherited.shape.map { "\($0.label):" }.joined()))', whose variadic parameter an init of '\(consumer)' "
      + "cannot pass on to 'super.init' (Swift cannot forward variadic arguments); give '\(owner)' an init that takes an array and "
      + "'\(consumer)' one that passes it first"
  }

  /// The required inits (other than `init?(coder:)`) of the project superclasses, which a class that
  /// declares a designated init must implement.
  func requiredInherited(_ consumer: Consumer) throws -> [InheritedInit] {
    let own = consumer.declarations.flatMap(\.members).filter { $0.kind == .initializer }.map(\.labels)
    var result: [InheritedInit] = []
    var seen: Set<[String]> = []
    for step in index.superclassChain(of: consumer.typeName) {
      guard case .project(let name) = step else { break }
      for member in index.members(of: name)
      where member.kind == .initializer && member.modifiers.contains("required") && member.labels != ["coder"]
        && !own.contains(member.labels) && seen.insert(member.labels).inserted
      {
        guard let node = try project.file(member.range.path).node(at: member.range.bytes)?.as(InitializerDeclSyntax.self) else { continue }
        let required = inheritedInit(node)
        if !required.variadic.isEmpty {
          throw ConsumerRefusal(
            .superclassInit, Self.variadicCannotBeForwarded(owner: name, required, consumer: consumer.typeName, "'\(consumer.typeName)' must implement the required"),
            at: member.location)
        }
        result.append(required)
      }
    }
    return result
  }

  /// A class that gains a designated init must implement `required init?(coder:)` when a superclass requires it.
  func needsCoderInit(_ consumer: Consumer) -> Bool {
    for step in index.superclassChain(of: consumer.typeName) {
      switch step {
      case .project(let name):
        if index.members(of: name).contains(where: { $0.kind == .initializer && $0.modifiers.contains("required") && $0.labels == ["coder"] }) {
          return true
        }
      case .framework(let name):
        return FrameworkTypes.class(named: name)?.requiresCoderInit == true
      case .unknown:
        return false
      }
    }
    return false
  }

  /// The parameters and assignments of a struct's memberwise init, written out. SwiftUI's wrappers
  /// follow `ViewProperty`: `@State`/`@StateObject`/`@ObservedObject` are parameters only when
  /// callers pass them (or they have no value), `@Binding` takes a binding, the values SwiftUI
  /// provides are never parameters; a property whose initial value moves into the init is none.
  func memberwiseParameters(_ consumer: Consumer, calls: [InitCall]) throws -> ([String], [String]) {
    var parameters: [String] = []
    var assignments: [String] = []
    let file = try project.file(consumer.primary.path)
    let creations = calls.filter { $0.typeName == consumer.typeName && !$0.isSelfInit && !$0.isSuperInit }
    let passedLabels = Set(creations.flatMap(\.labels))
    let moved = Set(
      calls.filter { $0.context.typeName.map(index.resolveType) == consumer.typeName }
        .compactMap { movedInitialValue(of: $0, creator: consumer.typeName)?.name })
    let injectedNames = Set(consumer.protocols.map { consumer.name(of: $0) })
    for member in consumer.primary.members where member.kind == .property && member.isStored && !member.isStatic {
      guard let node = file.node(at: member.range.bytes)?.as(VariableDeclSyntax.self),
        let binding = node.bindings.first(where: { $0.pattern.as(IdentifierPatternSyntax.self).map { unquoted($0.identifier.text) } == member.name })
      else { continue }
      if moved.contains(member.name) { continue }
      // A `let` with an initial value is not a memberwise parameter.
      if member.isLet && binding.initializer != nil { continue }
      let wrapper = ViewProperty(node, index: index)
      // `var x: T?` with no initial value starts as nil, wrapped in `@State` or not.
      let startsNil = binding.initializer == nil && !member.isLet && binding.typeAnnotation?.type.is(OptionalTypeSyntax.self) == true
      switch wrapper {
      case .provided?: continue
      case .state?, .stateObject?, .observedObject?:
        // Its own value stays unless a caller passes one today.
        if (binding.initializer != nil || startsNil) && !passedLabels.contains(member.name) { continue }
      default: break
      }
      var type = binding.typeAnnotation?.type.trimmedDescription ?? member.typeText
      if type == nil, let value = binding.initializer?.value {
        type = RequirementBuilder(typeName: consumer.typeName, nestedTypeNames: [], isValueType: true, index: index).inferType(of: value)
          ?? InitCallFinder.writtenType(of: value, index: index)
      }
      guard let type else {
        let written = wrapper.map { _ in "wrapped property" } ?? "property"
        throw ConsumerRefusal(
          .declaration,
          "cannot tell the type of \(written) '\(member.name)' from its initial value to write '\(consumer.typeName)'s init; add a type annotation",
          at: member.location)
      }
      // A default value cannot name another parameter of the same init.
      if let value = binding.initializer?.value {
        let named = value.tokens(viewMode: .sourceAccurate).filter {
          if case .identifier = $0.tokenKind { return true } else { return false }
        }.map(\.text)
        if let clash = named.first(where: injectedNames.contains) {
          throw ConsumerRefusal(
            .declaration,
            "the initial value of '\(member.name)' names '\(clash)', which would be a parameter of the same init, so it cannot be the parameter's default value",
            at: member.location)
        }
      }
      // A closure-typed parameter must be `@escaping` to be stored; an optional one already escapes.
      let escaping = binding.typeAnnotation.map { isFunctionType($0.type) } ?? false
      var parameter: String
      var value = member.name
      switch wrapper {
      case .binding?: parameter = "\(member.name): Binding<\(type)>"
      case .stateObject?:
        parameter = "\(member.name): @autoclosure @escaping () -> \(type)"
        value = "\(member.name)()"
      default: parameter = "\(member.name): \(escaping ? "@escaping " : "")\(type)"
      }
      if let initial = binding.initializer?.value {
        parameter += " = \(initial.trimmedDescription)"
      } else if startsNil && (wrapper == nil || wrapper == .state) {
        parameter += " = nil"
      }
      parameters.append(parameter)
      assignments.append((wrapper ?? .otherWrapper("")).assignment(member.name, value))
    }
    return (parameters, assignments)
  }
}

/// Writes a generic superclass's parameters as the arguments a subclass gives them (`T` → `Int`).
private final class GenericArguments: SyntaxRewriter {
  let arguments: [String: String]

  init(_ arguments: [String: String]) {
    self.arguments = arguments
    super.init(viewMode: .sourceAccurate)
  }

  override func visit(_ node: IdentifierTypeSyntax) -> TypeSyntax {
    guard node.genericArgumentClause == nil, let argument = arguments[node.name.text] else { return super.visit(node) }
    return TypeSyntax(node.with(\.name, .identifier(argument, leadingTrivia: node.name.leadingTrivia, trailingTrivia: node.name.trailingTrivia)))
  }
}
