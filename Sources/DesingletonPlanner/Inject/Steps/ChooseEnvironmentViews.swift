import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftSyntax

/// Step 6: which SwiftUI views read the environment.
extension InjectContext {
  /// With `--swiftui-environment`: the SwiftUI views whose references and creations are all read
  /// where the environment is set (a body or another member, never an init or a stored property's
  /// initial value) take their protocols from the environment.
  func chooseEnvironmentViews(_ calls: [InitCall], in draft: InjectDraft) -> [String: Consumer] {
    var consumers = draft.consumers
    for typeName in draft.order {
      guard var consumer = consumers[typeName], !consumer.propertyInjected, consumer.primary.kind == .struct,
        index.declarations(of: typeName).contains(where: { $0.inherited.contains { FrameworkTypes.lastComponent($0) == "View" } })
      else { continue }
      let creations = calls.filter { $0.context.typeName.map(index.resolveType) == typeName && !$0.isSelfInit && !$0.isSuperInit }
      let stored = Set(consumer.primary.members.filter { $0.kind == .property && $0.isStored && !$0.isStatic }.map(\.name))
      let createsAtInit = creations.contains { call in
        call.context.isAtInitTime || call.context.memberName.map(stored.contains) == true
      }
      guard !createsAtInit, !consumer.references.contains(where: \.context.isAtInitTime) else { continue }
      consumer.readsEnvironment = true
      consumers[typeName] = consumer
    }
    return consumers
  }
}
