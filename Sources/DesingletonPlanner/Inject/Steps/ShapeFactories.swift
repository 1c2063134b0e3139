import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftSyntax

/// Step 11: what each factory takes.
extension InjectContext {
  /// What each factory takes, in catalog order: what the consumers it creates take.
  func shapeFactories(_ draft: InjectDraft) -> [String: Factory] {
    var factories = draft.factories
    let rank = Dictionary(uniqueKeysWithValues: catalog.entries.enumerated().map { ($1.name, $0) })
    for (key, var factory) in factories {
      let needed = Set(factory.created.flatMap { draft.consumers[$0]?.protocols ?? [] })
      factory.protocols = needed.sorted { (rank[$0] ?? 0) < (rank[$1] ?? 0) }
      factories[key] = factory
    }
    return factories
  }
}
