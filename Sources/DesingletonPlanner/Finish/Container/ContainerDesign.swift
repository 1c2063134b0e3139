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
    /// Another registered type it holds in a stored property (a coordinator holding a screen): it is
    /// registered in `.graph` scope, so what it resolves in one graph is shared; nil for a type made
    /// per use, registered `.transient`, a new one each time as each `Screen(...)` was.
    var holds: String? = nil

    var scope: String { holds == nil ? ".transient" : ".graph" }
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
  var sliceOfReference: [FilePlace: String]
  /// With `--dependency-wrapper`: the consumers that read their protocols with `@Dependency`, and why
  /// the others keep their init parameters.
  var wrapped: [WrappedConsumer] = []
  var kept: [String] = []
  /// Singletons finished together (`FinishTogether.swift`): the ones its accessor needed, resolved
  /// before it is made (each local's name and type), and its properties set after creation, set in
  /// `initCompleted` (the property, the local's name and the type resolved).
  var resolved: [(name: String, type: String)] = []
  var completions: [(property: String, name: String, type: String)] = []

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
    let names = try registeredProtocols(of: singleton, index: index)
    let taken = Set(index.members(of: root.qualifiedName).map(\.name))
    let slices = names.map { ContainerDesign.Slice(name: $0, property: lowerCamel(lastComponent($0))) }

    if kind == .dependencies {
      try checkDependencyValues(names, slices: slices, singleton: singleton, root: root, taken: taken, index: index)
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
    let sliceOfReference =
      kind == .dependencies
      ? try slicesPassed(rootReferences.filter { !handled.contains($0) }, names: names, singleton: singleton, project: project) : [:]

    let rootModule = project.modules.module(of: root.path)
    let singletonModule = project.modules.module(of: singleton.declaration.path)
    let (path, assemblerName) = try generatedFile(kind, singleton: singleton, root: root, slices: slices, taken: taken, project: project)
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

  /// The protocols the container registers the instance under: the project protocols the singleton
  /// itself lists (a refined protocol's conformance comes with them), outside tests.
  static func registeredProtocols(of singleton: Singleton, index: Index) throws -> [String] {
    let catalog = ProtocolCatalog(singleton: singleton, index: index)
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
    return names
  }

  /// swift-dependencies keeps `Sendable` values, and the root's `@Dependency` properties need free names.
  static func checkDependencyValues(
    _ names: [String], slices: [ContainerDesign.Slice], singleton: Singleton, root: TypeDecl, taken: Set<String>, index: Index
  ) throws {
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

  /// With swift-dependencies the root reads each protocol on its own: the slice each of its uses of
  /// the accessor is passed as (by the byte where the use starts), or a refusal for a use passed as none.
  static func slicesPassed(
    _ references: [Reference], names: [String], singleton: Singleton, project: Project
  ) throws -> [FilePlace: String] {
    var sliceOfReference: [FilePlace: String] = [:]
    var problems: [Diagnostic] = []
    for reference in references {
      if let slice = try sliceOfArgument(reference, slices: Set(names), project: project) {
        sliceOfReference[FilePlace(path: reference.range.path, offset: reference.range.bytes.lowerBound)] = slice
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
    return sliceOfReference
  }

  /// Where the generated file goes (beside the root), the root's name for the assembler, and no clash
  /// with a file or type the project has.
  static func generatedFile(
    _ kind: ContainerKind, singleton: Singleton, root: TypeDecl, slices: [ContainerDesign.Slice], taken: Set<String>,
    project: Project
  ) throws -> (path: String, assemblerName: String) {
    let index = project.index
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
    return (path, assemblerName)
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
    // A consumer's init takes slices: its file names one.
    for typeName in project.typeNames(inFilesMentioning: slices.sorted()) where typeName != singleton.typeName {
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
    // The lifecycle the code implies: a type that holds another registered one lives with its graph.
    let registered = Set(result.map(\.typeName))
    for position in result.indices {
      let typeName = result[position].typeName
      let stored = index.declarations(of: typeName).flatMap(\.members).filter { $0.kind == .property && $0.isStored && !$0.isStatic }
      result[position].holds = stored.lazy.compactMap { index.propertyType($0.name, of: typeName) }
        .first { registered.contains($0) && $0 != typeName }
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
    // The type the call creates, as written (`Screen(…)`, `Screen.init(…)`); `.init(…)` could be any.
    var written = call.calledExpression.trimmedDescription
    if written.hasSuffix(".init") { written.removeLast(".init".count) }
    let created = written.isEmpty ? index.allTypeNames : [index.resolveType(written)]
    let found = InitCallFinder.calls(of: Set(created), superclassOf: [:], in: [file], index: index).calls
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
