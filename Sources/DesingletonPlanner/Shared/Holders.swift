import DesingletonIndex

/// Whether a type can ever hold the slices it uses (a protocol-typed property its init sets): the
/// one answer, from the type's declarations alone, for `inject` (which types can be consumers at
/// all) and for slicing (whose usage the slices serve: a slice is cut for the consumers that will
/// receive it, so a consumer that never can weighs nothing in the grouping or its figures).
enum Holders {
  /// Why the type can never hold injected values, and the group `inject` lists it in (nil: not
  /// listed, as for the singleton itself, protocols and test cases); nil when it can.
  static func obstacle(_ typeName: String, singleton: String, index: Index) -> (SkipReason?, String)? {
    // From the type's outline: no file is parsed again for its members.
    guard let primary = index.primaryOutline(of: typeName) else {
      return (.declaration, "its declaration is not in the given paths")
    }
    if typeName == singleton { return (nil, "it is the singleton itself") }
    if index.isObjectiveC(primary.path) {
      return (.declaration, "it is declared in Objective-C, which desingleton does not rewrite, so its inits cannot take the protocols")
    }
    switch primary.kind {
    case .enum: return (.declaration, "an enum cannot hold injected values")
    case .protocol: return (nil, "it is a protocol")
    default: break
    }
    if index.isTestType(typeName) { return (nil, "it is a test case") }
    return nil
  }
}
