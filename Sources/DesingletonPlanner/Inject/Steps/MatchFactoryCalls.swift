import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftSyntax

/// Step 12: what each factory call passes.
extension InjectContext {
  /// The arguments each call of a factory passes; a factory one of whose calls cannot pass them (the
  /// accessor there would be isolated differently) is left as it is, and the steps run again.
  func matchFactoryCalls(_ draft: InjectDraft) -> FactoryCalls {
    var sites: [FactorySite] = []
    for factory in draft.factories.values.sorted(by: { $0.key < $1.key }) where !factory.protocols.isEmpty {
      // One parameter per protocol: a consumer keeping several in one value cannot be handed them.
      if factory.created.contains(where: { draft.consumers[$0]?.slots.contains { $0.protocols.count > 1 } ?? false })
        || factory.created.contains(where: draft.readsEnvironmentOrConfigured)
      {
        return .leftAlone(factory.key)
      }
      for call in factory.calls {
        let creator = call.context.typeName.map(index.resolveType)
        let values = factory.protocols.map { value(for: $0, at: call, creator: creator, label: factory.parameterName($0), in: draft) }
        if values.contains(accessExpression), let actor = index.isolation(of: singleton.typeName),
          isolation(at: Syntax(call.call), in: creator) != actor
        {
          return .leftAlone(factory.key)
        }
        let arguments = zip(factory.protocols, values).map { "\(factory.parameterName($0)): \($1)" }
        sites.append(
          FactorySite(factory: factory.key, call: call, arguments: arguments, captured: values.filter { $0 != accessExpression && $0 != "self" }))
      }
    }
    return .sites(sites)
  }

  /// The arguments of every factory call, or a factory that must be left as it is.
  enum FactoryCalls {
    case sites([FactorySite])
    case leftAlone(String)
  }
}
