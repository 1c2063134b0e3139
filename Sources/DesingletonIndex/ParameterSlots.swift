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

/// Collects the parameter types of the callables a file declares, by slot. An implicit member's
/// argument (`Fetcher(session: .shared)`) is a singleton's only when some parameter of that slot
/// can have the singleton's type (`Index.implicitArgumentTypes`).
struct ParameterSlotCollector {
  private(set) var slots: [ParameterSlot: Set<ParameterType>] = [:]

  /// A function declared at top level.
  mutating func record(_ function: FunctionDeclSyntax) {
    record(function.signature.parameterClause, callee: function.name.text, generics: Self.names(function.genericParameterClause))
  }

  /// The callables of a type or extension whose simple name is `typeName`: its methods, its inits,
  /// and for a struct (`memberwise`) the memberwise init its stored properties make.
  mutating func record(
    _ members: MemberBlockItemListSyntax, typeName: String, generics: Set<String>, memberwise: Bool
  ) {
    var hasInit = false
    var stored: [(label: String, type: ParameterType)] = []
    collect(members, typeName: typeName, generics: generics, hasInit: &hasInit, stored: &stored)
    guard memberwise, !hasInit else { return }
    for property in stored {
      slots[.initializer(of: typeName, label: property.label), default: []].insert(property.type)
    }
  }

  private mutating func collect(
    _ members: MemberBlockItemListSyntax, typeName: String, generics: Set<String>, hasInit: inout Bool,
    stored: inout [(label: String, type: ParameterType)]
  ) {
    for member in members {
      switch member.decl.as(DeclSyntaxEnum.self) {
      case .functionDecl(let function):
        record(
          function.signature.parameterClause, callee: function.name.text,
          generics: generics.union(Self.names(function.genericParameterClause)))
      case .initializerDecl(let initializer):
        hasInit = true
        record(
          initializer.signature.parameterClause, callee: typeName + ".init",
          generics: generics.union(Self.names(initializer.genericParameterClause)))
      case .variableDecl(let variable):
        guard !variable.modifiers.contains(where: { ["static", "class"].contains($0.name.text) }) else { continue }
        for binding in variable.bindings where Self.isStored(binding) {
          guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
          let type = binding.typeAnnotation.map { Self.parameterType($0.type, generics: generics) } ?? .unknown
          stored.append((unquoted(name), type))
        }
      case .enumCaseDecl(let enumCase):
        for element in enumCase.elements {
          guard let parameters = element.parameterClause?.parameters else { continue }
          for parameter in parameters {
            let label = parameter.firstName.map { $0.tokenKind == .wildcard ? "_" : unquoted($0.text) } ?? "_"
            slots[ParameterSlot(callee: unquoted(element.name.text), label: label), default: []].insert(
              Self.parameterType(parameter.type, generics: generics))
          }
        }
      case .ifConfigDecl(let ifConfig):
        for clause in ifConfig.clauses {
          if case .decls(let nested) = clause.elements {
            collect(nested, typeName: typeName, generics: generics, hasInit: &hasInit, stored: &stored)
          }
        }
      default:
        break
      }
    }
  }

  private mutating func record(_ clause: FunctionParameterClauseSyntax, callee: String, generics: Set<String>) {
    let callee = unquoted(callee)
    for parameter in clause.parameters {
      let label = parameter.firstName.tokenKind == .wildcard ? "_" : unquoted(parameter.firstName.text)
      slots[ParameterSlot(callee: callee, label: label), default: []].insert(
        Self.parameterType(parameter.type, generics: generics))
    }
  }

  /// A binding with no accessors, or only `willSet`/`didSet`.
  private static func isStored(_ binding: PatternBindingSyntax) -> Bool {
    guard let block = binding.accessorBlock else { return true }
    guard case .accessors(let accessors) = block.accessors else { return false }
    return accessors.allSatisfy { ["willSet", "didSet"].contains($0.accessorSpecifier.text) }
  }

  static func names(_ clause: GenericParameterClauseSyntax?) -> Set<String> {
    guard let clause else { return [] }
    return Set(clause.parameters.map(\.name.text))
  }

  /// What `type` says an implicit member of an argument is looked up in.
  static func parameterType(_ type: TypeSyntax, generics: Set<String>) -> ParameterType {
    switch type.as(TypeSyntaxEnum.self) {
    case .identifierType(let identifier):
      let name = identifier.name.text
      if generics.contains(name) { return .unknown }
      if ["Optional", "ImplicitlyUnwrappedOptional"].contains(name),
        let argument = identifier.genericArgumentClause?.arguments.first, case .type(let wrapped) = argument.argument
      {
        return parameterType(wrapped, generics: generics)
      }
      return .named(identifier.trimmedDescription)
    case .memberType(let member):
      return .named(member.trimmedDescription)
    case .optionalType(let optional):
      return parameterType(optional.wrappedType, generics: generics)
    case .implicitlyUnwrappedOptionalType(let unwrapped):
      return parameterType(unwrapped.wrappedType, generics: generics)
    case .attributedType(let attributed):
      return parameterType(attributed.baseType, generics: generics)
    case .tupleType(let tuple):
      if tuple.elements.count == 1, let element = tuple.elements.first, element.firstName == nil {
        return parameterType(element.type, generics: generics)
      }
      return .structural
    case .arrayType, .dictionaryType, .functionType, .metatypeType, .inlineArrayType:
      return .structural
    default:
      return .unknown
    }
  }
}
