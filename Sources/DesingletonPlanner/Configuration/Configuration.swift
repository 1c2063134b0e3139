import DesingletonCore
import DesingletonIndex

/// The settings of a project's `.desingleton.json`: what every command reads before its flags,
/// which win over it.
///
/// ```json
/// {
///   "version": 1,
///   "excludes": ["Generated", "*Tests.swift"],
///   "accessors": ["current"],
///   "singletons": {
///     "SessionController": {
///       "slices": {"CurrentCart": ["cart", "addItemToCart"]},
///       "inject": {"defaultArgument": true, "propertyInjection": false},
///       "finish": {"container": "swinject"},
///       "mocks": {"outputDir": "Tests/AppTests/Doubles"}
///     }
///   }
/// }
/// ```
///
/// A key the schema does not know is a warning at its place; a value of the wrong type, or a file
/// that is not JSON, is an error at its place. Each object's keys are one table below, so a new
/// setting is one entry there and one property.
public struct Configuration: Sendable, Equatable {
  public static let fileName = ".desingleton.json"
  public static let version = 1

  /// What `inject` takes from the file for one singleton; nil leaves the flag's default.
  public struct InjectSettings: Sendable, Equatable {
    public var defaultArgument: Bool?
    public var propertyInjection: Bool?
    public var swiftuiEnvironment: Bool?

    public init(defaultArgument: Bool? = nil, propertyInjection: Bool? = nil, swiftuiEnvironment: Bool? = nil) {
      self.defaultArgument = defaultArgument
      self.propertyInjection = propertyInjection
      self.swiftuiEnvironment = swiftuiEnvironment
    }

    static var fields: [String: Field<InjectSettings>] {
      [
        "defaultArgument": .bool(\.defaultArgument),
        "propertyInjection": .bool(\.propertyInjection),
        "swiftuiEnvironment": .bool(\.swiftuiEnvironment),
      ]
    }
  }

  /// What `finish` takes from the file for one singleton.
  public struct FinishSettings: Sendable, Equatable {
    /// `swinject` or `dependencies`, like `--container`.
    public var container: ContainerKind?
    public var dependencyWrapper: Bool?

    public init(container: ContainerKind? = nil, dependencyWrapper: Bool? = nil) {
      self.container = container
      self.dependencyWrapper = dependencyWrapper
    }

    static var fields: [String: Field<FinishSettings>] {
      [
        "container": .choice(\.container),
        "dependencyWrapper": .bool(\.dependencyWrapper),
      ]
    }
  }

  /// What `mocks` takes from the file for one singleton.
  public struct MocksSettings: Sendable, Equatable {
    /// Like `--output-dir`.
    public var outputDir: String?

    public init(outputDir: String? = nil) { self.outputDir = outputDir }

    static var fields: [String: Field<MocksSettings>] {
      ["outputDir": .string(\.outputDir, what: "a directory")]
    }
  }

  /// The settings of one singleton, under its type name.
  public struct SingletonSettings: Sendable, Equatable {
    /// The slices `extract-protocol` cuts when no `--slice` is given, in the file's order.
    public var slices: [Slice]?
    public var inject = InjectSettings()
    public var finish = FinishSettings()
    public var mocks = MocksSettings()

    public init(
      slices: [Slice]? = nil, inject: InjectSettings = InjectSettings(), finish: FinishSettings = FinishSettings(),
      mocks: MocksSettings = MocksSettings()
    ) {
      self.slices = slices
      self.inject = inject
      self.finish = finish
      self.mocks = mocks
    }

    static var fields: [String: Field<SingletonSettings>] {
      [
        "slices": .slices(\.slices),
        "inject": .object(\.inject, InjectSettings.fields),
        "finish": .object(\.finish, FinishSettings.fields),
        "mocks": .object(\.mocks, MocksSettings.fields),
      ]
    }
  }

  /// The file the settings were read from; nil when there is none.
  public var path: String?
  /// Globs and paths skipped like `--exclude`.
  public var excludes: [String] = []
  /// Extra accessor names, like `--accessor`.
  public var accessors: [String] = []
  /// The build that checks what a write command wrote, like `--verify`; `false` in the file turns
  /// verification off, like `--no-verify`.
  public var verify: VerifySetting?
  public var singletons: [String: SingletonSettings] = [:]
  /// Unknown keys, as `path:line:col: warning: unknown key 'x'`.
  public var warnings: [Diagnostic] = []

  public init() {}

  static var fields: [String: Field<Configuration>] {
    [
      "version": .version,
      "excludes": .strings(\.excludes, what: "a glob or path"),
      "accessors": .strings(\.accessors, what: "an accessor name", identifier: true),
      "singletons": .singletons,
      "verify": .verify,
    ]
  }

  /// The settings for a singleton, named by its qualified or its simple type name.
  public func settings(for singleton: Singleton) -> SingletonSettings {
    singletons[singleton.typeName] ?? singletons[singleton.simpleTypeName] ?? SingletonSettings()
  }

  /// The settings for a singleton named on the command line, before it is resolved.
  public func settings(named name: String?) -> SingletonSettings? {
    guard let name else { return nil }
    return singletons[name] ?? singletons[name.split(separator: ".").last.map(String.init) ?? name]
  }

  /// Reads a configuration file. Syntax errors, wrong types and an unsupported version are refusals
  /// at their place; unknown keys are kept as warnings.
  public static func read(_ source: SourceText) throws -> Configuration {
    let root = try JSONNode.parse(source)
    var configuration = Configuration()
    configuration.path = source.path
    var warnings: [Diagnostic] = []
    try Field<Configuration>.readObject(root, into: &configuration, fields: fields, warnings: &warnings)
    guard case .object(let members) = root.value, members.contains(where: { $0.key == "version" }) else {
      throw Refusal("missing \"version\": \(version)", at: root.location)
    }
    configuration.warnings = warnings
    return configuration
  }
}

/// What checks a write: a build command, or nothing.
public enum VerifySetting: Sendable, Equatable {
  /// A shell command, run in `directory` (the configuration file's; nil: the current directory).
  case command(String, directory: String?)
  case off
}

/// How one key of a configuration object is read into its settings.
struct Field<Root> {
  let read: (JSONNode, inout Root, inout [Diagnostic]) throws -> Void

  static func bool(_ path: WritableKeyPath<Root, Bool?>) -> Field {
    Field { node, root, _ in
      guard case .bool(let value) = node.value else { throw mismatch(node, expected: "true or false") }
      root[keyPath: path] = value
    }
  }

  static func string(_ path: WritableKeyPath<Root, String?>, what: String) -> Field {
    Field { node, root, _ in
      guard case .string(let text) = node.value, !text.isEmpty else { throw mismatch(node, expected: what) }
      root[keyPath: path] = text
    }
  }

  /// A string that names one case of `Choice`.
  static func choice<Choice: RawRepresentable & CaseIterable>(_ path: WritableKeyPath<Root, Choice?>) -> Field
  where Choice.RawValue == String {
    Field { node, root, _ in
      let names = Choice.allCases.map { "'\($0.rawValue)'" }.joined(separator: " or ")
      guard case .string(let text) = node.value, let value = Choice(rawValue: text) else {
        throw mismatch(node, expected: names)
      }
      root[keyPath: path] = value
    }
  }

  static func strings(_ path: WritableKeyPath<Root, [String]>, what: String, identifier: Bool = false) -> Field {
    Field { node, root, _ in
      root[keyPath: path] = try names(node, what: what, identifier: identifier)
    }
  }

  static func object<Child>(_ path: WritableKeyPath<Root, Child>, _ fields: [String: Field<Child>]) -> Field {
    Field { node, root, warnings in
      try readObject(node, into: &root[keyPath: path], fields: fields, warnings: &warnings)
    }
  }

  /// Reads every member of an object with the table; a key it does not have is a warning.
  static func readObject<Settings>(
    _ node: JSONNode,
    into settings: inout Settings,
    fields: [String: Field<Settings>],
    warnings: inout [Diagnostic]
  ) throws {
    guard case .object(let members) = node.value else { throw mismatch(node, expected: "an object") }
    for member in members {
      guard let field = fields[member.key] else {
        warnings.append(.warning("unknown key '\(member.key)'", at: member.keyLocation))
        continue
      }
      try field.read(member.value, &settings, &warnings)
    }
  }

  static func mismatch(_ node: JSONNode, expected: String) -> Refusal {
    Refusal("expected \(expected), found \(node.kindName)", at: node.location)
  }

  /// An array of strings; with `identifier`, each a Swift name.
  static func names(_ node: JSONNode, what: String, identifier: Bool) throws -> [String] {
    guard case .array(let elements) = node.value else { throw mismatch(node, expected: "an array of strings") }
    return try elements.map { element in
      guard case .string(let text) = element.value, !text.isEmpty else { throw mismatch(element, expected: what) }
      if identifier && !isIdentifier(text) { throw Refusal("'\(text)' is not \(what)", at: element.location) }
      return text
    }
  }

  static func isIdentifier(_ text: String) -> Bool {
    !(text.first?.isNumber ?? true) && text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
  }
}

extension Field where Root == Configuration {
  static var version: Field {
    Field { node, _, _ in
      guard case .number(let number) = node.value, number == Double(Configuration.version) else {
        if case .number = node.value {
          throw Refusal(
            "unsupported version; this desingleton reads version \(Configuration.version)",
            at: node.location
          )
        }
        throw mismatch(node, expected: "the number \(Configuration.version)")
      }
    }
  }

  /// `"verify": "xcodebuild -scheme App build-for-testing"`, or `false`.
  static var verify: Field {
    Field { node, root, _ in
      switch node.value {
      case .string(let command) where command.contains(where: { !$0.isWhitespace }):
        // It runs where the file is, whichever directory the tool was started in.
        let directory = root.path.map { path in path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/") }
        root.verify = .command(command, directory: directory.flatMap { $0.isEmpty ? nil : $0 })
      case .bool(false): root.verify = .off
      default: throw mismatch(node, expected: "a build command or false")
      }
    }
  }

  /// `"singletons": {"Type": {...}}`: any type name, each with the singleton table.
  static var singletons: Field {
    Field { node, root, warnings in
      guard case .object(let members) = node.value else { throw mismatch(node, expected: "an object") }
      for member in members {
        var settings = Configuration.SingletonSettings()
        try readObject(
          member.value,
          into: &settings,
          fields: Configuration.SingletonSettings.fields,
          warnings: &warnings
        )
        root.singletons[member.key] = settings
      }
    }
  }
}

extension Field where Root == Configuration.SingletonSettings {
  /// `"slices": {"CurrentCart": ["cart", "addItemToCart"]}`, kept in the file's order.
  static func slices(_ path: WritableKeyPath<Root, [Slice]?>) -> Field {
    Field { node, root, _ in
      guard case .object(let members) = node.value else { throw mismatch(node, expected: "an object of slices") }
      root[keyPath: path] = try members.map { member in
        guard isIdentifier(member.key) else {
          throw Refusal("'\(member.key)' is not a protocol name", at: member.keyLocation)
        }
        let names = try names(member.value, what: "a member name", identifier: true)
        guard !names.isEmpty else {
          throw Refusal("the slice '\(member.key)' has no members", at: member.value.location)
        }
        return Slice(name: member.key, members: names)
      }
    }
  }
}
