import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftSyntax

/// Step 8: what each creator hands down.
extension InjectContext {
  /// A consumer that creates another consumer hands down what that one needs, so it needs it too.
  /// Returns the consumers with the protocols they hand down added.
  func propagateNeeds(_ calls: [InitCall], in draft: InjectDraft) -> [String: Consumer] {
    var consumers = draft.consumers
    guard !options.defaultArgument else { return consumers }
    // A creation that reaches a required init keeping its signature passes nothing: that init takes the instance.
    let handing = calls.filter { call in
      !call.context.isStatic && !isInStoredPropertyInitializer(call, of: call.context.typeName.map(index.resolveType) ?? "")
        && !(consumers[call.typeName].map { reachesRequiredInitThatKeepsItsSignature(call, of: $0) } ?? false)
    }
    .map { ($0.context.typeName, $0.typeName) }
    var changed = true
    var rounds = 0
    while changed && rounds < 32 {
      changed = false
      rounds += 1
      let creations = handing
        + draft.configurationsByType.values.flatMap { $0 }.filter { !$0.context.isStatic }.map { ($0.context.typeName, $0.typeName) }
      for (creatorName, createdName) in creations {
        guard let creator = creatorName.map(index.resolveType), creator != createdName,
          let created = consumers[createdName], var holder = consumers[creator],
          options.passedDirectly[createdName]?.contains(creator) != true
        else { continue }
        // A view that reads the environment gets it from the views around it.
        let shown = created.readsEnvironment ? created.protocols + created.passedDown : created.protocols
        if created.readsEnvironment && holder.readsEnvironment {
          for needed in shown where !holder.protocols.contains(needed) && !holder.passedDown.contains(needed) {
            holder.passedDown.append(needed)
            changed = true
          }
          consumers[creator] = holder
          continue
        }
        for needed in shown where !holder.protocols.contains(needed) && !holds(creator, needed) {
          holder.protocols.append(needed)
          changed = true
        }
        // A held parameter of several protocols takes one value: the creator holds them together.
        if !holder.readsEnvironment && !holder.propertyInjected && holder.heldParameters.isEmpty && holder.aliasProperties.isEmpty {
          for slot in created.slots where slot.protocols.count > 1 {
            guard let definition = created.heldParameters[slot.protocols[0]], case .held(let name) = definition.use else { continue }
            let taken = holder.combined.flatMap(\.protocols)
            guard !slot.protocols.contains(where: taken.contains), slot.protocols.allSatisfy(holder.protocols.contains),
              !slot.protocols.contains(where: { holds(creator, $0) })
            else { continue }
            holder.combined.append((name, slot.protocols))
            changed = true
          }
        }
        holder.protocols = inCatalogOrder(holder.protocols)
        consumers[creator] = holder
      }
    }
    return consumers
  }
}
