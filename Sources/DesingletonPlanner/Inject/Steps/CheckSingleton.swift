import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftSyntax

/// Step 1: whether the singleton can be injected at all.
extension InjectContext {
  /// The singleton has protocols, its instance is never replaced, and consumers would not hold
  /// diverging copies of a value.
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
}
