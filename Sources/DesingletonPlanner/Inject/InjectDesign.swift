import DesingletonCore
import DesingletonIndex
import SwiftSyntax

/// What `inject` will do, decided before any text is written.
struct InjectDesign {
  let singleton: Singleton
  let options: InjectOptions
  /// The consumers to inject, in the order they are rewritten.
  let consumers: [Consumer]
  /// Creation sites to update, in file order.
  let callSites: [CallSite]
  /// Consumers left alone, each with its reason.
  let skipped: [SkippedConsumer]
  /// Consumers the system creates, which cannot take init parameters.
  let frameworkCreated: [SkippedConsumer]
  /// Composition roots that create other consumers: they keep the accessor until `finish`.
  let roots: [SkippedConsumer]
  /// Files in another module than the singleton's that now name it and must import its module.
  let imports: [String: String]
  /// Where property-injected consumers are configured, and what each place assigns.
  var configurations: [ConfigurationSite] = []
  /// Static methods that take the protocols of the consumers they create, and their calls.
  var factories: [Factory] = []
  var factorySites: [FactorySite] = []

  func consumer(_ typeName: String) -> Consumer? { consumers.first { $0.typeName == typeName } }

  /// More injected protocols than this into one type is a sign the type does too much.
  static let protocolWarningThreshold = 6

  /// Types that receive more protocols than a type should, as warnings.
  var warnings: [Diagnostic] {
    consumers.filter { $0.protocols.count > Self.protocolWarningThreshold }.map { consumer in
      .warning(
        "'\(consumer.typeName)' now receives \(consumer.protocols.count) protocols of '\(singleton.typeName)'; consider splitting it",
        at: consumer.primary.location)
    }
  }

  /// The summary's closing lines: the skipped consumers grouped by reason with their places, the
  /// types the system creates, and the warnings.
  func summary() -> [Note] {
    var lines: [Note] = []
    if !skipped.isEmpty {
      lines.append(Note(.skipped, "skipped \(skipped.count) consumer\(skipped.count == 1 ? "" : "s"):"))
      for reason in SkipReason.allCases {
        let group = skipped.filter { $0.reason == reason }
        guard !group.isEmpty else { continue }
        lines.append(Note(.skipped, "\(reason.title) (\(group.count)): \(group.map(\.typeName).joined(separator: ", "))", depth: 1))
        lines += group.flatMap(\.diagnostics).map { Note(.skipped, $0, depth: 2) }
      }
    }
    if !frameworkCreated.isEmpty {
      lines.append(
        Note(.kept, "created by the framework, not injected (\(frameworkCreated.count)): \(frameworkCreated.map(\.typeName).joined(separator: ", "))"))
      lines += frameworkCreated.flatMap(\.diagnostics).map { Note(.kept, $0, depth: 1) }
    }
    if !roots.isEmpty {
      lines.append(Note(.kept, "composition roots, keeping the accessor (\(roots.count)): \(roots.map(\.typeName).joined(separator: ", "))"))
      lines += roots.flatMap(\.diagnostics).map { Note(.kept, $0, depth: 1) }
    }
    lines += warnings.map { Note(.skipped, $0) }
    return lines
  }
}

/// The init a consumer without a designated init of its own gets.
enum GeneratedInit {
  /// A class's init, ending with `superCall` (nil: no init without the superclass's arguments is
  /// written, only `inherited` ones); `coderInit` adds `required init?(coder:)`; `inherited` are the
  /// superclass's designated inits that call sites use, each with the injected parameters first, and
  /// `required` the superclass's required inits the class must keep, which take the shared instance.
  case classInit(superCall: String?, coderInit: Bool, inherited: [InheritedInit] = [], required: [InheritedInit] = [])
  /// A struct's init taking the injected parameters and then its memberwise ones.
  case memberwise(parameters: [String], assignments: [String])
  /// An actor's or a root class's init.
  case plain
}

/// A designated init a class inherits and a generated init re-declares, forwarding to `super`.
struct InheritedInit: Equatable {
  /// The parameter list as the superclass writes it (`title: String, style: Style = .plain`).
  var parameters: String
  /// The arguments that forward the parameters (`title: title, style: style`).
  var arguments: String
  /// `?` for a failable init, else "".
  var failable: String
  /// ` throws`, ` async throws`, or "".
  var effects: String
  /// Argument labels and whether each has a default, to match call sites.
  var shape: [(label: String, hasDefault: Bool)]
  /// The positions of its variadic parameters (`_ tags: String...`), which an init of the
  /// subclass cannot pass on to `super.init`: Swift cannot forward variadic arguments.
  var variadic: [Int] = []

  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.parameters == rhs.parameters && lhs.arguments == rhs.arguments && lhs.failable == rhs.failable
      && lhs.effects == rhs.effects
  }

  /// `super.init(...)`, with `try`/`await` as its effects need.
  var superCall: String {
    let prefix = (effects.contains("throws") ? "try " : "") + (effects.contains("async") ? "await " : "")
    return "\(prefix)super.init(\(arguments))"
  }
}

/// A place that configures an instance the system created (`let cell = ... as! Cell`): the
/// statement after which the injected properties are set.
struct ConfigurationSite {
  var path: String
  var typeName: String
  /// The local that holds the instance.
  var variable: String
  /// The statement to insert after.
  var statement: Syntax
  var context: ReferenceContext
  /// `cell.counting = value`, filled in when the design is made.
  var assignments: [String] = []
  var captured: [String] = []
}

/// A creation site and the arguments it gains.
struct CallSite {
  var call: InitCall
  /// `label: value`, in parameter order, then any arguments an inherited convenience init stood for.
  var arguments: [String]
  /// Values that are the creator's own properties, which its closures must capture.
  var captured: [String]
  /// Some argument is the accessor itself.
  var passesAccessor: Bool
  /// For a view that reads the slices from the environment: `.environment(\.key, value)` after the
  /// call, instead of arguments.
  var environment: [String] = []
  /// The singleton makes the consumer in a stored property's initial value and passes `self`: the
  /// property becomes lazy, so `self` exists when the value is made.
  var makesLazy = false
  /// `, label: value` inserted after an existing argument (by byte offset): a held parameter that
  /// lost its default, placed where the init declares it.
  var insertions: [(offset: Int, text: String)] = []
}

/// One consumer being injected.
struct Consumer {
  var typeName: String
  var declarations: [TypeDecl]
  var primary: TypeDecl
  /// Protocols it receives, in catalog order.
  var protocols: [String] = []
  /// Property name for each protocol.
  var names: [String: String] = [:]
  /// Protocols held by an existing alias property (`let session = X.shared` becomes `let session: P`).
  var aliasProperties: [String: Reference] = [:]
  /// Protocols held by an init parameter that already takes the instance (`init(store: X = X.shared)`,
  /// kept in a stored property): the parameter and the property take the protocol's type.
  var heldParameters: [String: Reference] = [:]
  /// Protocols it holds together in one new property, named here, because it hands them to a held
  /// parameter of a type it creates (`store: A & B`): one value has to carry them all.
  var combined: [(name: String, protocols: [String])] = []
  /// Local aliases used through several protocols: the declaration goes and each use names its property.
  var dissolvedAliases: [Reference] = []
  var references: [Reference] = []
  var staticReferences: [Reference] = []
  /// Which protocol each reference (by range) goes through.
  var referenceProtocol: [DesingletonIndex.SourceRange: String] = [:]
  /// How the new properties are declared (`ShapeInits.propertyAccess`).
  var propertyAccess = PropertyAccess.internal
  /// Nil when the type declares a designated init in its primary declaration.
  var generatedInit: GeneratedInit?
  /// `public ` when a generated class init stands for a public init the class inherited and code
  /// in another module creates it (`Kid()` in the app through `Parent`'s `public init()`).
  var generatedInitAccess = ""
  /// The system creates it: it gets `var name: P!` properties that the places configuring it set.
  var propertyInjected = false
  /// The singleton needs it while it is made (a creation cycle): it gets `lazy var name: P = X.shared`
  /// properties, read at their first use, which whoever makes both sets instead (`finish` with both
  /// singletons). Also `propertyInjected`, with no place configuring it.
  var setAfterCreation = false
  /// A SwiftUI view that reads its protocols from the environment (`--swiftui-environment`).
  var readsEnvironment = false
  /// Protocols only the views it shows read from the environment: whoever shows it sets them too.
  var passedDown: [String] = []

  func name(of protocolName: String) -> String { names[protocolName] ?? lowerCamel(protocolName) }

  /// What the consumer's inits take for its protocols, in protocol order: one parameter per
  /// protocol, except that the protocols a held parameter keeps share it (`store: A & B`).
  var slots: [(name: String, type: String, protocols: [String])] {
    var result: [(name: String, type: String, protocols: [String])] = []
    var done: Set<String> = []
    for protocolName in protocols where !done.contains(protocolName) {
      if let together = combined.first(where: { $0.protocols.contains(protocolName) }), heldParameters[protocolName] == nil {
        let group = protocols.filter(together.protocols.contains)
        done.formUnion(group)
        result.append((name(of: protocolName), group.joined(separator: " & "), group))
        continue
      }
      guard let definition = heldParameters[protocolName] else {
        result.append((name(of: protocolName), protocolName, [protocolName]))
        continue
      }
      let group = protocols.filter { heldParameters[$0] == definition }
      done.formUnion(group)
      result.append((name(of: protocolName), group.joined(separator: " & "), group))
    }
    return result
  }
}

