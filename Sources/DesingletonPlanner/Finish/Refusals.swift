import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftSyntax

extension FinishPlanner {
  /// A root that receives the instance through one of its inits is itself created by the real root
  /// (after `inject --all` moved the accessor up to its creator): owning another instance would split
  /// the state between two of them.
  static func checkRootDoesNotReceiveTheInstance(_ singleton: Singleton, root: String, project: Project) throws {
    let index = project.index
    guard let (member, location) = try CompositionRoots.instanceParameter(of: root, singleton: singleton, project: project) else {
      return
    }
    let creators = try CompositionRoots.creators(of: root, project: project).filter { !index.isTestType($0) }
    var message = "'\(root)' receives the instance through '\(member.displayName)', so it is not the composition root: "
      + "a second instance would change behaviour; "
    if creators.count == 1 {
      message += "run 'desingleton finish \(project.singletonFlags(singleton.typeName)) --root \(shellWord(creators[0]))', the type that creates it"
    } else {
      message += "name the type that creates it as --root"
      if !creators.isEmpty { message += ": " + creators.map { "'\($0)'" }.joined(separator: ", ") }
    }
    throw Refusal(message, at: location)
  }

  /// A root that code outside tests creates in more than one place in one program (`let first =
  /// WindowCoordinator()` and `let second = WindowCoordinator()` in `main.swift`): each instance
  /// would own its own instance of the singleton where all of them shared one.
  static func checkRootIsMadeOnce(_ root: String, singleton: Singleton, project: Project) throws {
    // A type declared once per target (or per `#if` branch) is one root in each.
    try checkRootIsDeclaredOnce(root, index: project.index)
    // A preview's creation (a `#Preview`, a `PreviewProvider`'s or a `preview` member, a static
    // property's value) is not the program's; a static method's is (`static func main()` making
    // `App()` twice); a subclass's is the root's.
    let made = CompositionRoots.madeAs(root, index: project.index)
    let sites = try InitCallFinder.calls(of: Set(made), superclassOf: [:], project: project).calls.filter { call in
      !call.isSelfInit && !call.isSuperInit && !Index.isTestPath(call.path) && !isPreview(call, project.index)
    }
    if sites.isEmpty, let creation = systemMayMakeMany(root, index: project.index),
      let declaration = project.index.primaryDeclaration(of: root)
    {
      throw Refusal(
        "'\(root)' is created by no code: \(creation), as often as it needs one, and each would own its own "
          + "'\(singleton.typeName)' where all of them shared one; name as --root a type created once, such as the "
          + "application delegate or the '@main' type",
        at: declaration.range.start)
    }
    var byProgram: [String: [InitCall]] = [:]
    for call in sites {
      let programs = project.modules.programs(of: call.path)
      for program in programs.isEmpty ? [""] : programs { byProgram[program, default: []].append(call) }
    }
    // One creation where code may run more than once makes as many roots.
    for (_, calls) in byProgram.sorted(by: { $0.key < $1.key }) where calls.count == 1 {
      guard let call = calls.first, let repeated = repeatedBy(call, index: project.index) else { continue }
      throw Refusal(
        "'\(root)' is created in \(repeated), which may run more than once: each '\(root)' would own its own "
          + "'\(singleton.typeName)' where all of them shared one; create it once and pass it on, or name the type that creates it as --root",
        at: try project.file(call.path).source.location(ofOffset: call.call.positionAfterSkippingLeadingTrivia.utf8Offset))
    }
    guard let (_, calls) = byProgram.sorted(by: { $0.key < $1.key }).first(where: { $0.value.count > 1 }) else { return }
    var diagnostics: [Diagnostic] = []
    let how = calls.contains { $0.typeName != root } ? ", as itself or a subclass" : ""
    for call in calls {
      let source = try project.file(call.path).source
      let location = source.location(ofOffset: call.call.positionAfterSkippingLeadingTrivia.utf8Offset)
      diagnostics.append(
        diagnostics.isEmpty
          ? Diagnostic(
            .error,
            "'\(root)' is created in \(calls.count) places\(how): each would own its own '\(singleton.typeName)' where all of them "
              + "shared one; create it once and pass it on, or name the type that creates them as --root",
            at: location)
          : Diagnostic(
            .note, call.typeName == root ? "'\(root)' is created here too" : "'\(call.typeName)', a subclass of '\(root)', is created here too",
            at: location))
    }
    throw Refusal(diagnostics)
  }

  /// What may run a creation more than once ("a loop", "a closure", "'make()'"), or nil where it
  /// runs once in a program: top-level code, a global's or a static property's initial value, and
  /// an entry point's `static func main()`, launch method, inits and stored properties' initial
  /// values (the system makes an entry point once). A closure called where it is written runs there.
  static func repeatedBy(_ call: InitCall, index: Index) -> String? {
    var node = Syntax(call.call)
    while let parent = node.parent, !parent.is(MemberBlockSyntax.self), !parent.is(SourceFileSyntax.self) {
      if parent.is(ForStmtSyntax.self) || parent.is(WhileStmtSyntax.self) || parent.is(RepeatStmtSyntax.self) { return "a loop" }
      if let closure = parent.as(ClosureExprSyntax.self),
        closure.parent?.as(FunctionCallExprSyntax.self)?.calledExpression.id != closure.id
      {
        return "a closure"
      }
      // A local function runs each time it is called.
      if parent.is(FunctionDeclSyntax.self), parent.parent?.parent?.parent?.is(CodeBlockSyntax.self) == true,
        let (name, _) = ReferenceContextFinder.memberInfo(parent)
      {
        return "'\(name)'"
      }
      node = parent
    }
    let context = call.context
    if context.inPropertyInitializer && (context.isStatic || context.typeName == nil) { return nil }
    guard let member = context.memberName else { return nil }
    if let type = context.typeName.map(index.resolveType), CompositionRoots.isEntryPoint(type, index: index) {
      if context.inPropertyInitializer && !context.isStatic { return nil }
      if context.isStatic ? member == "main()" : member.hasPrefix("init(") || launchMethods.contains(member) { return nil }
    }
    return context.inPropertyInitializer ? "the initial value of '\(member)'" : "'\(member)'"
  }

  /// How the system creates a type no code creates, where it may create more than once
  /// (`Index.systemCreation`: a scene delegate per window, a cell per row, a value per decoding; a
  /// view or view controller, which only a storyboard or nib can then make, each time one is loaded);
  /// nil for one it makes once in a program: an application's entry point, a SwiftUI `App`, a watch
  /// extension's delegate.
  static func systemMayMakeMany(_ type: String, index: Index) -> String? {
    let once: Set<String> = ["App", "WKExtensionDelegate"]
    guard !CompositionRoots.isEntryPoint(type, index: index),
      !index.conformances(of: type).contains(where: { once.contains(FrameworkTypes.lastComponent($0)) })
    else { return nil }
    if let creation = index.systemCreation(of: type) { return creation }
    // A framework class a subclass of which must implement `init?(coder:)` is one an archive makes.
    for case .framework(let name) in index.superclassChain(of: type) where FrameworkTypes.class(named: name)?.requiresCoderInit == true {
      return "a storyboard or nib creates it (a '\(name)')"
    }
    return nil
  }

  /// An application delegate's methods the system calls once, as the program starts.
  static let launchMethods: Set<String> = [
    "application(_:didFinishLaunchingWithOptions:)", "application(_:willFinishLaunchingWithOptions:)",
    "applicationDidFinishLaunching(_:)", "applicationWillFinishLaunching(_:)",
  ]

  /// A creation for previews, or once: in a `#Preview`, or in a static context that makes them (a
  /// `PreviewProvider`'s members, a member named `previews` or `preview`, a static property's
  /// initial value).
  private static func isPreview(_ call: InitCall, _ index: Index) -> Bool {
    let inMacro = sequence(first: Syntax(call.call), next: \.parent).contains { node in
      node.as(MacroExpansionDeclSyntax.self)?.macroName.text == "Preview"
        || node.as(MacroExpansionExprSyntax.self)?.macroName.text == "Preview"
    }
    if inMacro { return true }
    let context = call.context
    guard context.isStatic else { return false }
    if context.inPropertyInitializer { return true }
    if let member = context.memberName, ["previews", "preview"].contains(member) { return true }
    return context.typeName.map { index.conformances(of: index.resolveType($0)).contains("PreviewProvider") } ?? false
  }

  /// An accessor that is a static requirement of a protocol the singleton conforms to (`protocol
  /// HasShared { static var shared: Self { get } }`, refined or a superclass's too) cannot be
  /// deleted: the type would stop conforming, and what the protocol's code reads as `Self.shared`
  /// has no instance to give without it.
  static func checkAccessorIsNoRequirement(_ singleton: Singleton, project: Project) throws {
    let index = project.index
    for name in singleton.accessors {
      for conformed in index.conformances(of: singleton.typeName) {
        for declaration in index.declarations(of: conformed) where declaration.kind == .protocol {
          guard let requirement = declaration.members.first(where: { $0.isStatic && $0.name == name }) else { continue }
          let source = try project.file(requirement.range.path).source
          throw Refusal(
            "'\(singleton.typeName).\(name)' is the requirement '\(name)' of the protocol '\(conformed)', which "
              + "'\(singleton.typeName)' conforms to: deleting it would break the conformance; remove the requirement "
              + "and the code that reads it through the protocol first, by hand",
            at: source.location(ofOffset: requirement.range.bytes.lowerBound))
        }
      }
    }
  }

  /// The refusal when several types could own the instance (`CompositionRoots.proposedRoot`'s
  /// candidates, the likeliest first, whom `options` names as the root): while the others still
  /// use the accessor none can own it, so what blocks with the likeliest is the work left, listed
  /// after a note naming them all (with `rewrite`, as `run` lists them). With nothing blocking, the
  /// choice is the user's. Other errors (a file to read first) go to the caller.
  public static func severalOwners(
    singleton: Singleton, candidates: [String], options: FinishOptions, project: Project,
    rewrite: ((Plan) throws -> Project)? = nil
  ) throws -> Refusal {
    let several = "several types could own the instance of '\(singleton.typeName)' (\(candidates.joined(separator: ", ")))"
    let place = singleton.declaration.start
    do {
      _ = try run(singleton: singleton, options: options, project: project, rewrite: rewrite)
    } catch let refusal as Refusal {
      let note = Diagnostic(.note, "\(several); what still blocks with '\(options.root)' as the root is listed; name another with --root", at: place)
      return Refusal([note] + refusal.diagnostics)
    }
    return Refusal("\(several); name the one that will own it with --root", at: place)
  }
}

// MARK: - Tests

extension FinishPlanner {
  /// The test references a fresh instance per test function cannot stand for, with the reason. A
  /// fresh instance keeps a test's behaviour only where the test hands it to what it creates
  /// (`Screen(counting: Store.shared)`); a test that reads or calls the shared instance itself checks
  /// the state code under test left in it, which a fresh instance would not have.
  /// A test that also creates the root hands its fresh instance to what it creates beside the
  /// root, which owns another one.
  static func testReferencesToRefuse(_ items: [RemainingReference], root: String, project: Project) throws -> [Reference: String] {
    let index = project.index
    var reasons: [Reference: String] = [:]
    var membersByType: [String: Set<String>] = [:]
    var outsideTests: [(reference: Reference, type: String)] = []
    // The functions (by file and start) of the tests that create the root.
    let creatingRoot = Set(
      try InitCallFinder.calls(of: [root], superclassOf: [:], project: project).calls.compactMap { call in
        Index.isTestPath(call.path) ? enclosingFunction(of: Syntax(call.call)).map { "\(call.path):\($0.position.utf8Offset)" } : nil
      })
    for item in items {
      let file = try project.file(item.reference.range.path)
      guard let node = file.expression(at: item.reference.range.bytes) else { continue }
      guard item.reference.alias == nil, isInitializerArgument(node, index: index) || InitCallFinder.isEnvironmentValue(node) else {
        reasons[item.reference] = "other than as an argument of an initializer: a fresh instance there would not be "
          + "the one the code under test uses; change the test by hand"
        continue
      }
      let type = item.typeName ?? file.path
      let function = enclosingFunction(of: Syntax(node))
      if let function, creatingRoot.contains("\(file.path):\(function.position.utf8Offset)") {
        reasons[item.reference] = "that also creates '\(root)', which will own another instance: a fresh one here "
          + "would not be the one '\(root)' uses; change the test by hand"
        continue
      }
      let member = function.map { "\($0.position.utf8Offset)" } ?? (item.reference.context.memberName ?? "")
      membersByType[type, default: []].insert(member)
      if !(function.map(isTestFunction) ?? false) { outsideTests.append((item.reference, type)) }
    }
    // A helper, `setUp()` or a property gets its own instance, which another member's would not be.
    for (reference, type) in outsideTests where (membersByType[type]?.count ?? 0) > 1 {
      reasons[reference] = "outside a test function while other members of '\(type)' use it too: one fresh "
        + "instance cannot stand for all of them; change the test by hand"
    }
    return reasons
  }

  /// `T(label: <expression>)` or `T.init(label: <expression>)` where `T` is a type the index declares.
  static func isInitializerArgument(_ expression: ExprSyntax, index: Index) -> Bool {
    guard let argument = expression.parent?.as(LabeledExprSyntax.self), argument.expression.id == expression.id,
      let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self), call.arguments.id == argument.parent?.id
    else { return false }
    var called = call.calledExpression
    if let member = called.as(MemberAccessExprSyntax.self), member.declName.baseName.tokenKind == .keyword(.`init`),
      let base = member.base
    {
      called = base
    }
    // A command may index only the files naming the singleton and the root: a type it does not see is
    // still created by `T(...)`, and only a protocol cannot be.
    guard let written = called.typeReferenceText, written != "Self" else { return false }
    return !index.declarations(of: index.resolveType(written)).contains { $0.kind == .protocol }
  }

  /// A Swift Testing `@Test` function, or an XCTest method (`test...()`, which XCTest finds by its name).
  static func isTestFunction(_ function: FunctionDeclSyntax) -> Bool {
    let isAttributed = function.attributes.contains {
      $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "Test"
    }
    return isAttributed
      || (function.name.text.hasPrefix("test") && function.signature.parameterClause.parameters.isEmpty)
  }

  static func enclosingFunction(of node: Syntax) -> FunctionDeclSyntax? {
    var current = node.parent
    while let syntax = current {
      if let function = syntax.as(FunctionDeclSyntax.self) { return function }
      if syntax.is(MemberBlockItemSyntax.self) { return nil }
      current = syntax.parent
    }
    return nil
  }
}

// MARK: - The root's stored properties
