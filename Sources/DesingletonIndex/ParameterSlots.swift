import DesingletonCore
import SwiftSyntax

/// A parameter as a call names it: the callee (a function's or method's name, `Type.init` for a
/// type's inits, by the type's simple name) and the argument label (`_` for none).
public struct ParameterSlot: Hashable, Sendable {
  public var callee: String
  public var label: String

  public init(callee: String, label: String) {
    self.callee = callee
    self.label = label
  }

  /// The slot of a type's init: `URLSession(configuration:)` → `URLSession.init`, `configuration`.
  public static func initializer(of typeName: String, label: String) -> ParameterSlot {
    ParameterSlot(callee: typeName + ".init", label: label)
  }
}

/// The call an implicit member is an argument of (`ReferenceCollector.argumentSlot(of:)`): the
/// type whose init it calls or the function's name, and the argument's label.
public struct ImplicitArgumentSlot: Hashable, Sendable {
  /// As written: `URLSession`, `Outer.Fetcher`.
  public var initializedType: String?
  public var function: String?
  public var label: String
  /// An element of an array literal passed there (`appendSections([.default, .other])`).
  public var inArray = false
  /// The call is an init of the enclosing type (`self.init(...)`, `Self(...)`) or of its superclass
  /// (`super.init(...)`), and `initializedType` the enclosing type; nil for a call that names its type.
  public var enclosingInit: EnclosingInit? = nil
  /// Not an argument (`label` is `_`): the property it is assigned to or compared with
  /// (`Reference.implicitPeer`), in an instance member of `owner` (`property(_:in:)`).
  public var peer: PropertyPeer? = nil
  public var owner: String? = nil
}

/// Which init of the enclosing type's a call without a type name calls (`ImplicitArgumentSlot.enclosingInit`).
public enum EnclosingInit: Hashable, Sendable {
  /// `self.init(...)`, `Self.init(...)`, `Self(...)`: one of the type's own (in an extension, the
  /// type it extends; in a protocol's, the protocol's requirements).
  case own
  /// `super.init(...)`: a designated init of the superclass.
  case superclass
}

/// What a parameter's declared type says about an implicit member passed to it (`f(session:
/// .shared)` looks `.shared` up in the parameter's type).
public enum ParameterType: Hashable, Sendable {
  /// A nominal type as written, optionals unwrapped and generic arguments kept: `URLSession`,
  /// `Foundation.URLSession`, `Store`.
  case named(String)
  /// A type no singleton can be: an array, dictionary, tuple, function or metatype.
  case structural
  /// A type the parameter's declaration does not tell: a generic parameter, `some P`, `any P`.
  case unknown
}

/// One parameter of a callable a file declares: the slot a call names and its declared type.
public struct ParameterFact: Hashable, Sendable {
  public var slot: ParameterSlot
  public var type: ParameterType
  /// The type or extension it is declared in, as written (`Outer.Inner`, an extension's
  /// `Box`); nil at the top level. What a name in `type` may be a generic parameter of is asked
  /// of the index (`TypeTables.mayNameGenericParameter`): an extension does not write them.
  public var scope: String? = nil
}

/// Collects the parameter types of the callables a file declares, by slot. An implicit member's
/// argument (`Fetcher(session: .shared)`) is a singleton's only when some parameter of that slot
/// can have the singleton's type (`ImplicitMemberLookup`). Every declaration of every parsed file
/// passes here, so it reads type names from the bytes and keeps a flat list.
struct ParameterSlotCollector {
  let source: SourceText
  private(set) var facts: [ParameterFact] = []

  init(source: SourceText) {
    self.source = source
  }

  /// A function declared at top level.
  mutating func record(_ function: FunctionDeclSyntax) {
    record(
      function.signature.parameterClause, callee: function.name.text,
      generics: Self.names(function.genericParameterClause))
  }

  /// The callables of a type or extension whose simple name is `typeName`, written `scope` with
  /// the types around it: its methods, its inits, its enum cases' payloads, and for a struct
  /// (`memberwise`) the memberwise init its stored properties make.
  mutating func record(
    _ members: MemberBlockItemListSyntax, typeName: String, scope: String, generics: [String], memberwise: Bool
  ) {
    var hasInit = false
    var stored: [ParameterFact] = []
    let first = facts.count
    collect(members, typeName: typeName, generics: generics, memberwise: memberwise, hasInit: &hasInit, stored: &stored)
    if memberwise && !hasInit { facts += stored }
    for position in first..<facts.count { facts[position].scope = scope }
  }

  private mutating func collect(
    _ members: MemberBlockItemListSyntax, typeName: String, generics: [String], memberwise: Bool,
    hasInit: inout Bool, stored: inout [ParameterFact]
  ) {
    for member in members {
      switch member.decl.as(DeclSyntaxEnum.self) {
      case .functionDecl(let function):
        record(
          function.signature.parameterClause, callee: function.name.text,
          generics: generics + Self.names(function.genericParameterClause))
      case .initializerDecl(let initializer):
        hasInit = true
        record(
          initializer.signature.parameterClause, callee: typeName + ".init",
          generics: generics + Self.names(initializer.genericParameterClause))
      case .variableDecl(let variable) where memberwise:
        guard !variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) }) else { continue }
        for binding in variable.bindings where Self.isStored(binding) {
          guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
          let type = binding.typeAnnotation.map { parameterType($0.type, generics: generics) } ?? .unknown
          stored.append(ParameterFact(slot: .initializer(of: typeName, label: unquoted(name)), type: type))
        }
      case .enumCaseDecl(let enumCase):
        for element in enumCase.elements {
          guard let parameters = element.parameterClause?.parameters else { continue }
          let callee = unquoted(element.name.text)
          for parameter in parameters {
            let label = parameter.firstName.map { $0.tokenKind == .wildcard ? "_" : unquoted($0.text) } ?? "_"
            facts.append(
              ParameterFact(
                slot: ParameterSlot(callee: callee, label: label), type: parameterType(parameter.type, generics: generics)))
          }
        }
      case .ifConfigDecl(let ifConfig):
        for clause in ifConfig.clauses {
          if case .decls(let nested) = clause.elements {
            collect(
              nested, typeName: typeName, generics: generics, memberwise: memberwise, hasInit: &hasInit, stored: &stored)
          }
        }
      default:
        break
      }
    }
  }

  private mutating func record(_ clause: FunctionParameterClauseSyntax, callee: String, generics: [String]) {
    guard !clause.parameters.isEmpty else { return }
    let callee = unquoted(callee)
    for parameter in clause.parameters {
      let label = parameter.firstName.tokenKind == .wildcard ? "_" : unquoted(parameter.firstName.text)
      facts.append(
        ParameterFact(slot: ParameterSlot(callee: callee, label: label), type: parameterType(parameter.type, generics: generics)))
    }
  }

  /// A binding with no accessors, or only `willSet`/`didSet`.
  private static func isStored(_ binding: PatternBindingSyntax) -> Bool {
    guard let block = binding.accessorBlock else { return true }
    guard case .accessors(let accessors) = block.accessors else { return false }
    return accessors.allSatisfy {
      $0.accessorSpecifier.tokenKind == .keyword(.willSet) || $0.accessorSpecifier.tokenKind == .keyword(.didSet)
    }
  }

  static func names(_ clause: GenericParameterClauseSyntax?) -> [String] {
    guard let clause else { return [] }
    return clause.parameters.map(\.name.text)
  }

  func parameterType(_ type: TypeSyntax, generics: [String]) -> ParameterType {
    ParameterType.of(type, generics: generics, source: source)
  }
}

extension ParameterType {
  /// What a declared type says an implicit member is looked up in (a parameter's, a result's);
  /// `source`, when given, is where the type's text is read (faster than printing the tree).
  public static func of(_ type: TypeSyntax, generics: [String] = [], source: SourceText? = nil) -> ParameterType {
    switch type.as(TypeSyntaxEnum.self) {
    case .identifierType(let identifier):
      let name = identifier.name.text
      if !generics.isEmpty && generics.contains(name) { return .unknown }
      guard let arguments = identifier.genericArgumentClause?.arguments else { return .named(name) }
      if name == "Optional" || name == "ImplicitlyUnwrappedOptional", let argument = arguments.first,
        case .type(let wrapped) = argument.argument
      {
        return of(wrapped, generics: generics, source: source)
      }
      return .named(source.map { identifier.text(in: $0) } ?? identifier.trimmedDescription)
    case .memberType(let member):
      // `T.Element`: a generic parameter's associated type.
      var base = member.baseType
      while let outer = base.as(MemberTypeSyntax.self) { base = outer.baseType }
      if let root = base.as(IdentifierTypeSyntax.self), generics.contains(root.name.text) { return .unknown }
      return .named(source.map { member.text(in: $0) } ?? member.trimmedDescription)
    case .optionalType(let optional):
      return of(optional.wrappedType, generics: generics, source: source)
    case .implicitlyUnwrappedOptionalType(let unwrapped):
      return of(unwrapped.wrappedType, generics: generics, source: source)
    case .attributedType(let attributed):
      // `@autoclosure () -> Store` takes an expression of the result's type.
      // Read from the name's token: printing a trimmed copy of each `@escaping` and `inout` was 1%
      // of indexing the generated app.
      let isAutoclosure = attributed.attributes.contains {
        $0.as(AttributeSyntax.self)?.attributeName.as(IdentifierTypeSyntax.self)?.name.text == "autoclosure"
      }
      if isAutoclosure {
        // Through an alias of the function type, the result's type is not written here.
        guard let function = attributed.baseType.as(FunctionTypeSyntax.self) else { return .unknown }
        return of(function.returnClause.type, generics: generics, source: source)
      }
      return of(attributed.baseType, generics: generics, source: source)
    case .tupleType(let tuple):
      if tuple.elements.count == 1, let element = tuple.elements.first, element.firstName == nil {
        return of(element.type, generics: generics, source: source)
      }
      return .structural
    case .arrayType, .dictionaryType, .functionType, .metatypeType, .inlineArrayType:
      return .structural
    default:
      return .unknown
    }
  }
}
