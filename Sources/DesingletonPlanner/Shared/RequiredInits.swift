import DesingletonCore
import DesingletonIndex
import Foundation

/// Which required inits `inject` leaves as they are (giving them the shared instance), asked by
/// `inject` (call sites, inits, what an earlier run wrote) and by `finish` (why the accessor stays).
extension Project {
  /// Whether a `required` init must keep its signature, so that `inject` leaves its parameters as
  /// they are and gives it the shared instance: `init?(coder:)`; one a project superclass declares,
  /// or any when a superclass is a framework's or a type the model does not know; any when a
  /// project subclass may override it;
  /// one a protocol the class conforms to requires or may require; and any init of a class that
  /// code may create through a metatype (`Panel.self`, `Panel.Type`, a generic constrained to it,
  /// `Self()` or `type(of:)` in its own code), which only a required init serves. A class's own
  /// required init that none of these asks for is reached only by naming the class: an init like
  /// any other.
  /// The init whose body holds a reference, among the members of the type it is in.
  func enclosingInit(of reference: Reference, in owner: String) -> MemberDecl? {
    let start = reference.range.bytes.lowerBound
    return index.members(of: owner).first { member in
      member.kind == .initializer && member.range.path == reference.range.path && member.range.bytes.contains(start)
    }
  }

  func requiredInitKeepsItsSignature(_ member: MemberDecl, of typeName: String) -> Bool {
    guard member.kind == .initializer, member.modifiers.contains("required") else { return false }
    if member.labels == ["coder"] { return true }
    if !index.subclasses(of: typeName).isEmpty { return true }
    for step in index.superclassChain(of: typeName) {
      guard case .project(let name) = step else { return true }
      let declares = index.members(of: name).contains { other in
        other.kind == .initializer && other.modifiers.contains("required") && other.labels == member.labels
      }
      if declares { return true }
    }
    for conformance in index.conformances(of: typeName) {
      guard let declaration = index.primaryDeclaration(of: conformance), declaration.kind == .protocol else {
        if FrameworkTypes.initRequirements(of: conformance)?.contains(member.labels) != false { return true }
        continue
      }
      if declaration.members.contains(where: { $0.kind == .initializer && $0.labels == member.labels }) { return true }
    }
    return answer("metatype-creation \(typeName)") { mayCreateThroughMetatype(typeName) }
  }

  /// A byte search, so it may see a metatype where there is none; never the other way round.
  private func mayCreateThroughMetatype(_ typeName: String) -> Bool {
    let simple = typeName.split(separator: ".").last.map(String.init) ?? typeName
    // `Panel.self`, `Panel.Type`, `<T: Panel>`, `where T == Panel>`-like constraints.
    let anywhere = [simple + ".self", simple + ".Type", ": " + simple + ">", "== " + simple + ">"].map { Array($0.utf8) }
    let listed = Array((": " + simple + ",").utf8)
    let own = ["Self(", "Self.init", "type(of:"].map { Array($0.utf8) }
    let declared = Set(index.declarations(of: typeName).map(\.path))
    for path in paths(naming: [typeName]) {
      guard let bytes = bytes(path) else { continue }
      if anywhere.contains(where: { bytes.firstRange(of: $0) != nil }) { return true }
      // `<T: Panel, U>`: a `<` before it on its line, with no `(` between (not `f(a: Panel, b: Int)`).
      for start in occurrences(of: [listed], in: bytes) {
        var position = start
        while position > 0, bytes[position - 1] != UInt8(ascii: "\n"), bytes[position - 1] != UInt8(ascii: "(") {
          position -= 1
          if bytes[position] == UInt8(ascii: "<") { return true }
        }
      }
      if declared.contains(path), own.contains(where: { bytes.firstRange(of: $0) != nil }) { return true }
    }
    return false
  }
}
