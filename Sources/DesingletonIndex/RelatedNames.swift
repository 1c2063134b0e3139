/// The type names a command about one singleton has to see declared: the protocols it conforms to
/// (and what they refine), the types that use it, and their supertypes.
public enum RelatedNames {
  public static func names(around singletonName: String, in index: Index) -> [String] {
    var result: Set<String> = []
    func add(_ written: String) {
      let base = written.split(separator: "<").first.map(String.init) ?? written
      if let last = base.split(separator: ".").last { result.insert(String(last)) }
    }
    for singleton in index.singletons where singleton.simpleTypeName == singletonName {
      for declaration in index.declarations(of: singleton.typeName) {
        declaration.inherited.forEach(add)
      }
      for reference in index.references(to: singleton) {
        guard let owner = index.enclosingType(of: reference) else { continue }
        add(owner)
        for declaration in index.declarations(of: owner) { declaration.inherited.forEach(add) }
      }
    }
    for name in index.allTypeNames where index.declarations(of: name).contains(where: { $0.kind == .protocol }) {
      for declaration in index.declarations(of: name) { declaration.inherited.forEach(add) }
    }
    return result.filter { $0 != "AnyObject" && $0 != "Sendable" && $0 != "Actor" }.sorted()
  }
}
