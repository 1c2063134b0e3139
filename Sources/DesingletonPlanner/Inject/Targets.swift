import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftSyntax

/// Decide steps 1 and 2: whether the singleton can be injected at all, and which types are the consumers.
extension InjectDesigner {
  // MARK: 1. The singleton

  func checkSingleton() throws -> SingletonAnalysis {
    guard !catalog.entries.isEmpty else {
      throw Refusal(
        "'\(singleton.typeName)' conforms to no protocol declared in this code; run 'desingleton extract-protocol \(project.singletonFlags(singleton.typeName))' first",
        at: singleton.declaration.start)
    }
    let analysis = try singletonAnalysis()
    if let place = analysis.reassignments.first {
      throw Refusal(
        "'\(singleton.accessExpression)' is given a new instance here, so a consumer holding the instance it had would keep the old one; injecting it would change what the code does",
        at: place)
    }
    if let reason = copiesWouldDiverge() {
      throw Refusal(reason, at: singleton.declaration.start)
    }
    return analysis
  }

  /// The singleton's analysis, made once per project run: the checks and each consumer's advice read it.
  func singletonAnalysis() throws -> SingletonAnalysis {
    try project.answer("analysis of \(singleton.typeName)") { try SingletonAnalysis(singleton: singleton, project: project) }
  }

  // MARK: 2. Which types

  mutating func chooseTargets(_ analysis: SingletonAnalysis) throws -> [String] {
    var targets: [String] = []
    if let requested = options.types {
      for name in requested {
        let matches = index.types(named: name).filter { index.declarations(of: $0).contains { !$0.isExtension } }
        if matches.isEmpty { throw Refusal("no type named '\(name)'") }
        if matches.count > 1 { throw Refusal("'\(name)' is ambiguous: \(matches.joined(separator: ", "))") }
        if let error = options.excluded[matches[0]] {
          skip(matches[0], .build, [error.diagnostic])
          continue
        }
        if let note = options.spreading[matches[0]] {
          skip(matches[0], .spreads, [note])
          continue
        }
        if let (_, reason) = notInjectable(matches[0]) {
          throw Refusal("'\(matches[0])' cannot be injected: \(reason)", at: index.declarations(of: matches[0]).first?.location)
        }
        if !targets.contains(matches[0]) { targets.append(matches[0]) }
      }
    } else {
      // A consumer that only passes the instance on is a target too: it may be a creator an earlier
      // run left passing the accessor, or it is skipped with its reason.
      for usage in analysis.consumers where !(usage.reads + usage.writes + usage.calls).isEmpty || !usage.instanceUses.isEmpty {
        if let error = options.excluded[usage.typeName] {
          skip(usage.typeName, .build, [error.diagnostic])
        } else if let note = options.spreading[usage.typeName] {
          skip(usage.typeName, .spreads, [note])
        } else if let (kind, reason) = notInjectable(usage.typeName) {
          let usesMembers = !(usage.reads + usage.writes + usage.calls).isEmpty
          guard usesMembers, let kind else { continue }
          if kind == .frameworkCreated && options.propertyInjection && !configurationSites(of: usage.typeName).isEmpty {
            propertyInjected.insert(usage.typeName)
            targets.append(usage.typeName)
          } else if kind == .frameworkCreated {
            let place = index.primaryDeclaration(of: usage.typeName)?.location
            frameworkCreated.append(
              SkippedConsumer(
                typeName: usage.typeName, reason: kind,
                diagnostics: [.note("'\(usage.typeName)': \(reason); \(CompositionRoots.wiringHint)", at: place)]))
          } else {
            skip(usage.typeName, kind, [.error("'\(usage.typeName)': \(reason)")])
          }
        } else {
          targets.append(usage.typeName)
        }
      }
      for root in try rootsHandingDown(targets) {
        targets.removeAll { $0 == root.typeName }
        roots.append(root)
      }
    }
    return targets
  }

  /// The consumers that are composition roots (no code outside tests creates them) and create another
  /// consumer, directly or through the types they create: the instance comes from there, so `--all`
  /// leaves their uses of the accessor for `finish`, which makes one of them its owner. A root that
  /// creates no consumer is injected like any consumer; whoever creates it outside the project passes it.
  func rootsHandingDown(_ targets: [String]) throws -> [SkippedConsumer] {
    let candidates = try targets.filter { try CompositionRoots.isCompositionRoot($0, project: project) }
    guard !candidates.isEmpty else { return [] }
    // What an earlier run injected holds the instance as a protocol-typed stored property: a root
    // creating one is still where the instance comes from, so a second run keeps it too.
    let protocols = Set(catalog.entries.map(\.name))
    let holders = project.typeNames(inFilesMentioning: protocols.sorted()).filter { type in
      !targets.contains(type) && protocols.contains { holds(type, $0) }
    }
    // Each type that creates a consumer, directly or through what it creates, and a type it creates on the way.
    var creates: [String: String] = [:]
    var frontier = (targets + holders).map { (type: $0, consumer: $0) }
    while let (type, consumer) = frontier.popLast() {
      for creator in try CompositionRoots.creators(of: type, project: project)
      where creator != consumer && creates[creator] == nil && !index.isTestType(creator) {
        creates[creator] = type
        // A top-level function creates too, but nothing creates it.
        if index.primaryDeclaration(of: creator) != nil { frontier.append((creator, consumer)) }
      }
    }
    return candidates.compactMap { typeName in
      guard let created = creates[typeName] else { return nil }
      let note = Diagnostic.note(
        "'\(typeName)' creates '\(created)', which needs the instance, and no code outside tests creates it: "
          + "it is where the instance comes from, so it keeps '\(accessExpression)'; 'desingleton finish \(project.singletonFlags(singleton.typeName))' makes it the owner",
        at: index.primaryDeclaration(of: typeName)?.location)
      return SkippedConsumer(typeName: typeName, reason: .root, diagnostics: [note])
    }
  }

  /// A value-type singleton whose shared instance can change: each consumer would hold a copy, and a
  /// change made through one copy would no longer be seen by the others.
  func copiesWouldDiverge() -> String? {
    guard singleton.typeKind == .struct || singleton.typeKind == .enum else { return nil }
    let storage = Set([singleton.accessor, singleton.backingStorage].compactMap { $0 })
    let mutable = index.members(of: singleton.typeName).contains { member in
      member.isStatic && member.kind == .property && storage.contains(member.name) && !member.isLet
        && (member.isStored || member.isSettable)
    }
    guard mutable else { return nil }
    return "'\(singleton.typeName)' is a \(singleton.typeKind.rawValue) whose shared instance is a 'static var': each consumer would hold its own copy, and changes made through one would no longer be seen by the others; make '\(singleton.typeName)' a class or an actor first"
  }


  /// What to do about a member no protocol covers: run the `extract-protocol` command that cuts a
  /// slice of it, with a name the code does not use yet (`SliceNamer`), so that it can be run as
  /// printed; or, where no protocol beside the singleton can require it (an extension in a module
  /// the singleton's cannot see declares it), why.
  func sliceAdvice(for member: String) -> String {
    let members = index.members(of: singleton.typeName).filter { $0.name == member && !$0.isStatic }
    // A property wrapper's projection (`$phase`) is no member a slice can name.
    if members.isEmpty {
      return member.hasPrefix("$")
        ? "'\(member)' is a property wrapper's projection, which no slice can name; keep the accessor here, or write a requirement for it by hand"
        : "no member '\(member)' of '\(singleton.typeName)' can be named in a slice; keep the accessor here"
    }
    if
      let unseen = members.first(where: { !SingletonAnalysis.isSeenByItsModule($0, singleton: singleton, modules: project.modules) })
    {
      let module = project.modules.modules(of: unseen.range.path).first.map { " in module '\($0)'" } ?? ""
      return "it is declared\(module), which the module of '\(singleton.typeName)' cannot see, so no protocol beside '\(singleton.typeName)' can require it; "
        + "move it into the module of '\(singleton.typeName)', or keep the accessor here"
    }
    // What no protocol can require, as extract-protocol decides it (a type the declaration does not tell).
    if let analysis = try? singletonAnalysis() {
      let builder = RequirementBuilder(for: analysis, index: index)
      let reasons = members.compactMap { builder.obstacleReason(for: $0, project: project) }
      if reasons.count == members.count, let first = reasons.first { return "it cannot be in a protocol: \(first)" }
    }
    let name = sliceName(members)
    // The access the slice would need, as extract-protocol decides it: a member that cannot have it
    // (internal, or naming an internal type, used from another module) would be refused.
    if let primary = index.primaryDeclaration(of: singleton.typeName),
      let analysis = try? singletonAnalysis(),
      let visibility = try? SliceVisibility(
        slice: Slice(name: name, members: [member]), members: members, analysis: analysis, primary: primary, project: project),
      let first = visibility.excluded.first, visibility.excluded.count == members.count
    {
      return "it cannot be in a protocol of its own: " + first.reason.replacingOccurrences(of: "'\(name)' must be", with: "that protocol must be")
    }
    return "run 'desingleton extract-protocol \(project.singletonFlags(singleton.typeName)) --slice \(shellWord("\(name)=\(member)"))' to cut one"
  }

  private func sliceName(_ members: [MemberDecl]) -> String {
    SliceNamer.name(for: members, typeName: singleton.simpleTypeName, wholeType: false) { candidate in
      !index.types(named: candidate).isEmpty || catalog.entries.contains { $0.name == candidate }
    }
  }

  /// Why a type cannot be a consumer at all, and the group it is listed in (nil: not listed, as for
  /// the singleton itself, protocols and test cases).
  func notInjectable(_ typeName: String) -> (SkipReason?, String)? {
    let declarations = index.declarations(of: typeName)
    guard let primary = declarations.first(where: { !$0.isExtension }) else {
      return (.declaration, "its declaration is not in the given paths")
    }
    if typeName == singleton.typeName { return (nil, "it is the singleton itself") }
    if index.isObjectiveC(primary.path) {
      return (.declaration, "it is declared in Objective-C, which desingleton does not rewrite, so its inits cannot take the protocols")
    }
    switch primary.kind {
    case .enum: return (.declaration, "an enum cannot hold injected values")
    case .protocol: return (nil, "it is a protocol")
    default: break
    }
    if index.isTestType(typeName) { return (nil, "it is a test case") }
    if let place = createdWhileSingletonIsMade()[typeName], !singletonHandsSelf(to: typeName) {
      return (
        .createdBySingleton,
        "'\(singleton.typeName)' creates it while it is being made (\(place)), so '\(accessExpression)' does not exist yet where it would be passed; pass 'self' to it there by hand"
      )
    }
    if let other = index.singleton(typeName: typeName),
      let place = InjectPlanner.readsAccessor(of: other, whileMaking: singleton, project: project)
    {
      return (
        .creationCycle,
        "'\(singleton.typeName)' reads '\(other.accessExpression)' while it is made (\(place)), and '\(typeName)' would read '\(accessExpression)' while it is made: each would need the other first; leave it reading the accessor, or let one root create both and set one on the other after creation"
      )
    }
    if !canSeeSingleton(primary.path) {
      return (
        .moduleCycle,
        "its module '\(project.modules.module(of: primary.path) ?? "")' cannot import '\(singleton.typeName)'s module '\(project.modules.module(of: singleton.declaration.path) ?? "")' (that module depends on it), so it cannot name the protocols"
      )
    }
    if let reason = index.systemCreation(of: typeName) ?? InjectPlanner.interfaceBuilderCreation(of: typeName, project: project) {
      return (.frameworkCreated, "\(reason), so it cannot receive init parameters")
    }
    if let conformance = index.synthesizedConformance(of: typeName) {
      return (.synthesizedConformance, "its '\(conformance)' conformance is synthesized from its stored properties, which a protocol-typed property would break")
    }
    return nil
  }

  /// Whether code in the file can import the singleton's module (no module map: yes).
  func canSeeSingleton(_ path: String) -> Bool {
    project.modules.file(path, canSee: singleton.declaration.path)
  }

  /// Whether the singleton makes the type only in its own stored properties' initial values, and
  /// can make those lazy to pass `self` (`lazy var history = History(counting: self)`): it is an
  /// actor or isolated to a global actor, so a lazy property keeps it safe to share.
  func singletonHandsSelf(to typeName: String) -> Bool {
    guard singleton.typeKind == .actor || index.isolation(of: singleton.typeName) != nil else { return false }
    var found = false
    for declaration in index.declarations(of: singleton.typeName) {
      guard let file = try? project.file(declaration.path) else { return false }
      for member in declaration.members where member.kind == .initializer || (member.kind == .property && member.isStored) {
        guard let node = file.node(at: member.range.bytes) else { continue }
        let finder = CreationFinder(viewMode: .sourceAccurate)
        finder.walk(node)
        for (written, offset) in finder.created where index.resolveType(written) == typeName {
          guard member.kind == .property, !member.isStatic,
            let token = file.tree.token(at: AbsolutePosition(utf8Offset: offset)),
            MovedInitialValue(around: Syntax(token)) != nil
          else { return false }
          found = true
        }
      }
    }
    return found
  }

  func createdWhileSingletonIsMade() -> [String: Location] {
    InjectPlanner.createdWhileMade(singleton, project: project)
  }
}
