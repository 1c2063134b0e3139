import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftSyntax

/// A function type, possibly with attributes (`@Sendable () -> Void`), but not an optional one.
func isFunctionType(_ type: TypeSyntax) -> Bool {
  if let attributed = type.as(AttributedTypeSyntax.self) { return isFunctionType(attributed.baseType) }
  return type.is(FunctionTypeSyntax.self)
}

/// `ItemFetcher` → `itemFetcher`, `URLLoader` → `urlLoader`.
func lowerCamel(_ name: String) -> String {
  let characters = Array(name)
  var upperRun = 0
  while upperRun < characters.count && characters[upperRun].isUppercase { upperRun += 1 }
  if upperRun == 0 { return name }
  if upperRun == 1 || upperRun == characters.count { return characters.prefix(upperRun).map { $0.lowercased() }.joined() + String(characters.dropFirst(upperRun)) }
  return characters.prefix(upperRun - 1).map { $0.lowercased() }.joined() + String(characters.dropFirst(upperRun - 1))
}

enum InitBodyScanner {
  /// Whether an init delegates to another init of its own type: its body calls `self.init(...)`
  /// (a call in the syntax tree, not the text in a comment or a string).
  static func delegatesToSelf(_ node: InitializerDeclSyntax) -> Bool {
    node.body.map(delegatesToSelf) ?? false
  }

  static func delegatesToSelf(_ body: CodeBlockSyntax) -> Bool {
    let finder = SelfInitFinder(viewMode: .sourceAccurate)
    finder.walk(body)
    return finder.found
  }

  /// Whether a body stops before it can use `self`: one of its statements is a call to `fatalError`
  /// or `preconditionFailure` and no statement before it names `self` or `super`. Such an init
  /// (`required init?(coder:) { fatalError("…") }`) compiles without setting the stored properties,
  /// so a new one needs no value there.
  static func stopsBeforeSelf(_ body: CodeBlockSyntax) -> Bool {
    for item in body.statements {
      if let call = item.item.as(FunctionCallExprSyntax.self), neverReturning(call.calledExpression) { return true }
      if item.tokens(viewMode: .sourceAccurate).contains(where: { $0.tokenKind == .keyword(.self) || $0.tokenKind == .keyword(.super) }) {
        return false
      }
    }
    return false
  }

  private static func neverReturning(_ callee: ExprSyntax) -> Bool {
    let stops: Set<String> = ["fatalError", "preconditionFailure"]
    if let name = callee.as(DeclReferenceExprSyntax.self) { return stops.contains(name.baseName.text) }
    if let member = callee.as(MemberAccessExprSyntax.self), member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "Swift" {
      return stops.contains(member.declName.baseName.text)
    }
    return false
  }

  private final class SelfInitFinder: SyntaxVisitor {
    var found = false

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
      if let member = node.calledExpression.as(MemberAccessExprSyntax.self),
        member.declName.baseName.tokenKind == .keyword(.`init`),
        member.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self)
      {
        found = true
        return .skipChildren
      }
      return found ? .skipChildren : .visitChildren
    }

    // A nested function or type has its own `self`.
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
  }
}

extension ParsedFile {
  /// The outermost expression whose trimmed range is exactly `range`.
  func expression(at range: Range<Int>) -> ExprSyntax? {
    guard let token = tree.token(at: AbsolutePosition(utf8Offset: range.lowerBound)) else { return nil }
    var node: Syntax? = Syntax(token)
    var found: ExprSyntax?
    while let current = node {
      if current.trimmedByteRange == range, let expression = current.as(ExprSyntax.self) { found = expression }
      if current.trimmedByteRange.upperBound > range.upperBound || current.trimmedByteRange.lowerBound < range.lowerBound { break }
      node = current.parent
    }
    return found
  }
}

extension InjectPlanner {
  /// Types created while the singleton is made: in its inits, its stored properties' initial values
  /// and its accessor's, and, through those, in the inits and initial values of the types they
  /// create, each with the place it is created. Such a type receiving the accessor would read the
  /// accessor while it is being set up.
  /// Worked out once per project.
  public static func createdWhileMade(_ singleton: Singleton, project: Project) -> [String: Location] {
    project.answer("created while \(singleton.typeName) is made") { findCreatedWhileMade(singleton, project: project) }
  }

  /// Where the singleton reads `other`'s accessor while it is made (in the places
  /// `createdWhileMade` walks), if it does: `other`, created through its accessor, then reading
  /// the singleton's while it is made would need each other first.
  static func readsAccessor(of other: Singleton, whileMaking singleton: Singleton, project: Project) -> Location? {
    project.answer("reads \(other.typeName) while \(singleton.typeName) is made") {
      let index = project.index
      let made = [singleton.typeName] + createdWhileMade(singleton, project: project).keys.sorted()
      for type in made {
        for declaration in index.declarations(of: type) {
          guard let file = try? project.file(declaration.path) else { continue }
          for member in declaration.members where isPartOfMaking(member, of: type, singleton: singleton) {
            guard let node = file.node(at: member.range.bytes) else { continue }
            let finder = AccessorReadFinder(accessors: other.accessors)
            finder.walk(node)
            if let read = finder.read.first(where: { index.resolveType($0.0) == other.typeName }) {
              return file.source.location(ofOffset: read.1)
            }
          }
        }
      }
      return nil
    }
  }

  /// Whether a member's code runs while the singleton is made: an init, a stored property's
  /// initial value (not a lazy one), and the singleton's own accessor's.
  private static func isPartOfMaking(_ member: MemberDecl, of type: String, singleton: Singleton) -> Bool {
    let isInit = member.kind == .initializer
    let isStoredValue = member.kind == .property && member.isStored && !member.modifiers.contains("lazy")
      && (!member.isStatic || (type == singleton.typeName && singleton.accessors.contains(member.name)))
    return isInit || isStoredValue
  }

  private static func findCreatedWhileMade(_ singleton: Singleton, project: Project) -> [String: Location] {
    let index = project.index
    var found: [String: Location] = [:]
    var queue = [singleton.typeName]
    var seen: Set<String> = [singleton.typeName]
    while let type = queue.popLast() {
      for declaration in index.declarations(of: type) {
        guard let file = try? project.file(declaration.path) else { continue }
        for member in declaration.members {
          guard isPartOfMaking(member, of: type, singleton: singleton), let node = file.node(at: member.range.bytes) else { continue }
          let finder = CreationFinder(viewMode: .sourceAccurate)
          finder.walk(node)
          for (written, offset) in finder.created {
            let created = index.resolveType(written)
            guard index.primaryDeclaration(of: created) != nil, seen.insert(created).inserted else { continue }
            found[created] = file.source.location(ofOffset: offset)
            queue.append(created)
          }
        }
      }
    }
    return found
  }
}

extension InjectPlanner {
  /// Storyboard and nib loading the code cannot pass arguments to.
  static let storyboardInstantiation: Set<String> = [
    "instantiateViewController", "instantiateInitialViewController", "instantiateController",
    "instantiateInitialController",
  ]

  /// How a storyboard or nib creates a class, where the code tells: a cast of what a storyboard
  /// instantiates (`storyboard.instantiateViewController(withIdentifier: "About") as! AboutViewController`),
  /// or a class with Interface Builder outlets or actions whose only init is `init?(coder:)` and
  /// that no code creates. Nil when the code does not say.
  public static func interfaceBuilderCreation(of typeName: String, project: Project) -> String? {
    project.answer("interface builder creation of \(typeName)") { findInterfaceBuilderCreation(of: typeName, project: project) }
  }

  private static func findInterfaceBuilderCreation(of typeName: String, project: Project) -> String? {
    let index = project.index
    guard let primary = index.primaryDeclaration(of: typeName), primary.kind == .class else { return nil }
    // A cast of what a storyboard instantiates names the call: only files whose text does are walked.
    let instantiating = Set(project.paths(naming: storyboardInstantiation.sorted()))
    for path in InitCallFinder.paths(naming: typeName, project: project) where instantiating.contains(path) {
      guard let file = try? project.file(path) else { continue }
      let finder = CastFinder(viewMode: .sourceAccurate)
      finder.walk(file.tree)
      for (cast, type) in finder.casts where index.resolveType(type.trimmedDescription) == typeName {
        let operand: ExprSyntax? = cast.as(SequenceExprSyntax.self)?.elements.first ?? cast.as(AsExprSyntax.self)?.expression
        var expression = operand
        // `storyboard.instantiateViewController(withIdentifier: "x")`, possibly force-unwrapped.
        if let unwrapped = expression?.as(ForceUnwrapExprSyntax.self) { expression = unwrapped.expression }
        if let unwrapped = expression?.as(OptionalChainingExprSyntax.self) { expression = unwrapped.expression }
        guard let call = expression?.as(FunctionCallExprSyntax.self),
          let name = call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text,
          storyboardInstantiation.contains(name)
        else { continue }
        let location = file.source.location(ofOffset: cast.positionAfterSkippingLeadingTrivia.utf8Offset)
        return "a storyboard creates it ('\(name)' at \(location.path):\(location.line))"
      }
    }
    let members = index.declarations(of: typeName).flatMap(\.members)
    let usesInterfaceBuilder = members.contains { $0.attributes.contains("@IBOutlet") || $0.attributes.contains("@IBAction") }
    let onlyCoder = index.designatedInits(of: typeName).allSatisfy { $0.labels == ["coder"] }
    guard usesInterfaceBuilder, onlyCoder else { return nil }
    guard let found = try? InitCallFinder.calls(of: [typeName], superclassOf: [:], project: project),
      let unnamed = try? InitCallFinder.creatingFiles(of: [typeName], project: project).unnamed
    else { return nil }
    // A `.init(...)` whose type is not told counts in a file that names the type; one in a file
    // that only writes what gives the type (`ImplicitTypeGivers`) does not tell a storyboard's.
    let mayCreate = found.unrewritable.contains { $0.kind != .implicitMember || unnamed[$0.path]?.contains(typeName) != true }
    if found.calls.contains(where: { !$0.isSelfInit && !$0.isSuperInit }) || mayCreate {
      return nil
    }
    return "a storyboard or nib creates it (it has Interface Builder outlets or actions, no init but 'init?(coder:)', and no code creates it)"
  }
}

/// The project types an expression creates by name (`Logger()`, `Logger.init(...)`), with the
/// offset of each creation.
final class CreationFinder: SyntaxVisitor {
  var created: [(String, Int)] = []

  override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
    var called = node.calledExpression
    if let member = called.as(MemberAccessExprSyntax.self), member.declName.baseName.tokenKind == .keyword(.`init`),
      let base = member.base
    {
      called = base
    }
    if let written = called.typeReferenceText {
      created.append((written, node.positionAfterSkippingLeadingTrivia.utf8Offset))
    }
    return .visitChildren
  }
}

/// Every `x as! T` and `x as? T` that is a whole expression (the parser leaves casts unfolded:
/// `x`, `as!`, `T` in a sequence).
final class CastFinder: SyntaxVisitor {
  var casts: [(node: Syntax, type: TypeSyntax)] = []

  override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
    let elements = Array(node.elements)
    if elements.count == 3, let cast = elements[1].as(UnresolvedAsExprSyntax.self), cast.questionOrExclamationMark != nil,
      let type = elements[2].as(TypeExprSyntax.self)?.type
    {
      casts.append((Syntax(node), type))
    }
    return .visitChildren
  }

  override func visit(_ node: AsExprSyntax) -> SyntaxVisitorContinueKind {
    if node.questionOrExclamationMark != nil { casts.append((Syntax(node), node.type)) }
    return .visitChildren
  }
}

/// The accessors named in an expression (`Player.shared`), with the type written before each and
/// its offset.
final class AccessorReadFinder: SyntaxVisitor {
  let accessors: Set<String>
  var read: [(String, Int)] = []

  init(accessors: some Sequence<String>) {
    self.accessors = Set(accessors)
    super.init(viewMode: .sourceAccurate)
  }

  override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
    if accessors.contains(node.declName.baseName.text), let written = node.base?.typeReferenceText {
      read.append((written, node.positionAfterSkippingLeadingTrivia.utf8Offset))
    }
    return .visitChildren
  }
}
