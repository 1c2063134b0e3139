import DesingletonCore
import DesingletonIndex
import SwiftSyntax

/// A consumer that reads its protocols with `@Dependency` instead of taking them in its init
/// (`finish --container dependencies --dependency-wrapper`).
struct WrappedConsumer {
  struct Parameter {
    var parameter: FunctionParameterSyntax
    /// `self.counting = counting`, removed.
    var assignment: CodeBlockItemSyntax
    /// `private let counting: Counting`, which becomes `@Dependency(\.counting) private var counting`.
    var property: VariableDeclSyntax
    var propertyPath: String
    var propertyName: String
    var slice: ContainerDesign.Slice
  }

  /// A creation of the consumer: the arguments that go, each the accessor the root or a test passed.
  struct CallSite {
    var path: String
    var call: FunctionCallExprSyntax
    var arguments: [(argument: LabeledExprSyntax, reference: Reference, slice: ContainerDesign.Slice)]
    var isTest: Bool
  }

  var typeName: String
  var path: String
  var initializer: InitializerDeclSyntax
  var parameters: [Parameter]
  var callSites: [CallSite]
}

extension ContainerPlanner {
  /// The consumers that can read their protocols with `@Dependency`, and why each other one keeps
  /// its init parameters. A consumer qualifies when its one designated init taking protocols assigns
  /// each to a stored `let` and does nothing else with it, it has no convenience init, it is not a
  /// `Sendable` class (whose stored properties must be `let`, and a wrapped property is a `var`), it
  /// is in the root's module (the keys are internal), and every creation passes the accessor from
  /// the root or a test: those arguments go (a test's creation runs inside `withDependencies`, with
  /// the test's own instance), and a creation passing anything else (another consumer's property)
  /// keeps the consumer as it is.
  static func wrappedConsumers(
    slices: [ContainerDesign.Slice],
    singleton: Singleton,
    root: TypeDecl,
    references: [RemainingReference],
    project: Project
  ) throws -> (wrapped: [WrappedConsumer], kept: [String]) {
    let check = WrapCheck(
      sliceNamed: Dictionary(uniqueKeysWithValues: slices.map { ($0.name, $0) }), singleton: singleton,
      rootModule: project.modules.module(of: root.path), references: references,
      project: project)
    var wrapped: [WrappedConsumer] = []
    var kept: [String] = []
    // A consumer's init takes a slice: its file names one.
    for typeName in project.typeNames(inFilesMentioning: slices.map(\.name))
    where typeName != singleton.typeName && typeName != root.qualifiedName {
      switch try check.outcome(for: typeName) {
      case .wrapped(let consumer): wrapped.append(consumer)
      case .kept(let reason): kept.append("'\(typeName)' keeps its init parameters: \(reason)")
      case nil: continue
      }
    }
    return (wrapped, kept)
  }

  /// `self.name = parameter` (or `name = parameter`): the property's name.
  static func assignedProperty(_ item: CodeBlockItemSyntax, from parameter: String) -> String? {
    guard let sequence = item.item.as(SequenceExprSyntax.self), sequence.elements.count == 3 else { return nil }
    let elements = Array(sequence.elements)
    guard elements[1].is(AssignmentExprSyntax.self),
      elements[2].as(DeclReferenceExprSyntax.self)?.baseName.text == parameter
    else { return nil }
    if let member = elements[0].as(MemberAccessExprSyntax.self),
      member.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self)
    {
      return member.declName.baseName.text
    }
    return elements[0].as(DeclReferenceExprSyntax.self)?.baseName.text
  }

  /// The declaration of a stored `let` with a type and no initial value, alone in its declaration.
  static func storedLet(_ name: String, of typeName: String, project: Project) throws -> (VariableDeclSyntax, String)? {
    guard
      let member = project.index.members(of: typeName).first(where: {
        $0.kind == .property && $0.name == name && !$0.isStatic
      }),
      member.isLet, member.isStored
    else { return nil }
    let file = try project.file(member.range.path)
    guard let node = file.node(at: member.range.bytes)?.as(VariableDeclSyntax.self), node.bindings.count == 1,
      let binding = node.bindings.first, binding.initializer == nil, binding.typeAnnotation != nil
    else { return nil }
    return (node, member.range.path)
  }
}

/// Whether one type can read its protocols with `@Dependency` (`ContainerPlanner.wrappedConsumers`).
struct WrapCheck {
  enum Outcome {
    case wrapped(WrappedConsumer)
    /// It keeps its init parameters, for this reason.
    case kept(String)
  }

  let sliceNamed: [String: ContainerDesign.Slice]
  let singleton: Singleton
  let rootModule: String?
  let references: [RemainingReference]
  let project: Project
  var index: Index { project.index }

  /// Nil for a type whose inits take no protocol, or that is no candidate at all.
  func outcome(for typeName: String) throws -> Outcome? {
    guard let declaration = index.primaryDeclaration(of: typeName), [.class, .struct].contains(declaration.kind),
      !Index.isTestPath(declaration.path), !index.isTestType(typeName)
    else { return nil }
    let candidates = try initsTakingSlices(of: typeName)
    guard !candidates.isEmpty else { return nil }
    guard candidates.count == 1, let (member, initializer, taking) = candidates.first else {
      return .kept("more than one init takes the protocols")
    }
    if index.members(of: typeName).contains(where: { $0.kind == .initializer && $0.modifiers.contains("convenience") }) {
      return .kept("a convenience init forwards them")
    }
    if declaration.kind == .class
      && (index.conformances(of: typeName).contains("Sendable")
        || declaration.inherited.contains("@unchecked Sendable"))
    {
      return .kept("it is a 'Sendable' class, whose stored properties must be 'let', and '@Dependency' wraps a 'var'")
    }
    if project.modules.module(of: declaration.path) != rootModule {
      return .kept("it is in another module than the dependency keys")
    }
    guard let body = initializer.body else { return nil }
    let parameters: [WrappedConsumer.Parameter]
    switch try assignments(of: taking, in: body, typeName: typeName) {
    case .success(let found): parameters = found
    case .failure(let problem): return .kept(problem.reason)
    }
    switch try callSites(of: typeName, initializer: initializer, parameters: parameters) {
    case .success(let callSites):
      return .wrapped(
        WrappedConsumer(
          typeName: typeName, path: member.range.path, initializer: initializer, parameters: parameters,
          callSites: callSites))
    case .failure(let problem): return .kept(problem.reason)
    }
  }

  struct Problem: Error { var reason: String }

  /// The type's designated inits that take one of the slices, with those parameters.
  private func initsTakingSlices(
    of typeName: String
  ) throws -> [(MemberDecl, InitializerDeclSyntax, [FunctionParameterSyntax])] {
    var candidates: [(MemberDecl, InitializerDeclSyntax, [FunctionParameterSyntax])] = []
    for member in index.designatedInits(of: typeName) {
      let file = try project.file(member.range.path)
      guard let node = file.node(at: member.range.bytes)?.as(InitializerDeclSyntax.self) else { continue }
      // `Array` first: a syntax collection's own `filter` makes a new, detached collection.
      let taking = Array(node.signature.parameterClause.parameters).filter { parameter in
        var type = parameter.type
        if let some = type.as(SomeOrAnyTypeSyntax.self) { type = some.constraint }
        return sliceNamed[index.resolveType(type.trimmedDescription)] != nil
      }
      if !taking.isEmpty { candidates.append((member, node, Array(taking))) }
    }
    return candidates
  }

  /// Each slice parameter assigned to a stored `let` and used for nothing else in the init.
  private func assignments(
    of taking: [FunctionParameterSyntax], in body: CodeBlockSyntax, typeName: String
  ) throws -> Result<[WrappedConsumer.Parameter], Problem> {
    var parameters: [WrappedConsumer.Parameter] = []
    for parameter in taking {
      let name = (parameter.secondName ?? parameter.firstName).text
      var type = parameter.type
      if let some = type.as(SomeOrAnyTypeSyntax.self) { type = some.constraint }
      guard let slice = sliceNamed[index.resolveType(type.trimmedDescription)] else { continue }
      let uses = Array(body.statements).filter { item in
        item.tokens(viewMode: .sourceAccurate).contains { $0.text == name }
      }
      guard uses.count == 1, let assignment = uses.first,
        let property = ContainerPlanner.assignedProperty(assignment, from: name),
        let (declarationNode, propertyPath) = try ContainerPlanner.storedLet(property, of: typeName, project: project)
      else {
        return .failure(Problem(reason: "its init does not only assign '\(name)' to a stored 'let'"))
      }
      parameters.append(
        .init(
          parameter: parameter, assignment: assignment, property: declarationNode, propertyPath: propertyPath,
          propertyName: property, slice: slice))
    }
    return .success(parameters)
  }

  /// Every creation passes the accessor, from the root or a test: the arguments that go.
  private func callSites(
    of typeName: String, initializer: InitializerDeclSyntax, parameters: [WrappedConsumer.Parameter]
  ) throws -> Result<[WrappedConsumer.CallSite], Problem> {
    // Every creation, in the files naming the type and in those where a declaration elsewhere
    // gives it to `.init(...)` (`self.panel = .init(...)`, `show(.init(...))`).
    let found = try InitCallFinder.calls(of: [typeName], superclassOf: [:], project: project)
    var callSites: [WrappedConsumer.CallSite] = []
    let labels = initializer.signature.parameterClause.parameters.map {
      (label: $0.firstName.text, hasDefault: $0.defaultValue != nil)
    }
    let unnamed = try InitCallFinder.creatingFiles(of: [typeName], project: project).unnamed
    for other in found.unrewritable where other.typeName.map({ $0 == typeName }) ?? true {
      // An untold `.init(...)` that cannot call this init leaves it alone.
      if other.kind == .implicitMember,
        try !InitCallFinder.mayCreate(
          other, typeName, shapes: [(labels, [])], unnamed: unnamed[other.path]?.contains(typeName) == true, project: project)
      {
        continue
      }
      return .failure(Problem(reason: "it is created where its type is not written (\(other.path))"))
    }
    for call in found.calls {
      guard !call.isSuperInit, !call.isSelfInit,
        InitCallFinder.matches(labels: call.labels, trailingClosures: call.trailingClosures, parameters: labels)
      else { continue }
      var arguments: [(argument: LabeledExprSyntax, reference: Reference, slice: ContainerDesign.Slice)] = []
      for parameter in parameters {
        let label = parameter.parameter.firstName.text
        guard let argument = call.call.arguments.first(where: { ($0.label?.text ?? "_") == label }),
          let reference = references.first(where: { item in
            item.reference.range.path == call.path
              && item.reference.range.bytes == argument.expression.positionAfterSkippingLeadingTrivia
                .utf8Offset..<argument.expression.endPositionBeforeTrailingTrivia.utf8Offset
          })
        else {
          return .failure(Problem(reason: "\(call.path) creates it passing something else than '\(singleton.accessExpression)'"))
        }
        arguments.append((argument, reference.reference, parameter.slice))
      }
      callSites.append(
        .init(path: call.path, call: call.call, arguments: arguments, isTest: index.isInTest(arguments[0].reference)))
    }
    return .success(callSites)
  }
}
