import DesingletonCore
import DesingletonIndex
import SwiftParser
import SwiftSyntax

/// Writes protocol requirements from a singleton's member declarations, exactly as they are
/// declared: labels, types, effects, generics; with the singleton's nested types qualified.
struct RequirementBuilder {
  /// The singleton's qualified type name.
  let typeName: String
  /// Names of types and typealiases nested in the singleton.
  let nestedTypeNames: Set<String>
  /// Whether the singleton is a value type (`mutating` survives only then).
  let isValueType: Bool
  let index: Index
  /// One level of indentation in the file the code lands in.
  var indentUnit: String = "    "
  /// The access protocol-extension members need (`public` for a public protocol).
  var extensionAccess: AccessLevel? = nil
  /// Requirements keep `@objc` only in an `@objc` protocol.
  var keepsObjC = true
  /// The singleton's accessor (`shared`): in the protocol extension, a default value reading a
  /// member through it reads the same member of `self`, the instance the overload is called on.
  var accessor: String? = nil
  /// The members the protocol being written declares, which `self` offers in its extension.
  var protocolMembers: Set<String> = []

  /// Begins the protocol declaring `members`, whose extension members need `access`.
  mutating func startProtocol(access: AccessLevel?, members: [String]) {
    extensionAccess = access
    protocolMembers = Set(members)
  }

  /// Text of one requirement (one line, no indentation) and the protocol-extension overloads that
  /// stand in for its default arguments.
  struct Output {
    var requirement: String
    var overloads: [String]
    /// Why some ways of leaving arguments out get no overload, for the summary.
    var notes: [String] = []
  }

  /// Why a member cannot be written as a requirement with the overloads its callers need.
  enum Obstacle: Equatable {
    /// `var badge: some View`: an opaque result type cannot be a requirement's.
    case opaqueResult(String)
    /// A variadic parameter cannot be forwarded, so no overload can pass the defaults.
    case variadicWithDefaults
    /// A default value names a member private to the singleton, out of a protocol extension's reach.
    case privateDefault(String)
    /// A property with neither a type annotation nor an initial value whose type is certain.
    case uninferableType
    /// An Objective-C member whose Swift declaration desingleton does not know exactly.
    case importedUnknown(String)

    /// Whether the member can still move into the protocol extension, where it keeps its defaults.
    var allowsMove: Bool {
      switch self {
      case .privateDefault, .uninferableType, .importedUnknown: return false
      default: return true
      }
    }
  }

  func obstacle(for member: MemberDecl, node: Syntax) -> Obstacle? {
    if let problem = index.importProblem(of: member, in: typeName) { return .importedUnknown(problem) }
    var resultType: TypeSyntax?
    if let variable = node.as(VariableDeclSyntax.self) {
      let binding = variable.bindings.first { $0.pattern.as(IdentifierPatternSyntax.self).map { unquoted($0.identifier.text) } == member.name }
      resultType = binding?.typeAnnotation?.type
    } else if let function = node.as(FunctionDeclSyntax.self) {
      resultType = function.signature.returnClause?.type
    } else if let subscriptDecl = node.as(SubscriptDeclSyntax.self) {
      resultType = subscriptDecl.returnClause.type
    }
    if let resultType, OpaqueTypeFinder.containsOpaqueType(resultType) {
      return .opaqueResult(resultType.trimmedDescription)
    }
    if let variable = node.as(VariableDeclSyntax.self), resultType == nil, member.typeText == nil,
      let binding = variable.bindings.first(where: { $0.pattern.as(IdentifierPatternSyntax.self).map { unquoted($0.identifier.text) } == member.name }),
      binding.initializer.flatMap({ inferType(of: $0.value) }) == nil
    {
      return .uninferableType
    }
    guard let function = node.as(FunctionDeclSyntax.self) else { return nil }
    let parameters = function.signature.parameterClause.parameters
    let defaulted = parameters.filter { $0.defaultValue != nil && !isMagicLiteral($0.defaultValue?.value) }
    let magic = parameters.contains { isMagicLiteral($0.defaultValue?.value) }
    guard !defaulted.isEmpty || magic else { return nil }
    if parameters.contains(where: { $0.ellipsis != nil }) { return .variadicWithDefaults }
    for parameter in defaulted {
      if let value = parameter.defaultValue?.value, let hidden = privateMember(usedIn: value) {
        return .privateDefault(hidden)
      }
    }
    return nil
  }

  /// The default value with each `Singleton.shared.member` (or `Self.shared.member`) written
  /// `self.member` where the protocol declares `member`, and whether some use of the accessor is left.
  func selfForAccessor(in value: ExprSyntax) -> (text: String, unreplaced: Bool) {
    guard let accessor else { return (value.trimmedDescription, false) }
    let simpleName = typeName.split(separator: ".").last.map(String.init) ?? typeName
    let rewriter = AccessorToSelf(
      owners: [typeName, simpleName, "Self"], accessor: accessor,
      members: protocolMembers)
    let text = rewriter.rewrite(Syntax(value)).trimmedDescription
    return (text, rewriter.unreplaced)
  }

  /// The obstacle in words, for a note or a refusal about `member`.
  func reason(_ obstacle: Obstacle, member: MemberDecl) -> String {
    switch obstacle {
    case .opaqueResult(let type):
      "its type '\(type)' is opaque, which a protocol requirement cannot be"
    case .variadicWithDefaults:
      "it has a variadic parameter and default arguments, and a variadic parameter cannot be passed on from an overload"
    case .privateDefault(let hidden):
      "its default value uses '\(hidden)', which is private to '\(typeName)' and cannot be passed from a protocol "
        + "extension"
    case .uninferableType:
      "cannot infer the type of '\(member.name)'; add a type annotation"
    case .importedUnknown(let problem):
      "its Swift declaration is not known exactly: \(problem)"
    }
  }

  /// `withOverloads: false` when the member itself moves into the protocol extension with its defaults.
  func requirement(
    for member: MemberDecl, node: Syntax, settable: Bool, in source: SourceText, withOverloads: Bool = true
  ) throws -> Output {
    if let variable = node.as(VariableDeclSyntax.self) {
      return Output(requirement: try property(member, variable, settable: settable, source: source), overloads: [])
    }
    if let function = node.as(FunctionDeclSyntax.self) {
      return try method(member, function, source: source, withOverloads: withOverloads)
    }
    if let subscriptDecl = node.as(SubscriptDeclSyntax.self) {
      let parameters = subscriptDecl.parameterClause.parameters.map { parameterText($0, keepDefault: false) }
      var text = prefix(attributes: subscriptDecl.attributes, modifiers: subscriptDecl.modifiers)
      text += "subscript" + (subscriptDecl.genericParameterClause.map { qualified($0) } ?? "")
      text += "(" + parameters.joined(separator: ", ") + ") -> " + qualified(subscriptDecl.returnClause.type)
      if let whereClause = subscriptDecl.genericWhereClause { text += " " + qualified(whereClause) }
      text += settable && member.isSettable ? " { get set }" : " { get }"
      return Output(requirement: text, overloads: [])
    }
    throw Refusal("'\(member.name)' cannot be a protocol requirement", at: member.location)
  }

  // MARK: Properties

  private func property(_ member: MemberDecl, _ variable: VariableDeclSyntax, settable: Bool, source: SourceText) throws -> String {
    guard let binding = variable.bindings.first(where: { $0.pattern.as(IdentifierPatternSyntax.self).map { unquoted($0.identifier.text) } == member.name })
    else { throw Refusal("cannot read the declaration of '\(member.name)'", at: member.location) }
    let type: String
    if let annotation = binding.typeAnnotation {
      type = qualified(annotation.type)
    } else if let written = member.typeText {
      type = qualifiedText(written)
    } else if let initializer = binding.initializer, let inferred = inferType(of: initializer.value) {
      type = inferred
    } else {
      throw Refusal("cannot infer the type of '\(member.name)'; add a type annotation", at: member.location)
    }
    var text = prefix(attributes: variable.attributes, modifiers: variable.modifiers, isProperty: true)
    // The name as declared: a keyword keeps its backticks.
    text += "var \(binding.pattern.trimmedDescription): \(type)"
    // An effectful getter (`get async throws`) keeps its effects; such a property cannot be settable.
    if case .accessors(let accessors) = binding.accessorBlock?.accessors,
      let getter = accessors.first(where: { $0.accessorSpecifier.tokenKind == .keyword(.get) }),
      let effects = getter.effectSpecifiers, effects.asyncSpecifier != nil || effects.throwsClause != nil
    {
      return text + " { get \(qualified(effects)) }"
    }
    text += settable ? " { get set }" : " { get }"
    return text
  }

  /// The type of an initializer expression, where it is certain.
  func inferType(of expression: ExprSyntax) -> String? {
    if expression.is(IntegerLiteralExprSyntax.self) { return "Int" }
    if expression.is(FloatLiteralExprSyntax.self) { return "Double" }
    if expression.is(BooleanLiteralExprSyntax.self) { return "Bool" }
    if let string = expression.as(StringLiteralExprSyntax.self) {
      _ = string
      return "String"
    }
    // `-1 as TimeInterval`: the coercion names the type.
    if let sequence = expression.as(SequenceExprSyntax.self), sequence.elements.count == 3,
      let coercion = sequence.elements.dropFirst().first?.as(UnresolvedAsExprSyntax.self),
      coercion.questionOrExclamationMark == nil, let type = sequence.elements.last?.as(TypeExprSyntax.self)
    {
      return qualified(type.type)
    }
    if let prefixed = expression.as(PrefixOperatorExprSyntax.self), prefixed.operator.text == "-" {
      return inferType(of: prefixed.expression).flatMap { ["Int", "Double"].contains($0) ? $0 : nil }
    }
    guard let call = expression.as(FunctionCallExprSyntax.self), call.trailingClosure == nil else { return nil }
    var called = call.calledExpression
    if let member = called.as(MemberAccessExprSyntax.self), member.declName.baseName.tokenKind == .keyword(.`init`),
      let base = member.base
    {
      called = base
    }
    // `[T]()`, `[T: U]()`
    if let array = called.as(ArrayExprSyntax.self), call.arguments.isEmpty, array.elements.count == 1,
      let element = array.elements.first?.expression.typeReferenceText
    {
      return "[" + qualifiedText(element) + "]"
    }
    if let dictionary = called.as(DictionaryExprSyntax.self), call.arguments.isEmpty,
      case .elements(let elements) = dictionary.content, elements.count == 1, let element = elements.first,
      let key = element.key.typeReferenceText, let value = element.value.typeReferenceText
    {
      return "[" + qualifiedText(key) + ": " + qualifiedText(value) + "]"
    }
    let typeText: String
    if let specialized = called.as(GenericSpecializationExprSyntax.self), let base = specialized.expression.typeReferenceText {
      typeText = base + specialized.genericArgumentClause.trimmedDescription
    } else if let reference = called.typeReferenceText, reference != "Self" {
      typeText = reference
    } else {
      return nil
    }
    // `T(...)` is `T` unless `T` has a failable init or is not a type we know.
    if !call.arguments.isEmpty {
      let base = typeText.split(separator: "<").first.map(String.init) ?? typeText
      let resolved = nestedTypeNames.contains(base) ? "\(typeName).\(base)" : index.resolveType(base)
      let declarations = index.declarations(of: resolved)
      guard declarations.contains(where: { !$0.isExtension }) else { return nil }
      if declarations.flatMap(\.members).contains(where: { $0.kind == .initializer && $0.isFailable }) { return nil }
    }
    return qualifiedText(typeText)
  }

  // MARK: Methods

  private func method(
    _ member: MemberDecl, _ function: FunctionDeclSyntax, source: SourceText, withOverloads: Bool
  ) throws -> Output {
    let parameters = Array(function.signature.parameterClause.parameters)
    let attributes = attributeText(function.attributes, isProperty: false)
    let modifiers = modifierText(function.modifiers)
    let name = "func " + function.name.text + (function.genericParameterClause.map { qualified($0) } ?? "")
    var result = ""
    if let returnClause = function.signature.returnClause { result += " " + qualified(returnClause) }
    if let whereClause = function.genericWhereClause { result += " " + qualified(whereClause) }
    let tail = function.signature.effectSpecifiers.map { " " + qualified($0) } ?? ""
    let requirement = attributes + modifiers + name + "(" + parameters.map { parameterText($0, keepDefault: false) }.joined(separator: ", ") + ")" + tail + result

    // Every way of leaving out defaulted arguments gets an overload that passes the defaults.
    // `#fileID`-style defaults stay defaults, so they still name the caller.
    var defaulted = parameters.enumerated().filter { $0.element.defaultValue != nil && !isMagicLiteral($0.element.defaultValue?.value) }.map(\.offset)
    // A default the overload could pass only by naming the accessor is not left out: an overload
    // would use the accessor once more, so a call leaving it out keeps the accessor instead.
    var notes: [String] = []
    for offset in defaulted {
      guard withOverloads, let value = parameters[offset].defaultValue?.value, selfForAccessor(in: value).unreplaced else { continue }
      defaulted.removeAll { $0 == offset }
      notes.append(
        "\(member.displayName): no overload leaves out '\((parameters[offset].secondName ?? parameters[offset].firstName).text)': its default value "
          + "'\(value.trimmedDescription)' reads the accessor, which the overload would use once more")
    }
    let magic = parameters.contains { isMagicLiteral($0.defaultValue?.value) }
    guard withOverloads, !defaulted.isEmpty || magic else { return Output(requirement: requirement, overloads: [], notes: notes) }
    if parameters.contains(where: { $0.ellipsis != nil }) {
      throw Refusal("'\(function.name.text)' has a variadic parameter and default arguments; slice it by hand", at: member.location)
    }
    for offset in defaulted {
      if let value = parameters[offset].defaultValue?.value, let hidden = privateMember(usedIn: value) {
        throw Refusal("the default value of '\(function.name.text)' uses '\(hidden)', which is private to '\(typeName)' and cannot be passed from a protocol extension; make it internal", at: member.location)
      }
    }
    // With `#fileID`-style defaults, even the full form needs an overload that keeps them as defaults.
    var subsets: [[Int]] = magic ? [[]] : []
    if defaulted.count <= 4 {
      for mask in 1..<(1 << defaulted.count) {
        subsets.append(defaulted.enumerated().filter { mask & (1 << $0.offset) != 0 }.map(\.element))
      }
      // Where two subsets give the same signature, Swift fills arguments from the left: keep the one leaving out later parameters.
      subsets[(magic ? 1 : 0)...].sort { ($0.count, $1.reduce(0, +)) < ($1.count, $0.reduce(0, +)) }
    } else {
      for start in defaulted.indices { subsets.append(Array(defaulted[start...])) }
    }
    // A shorter form that another member already declares is that member, not an overload.
    let siblings = Set(index.members(of: typeName).filter { $0.kind == .method && $0.name == function.name.text && $0.range != member.range }.map { $0.labels.joined(separator: ",") })
    var overloads: [String] = []
    var seen: Set<String> = magic ? [] : [requirementKey(parameters, omitting: [])]
    let access = extensionAccess.map { $0.keyword + " " } ?? ""
    for omitted in subsets {
      let key = requirementKey(parameters, omitting: Set(omitted))
      guard seen.insert(key).inserted else { continue }
      let keptParameters = parameters.enumerated().filter { !omitted.contains($0.offset) }.map(\.element)
      if siblings.contains(keptParameters.map { $0.firstName.text }.joined(separator: ",")) { continue }
      let kept = keptParameters.map { parameterText($0, keepDefault: isMagicLiteral($0.defaultValue?.value)) }
      var arguments: [String] = []
      for (offset, parameter) in parameters.enumerated() {
        let label = parameter.firstName.tokenKind == .wildcard ? "" : parameter.firstName.text + ": "
        if omitted.contains(offset), let value = parameter.defaultValue?.value {
          arguments.append(label + qualifiedDefault(value))
        } else {
          arguments.append(label + passedOn(parameter))
        }
      }
      let effects = overloadEffects(function, kept: keptParameters, passing: omitted.compactMap { parameters[$0].defaultValue?.value })
      let call = effects.marks + function.name.text + "(" + arguments.joined(separator: ", ") + ")"
      overloads.append(attributes + access + modifiers + name + "(" + kept.joined(separator: ", ") + ")" + effects.text + result + " {\n" + indentUnit + call + "\n}")
    }
    return Output(requirement: requirement, overloads: overloads, notes: notes)
  }

  /// An overload's effects (` async throws`) and the marks its call takes (`try await `). A
  /// `rethrows` method's overload that keeps none of its throwing closures throws only when a
  /// default it passes does (`{ _ in throw E.none }`): `rethrows` with nothing to rethrow does not
  /// compile, and the call throws only as the closures passed to it do.
  func overloadEffects(
    _ function: FunctionDeclSyntax, kept: [FunctionParameterSyntax], passing defaults: [ExprSyntax]
  ) -> (text: String, marks: String) {
    guard var effects = function.signature.effectSpecifiers else { return ("", "") }
    if effects.throwsClause?.throwsSpecifier.tokenKind == .keyword(.rethrows), !kept.contains(where: { Self.isThrowingFunction($0.type) }) {
      effects.throwsClause = defaults.contains(where: Self.mayThrow) ? ThrowsClauseSyntax(throwsSpecifier: .keyword(.throws)) : nil
    }
    let marks = (effects.throwsClause != nil ? "try " : "") + (effects.asyncSpecifier != nil ? "await " : "")
    let text = effects.asyncSpecifier == nil && effects.throwsClause == nil ? "" : " " + qualified(effects)
    return (text, marks)
  }

  /// A function type that throws, under attributes, parentheses or an optional.
  static func isThrowingFunction(_ type: TypeSyntax) -> Bool {
    if let function = type.as(FunctionTypeSyntax.self) { return function.effectSpecifiers?.throwsClause != nil }
    if let attributed = type.as(AttributedTypeSyntax.self) { return isThrowingFunction(attributed.baseType) }
    if let optional = type.as(OptionalTypeSyntax.self) { return isThrowingFunction(optional.wrappedType) }
    if let tuple = type.as(TupleTypeSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
      return isThrowingFunction(only.type)
    }
    return false
  }

  /// Whether an expression may throw where it is evaluated or called: it holds a `throw` or a `try`
  /// (not `try?` or `try!`).
  static func mayThrow(_ expression: ExprSyntax) -> Bool {
    expression.tokens(viewMode: .sourceAccurate).contains { token in
      if token.tokenKind == .keyword(.throw) { return true }
      guard token.tokenKind == .keyword(.try), let tryExpr = token.parent?.as(TryExprSyntax.self) else { return false }
      return tryExpr.questionOrExclamationMark == nil
    }
  }

  /// A parameter as an overload passes it on: `&value` for `inout`, `condition()` for an
  /// `@autoclosure` (its value, which the callee wraps again).
  func passedOn(_ parameter: FunctionParameterSyntax) -> String {
    let name = (parameter.secondName ?? parameter.firstName).text
    guard let attributed = parameter.type.as(AttributedTypeSyntax.self) else { return name }
    if attributed.specifiers.contains(where: { $0.trimmedDescription == "inout" }) { return "&" + name }
    let isAutoclosure = attributed.attributes.contains { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "autoclosure" }
    return isAutoclosure ? name + "()" : name
  }

  func isMagicLiteral(_ value: ExprSyntax?) -> Bool {
    guard let macro = value?.as(MacroExpansionExprSyntax.self) else { return false }
    return ["fileID", "file", "filePath", "line", "column", "function", "dsohandle"].contains(macro.macroName.text)
  }

  /// A private or fileprivate member of the singleton that an expression names: `secret`,
  /// `self.secret`, `Self.secret`, `Store.secret`.
  func privateMember(usedIn value: ExprSyntax) -> String? {
    let hidden = Set(index.members(of: typeName).filter { ($0.access ?? .internal) <= .fileprivate }.map(\.name))
    guard !hidden.isEmpty else { return nil }
    let simpleName = typeName.split(separator: ".").last.map(String.init) ?? typeName
    let finder = PrivateMemberFinder(names: hidden, ownerNames: [simpleName, "Self", "self"])
    finder.walk(value)
    return finder.found.sorted().first
  }

  private func requirementKey(_ parameters: [FunctionParameterSyntax], omitting omitted: Set<Int>) -> String {
    parameters.enumerated().filter { !omitted.contains($0.offset) }.map { "\($0.element.firstName.text):\($0.element.type.trimmedDescription)" }.joined(separator: ",")
  }

  func parameterText(_ parameter: FunctionParameterSyntax, keepDefault: Bool) -> String {
    var text = ""
    let attributes = parameter.attributes.map(\.trimmedDescription)
    if !attributes.isEmpty { text += attributes.joined(separator: " ") + " " }
    let modifiers = parameter.modifiers.map(\.trimmedDescription)
    if !modifiers.isEmpty { text += modifiers.joined(separator: " ") + " " }
    text += parameter.firstName.text
    if let second = parameter.secondName { text += " " + second.text }
    text += ": " + qualified(parameter.type)
    if parameter.ellipsis != nil { text += "..." }
    if keepDefault, let value = parameter.defaultValue?.value { text += " = " + value.trimmedDescription }
    return text
  }

  /// A default value expression that still means the same inside a protocol extension: the
  /// singleton's static members get the type name in front.
  private func qualifiedDefault(_ value: ExprSyntax) -> String {
    let (text, unreplaced) = selfForAccessor(in: value)
    if accessor != nil, !unreplaced, text != value.trimmedDescription { return text }
    let statics = Set(index.members(of: typeName).filter(\.isStatic).map(\.name))
    if let reference = value.as(DeclReferenceExprSyntax.self), statics.contains(reference.baseName.text) {
      return typeName + "." + reference.baseName.text
    }
    if let member = value.as(MemberAccessExprSyntax.self), let base = member.base?.as(DeclReferenceExprSyntax.self),
      base.baseName.text == "Self"
    {
      return typeName + "." + member.declName.trimmedDescription
    }
    return value.trimmedDescription
  }

  // MARK: Shared

  /// Attributes and modifiers a requirement keeps.
  private func prefix(attributes: AttributeListSyntax, modifiers: DeclModifierListSyntax, isProperty: Bool = false) -> String {
    attributeText(attributes, isProperty: isProperty) + modifierText(modifiers)
  }

  private func attributeText(_ attributes: AttributeListSyntax, isProperty: Bool) -> String {
    var parts: [String] = []
    for element in attributes {
      guard case .attribute(let attribute) = element else { continue }
      let name = "@" + attribute.attributeName.trimmedDescription
      let kept = index.isGlobalActorAttribute(name) || name == "@available" || (name == "@objc" && keepsObjC)
        || (!isProperty && (name == "@discardableResult" || name == "@preconcurrency"))
      if kept { parts.append(attribute.trimmedDescription) }
    }
    return parts.isEmpty ? "" : parts.joined(separator: " ") + " "
  }

  private func modifierText(_ modifiers: DeclModifierListSyntax) -> String {
    var parts: [String] = []
    for modifier in modifiers {
      switch modifier.name.tokenKind {
      case .keyword(.static), .keyword(.class): parts.append("static")
      case .keyword(.mutating) where isValueType: parts.append("mutating")
      case .keyword(.nonisolated): parts.append(modifier.trimmedDescription)
      default: break
      }
    }
    return parts.isEmpty ? "" : parts.joined(separator: " ") + " "
  }

  func qualified(_ node: some SyntaxProtocol) -> String {
    guard !nestedTypeNames.isEmpty else { return node.trimmedDescription }
    return NestedTypeQualifier(names: nestedTypeNames, typeName: typeName).rewrite(Syntax(node)).trimmedDescription
  }

  func qualifiedText(_ text: String) -> String {
    guard !nestedTypeNames.isEmpty else { return text }
    var parser = Parser(text)
    return qualified(TypeSyntax.parse(from: &parser))
  }
}

/// Rewrites `Store.shared.items` to `self.items` where the protocol declares `items`, and counts
/// the uses of the accessor it leaves.
final class AccessorToSelf: SyntaxRewriter {
  let owners: Set<String>
  let accessor: String
  let members: Set<String>
  private(set) var unreplaced = false

  init(owners: Set<String>, accessor: String, members: Set<String>) {
    self.owners = owners
    self.accessor = accessor
    self.members = members
    super.init(viewMode: .sourceAccurate)
  }

  private func isAccessor(_ node: ExprSyntax?) -> Bool {
    guard let access = node?.as(MemberAccessExprSyntax.self), access.declName.baseName.text == accessor,
      let base = access.base
    else { return false }
    return owners.contains(base.trimmedDescription)
  }

  override func visit(_ node: MemberAccessExprSyntax) -> ExprSyntax {
    if isAccessor(ExprSyntax(node)) {
      unreplaced = true
      return ExprSyntax(node)
    }
    if isAccessor(node.base), members.contains(node.declName.baseName.text), let base = node.base {
      let selfReference = DeclReferenceExprSyntax(baseName: .keyword(.self))
        .with(\.leadingTrivia, base.leadingTrivia).with(\.trailingTrivia, base.trailingTrivia)
      return ExprSyntax(node.with(\.base, ExprSyntax(selfReference)))
    }
    return super.visit(node)
  }
}

/// Rewrites `State` to `SessionController.State` where `State` is nested in the singleton.
final class NestedTypeQualifier: SyntaxRewriter {
  let names: Set<String>
  let typeName: String

  init(names: Set<String>, typeName: String) {
    self.names = names
    self.typeName = typeName
    super.init(viewMode: .sourceAccurate)
  }

  override func visit(_ node: IdentifierTypeSyntax) -> TypeSyntax {
    guard names.contains(node.name.text) else { return super.visit(node) }
    let renamed = node.with(\.name, .identifier(typeName + "." + node.name.text, leadingTrivia: node.name.leadingTrivia, trailingTrivia: node.name.trailingTrivia))
    return TypeSyntax(renamed.with(\.genericArgumentClause, node.genericArgumentClause.map { rewrite($0).cast(GenericArgumentClauseSyntax.self) }))
  }
}

/// Whether a type has `some` in it, outside of closure parameters (`() -> some P` is still opaque).
enum OpaqueTypeFinder {
  static func containsOpaqueType(_ type: TypeSyntax) -> Bool {
    let visitor = Visitor(viewMode: .sourceAccurate)
    visitor.walk(type)
    return visitor.found
  }

  private final class Visitor: SyntaxVisitor {
    var found = false

    override func visit(_ node: SomeOrAnyTypeSyntax) -> SyntaxVisitorContinueKind {
      if node.someOrAnySpecifier.tokenKind == .keyword(.some) { found = true }
      return .visitChildren
    }
  }
}

/// Names among `names` used bare, or as a member of the owner type (`Store.x`, `Self.x`, `self.x`).
final class PrivateMemberFinder: SyntaxVisitor {
  let names: Set<String>
  let ownerNames: Set<String>
  var found: Set<String> = []

  init(names: Set<String>, ownerNames: Set<String>) {
    self.names = names
    self.ownerNames = ownerNames
    super.init(viewMode: .sourceAccurate)
  }

  override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
    let name = node.baseName.text
    guard names.contains(name) else { return .visitChildren }
    if let member = node.parent?.as(MemberAccessExprSyntax.self), member.declName.id == node.id {
      // `Store.x` or `App.Store.x`: the base's last name is the owner's.
      let owner = member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text
        ?? member.base?.as(MemberAccessExprSyntax.self)?.declName.baseName.text
      guard let owner, ownerNames.contains(owner) else { return .visitChildren }
    }
    found.insert(name)
    return .visitChildren
  }
}

extension RequirementBuilder {
  /// The builder of requirements for `analysis`'s singleton: its nested type names, whether it is a value type.
  init(for analysis: SingletonAnalysis, index: Index) {
    let nested = analysis.declarations.flatMap(\.members).filter { [.nestedType, .typeAlias].contains($0.kind) }.map(\.name)
    let primaryKind = analysis.declarations.first { !$0.isExtension }?.kind
    self.init(
      typeName: analysis.singleton.typeName, nestedTypeNames: Set(nested), isValueType: [.struct, .enum].contains(primaryKind),
      index: index)
  }

  /// Why `member` cannot be a protocol requirement, in words; nil when it can. The one answer
  /// extract-protocol's suggestion and inject's advice give.
  func obstacleReason(for member: MemberDecl, project: Project) -> String? {
    guard let file = try? project.file(member.range.path), let node = file.node(at: member.range.bytes) else {
      return "its declaration cannot be read"
    }
    return obstacle(for: member, node: node).map { reason($0, member: member) }
  }
}
