import DesingletonCore
import DesingletonIndex

/// What `finish` decided, for scripts (`--format json`): the root that owns the instance and its
/// name there, every remaining use of the accessor and what kind of place it is in, the tests that
/// make their own instance, the coder inits that now fail, and what was removed or kept.
public struct FinishReport: Sendable {
  public struct CoderInit: Sendable, Equatable {
    public var typeName: String
    public var place: Location
    /// `init?(coder:)` returns nil; a non-failable one stops with `fatalError`.
    public var returnsNil: Bool
  }

  public var singleton: String
  public var root: String
  /// The root's new stored property.
  public var instanceName = ""
  /// The access of the singleton's inits after the change (`public` when the root is in another module).
  public var initAccess = "internal"
  public var references: [RemainingReference]
  /// Test functions that now create their own instance.
  public var testFunctions = 0
  public var coderInits: [CoderInit] = []
  /// The accessor, its backing variable, and `copy()`-style methods that returned the shared instance.
  public var removed: [String] = []
  /// A backing variable other static members still use.
  public var keptBacking: String?

  public init(singleton: String, root: String, references: [RemainingReference]) {
    self.singleton = singleton
    self.root = root
    self.references = references
  }

  /// The version of the JSON document; fields may be added, none removed.
  public static let schemaVersion = 1

  public func json(files: PlanFiles) -> String {
    var fields: [(key: String, value: JSONValue)] = [
      ("schemaVersion", .int(Self.schemaVersion)),
      ("singleton", .string(singleton)),
      ("root", .string(root)),
      ("instanceName", .string(instanceName)),
      ("initAccess", .string(initAccess)),
      (
        "references",
        .array(
          references.map { item in
            var entry: [(key: String, value: JSONValue)] = [
              ("kind", .string(item.kind.key)), ("place", .place(item.reference.location)),
            ]
            if let type = item.typeName { entry.append(("type", .string(type))) }
            return .object(entry)
          })
      ),
      ("testFunctions", .int(testFunctions)),
      (
        "coderInits",
        .array(
          coderInits.map {
            .object([("type", .string($0.typeName)), ("place", .place($0.place)), ("returnsNil", .bool($0.returnsNil))])
          })
      ),
      ("removed", .array(removed.map(JSONValue.string))),
      ("files", files.json),
    ] + files.closingEntries
    if let keptBacking { fields.append(("keptBacking", .string(keptBacking))) }
    return JSONValue.object(fields).text()
  }
}

extension RemainingReference.Kind {
  /// The kind's name in JSON.
  var key: String {
    switch self {
    case .root: "root"
    case .test: "test"
    case .consumer: "consumer"
    case .staticContext: "static"
    case .topLevel: "top-level"
    case .singleton: "singleton"
    case .coderInit: "coder-init"
    case .requiredInit: "required-init"
    case .frameworkCreated: "framework-created"
    }
  }
}
