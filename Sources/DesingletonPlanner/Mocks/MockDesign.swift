/// What `mocks` decided for one protocol: where its double goes, which shape it takes and what it
/// implements. `MockWriter` turns it into text.
struct MockDesign: Sendable, Equatable {
  /// The double's shape follows the protocol's isolation, so that Swift 6 tests compile.
  enum Shape: Sendable, Equatable {
    /// `@MainActor final class` (or another global actor).
    case globalActor(String)
    /// `final class … @unchecked Sendable`, its state guarded by an `NSLock`, handlers `@Sendable`.
    case sendable
    /// An `actor`, its state `nonisolated` behind an `NSLock` so tests can stub and read it without `await`.
    case actor
    /// `final class`.
    case plain

    /// Whether the state is kept behind a lock.
    var isGuarded: Bool { self == .sendable || self == .actor }
  }

  var protocolName: String
  var mockName: String
  var path: String
  var shape: Shape
  var imports: [String]
  /// The protocol files' imports in `#if` clauses, each with the condition that holds exactly in
  /// its clause (`import SystemPackage` under `!canImport(System)`).
  var conditionedImports: [ConditionedImports] = []
  /// The `#if` condition the protocol is declared under, if any.
  var condition: String?
  /// Imports in the `#if` clauses around the protocol: inside the double's `#if`.
  var innerImports: [String] = []
  var items: [MockItem]
  /// One level of indentation, as the protocol's file has it.
  var indent: String
  /// A file of the test target the double joins, so that an Xcode project compiles the new file in
  /// the same targets (`Plan.companions`); nil with `--output-dir`.
  var companion: String? = nil
}

/// Import lines that hold under a condition.
struct ConditionedImports: Sendable, Equatable {
  var condition: String
  var lines: [String]
}

/// A requirement, or an `#if` around requirements.
indirect enum MockItem: Sendable, Equatable {
  case property(MockProperty)
  case method(MockMethod)
  case conditional([MockClause])
}

struct MockClause: Sendable, Equatable {
  /// `#if os(Linux)`, `#elseif DEBUG`, `#else`.
  var directive: String
  var items: [MockItem]
}

struct MockProperty: Sendable, Equatable {
  var name: String
  var type: String
  var isStatic: Bool
  /// The value a new mock starts with; nil: an init parameter (or, under `#if` or static, a value
  /// that must be set before it is read).
  var defaultValue: String?
  /// Declared under `#if`: it cannot be an init parameter, whose list would differ per platform.
  var isConditional: Bool
}

struct MockMethod: Sendable, Equatable {
  struct Parameter: Sendable, Equatable {
    /// The name the body uses.
    var name: String
    /// The type in the handler's parameter list.
    var handlerType: String
    /// The type recorded in `ArgValues`; nil when the argument cannot be kept (a non-escaping closure).
    var storedType: String?
    var isInout: Bool
    /// Its type names a generic parameter of the method: handlers and `ArgValues` see it as `Any`.
    var isErased: Bool = false
    /// The label, or the parameter's name when it has none: what tells overloads apart.
    var key: String
  }

  var name: String
  /// `addItemToCart`, or with the first differing label for an overload (`loadLimit`).
  var mockName: String
  /// The declaration as the mock writes it, without a body.
  var signature: String
  var parameters: [Parameter]
  var isStatic: Bool
  var isAsync: Bool
  /// `throws`, `throws(E)`, or nil (a `rethrows` method's handler cannot throw).
  var handlerThrows: String?
  var returnType: String?
  /// The result the handler gives back is `Any` and is cast back to the generic result type.
  var castsResult: Bool
  /// What a call returns when no handler is set; nil: it fails naming the handler.
  var defaultResult: String?
}
