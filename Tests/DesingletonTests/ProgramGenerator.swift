import Foundation

/// A program drawn from a grammar of declarations and uses around one singleton with observable
/// behaviour: `Store` keeps a log, a count and a cart, and every consumer's `act()` records into it or
/// prints what it reads, so the program's output (`AppRoot().run()`, printed by `main.swift`) changes
/// when a rewrite makes a second instance, drops a use, or reorders creations.
///
/// The grammar's dimensions: the kind of consumer type (final or open class, a subclass of a project
/// class, struct, enum with static members only), where it is declared (top level, inside an enum,
/// in an extension of that enum), generic parameters, access, the form of its init and where the init
/// is declared, how it uses the singleton (calls, reads, writes, a mutating call through a property,
/// closures with and without `[weak self]`, a stored closure, a generic and a throwing method, a
/// static helper, a default argument, a local alias, `#if`, an extension in another file, a protocol
/// extension's default, `defer`, computed and observed properties, `lazy` and initial values, a
/// property wrapper, a use inside the init), how it is created (by the root, in the root's stored
/// property, by a static factory, in a closure, as `.init`, by another consumer directly or lazily),
/// the singleton's accessor (name, `static let` or a computed `static var`), the language mode and
/// isolation (`@MainActor` on every type, or none).
///
/// A program is a value: it renders to files, shrinks to smaller programs, and round-trips through
/// JSON, so a failure found from a seed can be kept as a test.
struct GeneratedProgram: Codable, Equatable, CustomStringConvertible {
  var swift6 = false
  var mainActor = false
  var accessor = "shared"
  var computedAccessor = false
  var consumers: [GeneratedConsumer] = []

  enum Kind: String, Codable, CaseIterable { case finalClass, openClass, subclass, structType, enumType }
  enum Nesting: String, Codable, CaseIterable { case top, inEnum, inExtension }
  enum InitForm: String, Codable, CaseIterable {
    case implicit, plain, labeled, convenience, failable, throwing, inExtension, required
  }
  enum Use: String, Codable, CaseIterable {
    case record, add, addDefault, readCount, readTitle, writeCount, cart, closure, weakSelfClosure, storedClosure
    case map, generic, throwing, staticHelper, defaultArgument, alias, ifDebug, extensionInOtherFile
    case protocolDefault, deferUse, computed, didSet, lazyProperty, initialValue, wrapper, inInit
    case availability, protocolRequirement, conditionalMember, localFunction, optionalAlias, keyPath, tuple
    case valueCopy, passOn
  }
  enum Creation: Codable, Equatable {
    case root, rootProperty, factory, closure, implicitInit
    /// In the `act()` of the consumer at that position (an earlier one).
    case byConsumer(Int)
    /// In a `lazy var` of the consumer at that position (an earlier class).
    case lazyIn(Int)
  }

  var description: String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
  }

  init(swift6: Bool = false, mainActor: Bool = false, accessor: String = "shared", computedAccessor: Bool = false,
       consumers: [GeneratedConsumer] = []) {
    self.swift6 = swift6
    self.mainActor = mainActor
    self.accessor = accessor
    self.computedAccessor = computedAccessor
    self.consumers = consumers
  }

  init(json: String) throws {
    self = try JSONDecoder().decode(GeneratedProgram.self, from: Data(json.utf8))
  }

  /// The program a seed gives: every choice is drawn from it.
  init(seed: UInt64) {
    var random = FuzzRandom(seed: seed)
    swift6 = random.next() % 3 == 0
    mainActor = random.next() % 3 == 0
    accessor = ["shared", "shared", "default", "sharedInstance", "instance", "standard"].randomElement(using: &random)!
    computedAccessor = random.next() % 4 == 0
    let count = 1 + Int(random.next() % 5)
    // Half the programs leave out the shapes `finish` refuses with a reason (static contexts, a
    // protocol extension, an initial value or default argument no init can pass, the instance
    // passed on whole, a key path), so that the journey's last steps run too.
    let finishable = random.next() % 2 == 0
    for position in 0..<count {
      var consumer = GeneratedConsumer(position: position, earlier: consumers, random: &random)
      if finishable {
        if consumer.kind == .enumType { consumer.kind = .finalClass }
        consumer.uses.removeAll { Self.blockingUses.contains($0) }
        consumer.normalize()
      }
      consumers.append(consumer)
    }
  }

  static let blockingUses: Set<Use> = [
    .staticHelper, .defaultArgument, .protocolDefault, .storedClosure, .initialValue, .passOn, .keyPath,
  ]
}

struct GeneratedConsumer: Codable, Equatable {
  typealias Program = GeneratedProgram
  var kind: Program.Kind = .finalClass
  var nesting: Program.Nesting = .top
  var generic = false
  var isPublic = false
  var initForm: Program.InitForm = .implicit
  var uses: [Program.Use] = [.record]
  var creation: Program.Creation = .root

  init(kind: Program.Kind = .finalClass, nesting: Program.Nesting = .top, generic: Bool = false, isPublic: Bool = false,
       initForm: Program.InitForm = .implicit, uses: [Program.Use] = [.record], creation: Program.Creation = .root) {
    self.kind = kind
    self.nesting = nesting
    self.generic = generic
    self.isPublic = isPublic
    self.initForm = initForm
    self.uses = uses
    self.creation = creation
  }

  init(position: Int, earlier: [GeneratedConsumer], random: inout FuzzRandom) {
    kind = Program.Kind.allCases.randomElement(using: &random)!
    nesting = random.next() % 3 == 0 ? Program.Nesting.allCases.randomElement(using: &random)! : .top
    generic = kind != .enumType && random.next() % 5 == 0
    isPublic = kind != .subclass && random.next() % 5 == 0
    initForm = Program.InitForm.allCases.randomElement(using: &random)!
    let useCount = 1 + Int(random.next() % 4)
    uses = (0..<useCount).map { _ in Program.Use.allCases.randomElement(using: &random)! }
    var creations: [Program.Creation] = [.root, .root, .rootProperty, .factory, .closure, .implicitInit]
    for (index, other) in earlier.enumerated() {
      creations.append(.byConsumer(index))
      if other.kind.isClass { creations.append(.lazyIn(index)) }
    }
    creation = kind == .enumType ? .root : creations.randomElement(using: &random)!
    normalize()
  }

  /// Drops the combinations the grammar does not allow, so every value renders to a program.
  mutating func normalize() {
    if kind == .enumType {
      generic = false
      initForm = .implicit
      if case .byConsumer = creation {} else { creation = .root }
    }
    if kind == .subclass { isPublic = false }
    if kind == .structType, [.convenience, .required].contains(initForm) { initForm = .inExtension }
    if kind != .openClass && kind != .subclass, initForm == .required { initForm = .plain }
    var seen: Set<Program.Use> = []
    uses = uses.filter { seen.insert($0).inserted }.filter { use in
      switch use {
      case .weakSelfClosure, .lazyProperty, .didSet: return kind.isClass
      case .storedClosure, .defaultArgument, .computed, .initialValue, .wrapper, .extensionInOtherFile,
        .protocolDefault:
        return kind != .enumType
      case .inInit: return kind != .enumType && initForm != .implicit
      case .protocolRequirement: return kind != .enumType
      default: return true
      }
    }
    if uses.isEmpty { uses = [.record] }
  }
}

extension GeneratedProgram.Kind {
  var isClass: Bool { self == .finalClass || self == .openClass || self == .subclass }
}

// MARK: - Rendering

extension GeneratedProgram {
  /// The files, by path under the project: `Sources/Gen/...`.
  func files() -> [String: String] {
    var files: [String: String] = [:]
    let actor = mainActor ? "@MainActor " : ""
    let sendable = swift6 && !mainActor ? ": @unchecked Sendable" : ""
    let declared = accessor == "default" ? "`default`" : accessor
    let accessorLine =
      computedAccessor
      ? "  static var \(declared): Store { made }\n  private static let made = Store()\n"
      : "  static let \(declared) = Store()\n"
    files["Store.swift"] = """
      \(actor)final class Store\(sendable) {
      \(accessorLine)  private(set) var log: [String] = []
        var count = 0
        var cart = Cart()
        var title: String { "store \\(count)" }
        func record(_ entry: String) { log.append(entry) }
        func add(_ amount: Int = 1) -> Int {
          count += amount
          return count
        }
        func value<Item>(_ item: Item) -> String { "<\\(item)>" }
        func load() throws -> Int {
          if count > 1_000 { throw StoreError.full }
          return count
        }
      }

      enum StoreError: Error { case full }

      """
    files["Cart.swift"] = """
      struct Cart {
        private(set) var items: [String] = []
        mutating func addItem(_ item: String) { items.append(item) }
      }

      """
    files["Support.swift"] = """
      \(actor)class Template {
        required init() {}
      }

      \(actor)class Base {
        let id: Int
        init(id: Int) { self.id = id }
      }

      \(actor)protocol Noting {}

      \(actor)protocol Describing {
        func describe() -> String
      }

      \(actor)func log(into store: Store, _ entry: String) { store.record(entry) }
      \(consumers.contains { $0.uses.contains(.protocolDefault) } ? """

        extension Noting {
          func note(_ entry: String) { Store.\(accessor).record(entry) }
        }

        """ : "")

      @propertyWrapper struct Doubled {
        private var stored: Int
        init(wrappedValue: Int) { stored = wrappedValue }
        var wrappedValue: Int {
          get { stored * 2 }
          set { stored = newValue }
        }
      }

      """
    var inEnum: [String] = []
    for (position, consumer) in consumers.enumerated() {
      let (declaration, fileScope) = consumer.declaration(position, in: self)
      switch consumer.nesting {
      case .top: files["C\(position).swift"] = declaration + fileScope
      case .inEnum:
        inEnum.append(declaration)
        if !fileScope.isEmpty { files["C\(position).swift"] = String(fileScope.drop { $0 == "\n" }) }
      case .inExtension: files["C\(position).swift"] = "extension Feature {\n\(indent(declaration))}\n" + fileScope
      }
      if consumer.uses.contains(.extensionInOtherFile) {
        files["C\(position)+Extra.swift"] = """
          extension \(consumer.qualifiedName(position)) {
            func extra() { Store.\(accessor).record("C\(position).extra") }
          }

          """
      }
    }
    files["Feature.swift"] = "enum Feature {\n" + inEnum.map(indent).joined(separator: "\n") + "}\n"
    files["Factory.swift"] = factory()
    files["AppRoot.swift"] = root()
    files["main.swift"] = mainActor ? "MainActor.assumeIsolated {\n  print(AppRoot().run())\n}\n" : "print(AppRoot().run())\n"
    return Dictionary(uniqueKeysWithValues: files.map { ("Sources/Gen/" + $0.key, $0.value) })
  }

  func indent(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "  " + $0 }
      .joined(separator: "\n")
  }

  private func factory() -> String {
    let made = consumers.enumerated().filter { $0.element.creation == .factory }
    let actor = mainActor ? "@MainActor " : ""
    let makers = made.map { position, consumer in
      "  static func makeC\(position)() -> \(consumer.instanceType(position)) { \(consumer.creationExpression(position)) }\n"
    }
    return "\(actor)enum Factory {\n" + makers.joined() + "}\n"
  }

  private func root() -> String {
    let actor = mainActor ? "@MainActor " : ""
    var properties = ""
    var body = ""
    for (position, consumer) in consumers.enumerated() {
      switch consumer.creation {
      case .root: body += "    " + consumer.actStatement(on: consumer.creationExpression(position), position) + "\n"
      case .rootProperty:
        properties += "  let c\(position) = \(consumer.creationExpression(position))\n"
        body += "    " + consumer.actStatement(on: "c\(position)", position) + "\n"
      case .factory: body += "    " + consumer.actStatement(on: "Factory.makeC\(position)()", position) + "\n"
      case .closure:
        body += "    let make\(position) = { \(consumer.creationExpression(position)) }\n"
        body += "    " + consumer.actStatement(on: "make\(position)()", position) + "\n"
      case .implicitInit:
        let (type, value) = consumer.implicitCreation(position)
        body += "    let c\(position): \(type) = \(value)\n"
        body += "    " + consumer.actStatement(on: "c\(position)", position) + "\n"
      case .byConsumer, .lazyIn: break
      }
    }
    return """
      \(actor)final class AppRoot {
      \(properties)  func run() -> String {
      \(body)    let store = Store.\(accessor)
          return store.log.joined(separator: ",") + " count=\\(store.count) cart=\\(store.cart.items)"
        }
      }

      """
  }
}

extension GeneratedConsumer {
  func name(_ position: Int) -> String { "C\(position)" }

  func qualifiedName(_ position: Int) -> String { nesting == .top ? name(position) : "Feature.\(name(position))" }

  func instanceType(_ position: Int) -> String { qualifiedName(position) + (generic ? "<Int>" : "") }

  /// The arguments a creation passes, with the parentheses.
  var arguments: String {
    switch initForm {
    case .labeled: return "(seed: 3)"
    case .failable: return "(flag: true)"
    case .inExtension: return kind == .structType ? "()" : "(twice: 2)"
    case .implicit where kind == .subclass: return "(id: 1)"
    default: return "()"
    }
  }

  func creationExpression(_ position: Int) -> String {
    let call = instanceType(position) + arguments
    switch initForm {
    case .failable: return call + "!"
    case .throwing: return "try! " + call
    default: return call
    }
  }

  /// The declared type and the value of `let x: T = .init(...)`.
  func implicitCreation(_ position: Int) -> (String, String) {
    switch initForm {
    case .failable: return (instanceType(position) + "?", ".init\(arguments)")
    case .throwing: return (instanceType(position), "try! .init\(arguments)")
    default: return (instanceType(position), ".init\(arguments)")
    }
  }

  /// The statement that makes a created instance act.
  func actStatement(on instance: String, _ position: Int) -> String {
    if kind == .enumType { return "\(qualifiedName(position)).act()" }
    if initForm == .failable && creation == .implicitInit && instance == "c\(position)" { return "\(instance)?.act()" }
    return "\(instance).act()"
  }

  /// The type's declaration, and what follows it at file scope (an extension declaring an init).
  func declaration(_ position: Int, in program: GeneratedProgram) -> (String, String) {
    let store = "Store.\(program.accessor)"
    let me = name(position)
    let actor = program.mainActor ? "@MainActor " : ""
    let access = isPublic ? "public " : ""
    var header: String
    switch kind {
    case .finalClass: header = "final class \(me)"
    case .openClass: header = "class \(me)"
    case .subclass: header = "final class \(me)"
    case .structType: header = "struct \(me)"
    case .enumType: header = "enum \(me)"
    }
    if generic { header += "<Tag>" }
    var inherited: [String] = []
    if kind == .subclass { inherited.append(initForm == .required ? "Template" : "Base") }
    if uses.contains(.protocolDefault) { inherited.append("Noting") }
    if uses.contains(.protocolRequirement) { inherited.append("Describing") }
    if !inherited.isEmpty { header += ": " + inherited.joined(separator: ", ") }
    let member = kind == .enumType ? "static " : ""
    var members: [String] = []
    if generic { members.append("var tags: [Tag] = []") }
    if [.labeled, .convenience].contains(initForm) || (initForm == .inExtension) { members.append("let seed: Int") }
    var statements: [String] = []
    for use in uses {
      switch use {
      case .record: statements.append("\(store).record(\"\(me).act\")")
      case .add: statements.append("_ = \(store).add(2)")
      case .addDefault: statements.append("_ = \(store).add()")
      case .readCount: statements.append("\(store).record(\"\(me) count \\(\(store).count)\")")
      case .readTitle: statements.append("print(\"\(me) title\", \(store).title)")
      case .writeCount: statements.append("\(store).count += 10")
      case .cart: statements.append("\(store).cart.addItem(\"\(me)\")")
      case .closure: statements.append("let work = { \(store).record(\"\(me).closure\") }\nwork()")
      case .weakSelfClosure:
        statements.append(
          "let weakWork = { [weak self] in\n  guard self != nil else { return }\n  \(store).record(\"\(me).weak\")\n}\nweakWork()")
      case .storedClosure:
        members.append("var handler: () -> Void = { \(store).record(\"\(me).handler\") }")
        statements.append("handler()")
      case .map: statements.append("print([1, 2].map { \(store).value($0) }.joined())")
      case .generic: statements.append("print(\(store).value(3.5))")
      case .throwing: statements.append("print((try? \(store).load()) ?? -1)")
      case .staticHelper:
        members.append("static func helper() { \(store).record(\"\(me).static\") }")
        statements.append("Self.helper()")
      case .defaultArgument:
        members.append("func tally(_ amount: Int = \(store).count) { print(\"\(me) tally\", amount) }")
        statements.append("tally()")
      case .alias: statements.append("let shared = \(store)\nshared.record(\"\(me).alias\")")
      case .ifDebug:
        statements.append("#if DEBUG\n\(store).record(\"\(me).debug\")\n#else\n\(store).record(\"\(me).release\")\n#endif")
      case .extensionInOtherFile: statements.append("extra()")
      case .protocolDefault: statements.append("note(\"\(me).note\")")
      case .deferUse: statements.insert("defer { \(store).record(\"\(me).defer\") }", at: 0)
      case .computed:
        members.append("var summary: String { \"\(me) \" + \(store).title }")
        statements.append("print(summary)")
      case .didSet:
        members.append("var level = 0 {\n  didSet { \(store).record(\"\(me).level \\(level)\") }\n}")
        statements.append("level += 1")
      case .lazyProperty:
        members.append("lazy var cached = \(store).count")
        statements.append("print(\"\(me) cached\", cached)")
      case .initialValue:
        members.append("let start = \(store).count")
        statements.append("print(\"\(me) start\", start)")
      case .wrapper:
        members.append("@Doubled var factor = 2")
        statements.append("\(store).record(\"\(me) factor \\(factor)\")")
      case .inInit: break
      case .availability:
        members.append("@available(macOS 10.15, iOS 13, *)\n\(member)func later() { \(store).record(\"\(me).later\") }")
        statements.append("later()")
      case .protocolRequirement:
        members.append("func describe() -> String { \"\(me) \" + \(store).title }")
        statements.append("print(describe())")
      case .conditionalMember:
        members.append("#if DEBUG\n\(member)func debugOnly() { \(store).record(\"\(me).debugOnly\") }\n#endif")
        statements.append("#if DEBUG\ndebugOnly()\n#endif")
      case .localFunction:
        statements.append("func inner() { \(store).record(\"\(me).inner\") }\ninner()")
      case .optionalAlias:
        statements.append("let maybe: Store? = \(store)\nmaybe?.record(\"\(me).maybe\")")
      case .keyPath: statements.append("print(\"\(me) path\", \(store)[keyPath: \\.count])")
      case .tuple: statements.append("let (number, title) = (\(store).count, \(store).title)\nprint(number, title)")
      case .valueCopy:
        statements.append("var copy = \(store).cart\ncopy.addItem(\"\(me).copy\")\nprint(copy.items.count)")
      case .passOn: statements.append("log(into: \(store), \"\(me).passOn\")")
      }
    }
    // Children this consumer creates.
    for (other, consumer) in program.consumers.enumerated() {
      switch consumer.creation {
      case .byConsumer(position) where other > position:
        statements.append(consumer.actStatement(on: consumer.creationExpression(other), other))
      case .lazyIn(position) where other > position:
        members.append("lazy var child\(other) = \(consumer.creationExpression(other))")
        statements.append(consumer.actStatement(on: "child\(other)", other))
      default: break
      }
    }
    let initBody = uses.contains(.inInit) ? "\(store).record(\"\(me).init\")\n" : ""
    var extensionText = ""
    switch initForm {
    case .implicit: break
    case .plain:
      members.append("init() {\n" + indentBody(initBody + (kind == .subclass ? "super.init(id: 1)\n" : "")) + "}")
    case .labeled:
      members.append(
        "init(seed: Int) {\n" + indentBody("self.seed = seed\n" + initBody + (kind == .subclass ? "super.init(id: seed)\n" : ""))
          + "}")
    case .convenience:
      members.append(
        "init(seed: Int) {\n" + indentBody("self.seed = seed\n" + initBody + (kind == .subclass ? "super.init(id: seed)\n" : ""))
          + "}")
      members.append("convenience init() {\n  self.init(seed: 4)\n}")
    case .failable:
      members.append(
        "init?(flag: Bool) {\n"
          + indentBody("guard flag else { return nil }\n" + initBody + (kind == .subclass ? "super.init(id: 2)\n" : "")) + "}")
    case .throwing:
      members.append("init() throws {\n" + indentBody(initBody + (kind == .subclass ? "super.init(id: 3)\n" : "")) + "}")
    case .inExtension:
      if kind == .structType {
        extensionText = "\nextension \(qualifiedName(position)) {\n  init() {\n" + indentBody(indentBody("self.init(seed: 5)\n" + initBody)) + "  }\n}"
      } else {
        members.append(
          "init(seed: Int) {\n" + indentBody("self.seed = seed\n" + (kind == .subclass ? "super.init(id: seed)\n" : "")) + "}")
        extensionText =
          "\nextension \(qualifiedName(position)) {\n  convenience init(twice: Int) {\n"
          + indentBody(indentBody("self.init(seed: twice * 2)\n" + initBody)) + "  }\n}"
      }
    case .required:
      // A subclass overrides `Template`'s required init, which must keep its signature.
      members.append("required init() {\n" + indentBody(initBody + (kind == .subclass ? "super.init()\n" : "")) + "}")
    }
    members.append("\(member)func act() {\n" + indentBody(statements.joined(separator: "\n") + "\n") + "}")
    let body = members.map { indentBody($0 + "\n") }.joined(separator: "\n")
    return ("\(actor)\(access)\(header) {\n\(body)}\n", extensionText.isEmpty ? "" : extensionText + "\n")
  }

  private func indentBody(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "  " + $0 }
      .joined(separator: "\n")
  }
}

// MARK: - Shrinking

extension GeneratedProgram {
  /// Smaller programs, most reducing first: without one consumer (its children move to the root),
  /// without one use, with one dimension back at its plainest.
  func shrunk() -> [GeneratedProgram] {
    var result: [GeneratedProgram] = []
    if consumers.count > 1 {
      for position in consumers.indices {
        var smaller = self
        smaller.consumers.remove(at: position)
        smaller.consumers = smaller.consumers.map { consumer in
          var consumer = consumer
          switch consumer.creation {
          case .byConsumer(let other), .lazyIn(let other):
            if other == position { consumer.creation = .root }
            if other > position { consumer.creation = consumer.creation.shifted() }
          default: break
          }
          return consumer
        }
        result.append(smaller)
      }
    }
    for (position, consumer) in consumers.enumerated() {
      if consumer.uses.count > 1 {
        for use in consumer.uses.indices {
          var smaller = self
          smaller.consumers[position].uses.remove(at: use)
          result.append(smaller)
        }
      }
      var plainer: [GeneratedConsumer] = []
      if consumer.kind != .finalClass && consumer.kind != .enumType {
        var changed = consumer
        changed.kind = .finalClass
        plainer.append(changed)
      }
      if consumer.nesting != .top { plainer.append(with(consumer) { $0.nesting = .top }) }
      if consumer.generic { plainer.append(with(consumer) { $0.generic = false }) }
      if consumer.isPublic { plainer.append(with(consumer) { $0.isPublic = false }) }
      if consumer.initForm != .implicit { plainer.append(with(consumer) { $0.initForm = .implicit }) }
      if consumer.initForm != .plain && consumer.initForm != .implicit {
        plainer.append(with(consumer) { $0.initForm = .plain })
      }
      if consumer.creation != .root && consumer.kind != .enumType {
        plainer.append(with(consumer) { $0.creation = .root })
      }
      for candidate in plainer {
        var smaller = self
        smaller.consumers[position] = candidate
        smaller.consumers[position].normalize()
        if smaller != self { result.append(smaller) }
      }
    }
    if swift6 { result.append(with(self) { $0.swift6 = false }) }
    if mainActor { result.append(with(self) { $0.mainActor = false }) }
    if computedAccessor { result.append(with(self) { $0.computedAccessor = false }) }
    if accessor != "shared" { result.append(with(self) { $0.accessor = "shared" }) }
    return result
  }

  /// The smallest program, by trying `shrunk()` greedily, for which `fails` still holds; at most
  /// `budget` tries.
  func shrinking(budget: Int, _ fails: (GeneratedProgram) -> Bool) -> GeneratedProgram {
    var current = self
    var tries = 0
    var progress = true
    while progress && tries < budget {
      progress = false
      for candidate in current.shrunk() {
        tries += 1
        if fails(candidate) {
          current = candidate
          progress = true
          break
        }
        if tries >= budget { break }
      }
    }
    return current
  }
}

extension GeneratedProgram.Creation {
  /// The same creation after the consumer before it was removed.
  func shifted() -> Self {
    switch self {
    case .byConsumer(let other): return .byConsumer(other - 1)
    case .lazyIn(let other): return .lazyIn(other - 1)
    default: return self
    }
  }
}

private func with<Value>(_ value: Value, _ change: (inout Value) -> Void) -> Value {
  var value = value
  change(&value)
  return value
}
