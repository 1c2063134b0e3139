import DesingletonCore
import DesingletonIndex

/// The protocols a singleton conforms to that this code base declares, read back from the code:
/// what each one covers, and which of its properties can be set through it.
struct ProtocolCatalog {
  struct Entry {
    var name: String
    /// Members callable through the protocol: requirements (its own and inherited) and extension members.
    var covers: Set<String>
    /// Properties and subscripts declared `{ get set }`.
    var settable: Set<String>
    var memberCount: Int
    /// Existentials of it can be stored in a `Sendable` type and captured by a `@Sendable` closure.
    var isSendable = false
    /// Each method's parameter lists, which tell overloads apart: a requirement's take every
    /// argument; an extension member's (an overload standing in for defaults) may keep defaults, so
    /// each of its parameters may be left out.
    var methods: [String: [[Parameter]]] = [:]

    struct Parameter: Hashable {
      var label: String
      var hasDefault: Bool
      var isVariadic = false
    }

    /// Whether a use of `name` (with the arguments of a call, if it is one) goes through this protocol.
    func covers(_ name: String, calledWith arguments: [CallArguments]) -> Bool {
      guard covers.contains(name) else { return false }
      guard let lists = methods[name] else { return true }
      return arguments.allSatisfy { call in
        lists.contains { list in
          call.canCall(list.map { (label: $0.label, hasDefault: $0.hasDefault) }, variadic: list.indices.filter { list[$0].isVariadic })
        }
      }
    }
  }

  /// In the order the singleton's declarations list them.
  var entries: [Entry] = []

  init(singleton: Singleton, index: Index) {
    var seen: Set<String> = []
    for declaration in index.declarations(of: singleton.typeName) {
      for written in declaration.inherited {
        let name = index.resolveType(written)
        guard seen.insert(name).inserted, let entry = ProtocolCatalog.entry(name, index: index, visiting: []) else { continue }
        entries.append(entry)
      }
    }
    // Protocols reached only through refinement (`MutableX: X`) can be chosen too.
    var index2 = 0
    while index2 < entries.count {
      for declaration in index.declarations(of: entries[index2].name) {
        for written in declaration.inherited {
          let name = index.resolveType(written)
          if seen.insert(name).inserted, let entry = ProtocolCatalog.entry(name, index: index, visiting: []) {
            entries.append(entry)
          }
        }
      }
      index2 += 1
    }
  }

  static func entry(_ name: String, index: Index, visiting: Set<String>) -> Entry? {
    let declarations = index.declarations(of: name)
    guard declarations.contains(where: { $0.kind == .protocol }), !visiting.contains(name) else { return nil }
    var covers: Set<String> = []
    var settable: Set<String> = []
    var methods: [String: [[Entry.Parameter]]] = [:]
    var count = 0
    for declaration in declarations {
      for member in declaration.members where [.property, .method, .subscript].contains(member.kind) {
        covers.insert(member.name)
        if member.kind == .method {
          methods[member.name, default: []].append(
            member.labels.enumerated().map { position, label in
              Entry.Parameter(
                label: label, hasDefault: declaration.kind != .protocol, isVariadic: member.variadicPositions.contains(position))
            })
        }
        if declaration.kind == .protocol {
          count += 1
          if member.isSettable { settable.insert(member.name) }
        }
      }
      if declaration.kind == .protocol {
        for parent in declaration.inherited {
          if let inherited = entry(index.resolveType(parent), index: index, visiting: visiting.union([name])) {
            covers.formUnion(inherited.covers)
            settable.formUnion(inherited.settable)
            methods.merge(inherited.methods) { $0 + $1 }
            count += inherited.memberCount
          }
        }
      }
    }
    return Entry(
      name: name, covers: covers, settable: settable, memberCount: count, isSendable: index.protocolIsSendable(name),
      methods: methods)
  }

  /// The smallest set of protocols (greedy) covering every member, with write access where needed.
  /// Returns the chosen protocols in catalog order, or the first member nothing covers.
  /// With `sendable`, only `Sendable` protocols are chosen. A method called with `calls`'
  /// arguments is covered only by a protocol with an overload those arguments can call.
  func cover(
    reads: Set<String>, writes: Set<String>, calls: [String: [CallArguments]] = [:], sendable: Bool = false
  ) -> (chosen: [Entry], uncovered: String?) {
    var remaining = reads.union(writes)
    var chosen: [Entry] = []
    let entries = sendable ? self.entries.filter(\.isSendable) : self.entries
    func covered(by entry: Entry) -> Set<String> {
      remaining.filter {
        entry.covers($0, calledWith: calls[$0] ?? []) && (!writes.contains($0) || entry.settable.contains($0))
      }
    }
    while !remaining.isEmpty {
      let best = entries.map { ($0, covered(by: $0)) }.filter { !$0.1.isEmpty }.max { lhs, rhs in
        (lhs.1.count, -lhs.0.memberCount) < (rhs.1.count, -rhs.0.memberCount)
      }
      guard let (entry, members) = best else { return (chosen, remaining.sorted().first) }
      chosen.append(entry)
      remaining.subtract(members)
    }
    let order = Dictionary(uniqueKeysWithValues: entries.enumerated().map { ($1.name, $0) })
    return (chosen.sorted { (order[$0.name] ?? 0) < (order[$1.name] ?? 0) }, nil)
  }

  func entry(named name: String) -> Entry? { entries.first { $0.name == name } }
}
