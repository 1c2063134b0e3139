import Foundation
import SwiftSyntax

/// What an implicit member passed as an argument (`f(session: .shared)`) is looked up in, as far
/// as the declarations of the call's callee tell; or one assigned to or compared with a property,
/// as far as the declarations of the property (and of the `==` and `!=` overloads) tell.
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
  /// For `.unresolvedImplicit`: the call it is an argument of, when the call names its callee; or
  /// the property it is assigned to or compared with, in an instance member.
  public var implicitSlot: ImplicitArgumentSlot? {
    if let peer = implicitPeer { return .property(peer, in: context) }
    return implicitLabel.map {
      ImplicitArgumentSlot(
        initializedType: implicitCallee, function: implicitFunction, label: $0, inArray: implicitInArray,
        enclosingInit: implicitEnclosingInit)
    }
  }
}

extension Index {
  /// What the parameter an implicit member is passed to says of its type (`ImplicitArgument`).
  public func implicitArgument(_ slot: ImplicitArgumentSlot) -> ImplicitArgument {
    implicitLookup.argument(slot)
  }

  /// What the declarations say of the property an implicit member (`.shared`, `.init(...)`) is
  /// assigned to or compared with (`ReferenceCollector.peerChain(of:)`), in an instance member;
  /// nil where it is neither. The rule the index attributes `.shared` by.
  public func assignedProperty(of instance: ExprSyntax) -> ImplicitArgument? {
    guard let peer = ReferenceCollector.peerChain(of: instance) else { return nil }
    guard let slot = ImplicitArgumentSlot.property(peer, in: ReferenceContextFinder.context(of: Syntax(instance))) else {
      return .unknown
    }
    return implicitLookup.argument(slot)
  }
}

/// The index's one `ImplicitMemberLookup`, shared by its copies: the one its attribution of `.shared`
/// merged the files' tables into, asked again by the planners (each `.init(...)` passed to a call).
final class SharedImplicitLookup: @unchecked Sendable {
  private let lock = NSLock()
  private var lookup: ImplicitMemberLookup

  init(_ lookup: ImplicitMemberLookup) {
    self.lookup = lookup
  }

  func argument(_ slot: ImplicitArgumentSlot) -> ImplicitArgument {
    lock.lock()
    defer { lock.unlock() }
    return lookup.argument(slot)
  }
}

/// The one answer to "which type is an implicit member argument looked up in": the index's
/// attribution of `.shared` and the planner's creations by `.init(...)` both ask it.
struct ImplicitMemberLookup {
  let files: [FileSummary]
  /// What a written type names (`TypeTables`), the index's own.
  let tables: TypeTables
  var declarations: [String: [TypeDecl]] { tables.declarations }
  var simpleNames: [String: [String]] { tables.simpleNames }
  var typeAliases: TypeAliasTable { tables.typeAliases }
  var coverage: NameCoverage? { tables.coverage }
  /// Every file's tables, merged on the first question that reads them.
  private var callableNames: Set<String>?
  private var slots: [ParameterSlot: Set<ParameterFact>]?
  /// Every slot of each callee's name, with `slots`.
  private var slotsByCallee: [String: [ParameterSlot]] = [:]
  /// `parameterTypes(_:)`'s answers: each slot's facts read once.
  private var declaredTypes: [ParameterSlot: Set<ParameterType>] = [:]

  init(files: [FileSummary], tables: TypeTables) {
    self.files = files
    self.tables = tables
  }

  mutating func argument(_ slot: ImplicitArgumentSlot?) -> ImplicitArgument {
    guard let slot else { return .unknown }
    if let peer = slot.peer, let owner = slot.owner { return property(peer, in: owner) }
    // An array's element: a framework parameter's elements are the framework's; a declared one
    // says the array's type, not the element's.
    if slot.inArray {
      var direct = slot
      direct.inArray = false
      return argument(direct) == .framework ? .framework : .unknown
    }
    if let callee = slot.initializedType {
      // Through a type alias too (`Maker(store: .shared)` for `typealias Maker = Fetcher`).
      let resolved = tables.resolveType(callee)
      if let enclosing = slot.enclosingInit { return enclosingInitArgument(enclosing, in: resolved, label: slot.label) }
      guard declarations[resolved] != nil else {
        let generic = Self.genericTypes.contains(Self.lookupName(callee)) || Self.genericTypes.contains(Self.lookupName(resolved))
        return generic ? .unknown : .framework
      }
      guard let types = parameterTypes(.initializer(of: Self.lookupName(resolved), label: slot.label)) else {
        return .unknown
      }
      return .declared(types)
    }
    if let name = slot.function {
      // With a label, only the callables with a parameter of that label can tell: where none is
      // declared, the answer is the same whether other callables of the name are or not.
      // A standard library method that takes a value of any type (`stores.append(.shared)`) may be
      // the one called, whatever the project declares of that name.
      if Self.genericFunctions.contains(name) { return .unknown }
      coverage?.needCallable(name, label: slot.label)
      guard declaresCallable(name) else { return .framework }
      guard let types = parameterTypes(ParameterSlot(callee: name, label: slot.label)) else {
        // Callables of that name declared here, none with a parameter of that label: the call is
        // to another's, a framework method's (`RunLoop.main.add(timer, forMode: .default)`). An
        // unlabeled argument may go to a closure property of that name, which declares no label.
        return slot.label == "_" ? .unknown : .framework
      }
      return .declared(types)
    }
    return .unknown
  }

  /// An argument of an init of the enclosing type `type` (`EnclosingInit`): what the declarations
  /// give the label, only where no other declaration can declare that init. That is a struct, an
  /// enum (but for `rawValue`, which the compiler may synthesize), an actor or a class without a
  /// superclass, which the project declares. A class with a superclass may inherit inits, a
  /// protocol its requirements (and its associated types are anything), and a type only extended
  /// here has inits declared elsewhere. A parameter typed by a generic parameter of the type or of
  /// a type around it (`T`, `T.Element`, as an extension writes them) may be anything.
  /// `super.init(...)` of a framework class calls one of the framework's designated inits (an
  /// extension adds convenience inits only).
  private mutating func enclosingInitArgument(_ kind: EnclosingInit, in type: String, label: String) -> ImplicitArgument {
    var owner = type
    if kind == .superclass {
      switch tables.superclass(of: type) {
      case .project(let superclass): owner = superclass
      case .framework: return .framework
      case .unknown, .none: return .unknown
      }
    }
    guard let primary = tables.primaryOutline(of: owner) else { return .unknown }
    switch primary.kind {
    case .struct, .actor: break
    case .enum where label != "rawValue": break
    case .class where tables.superclass(of: owner) == .none: break
    default: return .unknown
    }
    guard let types = parameterTypes(.initializer(of: Self.lookupName(owner), label: label)) else { return .unknown }
    return .declared(types)
  }

  /// Whether an argument so declared can take the singleton `type`'s implicit member: a framework
  /// parameter only when the singleton is declared in an extension of a framework type; a declared
  /// parameter when one of its types can name the type (its simple name, or a type alias of it),
  /// or is a type its declaration does not tell (a generic parameter, `some P`). A protocol's
  /// implicit members are its own extensions' (the singleton of that protocol, if any).
  ///
  /// Through a type alias (of an optional too: `typealias MaybeStore = Store?`), asking the files
  /// that can declare one; and a written type whose meaning the declarations do not settle that
  /// writes the singleton's name (`Ref<Store>`, `Swift.Optional<Store>`, `Box<Store>.Value`).
  func argument(_ argument: ImplicitArgument, canBe type: String) -> Bool {
    switch argument {
    case .framework:
      return declarations[type]?.contains(where: { !$0.isExtension }) != true
    case .unknown:
      return true
    case .declared(let types):
      let simple = Self.lookupName(type)
      return types.contains { parameterType in
        switch parameterType {
        case .structural: return false
        case .unknown: return true
        case .named(let written): return names(written, type, simple: simple)
        }
      }
    }
  }

  /// Whether a written type can name the singleton `type` (simple name `simple`).
  func names(_ written: String, _ type: String, simple: String) -> Bool {
    if Self.lookupName(written) == simple { return true }
    if let aliased = typeAliases.resolve(
      written, from: nil, simpleNames: simpleNames, coverage: coverage, unwrappingOptionals: true)
    {
      return aliased == type
    }
    // Aliases of the name declared in several types (`A.S`, `B.S`): the name alone does not say which.
    if typeAliases.someAlias(named: written, means: type, simpleNames: simpleNames, coverage: coverage) { return true }
    return written.contains("<") && Self.writes(written, word: simple)
  }

  /// Whether `word` is one of the identifiers of `written`.
  static func writes(_ written: String, word: String) -> Bool {
    written.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }).contains { $0 == word }
  }

  /// Whether an argument so declared certainly takes the singleton `type`'s member: every
  /// declaration of its parameter names `type` (`init(context: AppContext)` for
  /// `ViewModel(context: .shared)`), so the member is that singleton's accessor.
  func argument(_ argument: ImplicitArgument, certainlyIs type: String) -> Bool {
    guard case .declared(let types) = argument, !types.isEmpty else { return false }
    return types.allSatisfy { parameterType in
      guard case .named(let written) = parameterType else { return false }
      if Index.resolve(written, simpleNames: simpleNames, coverage: coverage) == type { return true }
      return typeAliases.resolve(written, from: nil, simpleNames: simpleNames, coverage: coverage, unwrappingOptionals: true) == type
    }
  }

  /// Standard library and framework types whose inits take a value of any type, which the context
  /// gives (`Optional(.shared)`, `Just(.shared)`): their parameters rule no singleton out.
  static let genericTypes: Set<String> = [
    "Optional", "Array", "Set", "Dictionary", "Result", "Just", "CurrentValueSubject", "Published", "State", "Binding",
    "StateObject", "ObservedObject", "Box", "Task", "AnyPublisher", "Future", "Deferred", "Lazy", "Weak", "Unmanaged",
    "ContiguousArray", "ArraySlice", "CollectionOfOne", "Repeated", "NSCache", "UnsafePointer", "UnsafeMutablePointer",
    "AsyncStream", "PassthroughSubject", "CheckedContinuation", "UnsafeContinuation",
  ]

  /// Standard library and framework methods and cases that take a value of any type, which the
  /// context gives (`list.append(.shared)`, `.some(.shared)`, `continuation.resume(returning: .shared)`).
  static let genericFunctions: Set<String> = [
    "some", "append", "insert", "contains", "firstIndex", "lastIndex", "updateValue", "send", "resume", "yield",
    "max", "min", "swap", "withExtendedLifetime", "withUnsafePointer", "assign", "store", "success", "failure",
    "init", "map", "flatMap", "compactMap", "filter", "reduce", "first", "last", "removeAll", "merge", "subscript",
    "replaceSubrange", "initialize", "setObject", "passUnretained", "passRetained", "repeatElement",
  ]

  /// The simple name a written type is looked up by (`Outer.Inner<T>` → `Inner`).
  static func lookupName(_ written: String) -> String { NameCoverage.key(written) ?? written }

  mutating func declaresCallable(_ name: String) -> Bool {
    if callableNames == nil { callableNames = files.reduce(into: []) { $0.formUnion($1.callableNames) } }
    return callableNames?.contains(name) == true
  }

  /// The types the declarations of the slot's callables give its parameter; nil where none has
  /// a parameter of the slot.
  mutating func parameterTypes(_ slot: ParameterSlot) -> Set<ParameterType>? {
    readSlots()
    if let known = declaredTypes[slot] { return known }
    guard let facts = slots?[slot] else { return nil }
    let types = Set(facts.map(declaredType))
    declaredTypes[slot] = types
    return types
  }

  private mutating func readSlots() {
    guard slots == nil else { return }
    var table: [ParameterSlot: Set<ParameterFact>] = [:]
    for file in files {
      for fact in file.parameters { table[fact.slot, default: []].insert(fact) }
    }
    slots = table
    for slot in table.keys { slotsByCallee[slot.callee, default: []].append(slot) }
  }

  /// The types of every parameter of every callable of the name, whatever its label. `operand`:
  /// the type an operator's `Self` stands for (`static func == (lhs: Self, rhs: Self)`, in a
  /// protocol's extension too, takes two values of one type).
  mutating func parameterTypes(ofEvery callee: String, operand: String? = nil) -> Set<ParameterType> {
    readSlots()
    var types: Set<ParameterType> = []
    for slot in slotsByCallee[callee] ?? [] {
      guard let operand else {
        types.formUnion(parameterTypes(slot) ?? [])
        continue
      }
      types.formUnion((slots?[slot] ?? []).map { fact in
        fact.type == .named("Self") ? .named(operand) : declaredType(fact)
      })
    }
    return types
  }

  /// A parameter's type as its declaration gives it, or not told where a generic parameter may
  /// stand for it there (`TypeTables.mayNameGenericParameter`: `T` in `extension Box`).
  /// `Self` in a struct, an enum, an actor or a final class is that type (`static func == (lhs:
  /// Self, rhs: Self)`); elsewhere a subclass or a conforming type.
  private func declaredType(_ fact: ParameterFact) -> ParameterType {
    guard case .named(let written) = fact.type, tables.mayNameGenericParameter(written, in: fact.scope) else {
      return fact.type
    }
    if written == "Self", let scope = fact.scope {
      let type = tables.resolveType(scope)
      if let primary = tables.primaryOutline(of: type),
        [.struct, .enum, .actor].contains(primary.kind) || (primary.kind == .class && primary.modifiers.contains("final"))
      {
        return .named(type)
      }
    }
    return .unknown
  }
}
