import Foundation

extension Index {
  /// The name a written type starts with, where a generic parameter or a local type would stand:
  /// `T` of `T`, `T.Element`, `T<U>`, `T?` and `T!`. The one reading of "the first component".
  public static func firstName(ofWritten written: String) -> String {
    String(written.prefix { $0 != "." && $0 != "<" && $0 != "?" && $0 != "!" && $0 != " " })
  }

  /// The qualified name a type written as `written` most likely means.
  ///
  /// A type declared with the very name written is the answer whatever other files declare: more
  /// files only add candidates after it. Only an answer that more files could change asks for them.
  static func resolve(_ written: String, simpleNames: [String: [String]], coverage: NameCoverage? = nil) -> String {
    if !written.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ".") }) {
      // A plain name: no generic arguments to strip and no components to split.
      let candidates = simpleNames[written]
      if candidates?.contains(written) == true { return written }
      coverage.needType(written)
      guard let candidates else { return written }
      if let suffixed = candidates.first(where: { endsWithComponent($0, written) }) { return suffixed }
      return candidates.count == 1 ? candidates[0] : written
    }
    let stripped = written.firstComponent(separatedBy: UInt8(ascii: "<")).map(String.init) ?? written
    let last = stripped.lastComponent(separatedBy: UInt8(ascii: ".")).map(String.init) ?? stripped
    let candidates = simpleNames[last]
    if candidates?.contains(stripped) == true { return stripped }
    coverage.needType(written)
    guard let candidates else { return stripped }
    if let suffixed = candidates.first(where: { endsWithComponent(stripped, $0) || endsWithComponent($0, stripped) }) {
      return suffixed
    }
    return candidates.count == 1 ? candidates[0] : stripped
  }

  /// `whole.hasSuffix("." + tail)`, without making the string: a type with a common simple name
  /// (generated code nests hundreds of `OneOf_Kind`s) has many candidates to test.
  public static func endsWithComponent(_ whole: String, _ tail: String) -> Bool {
    let bytes = whole.utf8.withContiguousStorageIfAvailable { whole in
      tail.utf8.withContiguousStorageIfAvailable { tail -> Bool in
        guard whole.count > tail.count, let wholeBase = whole.baseAddress else { return false }
        let start = whole.count - tail.count
        guard whole[start - 1] == UInt8(ascii: ".") else { return false }
        guard let tailBase = tail.baseAddress else { return true }
        return memcmp(wholeBase + start, tailBase, tail.count) == 0
      }
    }
    switch bytes {
    case true?: return true
    // Equal bytes are equal strings; unequal ASCII bytes are unequal strings. Otherwise the
    // standard library decides (canonically equivalent spellings).
    case false? where whole.utf8.allSatisfy({ $0 < 0x80 }) && tail.utf8.allSatisfy({ $0 < 0x80 }): return false
    default: return whole.hasSuffix("." + tail)
    }
  }
}

extension Index {
  /// The simple names of the type aliases that mean one of `qualifiedNames`, directly or through
  /// other aliases, sorted: a creation can name one instead of the type (`typealias W = Widget`,
  /// `W()`). An alias's declaration names what it means: the files with `typealias` and a type's
  /// name in them, then each alias's name found, are asked for, so a partial index finds them all.
  public func typeAliasNames(meaningAnyOf qualifiedNames: Set<String>) -> [String] {
    var names: Set<String> = []
    // The names an alias that means one of the types can write: theirs, then the aliases' found.
    var written = Set(qualifiedNames.map(FrameworkTypes.lastComponent))
    var asked: Set<String> = []
    while true {
      for word in written.subtracting(asked) { coverage?.needAliasTarget(word) }
      asked.formUnion(written)
      var found = false
      for alias in typeAliases.aliases(writing: written) {
        let name = FrameworkTypes.lastComponent(alias)
        guard !names.contains(name),
          let meant = typeAliases.resolve(alias, from: nil, simpleNames: qualifiedNamesBySimpleName, coverage: coverage),
          qualifiedNames.contains(meant)
        else { continue }
        names.insert(name)
        written.insert(name)
        found = true
      }
      if !found { return names.sorted() }
    }
  }
}

/// The tables an index answers what a written type names from: also asked before the index is
/// made, by the attribution of references (`ImplicitMemberLookup`). Each question has one rule
/// here, which the index's own functions of the same names call.
struct TypeTables: Sendable {
  let declarations: [String: [TypeDecl]]
  let simpleNames: [String: [String]]
  let typeAliases: TypeAliasTable
  let coverage: NameCoverage?

  /// `Index.resolveType(_:)`.
  func resolveType(_ written: String) -> String {
    let resolved = Index.resolve(written, simpleNames: simpleNames, coverage: coverage)
    if declarations[resolved] == nil,
      let aliased = typeAliases.resolve(written, from: nil, simpleNames: simpleNames, coverage: coverage)
    {
      return aliased
    }
    return resolved
  }

  /// The project type `written` names inside the type `scope` (a qualified name): a type nested in
  /// it or in a type around it first, then a type alias seen from there, then a type of that name
  /// declared anywhere (`resolveType`); nil when the project declares none, or the name is
  /// ambiguous.
  func projectType(_ written: String, in scope: String) -> String? {
    let stripped = written.firstComponent(separatedBy: UInt8(ascii: "<")).map(String.init) ?? written
    // Every file that can declare a type of the name, nested or not, answers.
    coverage.needType(stripped)
    if !stripped.contains(".") {
      var enclosing: Substring? = Substring(scope)
      while let outer = enclosing {
        let nested = outer + "." + stripped
        if declarations[nested] != nil { return nested }
        enclosing = outer.lastIndex(of: ".").map { outer[..<$0] }
      }
    }
    if let aliased = typeAliases.resolve(written, from: scope, simpleNames: simpleNames, coverage: coverage) {
      return declarations[aliased] == nil ? nil : aliased
    }
    let resolved = Index.resolve(written, simpleNames: simpleNames, coverage: coverage)
    return declarations[resolved] == nil ? nil : resolved
  }

  /// Whether a type written in a declaration inside `scope` (the type or extension around it, as
  /// written, or a qualified name; nil at the top level) may stand for a type the code does not
  /// write there: `Self`, or a name whose first component (`T` of `T`, `T.Element`, `T?`) is a
  /// generic parameter of the scope or of a type around it (`Outer<T>.Inner`), or an associated
  /// type of a protocol among them. In an extension of a type the project does not declare
  /// (`extension Array`), the framework's usual names of generic parameters and associated types.
  /// The one rule for a parameter's, a property's and a returned value's declared type. An alias
  /// declared in one of those types stands for what it names (`typealias Me = T`).
  func mayNameGenericParameter(_ written: String, in scope: String?, aliasDepth: Int = 0) -> Bool {
    let first = Index.firstName(ofWritten: written)
    if first == "Self" { return true }
    guard let scope, !first.isEmpty else { return false }
    let components = resolveType(scope).split(separator: ".")
    for end in components.indices {
      guard let primary = primaryOutline(of: components[...end].joined(separator: ".")) else {
        if FrameworkTypes.isGenericParameterName(first) { return true }
        continue
      }
      if primary.genericParameters.contains(first) { return true }
    }
    // A cycle of aliases does not compile; a few levels at most.
    coverage.needType(first)
    guard aliasDepth < 8, let (aliased, owner) = typeAliases.declared(first, in: components.joined(separator: ".")) else {
      return false
    }
    return mayNameGenericParameter(aliased, in: owner, aliasDepth: aliasDepth + 1)
  }

  /// `Mode` for `Mode?`, `Mode!` and `Mode??`.
  static func unwrapped(_ written: String) -> String {
    var text = Substring(written)
    while text.hasSuffix("?") || text.hasSuffix("!") { text = text.dropLast() }
    return String(text)
  }

  /// `Index.primaryOutline(of:)`.
  func primaryOutline(of qualifiedName: String) -> TypeDecl? {
    coverage.needOutline(qualifiedName)
    return declarations[qualifiedName]?.first { !$0.isExtension }
  }

  /// `Index.kind(ofWritten:)`.
  func kind(ofWritten written: String) -> Index.TypeKindAnswer {
    var name = written
    for prefix in ["any ", "some ", "@unchecked ", "@preconcurrency "] where name.hasPrefix(prefix) {
      name = String(name.dropFirst(prefix.count))
    }
    if let primary = primaryOutline(of: resolveType(name)) { return .project(primary.kind) }
    if FrameworkTypes.class(named: name) != nil { return .frameworkClass }
    if FrameworkTypes.isProtocol(name) { return .frameworkProtocol }
    return .unknown
  }

  /// `Index.superclass(of:)`.
  func superclass(of qualifiedName: String) -> Index.SuperclassAnswer {
    guard let primary = primaryOutline(of: qualifiedName), primary.kind == .class,
      let first = primary.inherited.first
    else { return .none }
    switch kind(ofWritten: first) {
    case .project(.class): return .project(resolveType(first))
    case .project, .frameworkProtocol: return .none
    case .frameworkClass: return .framework(FrameworkTypes.lastComponent(first))
    case .unknown: return .unknown(first)
    }
  }
}

extension TypeAliasTable {
  /// The type an alias of this name declared in `scope` (a qualified type name) or a type around
  /// it says, as written, and the type it is declared in.
  func declared(_ name: String, in scope: String) -> (aliased: String, owner: String)? {
    var owner = scope
    while true {
      if let aliased = aliasedTypes[owner + "." + name] { return (aliased, owner) }
      guard let dot = owner.lastIndex(of: ".") else { return nil }
      owner = String(owner[..<dot])
    }
  }

  /// Whether an alias with the simple name of `written`, declared in any type, means `type` (an
  /// optional's too): where aliases of the name in several types leave `resolve` without an answer.
  func someAlias(named written: String, means type: String, simpleNames: [String: [String]], coverage: NameCoverage?) -> Bool {
    let last = written.lastComponent(separatedBy: UInt8(ascii: ".")).map(String.init) ?? written
    return (qualifiedNamesBySimpleName[last] ?? []).contains {
      resolve($0, from: nil, simpleNames: simpleNames, coverage: coverage, unwrappingOptionals: true) == type
    }
  }
}

extension Index {
  /// What a reference whose written base names no singleton with its accessor may still be:
  /// `T.shared`, or `.shared` where the declared type is `T` (`var fallback: T { .shared }` in an
  /// extension of `Box<T>`), `Self` in a protocol's extension or a framework type's: the type a
  /// generic parameter stands for, any singleton with the accessor. Otherwise a type the
  /// declarations do not settle (an alias of an optional, `let s: Ref<Store> = .shared`).
  static func unsettled(_ reference: Reference, written: String, type: String, tables: TypeTables) -> ImplicitArgument {
    let undeclared = tables.declarations[type] == nil
    // An explicit `Self` reads as the type around it: in a protocol's extension it is a
    // conformer's, which the one-singleton loader would have to find (not yet asked).
    let generic =
      reference.baseName != "Self" && undeclared && !FrameworkTypes.isClass(written)
      && tables.mayNameGenericParameter(written, in: reference.context.typeName)
    return generic ? .unknown : .declared([.named(written)])
  }
}
