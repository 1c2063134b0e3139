import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftSyntax

/// Step 2: which types are the consumers.
extension InjectContext {
  /// The types named with `--type`, or every consumer that can be injected; types the system
  /// creates are listed apart (with `--property-injection`, those configured after a cast get
  /// properties), and types the singleton makes while it is made, or in a module that cannot import
  /// the singleton's, are skipped. Returns the targets and a draft holding what was set apart.
  func chooseTargets(_ analysis: SingletonAnalysis) throws -> (targets: [String], draft: InjectDraft) {
    var targets: [String] = []
    var draft = InjectDraft()
    if let requested = options.types {
      for name in requested {
        let matches = index.types(named: name).filter { index.declarations(of: $0).contains { !$0.isExtension } }
        if matches.isEmpty { throw Refusal("no type named '\(name)'") }
        if matches.count > 1 { throw Refusal("'\(name)' is ambiguous: \(matches.joined(separator: ", "))") }
        if let error = options.excluded[matches[0]] {
          draft.skipped.append(skipped(matches[0], .build, [error.diagnostic]))
          continue
        }
        if let note = options.spreading[matches[0]] {
          draft.skipped.append(skipped(matches[0], .spreads, [note]))
          continue
        }
        if let (kind, _) = notInjectable(matches[0]), kind == .creationCycle, takesSlicesAfterCreation(matches[0]) {
          draft.propertyInjected.insert(matches[0])
          draft.setAfterCreation.insert(matches[0])
        } else if let (_, reason) = notInjectable(matches[0]) {
          throw Refusal("'\(matches[0])' cannot be injected: \(reason)", at: index.declarations(of: matches[0]).first?.location)
        }
        if !targets.contains(matches[0]) { targets.append(matches[0]) }
      }
    } else {
      // A consumer that only passes the instance on is a target too: it may be a creator an earlier
      // run left passing the accessor, or it is skipped with its reason.
      for usage in analysis.consumers where !(usage.reads + usage.writes + usage.calls).isEmpty || !usage.instanceUses.isEmpty {
        if let error = options.excluded[usage.typeName] {
          draft.skipped.append(skipped(usage.typeName, .build, [error.diagnostic]))
        } else if let note = options.spreading[usage.typeName] {
          draft.skipped.append(skipped(usage.typeName, .spreads, [note]))
        } else if let (kind, reason) = notInjectable(usage.typeName) {
          let usesMembers = !(usage.reads + usage.writes + usage.calls).isEmpty
          guard usesMembers, let kind else { continue }
          if kind == .creationCycle && takesSlicesAfterCreation(usage.typeName) {
            draft.propertyInjected.insert(usage.typeName)
            draft.setAfterCreation.insert(usage.typeName)
            targets.append(usage.typeName)
          } else if kind == .frameworkCreated && options.propertyInjection && !configurationSites(of: usage.typeName).isEmpty {
            draft.propertyInjected.insert(usage.typeName)
            targets.append(usage.typeName)
          } else if kind == .frameworkCreated {
            let place = index.primaryDeclaration(of: usage.typeName)?.location
            draft.frameworkCreated.append(
              SkippedConsumer(
                typeName: usage.typeName, reason: kind,
                diagnostics: [.note("'\(usage.typeName)': \(reason); \(CompositionRoots.wiringHint)", at: place)]))
          } else {
            draft.skipped.append(skipped(usage.typeName, kind, [.error("'\(usage.typeName)': \(reason)")]))
          }
        } else {
          targets.append(usage.typeName)
        }
      }
      for root in try rootsHandingDown(targets) {
        targets.removeAll { $0 == root.typeName }
        draft.roots.append(root)
      }
    }
    return (targets, draft)
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
      !targets.contains(type) && heldProperty(type, ofOneOf: protocols) != nil
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
}
