/// The type names `inject` has to see declared for one singleton: the protocols it conforms to (and
/// what they refine), the types that use it, and their superclasses.
public enum RelatedNames {
  /// Standard library and Foundation protocols: naming them would bring in most of a code base.
  static let common: Set<String> = [
    "AnyObject", "Sendable", "Actor", "Equatable", "Hashable", "Comparable", "Codable", "Encodable", "Decodable",
    "Error", "CustomStringConvertible", "CustomDebugStringConvertible", "Identifiable", "CaseIterable",
    "RawRepresentable", "Sequence", "Collection", "NSObject", "NSObjectProtocol", "NSCoding", "NSCopying",
    "ObservableObject", "Observable", "View",
  ]

  public static func names(around singletonName: String, in index: Index) -> [String] {
    var result: Set<String> = []
    func add(_ written: String) {
      let base = written.split(separator: "<").first.map(String.init) ?? written
      if let last = base.split(separator: ".").last { result.insert(String(last)) }
    }
    for singleton in index.singletons where singleton.simpleTypeName == singletonName {
      var protocols: [String] = index.declarations(of: singleton.typeName).flatMap(\.inherited)
      var seen: Set<String> = []
      while let written = protocols.popLast() {
        guard seen.insert(written).inserted else { continue }
        add(written)
        for declaration in index.declarations(of: index.resolveType(written)) where declaration.kind == .protocol {
          protocols.append(contentsOf: declaration.inherited)
        }
      }
      // Files that name the singleton only through a type alias.
      for alias in index.typeAliasNames(of: singleton.typeName) { result.insert(alias) }
      for reference in index.references(to: singleton) {
        guard let owner = index.enclosingType(of: reference) else { continue }
        add(owner)
        if let superclass = index.declarations(of: owner).first(where: { !$0.isExtension })?.inherited.first { add(superclass) }
      }
    }
    return result.subtracting(common).sorted()
  }
}
