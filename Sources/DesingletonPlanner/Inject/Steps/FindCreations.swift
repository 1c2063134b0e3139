import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftSyntax

/// Step 5: where each consumer is created.
extension InjectContext {
  /// Every call of an init of a consumer, or of a subclass that inherits its inits; and, for each
  /// consumer created somewhere no argument can be added, why.
  func findCreations(_ draft: InjectDraft) throws -> (calls: [InitCall], blocked: [String: ConsumerRefusal]) {
    let order = draft.order
    let propertyInjected = draft.propertyInjected
    let initInjected = order.filter { !propertyInjected.contains($0) }
    var created: Set<String> = Set(initInjected)
    var superOf: [String: String] = [:]
    for type in initInjected.flatMap({ index.subclasses(of: $0) }) {
      let declarations = index.declarations(of: type)
      guard let parent = declarations.first(where: { !$0.isExtension })?.inherited.first.map(index.resolveType),
        order.contains(parent)
      else { continue }
      superOf[type] = parent
      // A subclass without designated inits of its own inherits the consumer's.
      if !declarations.flatMap(\.members).contains(where: { $0.kind == .initializer && !$0.modifiers.contains("convenience") }) {
        created.insert(type)
      }
    }
    let found = try InitCallFinder.calls(of: created, superclassOf: superOf, project: project)
    let calls = found.calls.map { call in
      var call = call
      // Calls of an inheriting subclass's init stand for the consumer's.
      if !order.contains(call.typeName), let parent = superOf[call.typeName] { call.typeName = parent }
      return call
    }
    var blocked: [String: ConsumerRefusal] = [:]
    // The labels each consumer's inits take, asked once per consumer, not once per `.init(...)`.
    var signaturesOf: [String: [InitCallFinder.InitShape]] = [:]
    func signatures(_ typeName: String) -> [InitCallFinder.InitShape] {
      if let known = signaturesOf[typeName] { return known }
      let found = initShapes(of: typeName)
      signaturesOf[typeName] = found
      return found
    }
    // The consumers each file can create: an untold `.init(...)` there may create one of them.
    let (consumersNamed, givenOnly) = found.unrewritable.contains { $0.kind == .implicitMember }
      ? try InitCallFinder.creatingFiles(of: order, project: project) : ([:], [:])
    for creation in found.unrewritable {
      let file = try project.file(creation.path)
      let location = file.source.location(ofOffset: creation.offset)
      switch creation.kind {
      case .functionReference:
        guard let created = creation.typeName else { continue }
        let typeName = order.contains(created) ? created : superOf[created] ?? created
        let written = "\(created.split(separator: ".").last.map(String.init) ?? created).init"
        blocked[typeName, default: ConsumerRefusal(.creationSite, [])].diagnostics.append(
          .error("'\(written)' is used as a function here, so no argument can be added to it; call it in a closure first", at: location))
      case .ambiguous:
        guard let created = creation.typeName else { continue }
        let typeName = order.contains(created) ? created : superOf[created] ?? created
        let simple = created.split(separator: ".").last.map(String.init) ?? created
        blocked[typeName, default: ConsumerRefusal(.creationSite, [])].diagnostics.append(
          .error("'\(simple)(...)' here may create '\(created)' or another type of that name, and which one cannot be told; qualify the name first", at: location))
      case .implicitMember:
        // Which consumer `.init(...)` creates is unknown: each consumer the file names whose inits
        // take these labels may be the one, unless it is an argument whose parameter the callee's
        // declarations type otherwise (`listRowInsets(.init())`, `Model(data: .init())`). Asked
        // here, where it would block a consumer: the answer may parse more files.
        var argumentType: InitCallFinder.ContextualType?
        for typeName in consumersNamed[creation.path] ?? [] {
          let simple = typeName.split(separator: ".").last.map(String.init) ?? typeName
          let unnamed = givenOnly[creation.path]?.contains(typeName) == true
          guard try InitCallFinder.mayCreate(creation, typeName, shapes: signatures(typeName), unnamed: unnamed, project: project)
          else { continue }
          if let slot = creation.argument {
            if argumentType == nil { argumentType = InitCallFinder.argumentType(of: slot, index: index) }
            switch argumentType {
            case .notProject?: continue
            case .named(let created)? where created != typeName: continue
            default: break
            }
          }
          let written = ".init(\(creation.labels.map { "\($0):" }.joined()))"
          blocked[typeName, default: ConsumerRefusal(.creationSite, [])].diagnostics.append(
            .error("'\(written)' may create '\(typeName)', and the code does not say which type it creates; write '\(simple)(...)' or annotate the type there first", at: location))
        }
      }
    }
    return (calls, blocked)
  }

  /// What an implicit `.init(...)` of a type may call: each of its inits, every argument taken as
  /// optional (the index keeps labels, not defaults), or the init a type without inits has.
  func initShapes(of typeName: String) -> [InitCallFinder.InitShape] {
    let inits = index.inits(of: typeName)
    if inits.isEmpty { return [(memberwiseLabels(typeName), [])] }
    return inits.map { ($0.labels.map { (label: $0, hasDefault: true) }, $0.variadicPositions) }
  }

  /// The labels of the init a type without inits has: none for a class, a struct's memberwise ones
  /// (a `let` with a value takes none; a value or an optional `var` makes its argument optional).
  func memberwiseLabels(_ typeName: String) -> [(label: String, hasDefault: Bool)] {
    guard let primary = index.primaryDeclaration(of: typeName), primary.kind == .struct else { return [] }
    return primary.members.compactMap { member in
      guard member.kind == .property, member.isStored, !member.isStatic,
        !(member.isLet && member.initializerText != nil)
      else { return nil }
      let optional = !member.isLet && (member.typeText?.hasSuffix("?") ?? false)
      return (label: member.name, hasDefault: member.initializerText != nil || optional)
    }
  }
}
