import DesingletonCore
import DesingletonIndex
import SwiftParser
import SwiftSyntax

/// Adds code that uses a singleton in one of the shapes `inject` and `finish` must handle or refuse: a
/// struct, a closure, a nested type, an extension, a static context, a lazy or computed property, a
/// default argument, inits of every kind with their callers, generic and Sendable classes, subclasses, an
/// enum, a protocol extension, creators, UIKit views and view controllers, a test.
/// Random damage rarely leaves code that still compiles; these mutations usually do, so the rewrites of
/// new shapes get type-checked. The use is copied from the sample (a property read or a call without
/// arguments through the accessor), so its type and isolation are the singleton's own.
enum FuzzConsumerMutator {
  /// Appends one consumer to a random file of `targetPrefix` (or, for a test, of `testPrefix`); returns
  /// what it did and the singleton the consumer uses, or nil when the files use no singleton member that
  /// can be copied.
  static func mutate(
    _ files: inout [FuzzFile],
    targetPrefix: String,
    testPrefix: String,
    using random: inout FuzzRandom
  ) -> (description: String, singleton: String)? {
    let sources = files.map { SourceText(path: $0.path, bytes: $0.bytes) }
    let index = IndexBuilder(threads: 1).build(sources: sources)
    let accessors = Dictionary(index.singletons.map { ($0.accessExpression, $0.typeName) }) { first, _ in first }
    let targets = files.indices.filter { files[$0].path.hasPrefix(targetPrefix) }
    let tests = files.indices.filter { files[$0].path.hasPrefix(testPrefix) }
    var uses: [Use] = []
    for position in targets {
      uses += self.uses(in: files[position].bytes, accessors: accessors)
    }
    guard !uses.isEmpty, !targets.isEmpty else { return nil }
    let chosen = random.pick(uses.sorted { ($0.text, $0.singleton) < ($1.text, $1.singleton) })
    let use = chosen.text
    let number = 1 + random.below(9999)
    // A main-actor singleton's members cannot be used from a nonisolated consumer.
    let mainActor = index.declarations(of: chosen.singleton).contains { $0.attributes.contains("@MainActor") }
    let isolation = mainActor || random.below(2) == 0 ? "@MainActor " : ""
    var templates = consumers + uiKitConsumers
    if !tests.isEmpty { templates.append(test) }
    let (kind, template) = random.pick(templates)
    let inTest = template == test.template
    let candidates =
      uiKitConsumers.contains { $0.template == template }
      ? targets.filter { importsUIKit(files[$0].bytes) } : inTest ? tests : targets
    guard !candidates.isEmpty else { return nil }
    let which = random.pick(candidates)
    let existing = inTest ? [] : typeNames(in: files[which].bytes)
    guard !template.contains("EXISTING") || !existing.isEmpty else { return nil }
    let code =
      template
      .replacingOccurrences(of: "ISOLATION ", with: isolation)
      .replacingOccurrences(of: "NUMBER", with: String(number))
      .replacingOccurrences(of: "USE", with: use)
      .replacingOccurrences(of: "EXISTING", with: existing.isEmpty ? "" : random.pick(existing))
    var bytes = files[which].bytes
    if let last = bytes.last, last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
    bytes += Array(("\n" + code).utf8)
    files[which].bytes = bytes
    let name = files[which].path.split(separator: "/").last.map(String.init) ?? files[which].path
    return ("append \(isolation)\(kind) using '\(use)' to \(name)", chosen.singleton)
  }

  private struct Use {
    var text: String
    var singleton: String
  }

  /// `Accessor.member` reads and `Accessor.member()` calls, as written, with the singleton's type.
  private static func uses(in bytes: [UInt8], accessors: [String: String]) -> [Use] {
    let tree = bytes.withUnsafeBufferPointer { Parser.parse(source: $0) }
    var found: [Use] = []
    var pending: [Syntax] = [Syntax(tree)]
    while let node = pending.popLast() {
      pending.append(contentsOf: node.children(viewMode: .sourceAccurate))
      guard let access = node.as(MemberAccessExprSyntax.self), let base = access.base,
        let singleton = accessors[base.trimmedDescription]
      else { continue }
      if let call = access.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == access.id {
        if call.arguments.isEmpty && call.trailingClosure == nil {
          found.append(Use(text: call.trimmedDescription, singleton: singleton))
        }
      } else {
        found.append(Use(text: access.trimmedDescription, singleton: singleton))
      }
    }
    return found
  }

  private static func importsUIKit(_ bytes: [UInt8]) -> Bool {
    let tree = bytes.withUnsafeBufferPointer { Parser.parse(source: $0) }
    return tree.statements.contains { $0.item.as(ImportDeclSyntax.self)?.path.first?.name.text == "UIKit" }
  }

  /// Names of the non-generic classes and structs declared at the top level of a file.
  private static func typeNames(in bytes: [UInt8]) -> [String] {
    let tree = bytes.withUnsafeBufferPointer { Parser.parse(source: $0) }
    return tree.statements.compactMap { item -> String? in
      if let decl = item.item.as(ClassDeclSyntax.self), decl.genericParameterClause == nil { return decl.name.text }
      if let decl = item.item.as(StructDeclSyntax.self), decl.genericParameterClause == nil { return decl.name.text }
      return nil
    }
  }

  /// Shapes of consumers: `ISOLATION ` is `@MainActor ` or nothing, `USE` the copied use, `NUMBER` makes the
  /// names new, `EXISTING` names a type of the file.
  static let consumers: [(kind: String, template: String)] = [
    ("a struct", "ISOLATION struct FuzzReaderNUMBER {\n  func read() -> Any { USE }\n}\n"),
    (
      "a struct with a stored property and its memberwise init called",
      """
      ISOLATION struct FuzzMemberwiseNUMBER {
        var count = 0
        func read() -> Any { USE }
      }

      ISOLATION func fuzzMakeNUMBER() -> Any { FuzzMemberwiseNUMBER(count: 1) }

      """
    ),
    (
      "a closure",
      """
      ISOLATION final class FuzzWatcherNUMBER {
        var block: (() -> Void)?
        func watch() {
          block = { [weak self] in
            _ = self
            _ = USE
          }
        }
      }

      """
    ),
    (
      "a nested type",
      "ISOLATION enum FuzzOuterNUMBER {\n  ISOLATION struct Inner {\n    func read() -> Any { USE }\n  }\n}\n"
    ),
    ("an extension", "ISOLATION extension EXISTING {\n  func fuzzReadNUMBER() -> Any { USE }\n}\n"),
    ("a static function", "ISOLATION enum FuzzStaticNUMBER {\n  static func read() -> Any { USE }\n}\n"),
    ("a lazy property", "ISOLATION final class FuzzLazyNUMBER {\n  lazy var value: Any = USE\n}\n"),
    ("a computed property", "ISOLATION final class FuzzComputedNUMBER {\n  var value: Any { USE }\n}\n"),
    ("a default argument", "ISOLATION final class FuzzDefaultNUMBER {\n  func read(_ value: Any = USE) {}\n}\n"),
    (
      "an init",
      """
      ISOLATION final class FuzzInitNUMBER {
        let value: Any
        init() {
          value = USE
        }
      }

      """
    ),
    (
      "a convenience init and its caller",
      """
      ISOLATION class FuzzConvenienceNUMBER {
        let count: Int
        init(count: Int) {
          self.count = count
        }
        convenience init() {
          self.init(count: 1)
        }
        func read() -> Any { USE }
      }

      ISOLATION func fuzzMakeNUMBER() -> Any { FuzzConvenienceNUMBER() }

      """
    ),
    ("a generic class", "ISOLATION final class FuzzGenericNUMBER<T> {\n  func read(_ t: T) -> Any { USE }\n}\n"),
    (
      "a subclass",
      """
      ISOLATION class FuzzBaseNUMBER {
        let name: String
        init(name: String) {
          self.name = name
        }
      }

      ISOLATION final class FuzzDerivedNUMBER: FuzzBaseNUMBER {
        func read() -> Any { USE }
      }

      ISOLATION func fuzzMakeNUMBER() -> Any { FuzzDerivedNUMBER(name: "n") }

      """
    ),
    (
      "a struct created in a stored property's initial value",
      """
      ISOLATION struct FuzzPartNUMBER {
        func read() -> Any { USE }
      }

      ISOLATION final class FuzzHolderNUMBER {
        let part = FuzzPartNUMBER()
        lazy var other = FuzzPartNUMBER()
      }

      """
    ),
    (
      "a struct created with '.init()' and in a static factory",
      """
      ISOLATION struct FuzzImplicitNUMBER {
        var label = "a"
        func read() -> Any { USE }
      }

      ISOLATION enum FuzzFactoryNUMBER {
        static func make() -> FuzzImplicitNUMBER { .init() }
        static func other() -> FuzzImplicitNUMBER { FuzzImplicitNUMBER.init(label: "b") }
      }

      """
    ),
    ("an enum", "ISOLATION enum FuzzModeNUMBER {\n  case a\n  func read() -> Any { USE }\n}\n"),
    (
      "a protocol extension",
      "ISOLATION protocol FuzzRoleNUMBER {}\n\nISOLATION extension FuzzRoleNUMBER {\n  func read() -> Any { USE }\n}\n"
    ),
    (
      "a Sendable class",
      "ISOLATION final class FuzzSendableNUMBER: Sendable {\n  let id = 1\n  func read() -> Any { USE }\n}\n"
    ),
    (
      "a chain of creators",
      """
      ISOLATION final class FuzzLeafNUMBER {
        func read() -> Any { USE }
      }

      ISOLATION final class FuzzMiddleNUMBER {
        let leaf: FuzzLeafNUMBER
        init() {
          leaf = FuzzLeafNUMBER()
        }
      }

      ISOLATION final class FuzzTopNUMBER {
        func start() -> Any { FuzzMiddleNUMBER() }
      }

      """
    ),
    (
      "a failable and a throwing init",
      """
      ISOLATION final class FuzzFailableNUMBER {
        let count: Int
        init?(count: Int) {
          guard count > 0 else { return nil }
          self.count = count
        }
        init(text: String) throws {
          count = text.count
        }
        func read() -> Any { USE }
      }

      ISOLATION func fuzzMakeNUMBER() throws -> Any { (FuzzFailableNUMBER(count: 1), try FuzzFailableNUMBER(text: "a")) }

      """
    ),
    (
      "an open class with a subclass that declares its own init",
      """
      ISOLATION class FuzzParentNUMBER {
        func read() -> Any { USE }
      }

      ISOLATION final class FuzzChildNUMBER: FuzzParentNUMBER {
        let extra: Int
        init(extra: Int) {
          self.extra = extra
          super.init()
        }
      }

      ISOLATION func fuzzMakeNUMBER() -> Any { (FuzzParentNUMBER(), FuzzChildNUMBER(extra: 1)) }

      """
    ),
    (
      "a struct with an init in an extension and observed property",
      """
      ISOLATION struct FuzzObservedNUMBER {
        var value = 0 {
          didSet { _ = USE }
        }
      }

      ISOLATION extension FuzzObservedNUMBER {
        init(start: Int) {
          value = start
        }
      }

      ISOLATION func fuzzMakeNUMBER() -> Any { (FuzzObservedNUMBER(), FuzzObservedNUMBER(value: 1), FuzzObservedNUMBER(start: 2)) }

      """
    ),
  ]

  /// Shapes that need UIKit: used only in files that import it.
  static let uiKitConsumers: [(kind: String, template: String)] = [
    (
      "a view controller without an init",
      """
      ISOLATION final class FuzzScreenNUMBER: UIViewController {
        func read() -> Any { USE }
      }

      ISOLATION func fuzzMakeNUMBER() -> Any { FuzzScreenNUMBER() }

      """
    ),
    (
      "a view with a coder init",
      """
      ISOLATION final class FuzzViewNUMBER: UIView {
        override init(frame: CGRect) {
          super.init(frame: frame)
        }
        required init?(coder: NSCoder) {
          super.init(coder: coder)
        }
        func read() -> Any { USE }
      }

      ISOLATION func fuzzMakeNUMBER() -> Any { FuzzViewNUMBER(frame: .zero) }

      """
    ),
  ]

  static let test = (
    kind: "a test", template: "@Test ISOLATION func fuzzTestNUMBER() {\n  _ = USE\n}\n"
  )
}
