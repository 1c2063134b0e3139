import DesingletonCore

public enum AccessLevel: Int, Comparable, Sendable, Codable, CaseIterable {
  case `private`, `fileprivate`, `internal`, `package`, `public`, `open`

  public init?(keyword: String) {
    switch keyword {
    case "private": self = .private
    case "fileprivate": self = .fileprivate
    case "internal": self = .internal
    case "package": self = .package
    case "public": self = .public
    case "open": self = .open
    default: return nil
    }
  }

  public var keyword: String {
    switch self {
    case .private: "private"
    case .fileprivate: "fileprivate"
    case .internal: "internal"
    case .package: "package"
    case .public: "public"
    case .open: "open"
    }
  }

  public static func < (lhs: AccessLevel, rhs: AccessLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A byte range in one file and where it starts, as people read it.
public struct SourceRange: Hashable, Sendable {
  public var path: String
  public var bytes: Range<Int>
  /// Line and column of the first byte (the path is stored once: an index holds a range for
  /// every member and reference).
  public var line: Int
  public var column: Int

  public init(path: String, bytes: Range<Int>, start: Location) {
    self.path = path
    self.bytes = bytes
    self.line = start.line
    self.column = start.column
  }

  public var start: Location { Location(path: path, line: line, column: column) }
}

/// One member declared in a type or in one of its extensions.
public struct MemberDecl: Hashable, Sendable {
  public enum Kind: String, Sendable, Codable {
    case property, method, initializer, `subscript`, typeAlias, nestedType, enumCase, associatedType
  }

  public var name: String
  public var kind: Kind
  /// `static` or `class`.
  public var isStatic: Bool
  /// Declared with `class` rather than `static`.
  public var isClassMember: Bool
  /// `let` for properties.
  public var isLet: Bool
  /// A stored property (no accessor block, or only observers).
  public var isStored: Bool
  /// For properties: whether the property can be set from outside its type's own code
  /// (a `var` without a setter access narrower than the property, or a computed property with `set`).
  public var isSettable: Bool
  /// `private(set)`, `fileprivate(set)`, ...
  public var setterAccess: AccessLevel?
  /// The access written on the declaration, if any.
  public var access: AccessLevel?
  /// Attributes as written, without arguments: `@MainActor`, `@objc`, `@discardableResult`.
  public var attributes: [String]
  /// Other modifiers as written: `override`, `mutating`, `final`, `required`, `convenience`, `nonisolated`, ...
  public var modifiers: [String]
  /// The property's type annotation, the method's return type, as written.
  public var typeText: String?
  /// The property's initializer expression, as written.
  public var initializerText: String?
  /// Argument labels of a method, initializer or subscript (`_` for none).
  public var labels: [String]
  /// The positions in `labels` of variadic parameters (`_ items: String...`), which take any
  /// number of arguments, none too.
  public var variadicPositions: [Int]
  /// For initializers: `init?` / `init!`.
  public var isFailable: Bool
  /// The declaration's whole range, attributes included.
  public var range: SourceRange
  /// The conditions of the `#if` clauses the declaration sits in, outermost first, each one a
  /// condition that holds exactly in its clause: `DEBUG` for `#if DEBUG`, `!DEBUG && os(Linux)` for
  /// `#elseif os(Linux)` after it, `!DEBUG && !os(Linux)` for the `#else`.
  public var conditions: [String]
  /// For a static computed property or static method whose body is one expression (or `return` of
  /// one): that expression, as written. It tells a factory (`static var defaults: Self { Self() }`)
  /// from an accessor returning stored state.
  public var returnedText: String?
  /// For a member of an Objective-C class: how Swift sees it (nil for Swift code).
  public var imported: ImportedMember?

  public init(
    name: String, kind: Kind, isStatic: Bool = false, isClassMember: Bool = false, isLet: Bool = false,
    isStored: Bool = false, isSettable: Bool = false, setterAccess: AccessLevel? = nil, access: AccessLevel? = nil,
    attributes: [String] = [], modifiers: [String] = [], typeText: String? = nil, initializerText: String? = nil,
    labels: [String] = [], variadicPositions: [Int] = [], isFailable: Bool = false, range: SourceRange,
    conditions: [String] = [], returnedText: String? = nil, imported: ImportedMember? = nil
  ) {
    self.imported = imported
    self.returnedText = returnedText
    self.name = name
    self.kind = kind
    self.isStatic = isStatic
    self.isClassMember = isClassMember
    self.isLet = isLet
    self.isStored = isStored
    self.isSettable = isSettable
    self.setterAccess = setterAccess
    self.access = access
    self.attributes = attributes
    self.modifiers = modifiers
    self.typeText = typeText
    self.initializerText = initializerText
    self.labels = labels
    self.variadicPositions = variadicPositions
    self.isFailable = isFailable
    self.range = range
    self.conditions = conditions
  }

  public var location: Location { range.start }
  public var isOverride: Bool { modifiers.contains("override") }
  /// `name(label:label:)` for methods and initializers, `name` for the rest.
  public var displayName: String {
    switch kind {
    case .method, .initializer: "\(name)(\(labels.map { "\($0):" }.joined()))"
    default: name
    }
  }
}

/// What a member declared in an Objective-C header is beyond its Swift declaration
/// (`ObjectiveCImporter`). A class, so that a Swift member carries one empty reference; equality
/// is by value.
public final class ImportedMember: Hashable, Sendable {
  /// Why its Swift declaration is not known exactly (a name the importer may shorten, a type
  /// desingleton does not map): the declaration in the interface is a guess, and no protocol may
  /// require it. Nil when it is known.
  public let problem: String?
  /// The Objective-C selector (`logScreen:duration:`) or property name.
  public let selector: String
  /// The problem is only which of two names the importer gives it (`restoreNote:(Note *)` is
  /// `restoreNote(_:)` or `restore(_:)`): a Swift call by the declaration's name and labels settles
  /// it (`Index.importProblem`).
  public let nameOnly: Bool
  /// With a problem: the Objective-C declaration, on one line (what `scan` shows for it).
  public let written: String?

  public init(problem: String?, selector: String, nameOnly: Bool = false, written: String? = nil) {
    self.problem = problem
    self.selector = selector
    self.nameOnly = nameOnly
    self.written = written
  }

  public static func == (lhs: ImportedMember, rhs: ImportedMember) -> Bool {
    lhs.problem == rhs.problem && lhs.selector == rhs.selector && lhs.nameOnly == rhs.nameOnly && lhs.written == rhs.written
  }

  public func hash(into hasher: inout Hasher) { hasher.combine(selector) }
}

/// A type declaration or an extension of one.
/// A class, so that the index's tables share one copy of each declaration; equality is by value.
public final class TypeDecl: Hashable, Sendable {
  public enum Kind: String, Sendable, Codable {
    case `class`, `struct`, `enum`, actor, `protocol`, `extension`
  }

  /// The name as declared (for an extension: the last component of the extended type).
  public let name: String
  /// Dotted path through enclosing types: `Outer.Inner`. For an extension, the extended type as written.
  public let qualifiedName: String
  public let kind: Kind
  /// Types and protocols in the inheritance clause, as written.
  public let inherited: [String]
  public let attributes: [String]
  public let modifiers: [String]
  public let access: AccessLevel?
  public let members: [MemberDecl]
  public let range: SourceRange
  /// Byte offset just after the `{` of the member block, and of its `}`.
  public let bodyOpen: Int
  public let bodyClose: Int
  /// The members were left out (`members` is empty): a scan keeps them only for types that can matter.
  public let membersOmitted: Bool
  /// A method is marked `@Test`, whether or not the members were kept: test code (`Index.isTestType`).
  public let hasTestMethod: Bool
  /// The generic parameters' names (`T` of `Box<T>`), a protocol's associated types; empty for a
  /// type that has none, and for an extension.
  public let genericParameters: [String]

  public init(
    name: String, qualifiedName: String, kind: Kind, inherited: [String], attributes: [String], modifiers: [String],
    access: AccessLevel?, members: [MemberDecl], range: SourceRange, bodyOpen: Int, bodyClose: Int,
    membersOmitted: Bool = false, hasTestMethod: Bool? = nil, genericParameters: [String] = []
  ) {
    self.genericParameters = genericParameters
    self.membersOmitted = membersOmitted
    self.hasTestMethod = hasTestMethod ?? members.contains { $0.kind == .method && $0.attributes.contains("@Test") }
    self.name = name
    self.qualifiedName = qualifiedName
    self.kind = kind
    self.inherited = inherited
    self.attributes = attributes
    self.modifiers = modifiers
    self.access = access
    self.members = members
    self.range = range
    self.bodyOpen = bodyOpen
    self.bodyClose = bodyClose
  }

  public static func == (lhs: TypeDecl, rhs: TypeDecl) -> Bool {
    lhs === rhs
      || (lhs.name == rhs.name && lhs.qualifiedName == rhs.qualifiedName && lhs.kind == rhs.kind
        && lhs.inherited == rhs.inherited && lhs.attributes == rhs.attributes && lhs.modifiers == rhs.modifiers
        && lhs.access == rhs.access && lhs.members == rhs.members && lhs.range == rhs.range
        && lhs.bodyOpen == rhs.bodyOpen && lhs.bodyClose == rhs.bodyClose)
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(qualifiedName)
    hasher.combine(kind)
    hasher.combine(range)
  }

  public var isExtension: Bool { kind == .extension }
  public var path: String { range.path }
  public var location: Location { range.start }
}

/// How a singleton's accessor is written.
public enum SingletonShape: String, Sendable, Codable {
  /// `static let shared = X()`
  case staticLet = "static-let"
  /// `static var shared = X()`
  case staticVar = "static-var"
  /// `static let shared: X = { ... }()`
  case closureInitialized = "closure-initialized"
  /// `static let sharedController: X` with the value assigned elsewhere.
  case declaredOnly = "declared-only"
  /// `static var shared: X { _shared }`
  case computed
  /// `class var shared: X { ... }`
  case classVar = "class-var"
  /// `class func sharedInstance() -> X` or `static func sharedInstance() -> X`
  case accessorMethod = "accessor-method"
}

public struct Singleton: Hashable, Sendable {
  /// The singleton's type, qualified through enclosing types.
  public var typeName: String
  public var typeKind: TypeDecl.Kind
  /// `shared`, `sharedController`, `sharedInstance` (a method) ...: the accessor code should use.
  public var accessor: String
  /// Every static accessor that returns the instance (usually just `accessor`).
  public var accessors: [String]
  public var shape: SingletonShape
  /// The static variable a computed accessor returns (`_shared`).
  public var backingStorage: String?
  /// No init accessible outside the type: every declared init is `private` or `fileprivate`.
  public var isStrict: Bool
  /// The accessor's declaration.
  public var declaration: SourceRange
  /// The project declares only extensions of the type (`extension UserDefaults { static let shared = ... }`):
  /// the signatures of its members are not known.
  public var isForeign: Bool
  /// The protocol the accessor is typed as (`static var shared: ServiceLocating = ServiceLocator()`),
  /// one the type conforms to: code using the accessor reaches only that protocol's members.
  public var accessorProtocol: String?

  public init(
    typeName: String, typeKind: TypeDecl.Kind, accessor: String, accessors: [String], shape: SingletonShape,
    backingStorage: String?, isStrict: Bool, declaration: SourceRange, isForeign: Bool = false,
    accessorProtocol: String? = nil
  ) {
    self.isForeign = isForeign
    self.accessorProtocol = accessorProtocol
    self.typeName = typeName
    self.typeKind = typeKind
    self.accessor = accessor
    self.accessors = accessors
    self.shape = shape
    self.backingStorage = backingStorage
    self.isStrict = isStrict
    self.declaration = declaration
  }

  public var isMethod: Bool { shape == .accessorMethod }
  /// `SessionController.sharedController`, `W.sharedInstance()`.
  public var accessExpression: String { "\(typeName).\(accessor)\(isMethod ? "()" : "")" }
  public var simpleTypeName: String { typeName.split(separator: ".").last.map(String.init) ?? typeName }
}

/// What a reference to a singleton's accessor does with the instance.
public enum ReferenceUse: Hashable, Sendable {
  public enum Access: String, Sendable, Codable {
    /// Reads a property.
    case read
    /// Assigns the property, passes it `inout`, or mutates it in place (`+=`, a mutating method on a value).
    case write
    /// Calls a method.
    case call
  }

  /// `X.shared.member`
  case member(String, Access)
  /// The instance itself goes somewhere: `f(X.shared)`, `return X.shared`.
  case instance
  /// `let s = X.shared`: later uses of `s` are references of their own, with `alias` set.
  case alias(String)
  /// `init(store: X = X.shared) { self.store = store }`: an init parameter typed as the singleton,
  /// defaulting to the accessor and kept in the stored property named here (declared with the
  /// singleton's type). The type already receives the instance; uses of the property are
  /// references of their own, with `alias` set to it.
  case held(String)
  /// `X.shared = X()`: the accessor itself is given another instance.
  case reassignment
  /// `X.shared[keyPath: path]`: which member the key path names is not known from syntax.
  case keyPath
  /// `.shared` where the type it is looked up in cannot be told from syntax (`use(.shared)`): a
  /// possible reference of every singleton with an accessor of that name.
  case unresolvedImplicit
}

/// What follows `X.shared.member` when the member is not called itself: the members reached
/// through it and how the chain ends. The file pass records it; the index decides from it, once
/// every file is read, whether the member is written (`Index.access(ofMember:in:chain:)`).
public struct MemberChain: Hashable, Sendable {
  public enum End: Hashable, Sendable {
    /// Assigned with `=` or a compound assignment, or passed `inout`.
    case assigned
    /// A method of this name is called on the chain's last value.
    case call(String)
  }

  /// Members after the first, in order; `subscript` for `[...]`.
  public var members: [String]
  public var end: End

  public init(members: [String], end: End) {
    self.members = members
    self.end = end
  }
}

/// Where a reference sits.
public struct ReferenceContext: Hashable, Sendable {
  /// The enclosing type's qualified name (an extension counts as the type it extends); nil at top level.
  public var typeName: String?
  /// The enclosing member's display name (`viewDidLoad()`, `init(title:)`, `items`).
  public var memberName: String?
  /// Inside a `static`/`class` member or a static property's initializer.
  public var isStatic: Bool
  /// In the initial value of the stored or global variable `memberName` names (not in its
  /// `willSet`/`didSet` or a getter).
  public var inPropertyInitializer: Bool

  /// Runs while an instance is made, before `self` is whole: an init, or a stored property's
  /// initial value.
  public var isAtInitTime: Bool { inPropertyInitializer || memberName?.hasPrefix("init(") == true }

  public init(
    typeName: String?, memberName: String?, isStatic: Bool, inPropertyInitializer: Bool = false
  ) {
    self.typeName = typeName
    self.memberName = memberName
    self.isStatic = isStatic
    self.inPropertyInitializer = inPropertyInitializer
  }
}

/// One place that reaches for a singleton through its accessor, or through a local alias of it.
public struct Reference: Hashable, Sendable {
  /// The type name as written before the accessor (`SessionController`, `App.Session`, `Self`).
  public var baseName: String
  public var accessor: String
  public var use: ReferenceUse
  /// Set when the reference goes through an alias: the alias's name.
  public var alias: String?
  /// The accessor expression (`X.shared`, or the alias identifier).
  public var range: SourceRange
  public var context: ReferenceContext
  /// For `.member` uses that are not calls: what follows the member, when it may write it.
  public var chain: MemberChain?
  /// For `.unresolvedImplicit`: the type whose init takes it as an argument (`URLSession` in
  /// `URLSession(configuration: .default)`), when the call names one.
  public var implicitCallee: String?
  /// For `.unresolvedImplicit`: the function or method it is an argument of (`present` in
  /// `present(.shared)` and `view.present(.shared)`), when the call names one that no enclosing
  /// scope binds.
  public var implicitFunction: String?
  /// For `.unresolvedImplicit` with a callee or function: the argument's label (`_` for none),
  /// which names the parameter whose type `.shared` is looked up in.
  public var implicitLabel: String?
  /// For `.unresolvedImplicit` with a label: an element of an array literal passed there.
  public var implicitInArray = false
  /// For `.unresolvedImplicit` with a callee: the call is an init of the enclosing type's own
  /// (`self.init(...)`, `Self(...)`) or of its superclass (`super.init(...)`), `implicitCallee`
  /// the enclosing type.
  public var implicitEnclosingInit: EnclosingInit?
  /// For `.unresolvedImplicit`: the property it is assigned to or compared with (`mode = .shared`,
  /// `networks[i].mode == .shared`; `ReferenceCollector.peerChain(of:)`).
  public var implicitPeer: PropertyPeer?
  /// For `.member` calls: the argument labels, which tell overloads apart.
  public var arguments: CallArguments?
  /// For `.unresolvedImplicit`: called with arguments (`.default(.openLink(url))`), which a
  /// singleton's instance can be only when its type declares `callAsFunction`; else an enum
  /// case's payload or a static method of another type.
  public var implicitApplied = false
  /// For `.unresolvedImplicit`: a `case .shared:` pattern (`if case .shared = value` too), which
  /// matches an enum case, or compares with the accessor's value through `~=` where the switched
  /// value's type is `Equatable` (`Index.mayMatchPattern`).
  public var implicitInCasePattern = false
  /// Inside `#selector(...)` or `#keyPath(...)`: the member it names is reached through the
  /// Objective-C runtime, not through the protocol a slice would give it.
  public var inSelectorOrKeyPath = false

  public init(
    baseName: String, accessor: String, use: ReferenceUse, alias: String?, range: SourceRange,
    context: ReferenceContext, chain: MemberChain? = nil, arguments: CallArguments? = nil
  ) {
    self.baseName = baseName
    self.accessor = accessor
    self.use = use
    self.alias = alias
    self.range = range
    self.context = context
    self.chain = chain
    self.arguments = arguments
  }

  public var location: Location { range.start }
}

/// The argument labels of a call (`_` for none) and how many trailing closures follow them.
public struct CallArguments: Hashable, Sendable {
  public var labels: [String]
  public var trailingClosures: Int

  public init(labels: [String], trailingClosures: Int) {
    self.labels = labels
    self.trailingClosures = trailingClosures
  }

  /// Whether a call with these arguments can call a function with these parameters (labels, and
  /// whether each has a default). A variadic parameter (its position in `variadic`) takes its
  /// labelled argument and every unlabelled one after it, or none.
  public func canCall(_ parameters: [(label: String, hasDefault: Bool)], variadic: [Int] = []) -> Bool {
    var position = 0
    var remainingTrailing = trailingClosures
    for (offset, parameter) in parameters.enumerated() {
      let isVariadic = variadic.contains(offset)
      if position < labels.count && labels[position] == parameter.label {
        position += 1
        while isVariadic && position < labels.count && labels[position] == "_" { position += 1 }
      } else if parameter.hasDefault || isVariadic {
        continue
      } else if position == labels.count && remainingTrailing > 0 {
        remainingTrailing -= 1
      } else {
        return false
      }
    }
    return position == labels.count
  }
}

/// `typealias Name = AliasedType`.
public struct TypeAlias: Hashable, Sendable {
  public var name: String
  /// The aliased type as written.
  public var aliasedType: String
  /// The qualified name of the type declaring it (for an extension, the extended type as written);
  /// nil at top level.
  public var enclosingType: String?

  public init(name: String, aliasedType: String, enclosingType: String? = nil) {
    self.name = name
    self.aliasedType = aliasedType
    self.enclosingType = enclosingType
  }
}

/// Everything the index learned from one file.
public struct FileSummary: Sendable {
  public var path: String
  public var lineCount: Int
  public var types: [TypeDecl]
  /// References to any `Type.accessor` that looks like a singleton accessor; filtered against the
  /// singletons found across all files when the index is assembled.
  public var candidateReferences: [Reference]
  /// Syntax errors the parser found.
  public var syntaxErrors: [Diagnostic]
  /// Names of the `mutating func`s declared in the file.
  public var mutatingMethodNames: Set<String>
  /// The `typealias` declarations at top level and in the file's types, in source order.
  public var typeAliases: [TypeAlias]
  /// Written by a generator (`GeneratedFile`): read for references, never rewritten.
  public var isGenerated: Bool
  /// The names a call can be written with that the file declares: functions and variables at top
  /// level, and every type's methods, properties and enum cases (members left out included).
  /// `f(.shared)` can make `.shared` the project's singleton only where the project declares an `f`.
  public var callableNames: Set<String> = []
  /// Simple names of the types whose members were left out (`TypeDecl.membersOmitted`).
  public var typesWithoutMembers: Set<String> = []
  /// The parameter types of the callables the file declares (members left out included), by the
  /// slot a call names: what an implicit member passed to them is looked up in.
  public var parameters: [ParameterFact] = []

  public init(
    path: String, lineCount: Int, types: [TypeDecl], candidateReferences: [Reference],
    syntaxErrors: [Diagnostic], typeAliases: [TypeAlias] = [], isGenerated: Bool = false,
    mutatingMethodNames: Set<String>? = nil, callableNames: Set<String> = [],
    parameters: [ParameterFact] = []
  ) {
    self.callableNames = callableNames
    self.parameters = parameters
    self.path = path
    self.isGenerated = isGenerated
    self.typeAliases = typeAliases
    self.lineCount = lineCount
    self.types = types
    self.candidateReferences = candidateReferences
    self.syntaxErrors = syntaxErrors
    for type in types where type.membersOmitted { typesWithoutMembers.insert(type.name) }
    if let mutatingMethodNames {
      self.mutatingMethodNames = mutatingMethodNames
      return
    }
    var mutating: Set<String> = []
    for type in types {
      let members = type.members
      for position in members.indices where members[position].kind == .method && members[position].modifiers.contains("mutating") {
        mutating.insert(members[position].name)
      }
    }
    self.mutatingMethodNames = mutating
  }
}
