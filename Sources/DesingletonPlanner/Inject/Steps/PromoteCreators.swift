import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftSyntax

/// Step 4: the creators that hand the slices down.
extension InjectContext {
  /// With `--all`, a type that creates a consumer receives what that consumer needs and hands it
  /// down, even if it does not use the singleton itself, so that one run moves the accessor all the
  /// way up to the composition roots (types only tests create, or nothing in the project does),
  /// types the system creates, and static contexts; a second run then has nothing left to do.
  ///
  /// Each round starts on complete answers: a run of the loader whose answers are not stops there,
  /// and the next run picks the rounds up where this one stopped (`Project.resumePoint`).
  func promoteCreators(_ analysed: InjectDraft) throws -> InjectDraft {
    let input = PromotionInput(singleton: singleton, options: options, analysed: analysed)
    var (draft, rejected) = project.resumePoint("inject.promoteCreators", from: input) ?? (analysed, Set<String>())
    while true {
      var promoted: [String] = []
      // Each round walks the creators' files again: a run whose answers are incomplete stops here.
      try index.requireCoverage()
      project.keepResumePoint("inject.promoteCreators", from: input, (draft, rejected))
      let calls = try findCreations(draft).calls
      let factories = try findFactories(calls, in: draft, promoting: true)
      for call in calls + forwardedCreations(calls, through: factories) where !call.context.isStatic && !call.isSelfInit && !call.isSuperInit {
        guard let creator = call.context.typeName.map(index.resolveType), draft.consumers[creator] == nil,
          !rejected.contains(creator), !promoted.contains(creator), creator != call.typeName,
          // A consumer already skipped with its reason is not taken back as a creator.
          !draft.skipped.contains(where: { $0.typeName == creator }),
          !isInStoredPropertyInitializer(call, of: creator)
        else { continue }
        // A creator left out before (its build failed, or handing down would spread the accessor).
        if let error = options.excluded[creator] {
          draft.skipped.append(skipped(creator, .build, [error.diagnostic]))
          continue
        }
        if let note = options.spreading[creator] {
          draft.skipped.append(skipped(creator, .spreads, [note]))
          continue
        }
        guard let primary = index.primaryDeclaration(of: creator), [.class, .struct, .actor].contains(primary.kind),
          notInjectable(creator) == nil, canSeeSingleton(primary.path),
          // Objective-C callers could not pass the new arguments.
          !(ObjectiveCUses.isVisible(creator, index: index) && !ObjectiveCUses.creations(of: creator, in: project).isEmpty),
          try isCreatedOutsideTests(creator)
        else {
          rejected.insert(creator)
          continue
        }
        promoted.append(creator)
      }
      if promoted.isEmpty { return draft }
      for creator in promoted.sorted() {
        guard let primary = index.primaryDeclaration(of: creator) else { continue }
        draft.consumers[creator] = Consumer(typeName: creator, declarations: index.declarations(of: creator), primary: primary)
        draft.order.append(creator)
      }
    }
  }

  /// Whether some code outside tests creates the type: a type nothing else creates, or only tests
  /// do, is a composition root.
  func isCreatedOutsideTests(_ typeName: String) throws -> Bool {
    try !CompositionRoots.isCompositionRoot(typeName, project: project)
  }
}

/// What `promoteCreators` starts from besides the index's answers: the rounds kept from an earlier
/// run are taken only for the same singleton, options and analysed consumers.
private struct PromotionInput: Equatable {
  var singleton: Singleton
  var options: InjectOptions
  var consumers: [String]
  var skipped: [String]
  var elsewhere: [String]

  init(singleton: Singleton, options: InjectOptions, analysed: InjectDraft) {
    self.singleton = singleton
    self.options = options
    consumers = analysed.order
    skipped = analysed.skipped.map(\.typeName)
    elsewhere = (analysed.frameworkCreated + analysed.roots).map(\.typeName)
  }
}
