import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftSyntax

/// Which types can be consumers at all: asked when targets are chosen (step 2), creators promoted
/// (step 4) and creations matched (step 13).
extension InjectContext {
  /// Why a type cannot be a consumer at all, and the group it is listed in (nil: not listed, as for
  /// the singleton itself, protocols and test cases).
  func notInjectable(_ typeName: String) -> (SkipReason?, String)? {
    if let obstacle = Holders.obstacle(typeName, singleton: singleton.typeName, index: index) { return obstacle }
    guard let primary = index.primaryDeclaration(of: typeName) else { return (.declaration, "its declaration is not in the given paths") }
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

  /// Whether a consumer the singleton needs while it is made (`.creationCycle`) can still receive
  /// the slices once both exist: through `lazy var` properties that read the accessor at their first
  /// use, which whoever makes both sets instead. Both are classes (set through a reference, the
  /// property reaches the instance the singleton holds, and can be `weak` once the root owns both),
  /// isolated to the same global actor (a lazy property stays safe to share), in one module (the root
  /// sets the property, declared without `public`).
  func takesSlicesAfterCreation(_ typeName: String) -> Bool {
    guard singleton.typeKind == .class, let primary = index.primaryDeclaration(of: typeName), primary.kind == .class,
      index.isolation(of: typeName) != nil, index.isolation(of: typeName) == index.isolation(of: singleton.typeName)
    else { return false }
    return !project.modules.crossesModules(primary.path, singleton.declaration.path)
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
