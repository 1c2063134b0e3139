import DesingletonCore
import DesingletonIndex

/// What `extract-protocol` decided, for scripts (`--format json`): each slice with its members and
/// access and what became of it, the conformances added, and the members that stay on the singleton
/// with the reason.
public struct ExtractProtocolReport: Sendable {
  public struct SliceDecision: Sendable, Equatable {
    public enum Outcome: String, Sendable {
      /// A new protocol.
      case created
      /// A protocol of that name exists and the singleton now conforms to it.
      case conformanceAdded = "conformance-added"
      /// A protocol of that name exists and the singleton conforms already.
      case exists
      /// Nothing in the slice can be a requirement: no protocol.
      case empty
    }

    public var name: String
    public var outcome: Outcome
    /// Where the protocol is written; nil unless created.
    public var path: String?
    /// `internal` unless the singleton's users in other modules need more.
    public var access: AccessLevel
    /// Members that are requirements, moved into the protocol extension, or requirements of `Mutable<name>`.
    public var requirements: [String]
    public var moved: [String]
    public var mutable: [String]
  }

  public struct KeptMember: Sendable, Equatable {
    public var member: String
    /// The slice it was named or suggested for; nil when no slice was suggested for it.
    public var slice: String?
    public var reason: String
  }

  public var singleton: String
  public var slices: [SliceDecision]
  /// The protocols the singleton's new conformance lists (or its accessor's protocol now refines).
  public var conformances: [String]
  public var kept: [KeptMember]
  /// Members no slice takes.
  public var leftOnSingleton: [String]

  /// The version of the JSON document; fields may be added, none removed.
  public static let schemaVersion = 1

  public func json(files: PlanFiles) -> String {
    JSONValue.object([
      ("schemaVersion", .int(Self.schemaVersion)),
      ("singleton", .string(singleton)),
      (
        "slices",
        .array(
          slices.map { slice in
            var fields: [(key: String, value: JSONValue)] = [
              ("name", .string(slice.name)), ("outcome", .string(slice.outcome.rawValue)),
              ("access", .string(slice.access.keyword)),
              ("members", .array(slice.requirements.map(JSONValue.string))),
              ("moved", .array(slice.moved.map(JSONValue.string))),
              ("mutable", .array(slice.mutable.map(JSONValue.string))),
            ]
            if let path = slice.path { fields.append(("path", .string(path))) }
            return .object(fields)
          })
      ),
      ("conformances", .array(conformances.map(JSONValue.string))),
      (
        "kept",
        .array(
          kept.map { item in
            var fields: [(key: String, value: JSONValue)] = [
              ("member", .string(item.member)), ("reason", .string(item.reason)),
            ]
            if let slice = item.slice { fields.append(("slice", .string(slice))) }
            return .object(fields)
          })
      ),
      ("leftOnSingleton", .array(leftOnSingleton.map(JSONValue.string))),
      ("files", files.json),
    ] + files.closingEntries).text()
  }
}

extension ExtractProtocolPlanner.Design {
  func report(singleton: Singleton) -> ExtractProtocolReport {
    var slices = protocols.map { created in
      ExtractProtocolReport.SliceDecision(
        name: created.name, outcome: .created, path: created.path, access: created.access ?? .internal,
        requirements: unique(created.required), moved: unique(created.moved), mutable: unique(created.mutable))
    }
    slices += existing.map { item in
      ExtractProtocolReport.SliceDecision(
        name: item.name, outcome: item.conformanceAdded ? .conformanceAdded : .exists, path: nil, access: .internal,
        requirements: [], moved: [], mutable: [])
    }
    slices += empty.map { name in
      ExtractProtocolReport.SliceDecision(
        name: name, outcome: .empty, path: nil, access: .internal, requirements: [], moved: [], mutable: [])
    }
    slices.sort { (order.firstIndex(of: $0.name) ?? order.count) < (order.firstIndex(of: $1.name) ?? order.count) }
    return ExtractProtocolReport(
      singleton: singleton.typeName, slices: slices, conformances: conformances,
      kept: kept.map { ExtractProtocolReport.KeptMember(member: $0.member, slice: $0.slice, reason: $0.reason) },
      leftOnSingleton: leftOnSingleton)
  }

  /// Overloads and members declared under several `#if` branches appear once.
  private func unique(_ names: [String]) -> [String] {
    var seen: Set<String> = []
    return names.filter { seen.insert($0).inserted }
  }
}
