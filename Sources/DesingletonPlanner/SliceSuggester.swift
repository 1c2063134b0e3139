import DesingletonCore
import DesingletonIndex

/// A group of a singleton's members that belong in one protocol.
public struct Slice: Sendable, Equatable, Codable {
  public var name: String
  /// Member names (a method name covers its overloads), in source order.
  public var members: [String]

  public init(name: String, members: [String]) {
    self.name = name
    self.members = members
  }
}

/// Groups a singleton's members by co-usage: members used by exactly the same consumers belong
/// together; a member no consumer uses joins the group of the members its body uses.
public enum SliceSuggester {
  /// `isTaken` says whether a name is already used by a type the slices must not collide with;
  /// `isProvided` whether a member is provided already (by a protocol the singleton conforms to).
  public static func suggest(
    _ analysis: SingletonAnalysis, isTaken: (String) -> Bool = { _ in false },
    isProvided: (MemberDecl) -> Bool = { _ in false }
  ) -> (slices: [Slice], unsliced: [String]) {
    let names = uniqueNames(
      analysis.members.filter { ($0.access ?? .internal) > .fileprivate && !isProvided($0) }.map(\.name))
    var groups: [[String]] = []
    var groupOfConsumerSet: [[String]: Int] = [:]
    var unused: [String] = []
    for name in names {
      let consumers = analysis.consumers(of: name).sorted()
      if consumers.isEmpty {
        unused.append(name)
        continue
      }
      if let group = groupOfConsumerSet[consumers] {
        groups[group].append(name)
      } else {
        groupOfConsumerSet[consumers] = groups.count
        groups.append([name])
      }
    }
    // Members no consumer uses follow what they depend on, or what depends on them.
    var changed = true
    while changed && !unused.isEmpty {
      changed = false
      for name in unused {
        let uses = analysis.dependencies[name] ?? []
        let target =
          groups.firstIndex { !Set($0).isDisjoint(with: uses) }
          ?? groups.firstIndex { $0.contains { analysis.dependencies[$0]?.contains(name) == true } }
        if let target {
          groups[target].append(name)
          unused.removeAll { $0 == name }
          changed = true
        }
      }
    }
    let order = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
    var taken: Set<String> = []
    var slices: [Slice] = []
    for group in groups {
      let members = group.sorted { (order[$0] ?? 0) < (order[$1] ?? 0) }
      var name = protocolName(for: members, analysis: analysis, wholeType: groups.count == 1 && unused.isEmpty)
      if taken.contains(name) || isTaken(name) {
        var counter = 2
        while taken.contains("\(name)\(counter)") || isTaken("\(name)\(counter)") { counter += 1 }
        name = "\(name)\(counter)"
      }
      taken.insert(name)
      slices.append(Slice(name: name, members: members))
    }
    return (slices, unused)
  }

  private static func uniqueNames(_ names: [String]) -> [String] {
    var seen: Set<String> = []
    return names.filter { seen.insert($0).inserted }
  }

  /// A protocol name in the style of the *Slicing* article: `ItemFetcher` for a group that fetches
  /// items, `CurrentUserProvider` for a group of properties, `CurrentCart` for state with its operations.
  static func protocolName(for members: [String], analysis: SingletonAnalysis, wholeType: Bool) -> String {
    let decls = members.compactMap { name in analysis.members.first { $0.name == name } }
    let methods = decls.filter { $0.kind == .method }.map(\.name)
    let properties = decls.filter { $0.kind == .property }
    let verbs: [(String, String)] = [("fetch", "Fetcher"), ("load", "Loader"), ("download", "Downloader")]
    for method in methods {
      for (verb, agent) in verbs where method.hasPrefix(verb) {
        let noun = lastWord(of: String(method.dropFirst(verb.count)))
        if !noun.isEmpty { return singular(noun) + agent }
      }
    }
    if wholeType { return analysis.singleton.simpleTypeName + "Protocol" }
    let stored = properties.first { $0.isStored } ?? properties.first
    if let stored, !methods.isEmpty {
      let base = capitalized(stored.name)
      return stored.name.hasPrefix("current") ? base + "Service" : "Current" + base
    }
    if let first = properties.first { return capitalized(first.name) + "Provider" }
    if let first = methods.first { return capitalized(first) + "Service" }
    return analysis.singleton.simpleTypeName + "Slice"
  }

  static func capitalized(_ name: String) -> String {
    name.prefix(1).uppercased() + name.dropFirst()
  }

  /// `AvailableItems` → `Items`.
  static func lastWord(of camel: String) -> String {
    guard let start = camel.lastIndex(where: { $0.isUppercase }) else { return capitalized(camel) }
    return String(camel[start...])
  }

  static func singular(_ noun: String) -> String {
    if noun.hasSuffix("ies") { return noun.dropLast(3) + "y" }
    if noun.hasSuffix("ss") { return noun }
    if noun.hasSuffix("s") { return String(noun.dropLast()) }
    return noun
  }
}
