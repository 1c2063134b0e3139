import DesingletonCore
import Foundation

/// What the Parser stage knows about a code base: immutable, in a stable order.
public struct Index: Sendable {
  /// Every Swift file found, sorted; those that were parsed have a summary in `files`.
  public let allPaths: [String]
  /// The parsed files, sorted by path.
  public let files: [FileSummary]
  /// The project's Objective-C headers as Swift sees them (`ObjectiveCImporter`), sorted by path:
  /// their classes are types like the Swift files' (a singleton among them is found the same way),
  /// but no file here is Swift, holds references, or is ever rewritten.
  public let imported: ImportedHeaders
  public let singletons: [Singleton]
  /// References to the singletons' accessors, in file and position order.
  public let references: [Reference]
  /// Files skipped or read with problems: not UTF-8, syntax errors, symlink loops.
  public let warnings: [Diagnostic]
  /// The names a static accessor can have.
  public let accessorNames: AccessorNames

  let declarationsByQualifiedName: [String: [TypeDecl]]
  let qualifiedNamesBySimpleName: [String: [String]]
  /// Names of methods that may mutate a value: the standard library's and every `mutating func` in
  /// the code base (asked one name at a time: `isMutatingMethod`).
  private let mutatingNames: Set<String>
  /// For an index of part of the files (a scan's phases): what it can answer for, and what it was
  /// asked that it cannot. Nil when every file was parsed.
  public let coverage: NameCoverage?
  /// Singleton type → the references attributed to it, in `references` order.
  private let referencesByType: [String: [Reference]]
  /// Type → the types whose declaration lists it first in its inheritance clause, sorted.
  private let subclassesByName: [String: [String]]
  /// Every `typealias`, top-level and in types.
  let typeAliases: TypeAliasTable
  /// The tables the type questions are answered from; the attribution of references asks them too.
  let tables: TypeTables
  /// What an implicit argument is looked up in (`implicitArgument`): the lookup the attribution
  /// of references used, its merged tables kept.
  let implicitLookup: SharedImplicitLookup
  /// `isTestType`'s answers so far.
  let testTypes = TestTypeAnswers()

  public init(
    allPaths: [String], files: [FileSummary], warnings: [Diagnostic], accessors: AccessorNames = .standard,
    coverage: NameCoverage? = nil, imported: ImportedHeaders = ImportedHeaders()
  ) {
    self.coverage = coverage
    self.allPaths = allPaths
    self.files = files
    self.imported = imported
    // Declarations come from both; references only from Swift.
    let declaring = imported.isEmpty ? files : files + imported.summaries
    self.warnings = warnings
    self.accessorNames = accessors
    // One pass per table over every type; the tables are sized up front, since a code base of a
    // million lines has tens of thousands of types and this runs on one thread.
    let typeCount = declaring.reduce(0) { $0 + $1.types.count }
    let simpleNames = Index.qualifiedNamesBySimpleName(declaring, typeCount: typeCount)
    let (byQualified, subclasses) = Index.typeTables(declaring, simpleNames: simpleNames, typeCount: typeCount)
    self.qualifiedNamesBySimpleName = simpleNames
    self.declarationsByQualifiedName = byQualified
    self.subclassesByName = subclasses
    let mutatingMethodNames = files.reduce(into: ReferenceAnalysis.mutatingMethodNames) { $0.formUnion($1.mutatingMethodNames) }
    mutatingNames = mutatingMethodNames
    let typeAliases = TypeAliasTable(files: files, simpleNames: simpleNames)
    self.typeAliases = typeAliases
    tables = TypeTables(declarations: byQualified, simpleNames: simpleNames, typeAliases: typeAliases, coverage: coverage)
    var singletons = SingletonDetector.singletons(
      in: byQualified, accessors: accessors, generatedPaths: Set(files.filter(\.isGenerated).map(\.path)),
      coverage: coverage)
    var accessorsByType: [String: Set<String>] = [:]
    var typesByAccessor: [String: [String]] = [:]
    for singleton in singletons {
      accessorsByType[singleton.typeName, default: []].formUnion(singleton.accessors)
      for accessor in singleton.accessors {
        typesByAccessor[accessor, default: []].append(singleton.typeName)
      }
      Index.needReferences(of: singleton, typeAliases: typeAliases, simpleNames: simpleNames, coverage: coverage)
    }
    var (references, referenceTypes, referencesByType, implicitLookup) = Index.attribute(
      files, typesByAccessor: typesByAccessor, accessorsByType: accessorsByType, tables: tables,
      mutatingMethodNames: mutatingMethodNames)
    // A value type's shared value is a singleton only when code changes it through the accessor.
    let unchanged = Index.unchangedValueSingletons(singletons, declarations: byQualified, referencesByType: referencesByType)
    if !unchanged.isEmpty {
      singletons.removeAll { unchanged.contains($0.typeName) }
      references = zip(references, referenceTypes).filter { !unchanged.contains($0.1) }.map(\.0)
      for type in unchanged { referencesByType[type] = nil }
    }
    self.singletons = singletons
    self.references = references
    self.referencesByType = referencesByType
    self.implicitLookup = SharedImplicitLookup(implicitLookup)
  }

  /// Asks for the files that can reference the singleton's accessors: every file that can, for a
  /// scan. For a command about some singletons (`NameCoverage.focus`), only theirs, and only where
  /// their type is not written (its files are parsed first): an implicit member (`f(.shared)`) or a
  /// type alias of it.
  private static func needReferences(
    of singleton: Singleton, typeAliases: TypeAliasTable, simpleNames: [String: [String]], coverage: NameCoverage?
  ) {
    guard let coverage else { return }
    guard let focus = coverage.focus else {
      for accessor in singleton.accessors { coverage.needAccessor(accessor, of: singleton.simpleTypeName) }
      return
    }
    guard focus.contains(singleton.simpleTypeName) else { return }
    for accessor in singleton.accessors { coverage.needImplicitAccessor(accessor) }
    // An alias's declaration names the type (or an alias of it): parsed by now, or asked for here.
    for alias in typeAliases.names(of: singleton.typeName, simpleNames: simpleNames) { coverage.needMentions(alias) }
  }

  /// The declarations of every type by qualified name (a type's first declaration first), and each
  /// type's subclasses; one pass over every type, sized up front.
  private static func typeTables(
    _ files: [FileSummary], simpleNames: [String: [String]], typeCount: Int
  ) -> (declarations: [String: [TypeDecl]], subclasses: [String: [String]]) {
    var byQualified: [String: [TypeDecl]] = [:]
    byQualified.reserveCapacity(typeCount)
    var subclasses: [String: [String]] = [:]
    // Generated code extends one type many times: each name written is resolved once.
    var resolved: [String: String] = [:]
    func resolveOnce(_ written: String) -> String {
      if let known = resolved[written] { return known }
      let result = Index.resolve(written, simpleNames: simpleNames)
      resolved[written] = result
      return result
    }
    for file in files {
      for type in file.types {
        let key = type.isExtension ? resolveOnce(type.qualifiedName) : type.qualifiedName
        // A type's first declaration (not an extension) says what it inherits from.
        if Index.append(type, to: &byQualified[key, default: []]), let parent = type.inherited.first {
          subclasses[resolveOnce(parent), default: []].append(key)
        }
      }
    }
    for parent in Array(subclasses.keys) { subclasses[parent]?.sort() }
    return (byQualified, subclasses)
  }

  /// Each candidate reference attributed to the singleton whose accessor it names, or dropped; an
  /// implicit `.shared` of a type that cannot be told is a possible reference of each such singleton.
  private static func attribute(
    _ files: [FileSummary], typesByAccessor: [String: [String]], accessorsByType: [String: Set<String>],
    tables: TypeTables, mutatingMethodNames: Set<String>
  ) -> (references: [Reference], types: [String], byType: [String: [Reference]], lookup: ImplicitMemberLookup) {
    let (byQualified, simpleNames, typeAliases, coverage) = (tables.declarations, tables.simpleNames, tables.typeAliases, tables.coverage)
    var references: [Reference] = []
    // The singleton type each reference was attributed to, in `references` order.
    var referenceTypes: [String] = []
    var referencesByType: [String: [Reference]] = [:]
    var implicit = ImplicitMemberLookup(files: files, tables: tables)
    for file in files {
      for reference in file.candidateReferences {
        // No singleton has this accessor: nothing to attribute (and no name to resolve).
        guard typesByAccessor[reference.accessor] != nil else { continue }
        /// A possible reference of each singleton with this accessor: `finish` must not delete it
        /// unseen. Where the parameter is declared as the one singleton it can be, it is that
        /// singleton's instance, passed on.
        func attributePossible(_ argument: ImplicitArgument) {
          // A type is listed once even when it declares the accessor twice (one per program).
          var types: [String] = []
          for type in typesByAccessor[reference.accessor] ?? []
          where !types.contains(type) && implicit.argument(argument, canBe: type)
            && (!reference.implicitApplied || (byQualified[type] ?? []).contains { $0.membersOmitted || $0.members.contains { $0.name == "callAsFunction" } })
            && (!reference.implicitInCasePattern || mayMatchPattern(type, tables: tables))
          {
            types.append(type)
          }
          for type in types {
            var possible = reference
            possible.baseName = type
            if types.count == 1, implicit.argument(argument, certainlyIs: type) { possible.use = .instance }
            references.append(possible)
            referenceTypes.append(type)
            referencesByType[type, default: []].append(possible)
          }
        }
        if reference.use == .unresolvedImplicit {
          // `T(store: .shared)`, `Product(store: .shared)`: a generic parameter's init.
          if let callee = reference.implicitCallee, reference.implicitEnclosingInit == nil,
            tables.mayNameGenericParameter(callee, in: reference.context.typeName)
          {
            attributePossible(.unknown)
          } else {
            attributePossible(implicit.argument(reference.implicitSlot))
          }
          continue
        }
        let written = reference.baseName == "Self" ? (reference.context.typeName ?? "") : reference.baseName
        var type = Index.resolve(written, simpleNames: simpleNames, coverage: coverage)
        if accessorsByType[type] == nil, byQualified[type] == nil,
          let aliased = typeAliases.resolve(
            written, from: reference.context.typeName, simpleNames: simpleNames, coverage: coverage)
        {
          type = aliased
        }
        guard accessorsByType[type]?.contains(reference.accessor) == true else {
          attributePossible(unsettled(reference, written: written, type: type, tables: tables))
          continue
        }
        var decided = reference
        if case .member(let name, .read) = reference.use, let chain = reference.chain {
          decided.use = .member(
            name,
            Index.access(
              ofMember: name, in: type, chain: chain, declarations: byQualified, simpleNames: simpleNames,
              typeAliases: typeAliases, mutatingMethodNames: mutatingMethodNames, coverage: coverage))
        }
        references.append(decided)
        referenceTypes.append(type)
        referencesByType[type, default: []].append(decided)
      }
    }
    return (references, referenceTypes, referencesByType, implicit)
  }

  /// The value-type singletons no code changes through the accessor: a shared value nobody writes is a constant.
  private static func unchangedValueSingletons(
    _ singletons: [Singleton], declarations: [String: [TypeDecl]], referencesByType: [String: [Reference]]
  ) -> Set<String> {
    return Set(
      singletons.filter(SingletonDetector.needsWrites).map(\.typeName).filter { type in
        let mutating = Set((declarations[type] ?? []).flatMap(\.members).filter { $0.modifiers.contains("mutating") }.map(\.name))
        // A write through an alias (`var copy = X.shared`) changes the copy, not the shared value.
        return !(referencesByType[type] ?? []).contains { reference in
          guard reference.alias == nil else { return false }
          switch reference.use {
          case .member(_, .write), .reassignment: return true
          case .member(let name, .call): return mutating.contains(name)
          default: return false
          }
        }
      })
  }

  /// Whether `instance.member` followed by `chain` writes `member` of `type`, the one rule every
  /// stage uses. An assignment, an `inout` use, or a mutating method at the end of the chain writes
  /// back through every member on the way whose type is a value type (or unknown); a member whose
  /// type is a class or actor of this code stops it there: its object changes, the reference held
  /// does not. A method is mutating when the type that has it declares it `mutating`, or, where that
  /// type is not known, when it has the name of a standard library mutating method or of a `mutating
  /// func` anywhere in the code.
  public func access(ofMember member: String, in type: String, chain: MemberChain) -> ReferenceUse.Access {
    Index.access(
      ofMember: member, in: type, chain: chain, declarations: declarationsByQualifiedName,
      simpleNames: qualifiedNamesBySimpleName, typeAliases: typeAliases, mutatingMethodNames: mutatingNames,
      coverage: coverage)
  }

  private static func access(
    ofMember member: String, in type: String, chain: MemberChain, declarations: [String: [TypeDecl]],
    simpleNames: [String: [String]], typeAliases: TypeAliasTable, mutatingMethodNames: Set<String>,
    coverage: NameCoverage?
  ) -> ReferenceUse.Access {
    // The type holding the next member, while it is known.
    var holder: String? = type
    for name in [member] + chain.members {
      guard let current = holder else { break }
      holder = propertyType(
        name, of: current, declarations: declarations, simpleNames: simpleNames, typeAliases: typeAliases,
        coverage: coverage)
      if let next = holder, let kind = declarations[next]?.first(where: { !$0.isExtension })?.kind,
        kind == .class || kind == .actor
      {
        return .read
      }
    }
    switch chain.end {
    case .assigned:
      return .write
    case .call(let method):
      if let holder {
        coverage.needMembers(holder)
        var declared = false
        for declaration in declarations[holder] ?? [] {
          let members = declaration.members
          for position in members.indices where members[position].kind == .method && members[position].name == method {
            if members[position].modifiers.contains("mutating") { return .write }
            declared = true
          }
        }
        if declared { return .read }
      }
      // A standard library name is mutating whatever the code declares; another one only if the
      // code declares a `mutating func` of that name.
      if !ReferenceAnalysis.mutatingMethodNames.contains(method) { coverage?.needMutatingMethod(method) }
      return mutatingMethodNames.contains(method) ? .write : .read
    }
  }

  /// The project type an instance property of `type` holds (`let screen: Screen?`,
  /// `var cart = Cart()`), resolved through type aliases; nil when it is none the index declares.
  public func propertyType(_ name: String, of type: String) -> String? {
    Self.propertyType(
      name, of: type, declarations: declarationsByQualifiedName, simpleNames: qualifiedNamesBySimpleName,
      typeAliases: typeAliases, coverage: coverage)
  }

  /// The declared type of an instance property, resolved (through type aliases, as `resolveType`
  /// does), when the index knows it: from the type annotation, or from an initializer that creates
  /// the type (`var cart = Cart()`).
  private static func propertyType(
    _ name: String, of type: String, declarations: [String: [TypeDecl]], simpleNames: [String: [String]],
    typeAliases: TypeAliasTable, coverage: NameCoverage?
  ) -> String? {
    coverage.needMembers(type)
    for declaration in declarations[type] ?? [] {
      let members = declaration.members
      guard let position = members.indices.first(where: {
        members[$0].kind == .property && !members[$0].isStatic && members[$0].name == name
      }) else { continue }
      let property = members[position]
      guard let text = property.typeText ?? property.initializerText.flatMap(createdTypeName) else { return nil }
      let written = TypeTables.unwrapped(text)
      let resolved = resolve(written, simpleNames: simpleNames, coverage: coverage)
      if declarations[resolved] != nil { return resolved }
      let aliased = typeAliases.resolve(written, from: type, simpleNames: simpleNames, coverage: coverage)
      return aliased.flatMap { declarations[$0] == nil ? nil : $0 }
    }
    return nil
  }

  /// `Cart` for an initial value `Cart()`, `Cart(items: [])` or `Cart.init()`.
  static func createdTypeName(_ initializer: String) -> String? {
    guard let open = initializer.firstIndex(of: "("), open != initializer.startIndex else { return nil }
    var name = initializer[..<open]
    guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }) else { return nil }
    if name.hasSuffix(".init") { name = name.dropLast(5) }
    // `Cart.make()` calls a static method, whose result's type is not written.
    guard name.first?.isUppercase == true, name.split(separator: ".").last?.first?.isUppercase == true else { return nil }
    return String(name)
  }

  /// Adds `name` to a short list unless it is there; `becameShared` runs when the list reaches two names.
  private static func insert(_ name: String, into list: inout [String], becameShared: () -> Void) {
    guard !list.contains(name) else { return }
    list.append(name)
    if list.count == 2 { becameShared() }
  }

  /// Appends a declaration; true when it is the type's first declaration that is not an extension.
  private static func append(_ type: TypeDecl, to list: inout [TypeDecl]) -> Bool {
    let isPrimary = !type.isExtension && !list.contains { !$0.isExtension }
    list.append(type)
    return isPrimary
  }

  /// Throws `NameCoverage.Incomplete` when a question asked so far was about files not parsed: a
  /// planner asks between its steps, so that a run whose answers will be thrown away stops early
  /// (the loader parses what was missing and runs it again). A question no file left can answer
  /// was answered as the whole code base would: the run goes on. Without coverage, never throws.
  public func requireCoverage() throws {
    if let coverage, !coverage.settleMissing() { throw NameCoverage.Incomplete() }
  }

  /// Every declared or extended type's qualified name, sorted.
  public var allTypeNames: [String] {
    coverage?.needEverything()
    return declarationsByQualifiedName.keys.sorted()
  }

  /// Whether a parsed file was written by a generator (`GeneratedFile`): no plan may change it.
  public func isGenerated(_ path: String) -> Bool {
    files.contains { $0.path == path && $0.isGenerated }
  }

  /// Whether a type of this qualified name is declared or extended (a yes holds whatever more files hold).
  public func hasType(_ qualifiedName: String) -> Bool {
    if declarationsByQualifiedName[qualifiedName] != nil { return true }
    coverage.needOutline(qualifiedName)
    return false
  }

  /// The qualified name a type written as `written` most likely means, through type aliases.
  public func resolveType(_ written: String) -> String {
    tables.resolveType(written)
  }

  /// The type's declaration and all its extensions, in file order.
  public func declarations(of qualifiedName: String) -> [TypeDecl] {
    coverage.needMembers(qualifiedName)
    return declarationsByQualifiedName[qualifiedName] ?? []
  }

  /// Whether the byte at `offset` of the file at `path` is inside one of the type's declarations
  /// or extensions: the code a plan changes there is the type's.
  public func isInside(_ qualifiedName: String, at offset: Int, in path: String) -> Bool {
    isInside(qualifiedName, anyOf: [path: [offset]])
  }

  /// Whether one of `places` (byte offsets by file path) is inside one of the type's declarations
  /// or extensions.
  public func isInside(_ qualifiedName: String, anyOf places: [String: [Int]]) -> Bool {
    declarations(of: qualifiedName).contains { declaration in
      places[declaration.range.path]?.contains(where: declaration.range.bytes.contains) ?? false
    }
  }

  /// The type's first declaration (not an extension) for what it says of itself: its kind,
  /// attributes, inheritance clause and `@Test` methods, never its members (which a scan may have
  /// left out: this asks only for the type, so that no file is parsed again for its members).
  func outlineDeclarations(of qualifiedName: String) -> [TypeDecl] {
    coverage.needOutline(qualifiedName)
    return declarationsByQualifiedName[qualifiedName] ?? []
  }

  /// The type's primary declaration (not an extension) for what it says of itself (kind, path,
  /// attributes, inheritance clause), never its members: no file is parsed again for them.
  public func primaryOutline(of qualifiedName: String) -> TypeDecl? {
    tables.primaryOutline(of: qualifiedName)
  }

  /// Qualified names of every declared type (not extensions) with this simple or qualified name.
  public func types(named name: String) -> [String] {
    // A type declared with that very name is the answer, whatever more files declare.
    if declarationsByQualifiedName[name]?.contains(where: { !$0.isExtension }) == true { return [name] }
    coverage.needType(name)
    let last = name.lastComponent(separatedBy: UInt8(ascii: ".")).map(String.init) ?? name
    return qualifiedNamesBySimpleName[last] ?? []
  }

  /// Types whose first inherited type is `qualifiedName`: a class's direct subclasses. A struct,
  /// an enum, an actor, a protocol or a final class has none, and no file is read to find them.
  public func subclasses(of qualifiedName: String) -> [String] {
    if let primary = tables.primaryOutline(of: qualifiedName), primary.kind != .class || primary.modifiers.contains("final") {
      return []
    }
    // A subclass names its superclass in its inheritance clause (`class A: B`): every file whose
    // code contains the name.
    coverage?.needMentions(qualifiedName.lastComponent(separatedBy: UInt8(ascii: ".")).map(String.init) ?? qualifiedName)
    return subclassesByName[qualifiedName] ?? []
  }

  /// Whether a method of this name may mutate a value: the standard library's, or a `mutating func`
  /// of the name somewhere in the code base.
  public func isMutatingMethod(_ name: String) -> Bool {
    if ReferenceAnalysis.mutatingMethodNames.contains(name) { return true }
    coverage?.needMutatingMethod(name)
    return mutatingNames.contains(name)
  }

  /// The qualified names of the types declared or extended in these files, sorted.
  func typeNames(declaredIn paths: Set<String>) -> [String] {
    var names: Set<String> = []
    for file in files where paths.contains(file.path) {
      for type in file.types { names.insert(type.isExtension ? Index.resolve(type.qualifiedName, simpleNames: qualifiedNamesBySimpleName) : type.qualifiedName) }
    }
    return names.sorted()
  }

  /// The members of a type across its declaration and extensions.
  public func members(of qualifiedName: String) -> [MemberDecl] {
    declarations(of: qualifiedName).flatMap(\.members)
  }

  public func singleton(typeName: String) -> Singleton? {
    singletons.first { $0.typeName == typeName }
  }

  public func references(to singleton: Singleton) -> [Reference] {
    (referencesByType[singleton.typeName] ?? []).filter { singleton.accessors.contains($0.accessor) }
  }

  /// The enclosing type of a reference, resolved to its declaration's qualified name.
  public func enclosingType(of reference: Reference) -> String? {
    reference.context.typeName.map(resolveType)
  }

  public var lineCount: Int { files.reduce(0) { $0 + $1.lineCount } }
}

/// The code's `typealias`es, by qualified name (`Outer.Alias` for one declared in `Outer`).
struct TypeAliasTable: Sendable {
  private(set) var aliasedTypes: [String: String] = [:]
  private(set) var qualifiedNamesBySimpleName: [String: [String]] = [:]
  /// The enclosing type of each alias declared in one, as written: its qualified name depends on
  /// what that name resolves to.
  private var owners: [String: String] = [:]
  /// The last component of each alias's type as written (`Widget` of `App.Widget`) → the aliases.
  private var aliasesByWrittenName: [String: [String]] = [:]

  init(files: [FileSummary], simpleNames: [String: [String]]) {
    var owners: [String: String] = [:]
    for file in files {
      for alias in file.typeAliases {
        // An extension names its type as written: `extension Outer.Inner`, or `extension Inner`.
        let owner = alias.enclosingType.map { written in
          if let known = owners[written] { return known }
          let owner = Index.resolve(written, simpleNames: simpleNames) + "."
          owners[written] = owner
          return owner
        }
        let qualifiedName = (owner ?? "") + alias.name
        if aliasedTypes[qualifiedName] == nil, let enclosing = alias.enclosingType { owners[qualifiedName] = enclosing }
        add(alias.name, qualifiedName: qualifiedName, aliasedType: alias.aliasedType)
      }
    }
  }

  /// The qualified names of the aliases whose type as written ends with one of `names` (`Widget`,
  /// `App.Widget`): the only ones that can mean a type of one of those names, or an alias of one.
  func aliases(writing names: Set<String>) -> [String] {
    names.flatMap { aliasesByWrittenName[$0] ?? [] }.sorted()
  }

  private mutating func add(_ name: String, qualifiedName: String, aliasedType: String) {
    guard aliasedTypes[qualifiedName] == nil else { return }
    aliasedTypes[qualifiedName] = aliasedType
    qualifiedNamesBySimpleName[name, default: []].append(qualifiedName)
    aliasesByWrittenName[FrameworkTypes.lastComponent(aliasedType), default: []].append(qualifiedName)
  }

  /// The declared type `written` names through one or more aliases, seen from inside `context`
  /// (the enclosing type's name); nil when it names no alias, or several that mean different types.
  /// `unwrappingOptionals`: an alias of an optional names its wrapped type (`typealias S = Store?`),
  /// as an implicit member passed to it is looked up there.
  func resolve(
    _ written: String, from context: String?, simpleNames: [String: [String]], coverage: NameCoverage? = nil,
    unwrappingOptionals: Bool = false
  ) -> String? {
    // Whether there is an alias of the name is a question about the files that can declare one.
    coverage.needType(written)
    guard !aliasedTypes.isEmpty else { return nil }
    var current = written
    var scope = context
    // An alias of an alias, a few levels deep at most; a cycle does not compile.
    for _ in 0..<8 {
      coverage.needType(current)
      guard var aliased = aliasedType(current, from: scope, coverage: coverage) else { return nil }
      if unwrappingOptionals { aliased = TypeTables.unwrapped(aliased) }
      let resolved = Index.resolve(aliased, simpleNames: simpleNames, coverage: coverage)
      if simpleNames[resolved.lastComponent(separatedBy: UInt8(ascii: ".")).map(String.init) ?? resolved]?.contains(resolved) == true {
        return resolved
      }
      current = aliased
      scope = nil
    }
    return nil
  }

  func names(of type: String, simpleNames: [String: [String]]) -> [String] {
    var names: Set<String> = []
    for (name, qualifiedNames) in qualifiedNamesBySimpleName
    where qualifiedNames.contains(where: { resolve($0, from: nil, simpleNames: simpleNames) == type }) {
      names.insert(name)
    }
    return names.sorted()
  }

  private func aliasedType(_ written: String, from context: String?, coverage: NameCoverage?) -> String? {
    if let coverage {
      // The aliases of this name have qualified names made from their enclosing types' names.
      let last = written.lastComponent(separatedBy: UInt8(ascii: ".")).map(String.init) ?? written
      for candidate in qualifiedNamesBySimpleName[last] ?? [] {
        if let owner = owners[candidate] { coverage.needType(owner) }
      }
    }
    if let aliased = aliasedTypes[written] { return aliased }
    let last = written.lastComponent(separatedBy: UInt8(ascii: ".")).map(String.init) ?? written
    guard let candidates = qualifiedNamesBySimpleName[last] else { return nil }
    // The one declared in the innermost enclosing type, else the one that ends with what is written.
    if var scope = context {
      while true {
        if let aliased = aliasedTypes[scope + "." + written] { return aliased }
        guard let dot = scope.lastIndex(of: ".") else { break }
        scope = String(scope[..<dot])
      }
    }
    let matching = candidates.filter { $0 == written || $0.hasSuffix("." + written) }
    let targets = Set(matching.compactMap { aliasedTypes[$0] })
    return targets.count == 1 ? targets.first : nil
  }
}

extension Index {
  /// Simple name → the qualified names of the types (not extensions) declared with it, sorted.
  static func qualifiedNamesBySimpleName(_ files: [FileSummary], typeCount: Int) -> [String: [String]] {
    var simpleNames: [String: [String]] = [:]
    simpleNames.reserveCapacity(typeCount)
    var sharedSimpleNames: [String] = []
    for file in files {
      for type in file.types where !type.isExtension {
        Index.insert(type.qualifiedName, into: &simpleNames[type.name, default: []]) {
          sharedSimpleNames.append(type.name)
        }
      }
    }
    for name in sharedSimpleNames { simpleNames[name]?.sort() }
    return simpleNames
  }
}
