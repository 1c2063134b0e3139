/// What an implicit member passed as an argument (`f(session: .shared)`) is looked up in, as far
/// as the declarations of the call's callee tell.
public enum ImplicitArgument: Equatable, Sendable {
  /// A parameter of an init of a type the code does not declare (`URLSession(configuration:
  /// .default)`), or of a function or method no code here declares (`present(.shared)`): a
  /// framework type, which only a singleton declared in an extension of a framework type can be.
  case framework
  /// The types the callee's declarations give the parameter with that label.
  case declared(Set<ParameterType>)
  /// Not told: no callee named, or none of its declarations has a parameter with that label (an
  /// inherited init, an enum case's payload).
  case unknown
}

extension Reference {
  /// For `.unresolvedImplicit`: the call it is an argument of, when the call names its callee.
  public var implicitSlot: ImplicitArgumentSlot? {
    implicitLabel.map { ImplicitArgumentSlot(initializedType: implicitCallee, function: implicitFunction, label: $0) }
  }
}

extension Index {
  /// What the parameter an implicit member is passed to says of its type (`ImplicitArgument`).
  public func implicitArgument(_ slot: ImplicitArgumentSlot) -> ImplicitArgument {
    var lookup = ImplicitMemberLookup(
      files: files, declarations: declarationsByQualifiedName, simpleNames: qualifiedNamesBySimpleName,
      typeAliases: typeAliases, coverage: coverage, mergesTables: false)
    return lookup.argument(slot)
  }
}

/// The one answer to "which type is an implicit member argument looked up in": the index's
/// attribution of `.shared` and the planner's creations by `.init(...)` both ask it.
struct ImplicitMemberLookup {
  let files: [FileSummary]
  let declarations: [String: [TypeDecl]]
  let simpleNames: [String: [String]]
  let typeAliases: TypeAliasTable
  let coverage: NameCoverage?
  /// Merge every file's tables once, for a lookup that answers many questions (the index's
  /// attribution); otherwise each question reads the files' own tables.
  let mergesTables: Bool
  private var callableNames: Set<String>?
  private var slots: [ParameterSlot: Set<ParameterType>]?

  init(
    files: [FileSummary], declarations: [String: [TypeDecl]], simpleNames: [String: [String]],
    typeAliases: TypeAliasTable, coverage: NameCoverage?, mergesTables: Bool
  ) {
    self.files = files
    self.declarations = declarations
    self.simpleNames = simpleNames
    self.typeAliases = typeAliases
    self.coverage = coverage
    self.mergesTables = mergesTables
  }

  mutating func argument(_ slot: ImplicitArgumentSlot?) -> ImplicitArgument {
    guard let slot else { return .unknown }
    if let callee = slot.initializedType {
      guard declarations[Index.resolve(callee, simpleNames: simpleNames, coverage: coverage)] != nil else {
        return .framework
      }
      let stripped = callee.firstComponent(separatedBy: UInt8(ascii: "<")).map(String.init) ?? callee
      let simple = stripped.lastComponent(separatedBy: UInt8(ascii: ".")).map(String.init) ?? stripped
      guard let types = parameterTypes(.initializer(of: simple, label: slot.label)) else { return .unknown }
      return .declared(types)
    }
    if let name = slot.function {
      coverage?.needCallable(name)
      guard declaresCallable(name) else { return .framework }
      guard let types = parameterTypes(ParameterSlot(callee: name, label: slot.label)) else { return .unknown }
      return .declared(types)
    }
    return .unknown
  }

  /// Whether an argument so declared can take the singleton `type`'s implicit member: a framework
  /// parameter only when the singleton is declared in an extension of a framework type; a declared
  /// parameter when one of its types names the type (through aliases, optionals unwrapped), or a
  /// protocol (whose extension can declare the member for it), or a type its declaration does not
  /// tell (a generic parameter).
  func argument(_ argument: ImplicitArgument, canBe type: String) -> Bool {
    switch argument {
    case .framework:
      return declarations[type]?.contains(where: { !$0.isExtension }) != true
    case .unknown:
      return true
    case .declared(let types):
      return types.contains { parameterType in
        switch parameterType {
        case .structural: return false
        case .unknown: return true
        case .named(let written):
          var resolved = Index.resolve(written, simpleNames: simpleNames, coverage: coverage)
          if declarations[resolved] == nil,
            let aliased = typeAliases.resolve(written, from: nil, simpleNames: simpleNames, coverage: coverage)
          {
            resolved = aliased
          }
          return resolved == type || declarations[resolved]?.contains { $0.kind == .protocol } == true
        }
      }
    }
  }

  private mutating func declaresCallable(_ name: String) -> Bool {
    guard mergesTables else { return files.contains { $0.callableNames.contains(name) } }
    if callableNames == nil { callableNames = files.reduce(into: []) { $0.formUnion($1.callableNames) } }
    return callableNames?.contains(name) == true
  }

  private mutating func parameterTypes(_ slot: ParameterSlot) -> Set<ParameterType>? {
    guard mergesTables else {
      var found: Set<ParameterType>?
      for file in files {
        if let types = file.parameterSlots[slot] { found = (found ?? []).union(types) }
      }
      return found
    }
    if slots == nil {
      slots = files.reduce(into: [:]) { table, file in table.merge(file.parameterSlots) { $0.union($1) } }
    }
    return slots?[slot]
  }
}
