import DesingletonCore
import DesingletonIndex
import SwiftSyntax

/// A place that creates an instance of a type: `T(...)`, `T.init(...)`, or `super.init(...)` in a subclass.
struct InitCall {
  var path: String
  var call: FunctionCallExprSyntax
  /// The type created.
  var typeName: String
  var isSuperInit: Bool
  /// `self.init(...)` delegating to another init of the same type.
  var isSelfInit: Bool = false
  /// Argument labels as written (`_` for none); trailing closures are counted in `trailingClosures`.
  var labels: [String]
  var trailingClosures: Int
  var context: ReferenceContext
}

/// A creation `inject` cannot update: `.init(...)` whose type the code does not name
/// (`show(.init(title: "x"))`), or `Badge.init` passed as a function.
struct UnrewritableCreation {
  enum Kind { case implicitMember, functionReference, ambiguous }
  var kind: Kind
  var path: String
  /// For a function reference, the type it creates; nil for an implicit member whose type is unknown.
  var typeName: String?
  var labels: [String]
  var trailingClosures: Int
  var offset: Int
  /// For an implicit member passed as an argument: the call, whose callee's declarations say the
  /// parameter's type (`argumentType(of:index:)`), asked only when a consumer could be blocked.
  var argument: ImplicitArgumentSlot? = nil
  /// For an implicit member that is an argument, its label (`_`: none), whether or not the call's
  /// callee is told (`argument`).
  var label: String? = nil
}

enum InitCallFinder {
  /// Every call of an init of `types` (qualified names) in the files whose text names one of them
  /// or one of `subclasses`, in index order, and the creations that cannot be updated. Each file is
  /// walked once for each type it names, whatever question asks (`CreationTable`): a question asked
  /// again with more types (a creator taken in, a chain of creators a round) walks each file only
  /// for the types new to it. Many files to walk are walked on every thread.
  static func calls(
    of types: Set<String>, superclassOf subclasses: [String: String], project: Project
  ) throws -> (calls: [InitCall], unrewritable: [UnrewritableCreation]) {
    let typesByPath = try creatingFiles(of: types.sorted(), project: project).types
    var subclassesByPath: [String: [(String, String)]] = [:]
    for (subclass, parent) in subclasses.sorted(by: { $0.key < $1.key }) {
      for path in paths(naming: subclass, project: project) { subclassesByPath[path, default: []].append((subclass, parent)) }
    }
    let table = project.answer("creation table") { CreationTable() }
    let paths = project.inIndexOrder(Set(typesByPath.keys).union(subclassesByPath.keys))
    let questions = paths.map { path in
      CreationTable.Question(
        path: path, types: typesByPath[path] ?? [], subclasses: subclassesByPath[path] ?? [])
    }
    let known = questions.map { table.answered($0) }
    let walks = zip(questions, known).flatMap { question, known in known == nil ? table.walks(answering: question) : [] }
    let index = project.index
    let walked: [CreationTable.Walked]
    if walks.count < 8 {
      // A few files are walked on this thread: waking others costs more than they would save.
      walked = try walks.map { try $0.run(project.file($0.path), index, table: table) }
    } else {
      walked = try parallelMap(count: walks.count) { position in
        Result { try walks[position].run(project.file(walks[position].path), index, table: table) }
      }.map { try $0.get() }
    }
    // Taken once the walks are done: a later run keeps them if a coverage check passes after it.
    let ticket = index.coverage?.ticket()
    for result in walked { table.record(result, ticket: ticket) }
    var result: [InitCall] = []
    var unrewritable: [UnrewritableCreation] = []
    for (question, known) in zip(questions, known) {
      let found = known ?? table.answer(question)
      result += found.calls
      unrewritable += found.unrewritable
    }
    return (result, unrewritable)
  }

  /// The files that can create one of `types` through `.init(...)` without naming it, and the
  /// types each can: those holding an implicit `.init` that write what gives one of the types
  /// (`ImplicitTypeGivers`, `givers(of:project:)`).
  static func implicitCreationPaths(
    of types: Set<String>, project: Project
  ) throws -> [String: [String]] {
    let implicit = Set(project.paths(namingImplicitMember: ["init"]))
    guard !implicit.isEmpty else { return [:] }
    var result: [String: [String]] = [:]
    for type in types.sorted() {
      let written = writtenNames(of: type, index: project.index)
      let paths = try project.answer("files giving \(written) to .init without naming it") { () throws -> [String] in
        let givers = try givers(of: type, project: project)
        guard !givers.isEmpty else { return [] }
        let candidates = project.paths(naming: givers.words).filter { implicit.contains($0) }
        let writes = parallelMap(count: candidates.count) { position in
          project.words(of: candidates[position]).map(givers.written(in:)) ?? true
        }
        return zip(candidates, writes).compactMap { $1 ? $0 : nil }
      }
      for path in paths { result[path, default: []].append(type) }
    }
    return result
  }

  /// A type's name and its aliases' (`W` after `typealias W = Widget`), as code writes them.
  static func writtenNames(of type: String, index: Index) -> [String] {
    ([type] + index.typeAliasNames(meaningAnyOf: [type])).map { $0.split(separator: ".").last.map(String.init) ?? $0 }
  }

  /// The files whose text names the type or an alias of it (`writtenNames`): where code can write
  /// it (a creation, a cast, a metatype), but for `.init(...)` (`creatingFiles`).
  static func paths(naming type: String, project: Project) -> [String] {
    project.paths(naming: writtenNames(of: type, index: project.index))
  }

  /// The files that can create one of `types`, with the types each can, in the order given: those
  /// naming the type or an alias of it (`W()` after `typealias W = Widget`), and those holding
  /// `.init(...)` where a declaration elsewhere gives the type (`self.part = .init()` with `var
  /// part: Part` in another file: `implicitCreationPaths`). `unnamed`: by file, the types it can
  /// create only that way, whose untold `.init(...)` count only where what gives the type is
  /// (`mayCreate`).
  static func creatingFiles(
    of types: [String], project: Project
  ) throws -> (types: [String: [String]], unnamed: [String: Set<String>]) {
    var byPath: [String: [String]] = [:]
    var unnamed: [String: Set<String>] = [:]
    for type in types {
      for path in paths(naming: type, project: project) { byPath[path, default: []].append(type) }
    }
    for (path, given) in try implicitCreationPaths(of: Set(types), project: project) {
      let known = byPath[path] ?? []
      let more = types.filter { given.contains($0) && !known.contains($0) }
      byPath[path] = known + more
      if !more.isEmpty { unnamed[path, default: []].formUnion(more) }
    }
    return (byPath, unnamed)
  }

  /// What gives `type` to an implicit member in the files that name it or an alias of it.
  static func givers(of type: String, project: Project) throws -> ImplicitTypeGivers {
    let written = writtenNames(of: type, index: project.index)
    return try project.answer("what gives \(written) to an implicit member") {
      var givers = ImplicitTypeGivers()
      for path in paths(naming: type, project: project) {
        givers.formUnion(ImplicitTypeGivers.of(written, in: try project.file(path)))
      }
      return givers
    }
  }

  /// Every call of an init of `types` (qualified names) in the given files, and the creations that
  /// cannot be updated.
  static func calls(
    of types: Set<String>, superclassOf subclasses: [String: String], in files: [ParsedFile], index: Index
  ) -> (calls: [InitCall], unrewritable: [UnrewritableCreation]) {
    var result: [InitCall] = []
    var unrewritable: [UnrewritableCreation] = []
    for file in files {
      let visitor = walk(file, types: types, subclasses: subclasses, index: index)
      result.append(contentsOf: visitor.found)
      unrewritable.append(contentsOf: visitor.unrewritable)
    }
    return (result, unrewritable)
  }

  /// One walk of a file for the creations of `types` (and `super.init` calls of `subclasses`): the
  /// visitor, with what it found. Getters' and `Self`'s types are looked up when the file's bytes
  /// name one of `types` (`Visitor.deep`).
  ///
  /// What does not depend on the types is taken from `known` (an earlier walk of the same file,
  /// `Sites`): the calls and references reached from `init` and `Self`, and what the code says of
  /// each `.init(...)`'s type. In a file whose bytes name none of `types` (asked for no
  /// `super.init` calls), only an `.init(...)` can create one: the file is not walked again.
  static func walk(
    _ file: ParsedFile, types: Set<String>, subclasses: [String: String], index: Index, known: Sites? = nil
  ) -> Visitor {
    let names = Visitor.names(of: types, index: index)
    let simpleNames = names.sorted().map { Array($0.utf8) }
    let deep = containsAny(simpleNames, in: file.source.bytes)
    let visitor = Visitor(types: types, subclasses: subclasses, index: index, path: file.path, deep: deep, names: names)
    // What a walk of another tree of the file found (parsed again) is not this tree's.
    let known = known.flatMap { $0.root == Syntax(file.tree).id ? $0 : nil }
    visitor.known = known?.contexts[deep]
    if let known, let contexts = known.contexts[deep], !deep && subclasses.isEmpty {
      for node in known.keywordNodes {
        guard let call = node.as(FunctionCallExprSyntax.self), let context = contexts[call.id] else { continue }
        visitor.visit(ImplicitInit(call: call, context: context))
      }
      visitor.contexts = contexts
      visitor.keywordNodes = known.keywordNodes
    } else {
      visitor.visitCreations(in: file, names: simpleNames, keywordNodes: known?.keywordNodes)
    }
    return visitor
  }

  /// What a walk of a file found that does not depend on the types asked: the calls and
  /// references its `init` and `Self` tokens reach (in walk order), and, by whether getters' and
  /// `Self`'s types were looked up, what the code says of each `.init(...)`'s type.
  struct Sites {
    /// The root of the tree walked.
    var root: SyntaxIdentifier
    var keywordNodes: [Syntax]
    var contexts: [Bool: [SyntaxIdentifier: ContextualType]]
  }

  /// An `.init(...)` with what the code says of its type (`contextualType`).
  struct ImplicitInit {
    var call: FunctionCallExprSyntax
    var context: ContextualType
  }

  /// The calls whose called expression holds one of the words, and the `init` references
  /// (`Badge.init`), in walk order.
  static func creationNodes(in file: ParsedFile, words: [[UInt8]]) -> [Syntax] {
    let offsets = wordOccurrences(of: words, in: file.source.bytes)
    var nodes: [Syntax] = []
    var seen: Set<SyntaxIdentifier> = []
    func add(_ node: Syntax) { if seen.insert(node.id).inserted { nodes.append(node) } }
    for token in ReferenceCollector.tokens(at: offsets, in: Syntax(file.tree)) {
      // `Badge.init` passed as a function.
      if token.tokenKind == .keyword(.`init`), let member = token.parent?.parent?.as(MemberAccessExprSyntax.self) {
        add(Syntax(member))
      }
      // The call whose called expression holds the token.
      var node = Syntax(token)
      while let parent = node.parent, !parent.is(CodeBlockItemSyntax.self), !parent.is(MemberBlockItemSyntax.self) {
        if let call = parent.as(FunctionCallExprSyntax.self) {
          if call.calledExpression.id == node.id { add(parent) }
          break
        }
        node = parent
      }
    }
    return ReferenceCollector.inWalkOrder(nodes)
  }

  /// What the code says about the type an implicit member expression (`.init(...)`) creates.
  enum ContextualType: Equatable {
    /// Named as written: a binding's annotation, a function's declared result, an assigned property's type.
    case named(String)
    /// Assigned to a property no project type declares (a framework type's own): not a project type.
    case notProject
    case unknown
  }

  /// `deep`: whether a getter's or `Self`'s type is looked up (asking the index about more names);
  /// when not, they are not told. An argument's type is never looked up here: see
  /// `argumentType(of:index:)`.
  static func contextualType(of call: FunctionCallExprSyntax, index: Index, deep: Bool = true) -> ContextualType {
    var node = Syntax(call)
    while let parent = node.parent, parent.is(TryExprSyntax.self) || parent.is(AwaitExprSyntax.self) { node = parent }
    guard let parent = node.parent else { return .unknown }
    // A type written where a generic parameter may stand for another (`T` in `extension Box`).
    func told(_ type: String, generics: [String] = []) -> ContextualType {
      if generics.contains(Index.firstName(ofWritten: type)) { return .unknown }
      let scope = ReferenceContextFinder.context(of: node).typeName
      return type != "Self" && index.mayNameGenericParameter(type, in: scope) ? .unknown : .named(type)
    }
    // A binding's annotation or a parameter's type, as for an implicit `.shared`.
    if parent.is(InitializerClauseSyntax.self) {
      return ReferenceCollector.annotatedType(ofImplicit: node.as(ExprSyntax.self) ?? ExprSyntax(call)).map { told($0) } ?? .unknown
    }
    // `x = .init(...)`, `self.x = .init(...)`, `a.b[i] == .init(...)`: the property's declared
    // type, by the rule an implicit `.shared` is attributed by.
    if let expression = node.as(ExprSyntax.self), let property = index.assignedProperty(of: expression) {
      switch property {
      case .framework: return .notProject
      case .unknown: return .unknown
      case .declared(let types):
        guard types.count == 1, case .named(let written) = types.first else { return .notProject }
        return .named(written)
      }
    }
    // What a function, getter or subscript returns: its declared type (the index's one rule).
    guard ReferenceCollector.isReturned(node), let returned = ReferenceCollector.returnedDeclaration(around: node),
      let written = namedType(returned.type), deep || (!returned.inGetter && written != "Self")
    else { return .unknown }
    return written == "Self" ? selfType(at: returned.declaration, index: index) : told(written, generics: returned.generics)
  }

  /// What `Self` names where a member returns it: the type a type's member or an extension's is
  /// in, or `X` in an extension of a protocol `where Self == X` (`static var none: Self { .init() }`).
  private static func selfType(at node: Syntax, index: Index) -> ContextualType {
    var current = node.parent
    while let syntax = current {
      if let extensionDecl = syntax.as(ExtensionDeclSyntax.self) {
        for requirement in extensionDecl.genericWhereClause?.requirements ?? [] {
          if case .sameTypeRequirement(let same) = requirement.requirement,
            same.leftType.trimmedDescription == "Self"
          {
            return .named(same.rightType.trimmedDescription)
          }
        }
        let extended = index.resolveType(extensionDecl.extendedType.trimmedDescription)
        guard let primary = index.primaryDeclaration(of: extended), primary.kind != .protocol else { return .unknown }
        return .named(extended)
      }
      if syntax.is(ProtocolDeclSyntax.self) { return .unknown }
      if syntax.is(ClassDeclSyntax.self) || syntax.is(StructDeclSyntax.self) || syntax.is(EnumDeclSyntax.self)
        || syntax.is(ActorDeclSyntax.self)
      {
        return ReferenceContextFinder.context(of: node).typeName.map { .named($0) } ?? .unknown
      }
      current = syntax.parent
    }
    return .unknown
  }

  /// The type an argument's implicit member is looked up in, from what the callee's declarations
  /// say of the parameter: no project type (a framework callee, or framework and structural
  /// types only), the one project type they name, or unknown.
  static func argumentType(of slot: ImplicitArgumentSlot, index: Index) -> ContextualType {
    switch index.implicitArgument(slot) {
    case .framework: return .notProject
    case .unknown: return .unknown
    case .declared(let types):
      var named: Set<String> = []
      for type in types {
        switch type {
        case .structural: continue
        case .unknown: return .unknown
        case .named(let written):
          let resolved = index.resolveType(written)
          guard index.hasType(resolved) else { continue }
          if index.primaryDeclaration(of: resolved)?.kind == .protocol { return .unknown }
          named.insert(resolved)
        }
      }
      if named.isEmpty { return .notProject }
      return named.count == 1 ? .named(named.first!) : .unknown
    }
  }

  /// `Badge`, `Outer.Badge`, `Badge?` as written; nil for other types.
  private static func namedType(_ type: TypeSyntax) -> String? {
    if case .named(let written) = ParameterType.of(type) { return written }
    return nil
  }

  final class Visitor: SyntaxVisitor {
    let types: Set<String>
    /// Subclass → the superclass in `types` whose inits its `super.init` calls.
    let subclasses: [String: String]
    let index: Index
    let path: String
    var found: [InitCall] = []
    var unrewritable: [UnrewritableCreation] = []
    /// For each ambiguous creation (by offset), every type its name may mean.
    var ambiguousCandidates: [Int: [String]] = [:]
    /// What the code says of the type of each `.init(...)` met: the same whatever the types
    /// (`Sites`), and what an earlier walk of the file with the same `deep` found.
    var contexts: [SyntaxIdentifier: ContextualType] = [:]
    var known: [SyntaxIdentifier: ContextualType]?
    /// The calls and references reached from `init` and `Self` (`Sites`).
    var keywordNodes: [Syntax] = []
    /// The simple names of `types` and of their aliases: a name written in a creation means one of
    /// them only if it ends with one of these. Any other is not resolved (asking the index nothing).
    private let simpleNames: Set<String>
    /// The same of the subclasses whose `super.init` calls are looked for.
    private let subclassNames: Set<String>

    /// Whether the file's bytes name one of `types`: only then are a getter's and `Self`'s types
    /// looked up for an `.init(...)` (`contextualType(of:index:deep:)`).
    let deep: Bool

    /// `names`: `Visitor.names(of: types, index: index)`, when the caller has them.
    init(types: Set<String>, subclasses: [String: String], index: Index, path: String, deep: Bool, names: Set<String>? = nil) {
      self.deep = deep
      self.types = types
      self.subclasses = subclasses
      self.index = index
      self.path = path
      self.simpleNames = names ?? Visitor.names(of: types, index: index)
      self.subclassNames = Visitor.names(of: Set(subclasses.keys), index: index)
      super.init(viewMode: .sourceAccurate)
    }

    /// The simple names of the types and of the type aliases that mean them.
    static func names(of types: Set<String>, index: Index) -> Set<String> {
      Set(types.map(FrameworkTypes.lastComponent)).union(index.typeAliasNames(meaningAnyOf: types))
    }

    /// Whether a type written this way (`Badge`, `Outer.Badge`, `Box<Int>`) can mean one of the
    /// types whose simple names (and aliases' names) are `names`.
    private func canMean(_ written: String, _ names: Set<String>) -> Bool {
      names.contains(FrameworkTypes.lastComponent(written))
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
      var called = node.calledExpression
      var isSuper = false
      if let member = called.as(MemberAccessExprSyntax.self), member.declName.baseName.tokenKind == .keyword(.`init`) {
        guard let base = member.base else {
          // `.init(...)`: the type is the one the context names, if it names one.
          let context = known?[node.id] ?? InitCallFinder.contextualType(of: node, index: index, deep: deep)
          contexts[node.id] = context
          visit(ImplicitInit(call: node, context: context))
          return .visitChildren
        }
        if base.is(SuperExprSyntax.self) {
          isSuper = true
        } else {
          called = base
        }
      }
      var typeName: String?
      let isSelfInit = node.calledExpression.as(MemberAccessExprSyntax.self).map {
        $0.declName.baseName.tokenKind == .keyword(.`init`) && $0.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self)
      } ?? false
      if isSelfInit {
        // `self.init(...)` in a convenience init delegates to the type's own init.
        let context = ReferenceContextFinder.context(of: Syntax(node))
        if let owner = context.typeName.flatMap(resolved(among: simpleNames)), types.contains(owner) { typeName = owner }
      } else if isSuper {
        let context = ReferenceContextFinder.context(of: Syntax(node))
        if let owner = context.typeName.flatMap(resolved(among: subclassNames)), let parent = subclasses[owner] {
          typeName = parent
        }
      } else if let written = called.typeReferenceText {
        let context = ReferenceContextFinder.context(of: Syntax(node))
        if written == "Self" {
          // `Self(...)` creates the enclosing type.
          if let owner = context.typeName.flatMap(resolved(among: simpleNames)), types.contains(owner) { typeName = owner }
        } else {
          let last = written.split(separator: ".").last.map(String.init) ?? written
          if simpleNames.contains(last) {
            switch resolve(written, from: context.typeName) {
            case .type(let resolved): if types.contains(resolved) { typeName = resolved }
            case .ambiguous(let candidates):
              // A short name several types have, none of them in scope by nesting: the call may
              // create a consumer, and which one cannot be told.
              if let created = candidates.first(where: types.contains) {
                ambiguousCandidates[node.positionAfterSkippingLeadingTrivia.utf8Offset] = candidates
                unrewritable.append(
                  UnrewritableCreation(
                    kind: .ambiguous, path: path, typeName: created, labels: [], trailingClosures: 0,
                    offset: node.positionAfterSkippingLeadingTrivia.utf8Offset))
              }
            }
          }
        }
      }
      return record(node, typeName: typeName, isSuper: isSuper, isSelfInit: isSelfInit)
    }

    /// Records an implicit `.init(...)` of one of the types, or one whose type the code does not say.
    func visit(_ implicit: ImplicitInit) {
      let node = implicit.call
      switch implicit.context {
      case .notProject: return
      case .unknown:
        unrewritable.append(
          UnrewritableCreation(
            kind: .implicitMember, path: path, typeName: nil, labels: node.arguments.map { $0.label?.text ?? "_" },
            trailingClosures: (node.trailingClosure == nil ? 0 : 1) + node.additionalTrailingClosures.count,
            offset: node.positionAfterSkippingLeadingTrivia.utf8Offset,
            argument: ReferenceCollector.argumentSlot(of: ExprSyntax(node)),
            label: node.parent?.as(LabeledExprSyntax.self).map { $0.label?.text ?? "_" }))
      case .named(let written):
        guard canMean(written, simpleNames) else { return }
        let resolved = index.resolveType(written)
        _ = record(node, typeName: types.contains(resolved) ? resolved : nil, isSuper: false, isSelfInit: false)
      }
    }

    /// Visits the calls and `init` references a walk of the whole tree would visit that can create
    /// one of the types, in the walk's order, reaching them from the tokens that can name one: a
    /// type's simple name, `Self` or `init` (every creation the visitor records writes one of them in
    /// the called expression: `Badge(...)`, `Outer.Badge.init(...)`, `Self(...)`, `.init(...)`,
    /// `super.init(...)`, `self.init(...)`, `Badge.init`). The other calls record nothing. Those
    /// `Self` and `init` reach are `keywordNodes`, when an earlier walk found them.
    func visitCreations(in file: ParsedFile, names: [[UInt8]], keywordNodes known: [Syntax]?) {
      let keywords = known ?? InitCallFinder.creationNodes(in: file, words: [Array("init".utf8), Array("Self".utf8)])
      keywordNodes = keywords
      var nodes = keywords
      let named = names.isEmpty ? [] : InitCallFinder.creationNodes(in: file, words: names)
      if !named.isEmpty {
        var seen = Set(keywords.map(\.id))
        for node in named where seen.insert(node.id).inserted { nodes.append(node) }
        nodes = ReferenceCollector.inWalkOrder(nodes)
      }
      for node in nodes {
        if let call = node.as(FunctionCallExprSyntax.self) {
          _ = visit(call)
        } else if let member = node.as(MemberAccessExprSyntax.self) {
          _ = visit(member)
        }
      }
    }

    /// Resolves a written type name, when it can mean one of the types `names` name (`canMean`); nil
    /// for any other, which is not looked up.
    private func resolved(among names: Set<String>) -> (String) -> String? {
      { [index] written in self.canMean(written, names) ? index.resolveType(written) : nil }
    }

    enum Resolution {
      case type(String)
      case ambiguous([String])
    }

    /// The type a name written in code means where it is written: a type nested in the enclosing
    /// types wins (Swift's lexical lookup), then the index's resolution; a short name that several
    /// nested types share and none of the enclosing types declares is ambiguous.
    func resolve(_ written: String, from enclosing: String?) -> Resolution {
      var scope = enclosing.map { index.resolveType($0) }
      while let current = scope {
        if index.primaryDeclaration(of: "\(current).\(written)") != nil { return .type("\(current).\(written)") }
        let components = current.split(separator: ".")
        scope = components.count > 1 ? components.dropLast().joined(separator: ".") : nil
      }
      if index.primaryDeclaration(of: written) != nil || written.contains(".") { return .type(index.resolveType(written)) }
      let candidates = index.types(named: written)
      return candidates.count > 1 ? .ambiguous(candidates) : .type(index.resolveType(written))
    }

    private func record(_ node: FunctionCallExprSyntax, typeName: String?, isSuper: Bool, isSelfInit: Bool) -> SyntaxVisitorContinueKind {
      guard let typeName else { return .visitChildren }
      let labels = node.arguments.map { $0.label?.text ?? "_" }
      let trailing = (node.trailingClosure == nil ? 0 : 1) + node.additionalTrailingClosures.count
      found.append(
        InitCall(
          path: path, call: node, typeName: typeName, isSuperInit: isSuper, isSelfInit: isSelfInit, labels: labels,
          trailingClosures: trailing, context: ReferenceContextFinder.context(of: Syntax(node))))
      return .visitChildren
    }

    /// `Badge.init` not called: passed as a function, it cannot be given new arguments.
    override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
      guard node.declName.baseName.tokenKind == .keyword(.`init`), let base = node.base, !base.is(SuperExprSyntax.self),
        let written = base.typeReferenceText
      else { return .visitChildren }
      if let call = node.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == node.id { return .visitChildren }
      guard canMean(written, simpleNames) else { return .visitChildren }
      let resolved = index.resolveType(written)
      guard types.contains(resolved) else { return .visitChildren }
      let labels = node.declName.argumentNames?.arguments.map { $0.name.text } ?? []
      unrewritable.append(
        UnrewritableCreation(
          kind: .functionReference, path: path, typeName: resolved, labels: labels, trailingClosures: 0,
          offset: node.positionAfterSkippingLeadingTrivia.utf8Offset))
      return .visitChildren
    }
  }

  /// Whether a call with these labels can call an init with these parameters (labels, and whether
  /// each has a default), the variadic ones at `variadic`.
  static func matches(
    labels: [String], trailingClosures: Int, parameters: [(label: String, hasDefault: Bool)], variadic: [Int] = []
  ) -> Bool {
    CallArguments(labels: labels, trailingClosures: trailingClosures).canCall(parameters, variadic: variadic)
  }

}

extension InitCallFinder {
  /// The type written in `T(...)` or `T.init(...)` when the index declares `T`, with its generic
  /// arguments (`Box<Int>`); nil for a generic type whose arguments the call leaves to inference.
  /// `try T(...)`, `try! T(...)` and `T(...)!` (a failable init's) have the same type.
  static func writtenType(of value: ExprSyntax, index: Index) -> String? {
    var value = value
    if let tried = value.as(TryExprSyntax.self), tried.questionOrExclamationMark?.tokenKind != .postfixQuestionMark {
      value = tried.expression
    }
    if let unwrapped = value.as(ForceUnwrapExprSyntax.self) { value = unwrapped.expression }
    guard let call = value.as(FunctionCallExprSyntax.self) else { return nil }
    var called = call.calledExpression
    if let member = called.as(MemberAccessExprSyntax.self), member.declName.baseName.tokenKind == .keyword(.`init`),
      let base = member.base
    {
      called = base
    }
    guard let written = called.typeReferenceText, written != "Self",
      !index.declarations(of: index.resolveType(written)).contains(where: { $0.kind == .protocol })
    else { return nil }
    guard let specialized = called.as(GenericSpecializationExprSyntax.self) else {
      let generic = index.declarations(of: index.resolveType(written)).contains { !$0.genericParameters.isEmpty }
      return generic || called.description.contains("<") ? nil : written
    }
    return written + specialized.genericArgumentClause.trimmedDescription
  }

  /// The value of `view.environment(\.key, <expression>)`: handed to the views made there, as an
  /// init argument is.
  static func isEnvironmentValue(_ expression: ExprSyntax) -> Bool {
    guard let argument = expression.parent?.as(LabeledExprSyntax.self), argument.label == nil,
      let list = argument.parent?.as(LabeledExprListSyntax.self), list.count == 2, list.last?.id == argument.id,
      list.first?.expression.is(KeyPathExprSyntax.self) == true,
      let call = list.parent?.as(FunctionCallExprSyntax.self),
      call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "environment"
    else { return false }
    return true
  }
}
