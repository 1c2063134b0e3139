import DesingletonCore
import DesingletonIndex
import SwiftSyntax

/// The dependency container `finish --container` hands the one instance to.
public enum ContainerKind: String, Sendable, CaseIterable {
  /// Swinject: an `Assembly` registers the instance under each slice; the root resolves it from an `Assembler`.
  case swinject
  /// swift-dependencies: a `DependencyKey` per slice; the root reads each slice with `@Dependency`.
  case dependencies

  /// The module the generated code imports.
  var module: String {
    switch self {
    case .swinject: return "Swinject"
    case .dependencies: return "Dependencies"
    }
  }
}

/// What `finish --container` writes, decided before any text: the slices the instance is registered
/// under, the consumers a Swinject container creates, what the root reads in place of each use of the
/// accessor, and the file that holds the registrations.
struct ContainerDesign {
  struct Slice {
    var name: String
    /// The `DependencyValues` property and the root's `@Dependency` property.
    var property: String
  }

  /// A type whose designated init takes only slices: a Swinject container can create it.
  struct Consumer {
    var typeName: String
    var isolation: String?
    /// Each parameter's label (`_` for none), its name and the slice it takes.
    var parameters: [(label: String, name: String, slice: String)]
  }

  var kind: ContainerKind
  var singleton: Singleton
  /// The singleton's global actor, if it has one: a Swinject factory (nonisolated) creates it inside
  /// `MainActor.assumeIsolated`.
  var isolation: String?
  /// How the instance is made (the accessor's own initializer).
  var creation: String
  var slices: [Slice]
  var consumers: [Consumer]
  /// The generated file, next to the root's file.
  var path: String
  /// The singleton's module, when the root's module must import it.
  var singletonModule: String?
  /// Swinject: the root's `Assembler` property.
  var assemblerName: String
  /// The root's property for the instance (Swinject) or, per slice, the slices it reads (dependencies).
  var instanceName: String
  /// For each use of the accessor in the root (by its byte offset), the slice it is passed as (dependencies).
  var sliceOfReference: [Int: String]
  /// With `--dependency-wrapper`: the consumers that read their protocols with `@Dependency`, and why
  /// the others keep their init parameters.
  var wrapped: [WrappedConsumer] = []
  var kept: [String] = []

  /// The uses of the accessor that go with the arguments of the wrapped consumers' creations.
  var wrappedReferences: Set<Reference> {
    Set(wrapped.flatMap(\.callSites).flatMap(\.arguments).map(\.reference))
  }

  var typeName: String { singleton.typeName }
  var assemblyName: String { singleton.simpleTypeName + "Assembly" }
  /// The slices the root reads, in the order of the slice list.
  var rootSlices: [Slice] {
    let used = Set(sliceOfReference.values)
    return slices.filter { used.contains($0.name) }
  }
}

/// Decides a `ContainerDesign` for `finish --container`.
///
/// Steps, in order: the slices (the project protocols the singleton conforms to; each one
/// `Sendable` for swift-dependencies, whose values must be); the consumers whose designated init
/// takes only slices (Swinject registers them); what each use of the accessor in the root becomes
/// (the slice the argument is passed as, read from the created type's init, for swift-dependencies);
/// the generated file's place.
enum ContainerPlanner {
  static func design(
    _ kind: ContainerKind,
    singleton: Singleton,
    root: TypeDecl,
    rootReferences: [Reference],
    creation: String,
    instanceName: String,
    wrapping: [RemainingReference]? = nil,
    project: Project
  ) throws -> ContainerDesign {
    let index = project.index
    let catalog = ProtocolCatalog(singleton: singleton, index: index)
    // Only the protocols the singleton itself lists: a refined protocol's conformance comes with them.
    let listed = Set(index.declarations(of: singleton.typeName).flatMap(\.inherited).map(index.resolveType))
    let names = catalog.entries.map(\.name).filter {
      listed.contains($0) && !Index.isTestPath(index.primaryDeclaration(of: $0)?.path ?? "")
    }
    guard !names.isEmpty else {
      throw Refusal(
        "'\(singleton.typeName)' conforms to no protocol of the project, so a container has nothing to register it under; run 'desingleton extract-protocol' first",
        at: singleton.declaration.start
      )
    }
    let taken = Set(index.members(of: root.qualifiedName).map(\.name))
    let slices = names.map { ContainerDesign.Slice(name: $0, property: lowerCamel(lastComponent($0))) }

    if kind == .dependencies {
      let notSendable = names.filter { !index.protocolIsSendable($0) }
      if !notSendable.isEmpty {
        throw Refusal(
          notSendable.map { name in
            Diagnostic.error(
              "swift-dependencies keeps values that are 'Sendable', and the protocol '\(name)' is not; make '\(singleton.typeName)' Sendable (or an actor, or isolated to a global actor) and extract its protocols again, or use --container swinject",
              at: index.primaryDeclaration(of: name)?.location ?? singleton.declaration.start
            )
          }
        )
      }
      for slice in slices where taken.contains(slice.property) {
        throw Refusal(
          "'\(root.qualifiedName)' already has a member named '\(slice.property)', which the '@Dependency' property for '\(slice.name)' would be; rename it first",
          at: root.location
        )
      }
    }

    var wrapped: [WrappedConsumer] = []
    var kept: [String] = []
    if kind == .dependencies, let wrapping {
      (wrapped, kept) = try wrappedConsumers(
        slices: slices,
        singleton: singleton,
        root: root,
        references: wrapping,
        project: project
      )
    }
    let handled = Set(wrapped.flatMap(\.callSites).flatMap(\.arguments).map(\.reference))
    var sliceOfReference: [Int: String] = [:]
    if kind == .dependencies {
      var problems: [Diagnostic] = []
      for reference in rootReferences where !handled.contains(reference) {
        if let slice = try sliceOfArgument(reference, slices: Set(names), project: project) {
          sliceOfReference[reference.range.bytes.lowerBound] = slice
        } else {
          problems.append(
            .error(
              "'\(singleton.accessExpression)' is not passed here to a parameter typed as one of its protocols, and with swift-dependencies the root reads each protocol on its own; pass it to an init that takes a protocol, or use --container swinject",
              at: reference.location
            )
          )
        }
      }
      if !problems.isEmpty { throw Refusal(problems) }
    }

    let rootModule = project.modules.module(of: root.path)
    let singletonModule = project.modules.module(of: singleton.declaration.path)
    let directory = root.path.split(separator: "/").dropLast().joined(separator: "/")
    let fileName = singleton.simpleTypeName + (kind == .swinject ? "Assembly" : "Dependencies") + ".swift"
    let path = directory.isEmpty ? fileName : directory + "/" + fileName
    if project.index.allPaths.contains(path) {
      throw Refusal("'\(path)' exists already; move it away or remove it, and run again")
    }
    var assemblerName = "assembler"
    if taken.contains(assemblerName) { assemblerName = lowerCamel(singleton.simpleTypeName) + "Assembler" }
    // The types the file declares must be new names.
    let declared =
      kind == .swinject ? [singleton.simpleTypeName + "Assembly"] : slices.map { lastComponent($0.name) + "Key" }
    for name in declared where !index.types(named: name).isEmpty {
      throw Refusal("the project has a type named '\(name)', which '\(path)' would declare; rename it first")
    }
    // A factory or a live value made outside any actor reaches the main actor through
    // `MainActor.assumeIsolated`; another global actor has no such door.
    if let isolation = index.isolation(of: singleton.typeName), isolation != "@MainActor" {
      throw Refusal(
        "'\(singleton.typeName)' is isolated to '\(isolation)', and the container creates it outside any actor, where only the main actor can be assumed; make it '@MainActor' or 'Sendable'",
        at: index.primaryDeclaration(of: singleton.typeName)?.location ?? singleton.declaration.start
      )
    }

    return ContainerDesign(
      kind: kind,
      singleton: singleton,
      isolation: index.isolation(of: singleton.typeName),
      creation: creation,
      slices: slices,
      consumers: kind == .swinject
        ? try consumers(of: Set(names), singleton: singleton, root: root, project: project) : [],
      path: path,
      singletonModule: project.modules.crossesModules(root.path, singleton.declaration.path)
        && singletonModule != rootModule ? singletonModule : nil,
      assemblerName: assemblerName,
      instanceName: instanceName,
      sliceOfReference: sliceOfReference,
      wrapped: wrapped,
      kept: kept
    )
  }

  /// Types outside tests whose designated init takes only slices, at least one: what the container
  /// can create by resolving each slice.
  static func consumers(
    of slices: Set<String>,
    singleton: Singleton,
    root: TypeDecl,
    project: Project
  ) throws -> [ContainerDesign.Consumer] {
    let index = project.index
    var result: [ContainerDesign.Consumer] = []
    for typeName in index.allTypeNames where typeName != singleton.typeName {
      guard let declaration = index.primaryDeclaration(of: typeName),
        [.class, .struct, .actor].contains(declaration.kind),
        !Index.isTestPath(declaration.path), !index.isTestType(typeName), index.systemCreation(of: typeName) == nil,
        // The assembly, in the root's module, names the type: not a private one, not one of another module.
        declaration.access != .private, declaration.access != .fileprivate,
        project.modules.module(of: declaration.path) == project.modules.module(of: root.path),
        try !isGeneric(declaration, project: project),
        // Created where only the main actor can be assumed.
        index.isolation(of: typeName).map({ $0 == "@MainActor" }) ?? true
      else { continue }
      for member in index.designatedInits(of: typeName)
      where !member.isFailable && member.access != .private && member.access != .fileprivate {
        guard let parameters = try initParameters(member, project: project), !parameters.isEmpty,
          parameters.allSatisfy({ !$0.hasDefault && slices.contains(index.resolveType($0.type)) })
        else { continue }
        result.append(
          ContainerDesign.Consumer(
            typeName: typeName,
            isolation: index.isolation(of: typeName),
            parameters: parameters.map { ($0.label, $0.name, index.resolveType($0.type)) }
          )
        )
        break
      }
    }
    return result
  }

  /// A generic type cannot be registered without its arguments.
  static func isGeneric(_ declaration: TypeDecl, project: Project) throws -> Bool {
    let node = try project.file(declaration.path).node(at: declaration.range.bytes)
    if let type = node?.as(ClassDeclSyntax.self) { return type.genericParameterClause != nil }
    if let type = node?.as(StructDeclSyntax.self) { return type.genericParameterClause != nil }
    if let type = node?.as(ActorDeclSyntax.self) { return type.genericParameterClause != nil }
    return false
  }

  /// An init's parameters as written: label (`_` for none), internal name, type without `any`, and
  /// whether it has a default.
  static func initParameters(
    _ member: MemberDecl,
    project: Project
  ) throws -> [(label: String, name: String, type: String, hasDefault: Bool)]? {
    let file = try project.file(member.range.path)
    guard let node = file.node(at: member.range.bytes)?.as(InitializerDeclSyntax.self),
      node.genericParameterClause == nil
    else { return nil }
    return node.signature.parameterClause.parameters.map { parameter in
      var type = parameter.type
      if let some = type.as(SomeOrAnyTypeSyntax.self) { type = some.constraint }
      return (
        parameter.firstName.text, (parameter.secondName ?? parameter.firstName).text, type.trimmedDescription,
        parameter.defaultValue != nil
      )
    }
  }

  /// The slice a use of the accessor is passed as: the type of the parameter it is the argument of,
  /// in the created type's init that the call's labels choose.
  static func sliceOfArgument(_ reference: Reference, slices: Set<String>, project: Project) throws -> String? {
    let index = project.index
    let file = try project.file(reference.range.path)
    guard let expression = file.expression(at: reference.range.bytes),
      let argument = expression.parent?.as(LabeledExprSyntax.self),
      let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self)
    else { return nil }
    let found = InitCallFinder.calls(of: Set(index.allTypeNames), superclassOf: [:], in: [file], index: index).calls
    guard let creation = found.first(where: { $0.call.id == call.id }) else { return nil }
    let position = call.arguments.firstIndex { $0.id == argument.id }.map {
      call.arguments.distance(from: call.arguments.startIndex, to: $0)
    }
    for member in index.designatedInits(of: creation.typeName)
      + index.members(of: creation.typeName).filter({ $0.modifiers.contains("convenience") })
    {
      guard let parameters = try initParameters(member, project: project),
        InitCallFinder.matches(
          labels: creation.labels,
          trailingClosures: creation.trailingClosures,
          parameters: parameters.map { ($0.label, $0.hasDefault) }
        )
      else { continue }
      // Arguments fill parameters in order, skipping parameters with defaults whose label is not written.
      var next = 0
      for (offset, written) in creation.labels.enumerated() {
        while next < parameters.count, parameters[next].label != written, parameters[next].hasDefault { next += 1 }
        guard next < parameters.count else { return nil }
        if offset == position {
          let type = index.resolveType(parameters[next].type)
          return slices.contains(type) ? type : nil
        }
        next += 1
      }
    }
    return nil
  }
}

/// `B` of `A.B`: a nested protocol's key and property take its own name.
func lastComponent(_ qualifiedName: String) -> String {
  qualifiedName.split(separator: ".").last.map(String.init) ?? qualifiedName
}

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
    let index = project.index
    let sliceNamed = Dictionary(uniqueKeysWithValues: slices.map { ($0.name, $0) })
    let rootModule = project.modules.module(of: root.path)
    let files = try index.files.map(\.path).filter { $0.hasSuffix(".swift") }.map { try project.file($0) }
    var wrapped: [WrappedConsumer] = []
    var kept: [String] = []
    for typeName in index.allTypeNames where typeName != singleton.typeName && typeName != root.qualifiedName {
      guard let declaration = index.primaryDeclaration(of: typeName), [.class, .struct].contains(declaration.kind),
        !Index.isTestPath(declaration.path), !index.isTestType(typeName)
      else { continue }
      let inits = index.designatedInits(of: typeName)
      var candidates: [(MemberDecl, InitializerDeclSyntax, [FunctionParameterSyntax])] = []
      for member in inits {
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
      guard !candidates.isEmpty else { continue }
      func keep(_ reason: String) { kept.append("'\(typeName)' keeps its init parameters: \(reason)") }
      guard candidates.count == 1, let (member, initializer, taking) = candidates.first else {
        keep("more than one init takes the protocols")
        continue
      }
      if index.members(of: typeName).contains(where: { $0.kind == .initializer && $0.modifiers.contains("convenience") }
      ) {
        keep("a convenience init forwards them")
        continue
      }
      if declaration.kind == .class
        && (index.conformances(of: typeName).contains("Sendable")
          || declaration.inherited.contains("@unchecked Sendable"))
      {
        keep("it is a 'Sendable' class, whose stored properties must be 'let', and '@Dependency' wraps a 'var'")
        continue
      }
      if project.modules.module(of: declaration.path) != rootModule {
        keep("it is in another module than the dependency keys")
        continue
      }
      guard let body = initializer.body else { continue }
      var parameters: [WrappedConsumer.Parameter] = []
      var problem: String?
      for parameter in taking {
        let name = (parameter.secondName ?? parameter.firstName).text
        var type = parameter.type
        if let some = type.as(SomeOrAnyTypeSyntax.self) { type = some.constraint }
        guard let slice = sliceNamed[index.resolveType(type.trimmedDescription)] else { continue }
        let uses = Array(body.statements).filter { item in
          item.tokens(viewMode: .sourceAccurate).contains { $0.text == name }
        }
        guard uses.count == 1, let assignment = uses.first, let property = assignedProperty(assignment, from: name),
          let (declarationNode, propertyPath) = try storedLet(property, of: typeName, project: project)
        else {
          problem = "its init does not only assign '\(name)' to a stored 'let'"
          break
        }
        parameters.append(
          .init(
            parameter: parameter,
            assignment: assignment,
            property: declarationNode,
            propertyPath: propertyPath,
            propertyName: property,
            slice: slice
          )
        )
      }
      if let problem {
        keep(problem)
        continue
      }
      // Every creation passes the accessor, from the root or a test.
      let found = InitCallFinder.calls(of: [typeName], superclassOf: [:], in: files, index: index)
      if let other = found.unrewritable.first {
        keep("it is created where its type is not written (\(other.path))")
        continue
      }
      var callSites: [WrappedConsumer.CallSite] = []
      let labels = initializer.signature.parameterClause.parameters.map {
        (label: $0.firstName.text, hasDefault: $0.defaultValue != nil)
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
            problem = "\(call.path) creates it passing something else than '\(singleton.accessExpression)'"
            break
          }
          arguments.append((argument, reference.reference, parameter.slice))
        }
        if problem != nil { break }
        callSites.append(
          .init(path: call.path, call: call.call, arguments: arguments, isTest: index.isInTest(arguments[0].reference))
        )
      }
      if let problem {
        keep(problem)
        continue
      }
      wrapped.append(
        WrappedConsumer(
          typeName: typeName,
          path: member.range.path,
          initializer: initializer,
          parameters: parameters,
          callSites: callSites
        )
      )
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
