import DesingletonCore

/// What the Parser stage knows about a code base: immutable, in a stable order.
public struct Index: Sendable {
  /// Every Swift file found, sorted; those that were parsed have a summary in `files`.
  public let allPaths: [String]
  /// The parsed files, sorted by path.
  public let files: [FileSummary]
  public let singletons: [Singleton]
  /// References to the singletons' accessors, in file and position order.
  public let references: [Reference]
  /// Files skipped or read with problems: not UTF-8, syntax errors, symlink loops.
  public let warnings: [Diagnostic]

  private let declarationsByQualifiedName: [String: [TypeDecl]]
  private let qualifiedNamesBySimpleName: [String: [String]]
  /// Names of methods that may mutate a value: the standard library's and every `mutating func` in the code base.
  public let mutatingMethodNames: Set<String>
  /// Singleton type → the references attributed to it, in `references` order.
  private let referencesByType: [String: [Reference]]
  /// Type → the types whose declaration lists it first in its inheritance clause, sorted.
  private let subclassesByName: [String: [String]]

  public init(allPaths: [String], files: [FileSummary], warnings: [Diagnostic]) {
    self.allPaths = allPaths
    self.files = files
    self.warnings = warnings
    // One pass per table over every type; the tables are sized up front, since a code base of a
    // million lines has tens of thousands of types and this runs on one thread.
    let typeCount = files.reduce(0) { $0 + $1.types.count }
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
    var byQualified: [String: [TypeDecl]] = [:]
    byQualified.reserveCapacity(typeCount)
    var subclasses: [String: [String]] = [:]
    for file in files {
      for type in file.types {
        let key = type.isExtension ? Index.resolve(type.qualifiedName, simpleNames: simpleNames) : type.qualifiedName
        // A type's first declaration (not an extension) says what it inherits from.
        if Index.append(type, to: &byQualified[key, default: []]), let parent = type.inherited.first {
          subclasses[Index.resolve(parent, simpleNames: simpleNames), default: []].append(key)
        }
      }
    }
    for parent in Array(subclasses.keys) { subclasses[parent]?.sort() }
    self.qualifiedNamesBySimpleName = simpleNames
    self.declarationsByQualifiedName = byQualified
    self.subclassesByName = subclasses
    mutatingMethodNames = files.reduce(into: ReferenceAnalysis.mutatingMethodNames) { $0.formUnion($1.mutatingMethodNames) }
    let singletons = SingletonDetector.singletons(in: byQualified)
    self.singletons = singletons
    var accessorsByType: [String: Set<String>] = [:]
    for singleton in singletons { accessorsByType[singleton.typeName, default: []].formUnion(singleton.accessors) }
    var references: [Reference] = []
    var referencesByType: [String: [Reference]] = [:]
    for file in files {
      for reference in file.candidateReferences {
        let written = reference.baseName == "Self" ? (reference.context.typeName ?? "") : reference.baseName
        let type = Index.resolve(written, simpleNames: simpleNames)
        guard accessorsByType[type]?.contains(reference.accessor) == true else { continue }
        references.append(reference)
        referencesByType[type, default: []].append(reference)
      }
    }
    self.references = references
    self.referencesByType = referencesByType
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

  /// Every declared or extended type's qualified name, sorted.
  public var allTypeNames: [String] { declarationsByQualifiedName.keys.sorted() }

  /// Whether a type of this qualified name is declared or extended.
  public func hasType(_ qualifiedName: String) -> Bool { declarationsByQualifiedName[qualifiedName] != nil }

  /// The qualified name a type written as `written` most likely means.
  static func resolve(_ written: String, simpleNames: [String: [String]]) -> String {
    if !written.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ".") }) {
      // A plain name: no generic arguments to strip and no components to split.
      guard let candidates = simpleNames[written] else { return written }
      if candidates.contains(written) { return written }
      if let suffixed = candidates.first(where: { $0.hasSuffix("." + written) }) { return suffixed }
      return candidates.count == 1 ? candidates[0] : written
    }
    let stripped = written.split(separator: "<").first.map(String.init) ?? written
    let last = stripped.split(separator: ".").last.map(String.init) ?? stripped
    guard let candidates = simpleNames[last] else { return stripped }
    if candidates.contains(stripped) { return stripped }
    if let suffixed = candidates.first(where: { stripped.hasSuffix("." + $0) || $0.hasSuffix("." + stripped) }) {
      return suffixed
    }
    return candidates.count == 1 ? candidates[0] : stripped
  }

  public func resolveType(_ written: String) -> String {
    Index.resolve(written, simpleNames: qualifiedNamesBySimpleName)
  }

  /// The type's declaration and all its extensions, in file order.
  public func declarations(of qualifiedName: String) -> [TypeDecl] {
    declarationsByQualifiedName[qualifiedName] ?? []
  }

  /// Qualified names of every declared type (not extensions) with this simple or qualified name.
  public func types(named name: String) -> [String] {
    if declarationsByQualifiedName[name]?.contains(where: { !$0.isExtension }) == true { return [name] }
    let last = name.split(separator: ".").last.map(String.init) ?? name
    return qualifiedNamesBySimpleName[last] ?? []
  }

  /// Types whose first inherited type is `qualifiedName` (direct subclasses, for a class).
  public func subclasses(of qualifiedName: String) -> [String] {
    subclassesByName[qualifiedName] ?? []
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

  /// The singleton type a reference's base names.
  public func resolvedBase(of reference: Reference) -> String {
    if reference.baseName == "Self", let type = reference.context.typeName { return resolveType(type) }
    return resolveType(reference.baseName)
  }

  /// The enclosing type of a reference, resolved to its declaration's qualified name.
  public func enclosingType(of reference: Reference) -> String? {
    reference.context.typeName.map(resolveType)
  }

  public var lineCount: Int { files.reduce(0) { $0 + $1.lineCount } }
}
