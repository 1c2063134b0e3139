import DesingletonCore
import DesingletonIndex
import SwiftSyntax

/// Turns a `ContainerDesign` into text: the registrations file, the root's properties, what each use
/// of the accessor in the root becomes, and the root file's import.
///
/// ## After (`finish --root AppRoot --container swinject`)
/// ```swift
/// struct NoteStoreAssembly: Assembly {
///   func assemble(container: Container) {
///     container.register(NoteStore.self) { _ in
///       MainActor.assumeIsolated { NoteStore() }
///     }
///     .implements(CurrentNotes.self, CountProvider.self)
///     .inObjectScope(.container)
///     container.register(NoteBadge.self) { resolver in
///       let countProvider = resolver.resolve(CountProvider.self)!
///       return MainActor.assumeIsolated { NoteBadge(countProvider: countProvider) }
///     }
///   }
/// }
/// final class AppRoot {
///   private let assembler = Assembler([NoteStoreAssembly()])
///   private var noteStore: NoteStore { assembler.resolver.resolve(NoteStore.self)! }
/// }
/// ```
/// ## After (`finish --root AppEnvironment --container dependencies`)
/// ```swift
/// private let livePreferences = Preferences()
/// enum UserNameProvidingKey: DependencyKey {
///   static let liveValue: any UserNameProviding = livePreferences
///   static var testValue: any UserNameProviding { liveValue }
/// }
/// extension DependencyValues {
///   var userNameProviding: any UserNameProviding { ... self[UserNameProvidingKey.self] ... }
/// }
/// struct AppEnvironment {
///   @Dependency(\.userNameProviding) private var userNameProviding
/// }
/// ```
struct ContainerWriter {
  var design: ContainerDesign
  /// The root file's indentation unit and line ending, which the new file takes too.
  let unit: String
  let lineEnding: String
  /// The access of the root's properties the root's code reads (`PropertyAccess.of`).
  var propertyAccess = PropertyAccess.private

  /// Swinject's type forwarding takes at most nine types per call.
  static let implementsLimit = 9

  // MARK: The root

  /// The root's stored properties, one a line, without indentation.
  var rootProperties: [String] {
    switch design.kind {
    case .swinject:
      return [
        "private let \(design.assemblerName) = Assembler([\(design.assemblyName)()])",
        "\(propertyAccess.written)var \(design.instanceName): \(design.typeName) { \(resolution) }",
      ]
    case .dependencies:
      return design.rootSlices.map { "@Dependency(\\.\($0.property)) \(propertyAccess.written)var \($0.property)" }
    }
  }

  private var resolution: String {
    "\(design.assemblerName).resolver.resolve(\(design.typeName).self)!"
  }

  /// What a use of the accessor in one of the root's members becomes.
  func replacement(for reference: Reference) -> String {
    switch design.kind {
    case .swinject: return design.instanceName
    case .dependencies: return slice(of: reference)?.property ?? design.instanceName
    }
  }

  /// What a use in a stored property's initial value becomes once it is assigned in an init, where
  /// the root's computed and wrapped properties cannot be read yet.
  func replacementInInit(for reference: Reference) -> String {
    switch design.kind {
    case .swinject: return resolution
    case .dependencies:
      return slice(of: reference).map { "Dependency(\\.\($0.property)).wrappedValue" } ?? design.instanceName
    }
  }

  private func slice(of reference: Reference) -> ContainerDesign.Slice? {
    design.sliceOfReference[FilePlace(path: reference.range.path, offset: reference.range.bytes.lowerBound)].flatMap { name in design.slices.first { $0.name == name }
    }
  }

  /// `import Swinject` (or `Dependencies`) in the root's file, after its last import, else above its
  /// first declaration and that declaration's doc comment.
  func importEdit(in file: ParsedFile) -> TextEdit? {
    let statements = file.tree.statements
    let imports = statements.compactMap { $0.item.as(ImportDeclSyntax.self) }
    if imports.contains(where: { $0.path.trimmedDescription == design.kind.module }) { return nil }
    let line = "import \(design.kind.module)"
    if let last = imports.last {
      return .insert(lineEnding + line, at: last.endPositionBeforeTrailingTrivia.utf8Offset)
    }
    guard let first = statements.first else { return .insert(line + lineEnding, at: 0) }
    var start = first.positionAfterSkippingLeadingTrivia.utf8Offset
    var offset = first.position.utf8Offset
    for piece in first.leadingTrivia {
      if case .docLineComment = piece { start = min(start, offset) }
      if case .docBlockComment = piece { start = min(start, offset) }
      offset += piece.sourceLength.utf8Length
    }
    return .insert(line + lineEnding + lineEnding, at: start)
  }

  /// The summary's closing line.
  func summary(root: String) -> String {
    let access = "'\(design.singleton.accessExpression)' removed; "
    switch design.kind {
    case .swinject:
      let consumers =
        design.consumers.isEmpty
        ? "" : " and creates \(design.consumers.map { "'\($0.typeName)'" }.joined(separator: ", ")) from them"
      return access
        + "'\(design.path)' registers the one instance under \(design.slices.map { "'\($0.name)'" }.joined(separator: ", "))\(consumers); '\(root)' resolves it from '\(design.assemblerName)'"
    case .dependencies:
      let reads =
        design.rootSlices.isEmpty
        ? "reads none of them itself"
        : "reads \(design.rootSlices.map { "'\($0.property)'" }.joined(separator: ", ")) with @Dependency"
      return access
        + "'\(design.path)' makes the one instance the live value of \(design.slices.map { "'\\.\($0.property)'" }.joined(separator: ", ")); '\(root)' \(reads)"
    }
  }

  // MARK: Consumers reading `@Dependency`

  /// The edits that turn each wrapped consumer's init parameters into `@Dependency` properties and
  /// drop the arguments from its creations: the root's simply go; a test's creation runs inside
  /// `withDependencies`, setting each protocol to `value(reference)` (the test's own instance).
  func wrapperEdits(value: (Reference) -> String, project: Project) throws -> [(path: String, edit: TextEdit)] {
    var edits: [(path: String, edit: TextEdit)] = []
    var importing: Set<String> = []
    func addImport(_ path: String) throws {
      guard importing.insert(path).inserted, let edit = importEdit(in: try project.file(path)) else { return }
      edits.append((path, edit))
    }
    for consumer in design.wrapped {
      let file = try project.file(consumer.path)
      try addImport(consumer.path)
      for parameter in consumer.parameters {
        let property = parameter.property
        let modifiers = property.modifiers.trimmedDescription
        let text =
          "@Dependency(\\.\(parameter.slice.property)) " + (modifiers.isEmpty ? "" : modifiers + " ")
          + "var \(parameter.propertyName)"
        let range =
          property.positionAfterSkippingLeadingTrivia.utf8Offset..<property.endPositionBeforeTrailingTrivia.utf8Offset
        edits.append((parameter.propertyPath, TextEdit(range: range, replacement: text)))
      }
      let removed = Set(consumer.parameters.map(\.parameter.position))
      let parameters = consumer.initializer.signature.parameterClause.parameters
      let keptParameters = Array(parameters).filter { !removed.contains($0.position) }.map {
        $0.with(\.trailingComma, nil).trimmedDescription
      }
      edits.append(
        (
          consumer.path,
          TextEdit(
            range: parameters.position.utf8Offset..<parameters.endPosition.utf8Offset,
            replacement: keptParameters.joined(separator: ", ")
          )
        )
      )
      edits += assignmentRemovals(consumer, in: file).map { (consumer.path, $0) }
      for site in consumer.callSites {
        let going = Set(site.arguments.map(\.argument.position))
        let arguments = site.call.arguments
        let keptArguments = Array(arguments).filter { !going.contains($0.position) }.map {
          $0.with(\.trailingComma, nil).trimmedDescription
        }
        let argumentRange = arguments.position.utf8Offset..<arguments.endPosition.utf8Offset
        if !site.isTest {
          edits.append((site.path, TextEdit(range: argumentRange, replacement: keptArguments.joined(separator: ", "))))
          continue
        }
        try addImport(site.path)
        let source = try project.file(site.path).source
        let start = site.call.positionAfterSkippingLeadingTrivia.utf8Offset
        let end = site.call.endPositionBeforeTrailingTrivia.utf8Offset
        let created =
          source.text(start..<argumentRange.lowerBound) + keptArguments.joined(separator: ", ")
          + source.text(argumentRange.upperBound..<end)
        let settings = site.arguments.map { "$0.\($0.slice.property) = \(value($0.reference))" }.joined(separator: "; ")
        edits.append(
          (
            site.path,
            TextEdit(range: start..<end, replacement: "withDependencies { \(settings) } operation: { \(created) }")
          )
        )
      }
    }
    return edits
  }

  /// The init's assignments of the parameters that go: its whole body when that is all it holds.
  private func assignmentRemovals(_ consumer: WrappedConsumer, in file: ParsedFile) -> [TextEdit] {
    guard let body = consumer.initializer.body else { return [] }
    let assignments = consumer.parameters.map(\.assignment)
    if assignments.count == body.statements.count {
      let range = body.leftBrace.endPosition.utf8Offset..<body.rightBrace.positionAfterSkippingLeadingTrivia.utf8Offset
      return [TextEdit(range: range, replacement: "")]
    }
    return file.source.removalRanges(of: assignments.map { Syntax($0) }).map { TextEdit(range: $0, replacement: "") }
  }

  // MARK: The registrations file

  var fileText: String {
    var lines: [String] = ["import \(design.kind.module)"]
    if let module = design.singletonModule { lines.append("import \(module)") }
    lines.append("")
    switch design.kind {
    case .swinject: lines += assemblyLines
    case .dependencies: lines += dependencyLines
    }
    return lines.joined(separator: lineEnding) + lineEnding
  }

  private func created(_ expression: String, isolation: String?) -> String {
    guard let isolation else { return expression }
    return "\(isolation.dropFirst()).assumeIsolated { \(expression) }"
  }

  private var assemblyLines: [String] {
    var lines = [
      "/// Registers the one '\(design.typeName)' once (`.container` scope) under each of its protocols, and the",
      "/// types that receive them, each resolving its protocols: a double registered for a protocol after",
      "/// this assembly replaces it.",
    ]
    // The lifecycle of each type it creates, as the code implied it.
    let perUse = design.consumers.filter { $0.holds == nil }.map { "'\($0.typeName)'" }
    if !perUse.isEmpty {
      lines.append("/// \(perUse.joined(separator: ", ")): made per use in the code, so `.transient`, a new one each time.")
    }
    for consumer in design.consumers {
      guard let held = consumer.holds else { continue }
      lines.append("/// '\(consumer.typeName)' holds a '\(held)', so `.graph`: what one resolution makes, it shares.")
    }
    if !design.completions.isEmpty {
      let given = design.completions.map { "'\($0.type)'" }.joined(separator: " and ")
      let name = "'\(design.singleton.simpleTypeName)'"
      lines.append("/// \(name) is given \(given) in `initCompleted`, once both are made, as \(given) needs \(name) while it is made.")
    }
    lines += [
      "struct \(design.assemblyName): Assembly {",
      unit + "func assemble(container: Container) {",
    ]
    let body = unit + unit
    lines.append(body + "container.register(\(design.typeName).self) { \(design.resolved.isEmpty ? "_" : "resolver") in")
    for (name, type) in design.resolved {
      lines.append(body + unit + "let \(name) = resolver.resolve(\(type).self)!")
    }
    lines.append(body + unit + (design.resolved.isEmpty ? "" : "return ") + created(design.creation, isolation: design.isolation))
    lines.append(body + "}")
    var names = design.slices.map { $0.name + ".self" }
    while !names.isEmpty {
      let chunk = names.prefix(Self.implementsLimit)
      names.removeFirst(chunk.count)
      lines.append(body + ".implements(\(chunk.joined(separator: ", ")))")
    }
    lines.append(body + ".inObjectScope(.container)")
    if !design.completions.isEmpty {
      // Set once both exist: the other one's factory resolved this instance already.
      let instance = lowerCamel(design.singleton.simpleTypeName)
      lines.append(body + ".initCompleted { resolver, \(instance) in")
      for completion in design.completions {
        lines.append(body + unit + "let \(completion.name) = resolver.resolve(\(completion.type).self)!")
      }
      let assignments = design.completions.map { "\(instance).\($0.property) = \($0.name)" }.joined(separator: "; ")
      lines.append(body + unit + (design.isolation.map { "\($0.dropFirst()).assumeIsolated { \(assignments) }" } ?? assignments))
      lines.append(body + "}")
    }
    for consumer in design.consumers {
      lines.append(body + "container.register(\(consumer.typeName).self) { resolver in")
      for parameter in consumer.parameters {
        lines.append(body + unit + "let \(parameter.name) = resolver.resolve(\(parameter.slice).self)!")
      }
      let arguments = consumer.parameters.map { $0.label == "_" ? $0.name : "\($0.label): \($0.name)" }
      let creation = "\(consumer.typeName)(\(arguments.joined(separator: ", ")))"
      lines.append(body + unit + "return " + created(creation, isolation: consumer.isolation))
      lines.append(body + "}")
      lines.append(body + ".inObjectScope(\(consumer.scope))")
    }
    lines.append(unit + "}")
    lines.append("}")
    return lines
  }

  private var dependencyLines: [String] {
    let live = "live" + design.singleton.simpleTypeName
    var lines = [
      "/// The one '\(design.typeName)', made on first use: the live value of each of its protocols.",
      "private let \(live) = \(created(design.creation, isolation: design.isolation))",
    ]
    for slice in design.slices {
      let key = lastComponent(slice.name) + "Key"
      lines += [
        "",
        "/// '\(slice.name)' in `DependencyValues`. Tests get the live instance, as they got the accessor's;",
        "/// a test substitutes a double with `withDependencies { $0.\(slice.property) = ... }`.",
        "enum \(key): DependencyKey {",
        unit + "static let liveValue: any \(slice.name) = \(live)",
        unit + "static var testValue: any \(slice.name) { liveValue }",
        "}",
      ]
    }
    lines += ["", "extension DependencyValues {"]
    for (position, slice) in design.slices.enumerated() {
      let key = lastComponent(slice.name) + "Key"
      if position > 0 { lines.append("") }
      lines += [
        unit + "var \(slice.property): any \(slice.name) {",
        unit + unit + "get { self[\(key).self] }",
        unit + unit + "set { self[\(key).self] = newValue }",
        unit + "}",
      ]
    }
    lines.append("}")
    return lines
  }
}
