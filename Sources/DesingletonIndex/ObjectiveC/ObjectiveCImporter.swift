import DesingletonCore

/// The project's Objective-C classes as Swift code sees them. Each header becomes its Swift
/// interface, line for line (a member's Swift declaration on the line its Objective-C declaration
/// starts on, so places read the same in both), which the index reads like a Swift file: an
/// Objective-C class whose class method or class property hands out one `static` instance is a
/// singleton like any other, with its Swift consumers, and a planner reads a member's declaration
/// as it reads a Swift one. The interface is never written: a plan that edits a header is refused
/// (`Project.sources(of:)`).
///
/// The names follow the compiler's importer for the shapes below, each checked against the compiler
/// by a test (`ObjectiveCImportTests`); any other shape keeps the member, under the name Swift most
/// likely gives it, with the reason its declaration is not known, and no slice takes it.
/// - `NS_SWIFT_NAME`/`swift_name` gives the name.
/// - A class property or class method without parameters that returns the class loses the words
///   its name ends with that the class name ends with (`+[MetricsLogger sharedLogger]` → `shared`).
/// - A first selector piece `xWithY:` becomes `x(withY:)`, or `x(y:)` when its parameter is a block;
///   other pieces are labels. A first piece with another preposition (`For`, `From`, `To`, ...), or
///   a piece ending with its parameter's class name (`addItem:(Item *)`, which the importer
///   shortens in some headers and not in others) or with `Block`, is not modelled.
/// - A `void` method's last parameter, a block returning `void` named for completion or a reply,
///   is `@Sendable` (the importer also offers the method as `async`).
/// - Types: C scalars and `NSInteger`/`NSUInteger` (both `Int`), `BOOL`, `CGFloat`,
///   `NSTimeInterval`; `NSString`, `NSArray<T>`, `NSDictionary<K, V>`, `NSSet<T>`, `NSData`, `NSDate`,
///   `NSURL` bridged; other classes by name; `id` as `Any`, `id<P>` as `any P`; blocks as closures
///   (`@escaping` as parameters); nullability (`nullable` → `T?`, nonnull or assumed nonnull → `T`,
///   unspecified → `T!`).
public enum ObjectiveCImporter {
  /// The headers that declare an `@interface`, as Swift sees them; `implementations` tell accessors.
  public static func headers(
    _ headers: [SourceText], implementations: [SourceText], accessors: AccessorNames = .standard
  ) -> ImportedHeaders {
    // Each file is read into tokens once: a header may hold an `@implementation` too.
    let headerTokens = headers.sorted { $0.path < $1.path }.map { ($0, ObjectiveCLexer.tokens($0.bytes)) }
    var implemented: [String: ObjectiveCImplementation] = [:]
    for tokens in implementations.map({ ObjectiveCLexer.tokens($0.bytes) }) + headerTokens.map(\.1) {
      for implementation in ObjectiveCDeclarations.implementations(tokens) {
        implemented[implementation.name, default: implementation].returnsStatic.merge(implementation.returnsStatic) { $1 }
        if implementation.overridesAllocWithZone { implemented[implementation.name]?.overridesAllocWithZone = true }
      }
    }
    var summaries: [FileSummary] = []
    var interfaces: [String: SourceText] = [:]
    for (source, tokens) in headerTokens {
      let declared = ObjectiveCDeclarations.interfaces(tokens)
      guard !declared.isEmpty else { continue }
      var lines = [String](repeating: "", count: source.lineStarts.count)
      for (line, module) in ObjectiveCLexer.moduleImports(source.bytes) where line < lines.count {
        lines[line] = "import \(module)"
      }
      var facts: [Int: [MemberFact]] = [:]
      for interface in declared {
        write(interface, of: source, implementation: implemented[interface.name], into: &lines, facts: &facts)
      }
      let interface = SourceText(path: source.path, bytes: Array(lines.joined(separator: "\n").utf8) + [10])
      interfaces[source.path] = interface
      summaries.append(summary(FileIndexer.index(interface, isGenerated: false, accessors: accessors), facts: facts))
    }
    return ImportedHeaders(summaries: summaries, interfaces: interfaces)
  }

  /// Reads the Objective-C files at these paths (headers and implementations); unreadable ones are skipped.
  public static func headers(paths: [String], accessors: AccessorNames = .standard) -> ImportedHeaders {
    var headers: [SourceText] = []
    var implementations: [SourceText] = []
    for path in paths {
      guard let bytes = readBytes(path), BytePrefilter.mentions([Array("@interface".utf8), Array("@implementation".utf8)], in: bytes)
      else { continue }
      let source = SourceText(path: path, bytes: bytes)
      if ObjectiveCFiles.isHeader(path) { headers.append(source) } else { implementations.append(source) }
    }
    return self.headers(headers, implementations: implementations, accessors: accessors)
  }

  /// What the Swift interface cannot say about a member: why its declaration is not known, its
  /// selector, and the `static` its implementation returns.
  struct MemberFact {
    var name: String
    var problem: String?
    var selector: String
    var returnsStatic: String?
    var nameOnly = false
    /// The Objective-C declaration, one line, without its `;`.
    var written = ""
  }

  private static func write(
    _ interface: ObjectiveCInterface, of source: SourceText, implementation: ObjectiveCImplementation?,
    into lines: inout [String], facts: inout [Int: [MemberFact]]
  ) {
    func line(of offset: Int) -> Int { source.location(ofOffset: offset).line - 1 }
    func append(_ text: String, at offset: Int) {
      let number = line(of: offset)
      guard number < lines.count else { return }
      lines[number] += lines[number].isEmpty ? text : "; " + text
    }
    let swiftName = interface.swiftName ?? interface.name
    let inherited = (interface.superclass.map { [$0] } ?? []) + interface.protocols
    let clause = inherited.isEmpty ? "" : ": " + inherited.joined(separator: ", ")
    append(interface.category == nil ? "@objc public class \(swiftName)\(clause) {" : "extension \(swiftName)\(clause) {", at: interface.bytes.lowerBound)
    var strict = implementation?.overridesAllocWithZone == true
    var hasInit = false
    for member in interface.members {
      if member.isUnavailable {
        if member.kind == .method && (member.selector == "init" || member.selector == "new") {
          strict = true
          if member.selector == "init" {
            append("private init()", at: member.bytes.lowerBound)
            hasInit = true
          }
        }
        continue
      }
      var imported = declaration(of: member, in: interface, swiftName: swiftName, implementation: implementation)
      hasInit = hasInit || imported.text.hasPrefix("public init(")
      append(imported.text, at: member.bytes.lowerBound)
      imported.fact.written = String(decoding: source.bytes[member.bytes], as: UTF8.self)
        .split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" || $0 == ";" }).joined(separator: " ")
      facts[line(of: member.bytes.lowerBound), default: []].append(imported.fact)
    }
    if strict && !hasInit && interface.category == nil {
      // Every `alloc` hands out the one instance: as strict as a Swift singleton whose inits are private.
      append("private init()", at: interface.bytes.lowerBound)
    }
    append("}", at: max(interface.bytes.lowerBound, interface.bytes.upperBound - 1))
  }

  /// The summary with each imported member's facts.
  private static func summary(_ summary: FileSummary, facts: [Int: [MemberFact]]) -> FileSummary {
    var result = summary
    result.types = summary.types.map { type in
      let members = type.members.map { member -> MemberDecl in
        var member = member
        guard let fact = facts[member.location.line - 1]?.first(where: { $0.name == member.name }) else { return member }
        member.imported = ImportedMember(
          problem: fact.problem, selector: fact.selector, nameOnly: fact.nameOnly, written: fact.problem == nil ? nil : fact.written)
        member.returnedText = fact.returnsStatic
        return member
      }
      return TypeDecl(
        name: type.name, qualifiedName: type.qualifiedName, kind: type.kind, inherited: type.inherited,
        attributes: type.attributes, modifiers: type.modifiers, access: type.access, members: members, range: type.range,
        bodyOpen: type.bodyOpen, bodyClose: type.bodyClose, genericParameters: type.genericParameters)
    }
    return result
  }

  /// The member's Swift declaration (its best guess when `fact.problem` says it is not known).
  private static func declaration(
    of member: ObjectiveCMember, in interface: ObjectiveCInterface, swiftName typeName: String,
    implementation: ObjectiveCImplementation?
  ) -> (text: String, fact: MemberFact) {
    let types = ObjectiveCTypes(className: interface.name, swiftClassName: typeName, assumesNonnull: member.assumesNonnull)
    let returnsClass = types.isClass(member.type)
    if member.kind == .property { return property(member, in: interface, types: types, implementation: implementation) }
    let isInit = !member.isClass && member.pieces[0].hasPrefix("init")
      && (member.pieces[0] == "init" || member.pieces[0].dropFirst(4).first?.isUppercase == true)
    var problem: String?
    var nameOnly = false
    var name: (base: String, labels: [String])
    if let written = member.swiftName {
      name = ObjectiveCNames.parsed(written)
    } else if isInit {
      name = ObjectiveCNames.initializer(member)
      if name.labels.count != member.parameters.count { problem = "its initializer's Swift name is not modelled" }
    } else {
      switch ObjectiveCNames.method(member, className: interface.name, returnsClass: returnsClass, types: types) {
      case .success(let found): name = found
      case .failure(let unknown):
        name = (member.pieces[0], member.parameters.isEmpty ? [] : ["_"] + member.pieces.dropFirst())
        problem = unknown.reason
        nameOnly = unknown.nameOnly
      }
    }
    // The name alone in doubt: the declaration under the name as spelled is exact if nothing else is.
    let nameProblem = nameOnly ? problem : nil
    if member.isVariadic { problem = problem ?? "it takes a variable number of arguments" }
    var parameters: [String] = []
    var typeProblem = false
    for (position, parameter) in member.parameters.enumerated() {
      let type: String
      let sendable = ObjectiveCNames.isSendableCompletion(member, position: position)
      switch types.swift(parameter.type, position: .parameter, nullability: nil, sendable: sendable) {
      case .success(let mapped): type = mapped
      case .failure(let unknown):
        problem = problem ?? unknown.reason
        typeProblem = true
        type = "Any"
      }
      let label = position < name.labels.count ? name.labels[position] : "_"
      let local = ObjectiveCNames.swiftIdentifier(parameter.name)
      parameters.append(label == local ? "\(label): \(type)" : "\(label) \(local): \(type)")
    }
    let text: String
    if isInit {
      text = "public init(\(parameters.joined(separator: ", ")))"
    } else {
      var returned = ""
      switch types.swift(member.type, position: .result, nullability: nil) {
      case .success(let mapped): returned = mapped == "Void" ? "" : " -> \(mapped)"
      case .failure(let unknown):
        problem = problem ?? unknown.reason
        typeProblem = true
      }
      text = "public \(member.isClass ? "class " : "")func \(ObjectiveCNames.swiftIdentifier(name.base))(\(parameters.joined(separator: ", ")))\(returned)"
    }
    let returned = member.isClass && returnsClass && member.parameters.isEmpty ? implementation?.returnsStatic[member.selector] : nil
    return (
      text,
      MemberFact(
        name: isInit ? "init" : name.base, problem: problem, selector: member.selector, returnsStatic: returned,
        nameOnly: nameProblem != nil && problem == nameProblem && !member.isVariadic && !typeProblem))
  }

  /// A property's Swift declaration (its best guess when the fact's `problem` says it is not known).
  private static func property(
    _ member: ObjectiveCMember, in interface: ObjectiveCInterface, types: ObjectiveCTypes,
    implementation: ObjectiveCImplementation?
  ) -> (text: String, fact: MemberFact) {
    let returnsClass = types.isClass(member.type)
    var name = member.swiftName ?? member.pieces[0]
    var problem: String?
    if member.attributes.contains(where: { $0.hasPrefix("getter=") }) && member.swiftName == nil {
      problem = "its getter is renamed, which Swift may import under another name"
    }
    if member.isClass && returnsClass && member.swiftName == nil {
      name = ObjectiveCNames.pruned(name, matching: interface.name) ?? name
    }
    let nullability = member.attributes.first { ObjectiveCTypes.nullabilities[$0] != nil }
    let mapped = types.swift(member.type, position: .property, nullability: nullability)
    if problem == nil, case .failure(let unknown) = mapped { problem = unknown.reason }
    let readonly = member.attributes.contains("readonly")
    let swiftType = (try? mapped.get()) ?? "Any"
    let getter = member.attributes.first { $0.hasPrefix("getter=") }.map { String($0.dropFirst(7)) } ?? member.pieces[0]
    let text = "public \(member.isClass ? "class " : "")var \(ObjectiveCNames.swiftIdentifier(name)): \(swiftType) { get\(readonly ? "" : " set") }"
    let returned = member.isClass && returnsClass ? implementation?.returnsStatic[getter] : nil
    return (text, MemberFact(name: name, problem: problem, selector: member.selector, returnsStatic: returned))
  }
}

/// The project's Objective-C headers as Swift sees them: each header's summary and its Swift
/// interface (the text the summary's places are in).
public struct ImportedHeaders: Sendable {
  public var summaries: [FileSummary]
  public var interfaces: [String: SourceText]

  public init(summaries: [FileSummary] = [], interfaces: [String: SourceText] = [:]) {
    self.summaries = summaries
    self.interfaces = interfaces
  }

  public var isEmpty: Bool { summaries.isEmpty }
}
