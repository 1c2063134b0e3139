import Foundation

/// The property an implicit member is assigned to or compared with (`mode = .shared`,
/// `networks[i].mode == .shared`): the members reached from the enclosing type's instance (`[]`
/// for a subscript's element), as `ReferenceCollector.peerChain(of:)` reads them.
public struct PropertyPeer: Hashable, Sendable {
  public var steps: [String]
  /// Compared with `==` or `!=`, not assigned: the member is looked up in the type an overload of
  /// the operator gives it, which the property's type settles only for an enum or a struct.
  public var compared: Bool
  /// Matched by a case pattern (`switch mode { case .shared: }`): compared through `~=`, not `==`.
  public var matched: Bool

  public init(steps: [String], compared: Bool, matched: Bool = false) {
    self.steps = steps
    self.compared = compared
    self.matched = matched
  }
}

extension ImplicitArgumentSlot {
  /// The slot of an implicit member assigned to or compared with `peer` in `context`; nil where
  /// `self` is no instance (a static member, top-level code).
  public static func property(_ peer: PropertyPeer, in context: ReferenceContext) -> ImplicitArgumentSlot? {
    guard !context.isStatic, let owner = context.typeName else { return nil }
    var slot = ImplicitArgumentSlot(initializedType: nil, function: nil, label: "_")
    slot.peer = peer
    slot.owner = owner
    return slot
  }
}

extension ImplicitMemberLookup {
  /// What the declarations say of the property an implicit member is assigned to or compared with,
  /// from `owner`'s instance: each member's declared type (`declaredProperty`), and an array's or
  /// dictionary's element for `[]`. A project type (`.declared`, by its qualified name, as the
  /// declaring type sees the name); a framework type the model knows (`.framework`); else not told.
  /// Compared, an enum's or struct's type, with every type the project's `==` and `!=` take.
  mutating func property(_ peer: PropertyPeer, in owner: String) -> ImplicitArgument {
    var holder = Index.resolve(owner, simpleNames: simpleNames, coverage: coverage)
    // The type written for what was reached so far, and the type that wrote it.
    var written: (text: String, scope: String)?
    for (position, step) in peer.steps.enumerated() {
      if step == "[]" {
        guard let (text, scope) = written, let element = Self.elementType(of: TypeTables.unwrapped(text)) else {
          return .unknown
        }
        written = (element, scope)
        continue
      }
      if let (text, scope) = written {
        guard let type = tables.projectType(TypeTables.unwrapped(text), in: scope) else { return .unknown }
        holder = type
      }
      switch declaredProperty(step, in: holder) {
      case .found(let text, let declaringType): written = (text, declaringType)
      // A framework class's property has a framework type; what is reached through it is not told.
      case .framework: return position == peer.steps.count - 1 && !peer.compared ? .framework : .unknown
      case .unknown: return .unknown
      }
    }
    guard let (text, scope) = written.map({ (TypeTables.unwrapped($0.text), $0.scope) }), !text.isEmpty,
      !text.hasPrefix("("), text != "Self", !text.hasPrefix("some "), !text.hasPrefix("any ")
    else { return .unknown }
    if text.hasPrefix("[") || text.contains("->") { return peer.compared ? .unknown : .declared([.structural]) }
    guard !tables.mayNameGenericParameter(text, in: scope) else { return .unknown }
    guard let type = tables.projectType(text, in: scope) else {
      let known = FrameworkTypes.isClass(text) || FrameworkTypes.isProtocol(text)
      return known && !peer.compared ? .framework : .unknown
    }
    guard peer.compared else { return .declared([.named(type)]) }
    // `==` (`~=` for a case pattern) may be declared for a superclass's type, or between two types:
    // only an enum's or a struct's own is its type, with any other type an overload of the project's takes.
    guard let kind = tables.primaryOutline(of: type)?.kind, kind == .enum || kind == .struct else { return .unknown }
    var types: Set<ParameterType> = [.named(type)]
    for operation in peer.matched ? ["~="] : ["==", "!="] {
      // An operator's arguments take no labels, whatever its parameters are named.
      coverage?.needCallable(operation)
      types.formUnion(parameterTypes(ofEvery: operation, operand: type))
    }
    return .declared(types)
  }

  enum DeclaredProperty {
    /// Its type as written (or as its initial value creates it), and the type that declares it.
    case found(String, in: String)
    /// Declared by none of the project's declarations of the type, its superclasses, the framework
    /// classes the chain ends in and the protocols they conform to, and by no other declaration of
    /// the project either: a framework class's own.
    case framework
    case unknown
  }

  /// An instance property of `type` by name: in its declarations and extensions, then in its
  /// superclasses' (`TypeTables.superclass(of:)`), a framework superclass's extensions in the
  /// project too, then in the project's protocols they conform to (their requirements and
  /// extensions, and the protocols those inherit). Unknown where the chain leaves what the model
  /// knows. A framework class's own only where no declaration of the project at all has a callable
  /// of the name: not a global, a static property of an enclosing type, or a property an extension
  /// of a framework protocol adds.
  mutating func declaredProperty(_ name: String, in type: String) -> DeclaredProperty {
    let tables = self.tables
    var protocols: [String] = []
    var seen: Set<String> = []
    func declared(in type: String) -> DeclaredProperty? {
      coverage.needMembers(type)
      let declarations = self.declarations[type] ?? []
      for declaration in declarations {
        for written in declaration.inherited where tables.kind(ofWritten: written) == .project(.protocol) {
          protocols.append(tables.resolveType(written))
        }
      }
      guard let property = declarations.lazy.flatMap(\.members).first(where: {
        $0.kind == .property && !$0.isStatic && $0.name == name
      }) else { return nil }
      let text = property.typeText ?? property.initializerText.flatMap(Index.createdTypeName)
      return text.map { .found($0, in: type) } ?? .unknown
    }
    var current = type
    var reachesFramework = false
    classes: while seen.insert(current).inserted {
      if let answer = declared(in: current) { return answer }
      switch tables.superclass(of: current) {
      case .project(let superclass):
        current = superclass
      case .framework(let framework):
        var frameworkClass: String? = framework
        while let name = frameworkClass, seen.insert(name).inserted {
          if let answer = declared(in: name) { return answer }
          frameworkClass = FrameworkTypes.class(named: name)?.superclass
        }
        reachesFramework = true
        break classes
      case .none, .unknown:
        break classes
      }
    }
    while let next = protocols.popLast() {
      guard seen.insert(next).inserted else { continue }
      if let answer = declared(in: next) { return answer }
    }
    guard reachesFramework else { return .unknown }
    coverage?.needCallable(name)
    return declaresCallable(name) ? .unknown : .framework
  }

  /// What a subscript of an array or dictionary type written in brackets gives: `T` for `[T]`, `V`
  /// for `[K: V]`; nil for any other type.
  static func elementType(of written: String) -> String? {
    guard written.hasPrefix("["), written.hasSuffix("]") else { return nil }
    let inner = written.dropFirst().dropLast()
    var depth = 0
    for position in inner.indices {
      switch inner[position] {
      case "[", "(", "<": depth += 1
      case "]", ")", ">": depth -= 1
      case ":" where depth == 0:
        return inner[inner.index(after: position)...].trimmingCharacters(in: .whitespaces)
      default: break
      }
    }
    let element = inner.trimmingCharacters(in: .whitespaces)
    return element.isEmpty ? nil : element
  }
}
