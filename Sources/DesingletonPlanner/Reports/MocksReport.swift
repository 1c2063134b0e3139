import DesingletonCore

/// What `mocks` decided, for scripts (`--format json`): per protocol, the double's name, file and
/// shape, the requirements it implements, and whether its file is new, regenerated or unchanged.
public struct MocksReport: Sendable {
  public enum Outcome: String, Sendable {
    case created, regenerated, unchanged
  }

  public struct Mock: Sendable, Equatable {
    public var protocolName: String
    public var mockName: String
    public var path: String
    /// The global actor attribute (`@MainActor`), `sendable`, `actor` or `plain`.
    public var shape: String
    /// The requirements the double implements, by name, in order; under `#if` ones too.
    public var properties: [String]
    public var methods: [String]
    public var outcome: Outcome

    init(design: MockDesign, outcome: Outcome) {
      protocolName = design.protocolName
      mockName = design.mockName
      path = design.path
      switch design.shape {
      case .globalActor(let attribute): shape = attribute
      case .sendable: shape = "sendable"
      case .actor: shape = "actor"
      case .plain: shape = "plain"
      }
      var properties: [String] = []
      var methods: [String] = []
      func collect(_ items: [MockItem]) {
        for item in items {
          switch item {
          case .property(let property): if !properties.contains(property.name) { properties.append(property.name) }
          case .method(let method): if !methods.contains(method.mockName) { methods.append(method.mockName) }
          case .conditional(let clauses): for clause in clauses { collect(clause.items) }
          }
        }
      }
      collect(design.items)
      self.properties = properties
      self.methods = methods
      self.outcome = outcome
    }
  }

  /// Nil when the protocols were named with `--slice` alone.
  public var singleton: String?
  public var mocks: [Mock] = []

  /// The version of the JSON document; fields may be added, none removed.
  public static let schemaVersion = 1

  public func json(files: PlanFiles) -> String {
    var fields: [(key: String, value: JSONValue)] = [
      ("schemaVersion", .int(Self.schemaVersion)),
      (
        "mocks",
        .array(
          mocks.map { mock in
            .object([
              ("protocol", .string(mock.protocolName)), ("mock", .string(mock.mockName)), ("path", .string(mock.path)),
              ("shape", .string(mock.shape)), ("properties", .array(mock.properties.map(JSONValue.string))),
              ("methods", .array(mock.methods.map(JSONValue.string))), ("outcome", .string(mock.outcome.rawValue)),
            ])
          })
      ),
      ("files", files.json),
    ] + files.closingEntries
    if let singleton { fields.append(("singleton", .string(singleton))) }
    return JSONValue.object(fields).text()
  }
}
