import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftSyntax

/// Step 11: what each factory takes.
extension InjectContext {
  /// What each factory takes, in catalog order: what the consumers it creates take.
  func shapeFactories(_ draft: InjectDraft) -> [String: Factory] {
    var factories = draft.factories
    for (key, var factory) in factories {
      factory.protocols = inCatalogOrder(Set(factory.created.flatMap { draft.consumers[$0]?.protocols ?? [] }))
      factories[key] = factory
    }
    return factories
  }
}
