import Foundation
import DesingletonCore
import DesingletonIndex
import DesingletonPlanner
import Testing

@Suite struct SingletonDetectionTests {
  @Test func everyShapeIsFound() throws {
    let project = makeProject([
      "Shapes.swift": """
      import Foundation

      final class StrictObject: NSObject {
        static let shared = StrictObject()
        private override init() {}
        override func copy() -> Any { self }
        var value = 1
      }

      final class Loose {
        static let shared = Loose()
        init() {}
      }

      @MainActor final class Resettable {
        private static var _shared = Resettable()
        static var shared: Resettable { _shared }
        static func reset() { _shared = Resettable() }
      }

      class ClassVar {
        private static let one = ClassVar()
        class var shared: ClassVar { one }
      }

      class Legacy {
        private static let one = Legacy()
        class func sharedInstance() -> Legacy { return one }
      }

      final class Closure {
        static var shared: Closure = {
          let value = Closure()
          return value
        }()
      }

      final class Declared {
        static let sharedController: Declared
      }

      final class Preferences {
        static let standard = Preferences()
      }

      struct Point {
        static let zero = Point()
      }
      """
    ])
    let found = Dictionary(uniqueKeysWithValues: project.index.singletons.map { ($0.typeName, $0) })
    #expect(found.keys.sorted() == ["ClassVar", "Closure", "Declared", "Legacy", "Loose", "Preferences", "Resettable", "StrictObject"])
    #expect(found["StrictObject"]?.shape == .staticLet)
    #expect(found["StrictObject"]?.isStrict == true)
    #expect(found["Loose"]?.isStrict == false)
    #expect(found["Resettable"]?.shape == .computed)
    #expect(found["Resettable"]?.backingStorage == "_shared")
    #expect(found["ClassVar"]?.shape == .classVar)
    #expect(found["Legacy"]?.shape == .accessorMethod)
    #expect(found["Legacy"]?.accessExpression == "Legacy.sharedInstance()")
    #expect(found["Closure"]?.shape == .closureInitialized)
    #expect(found["Declared"]?.shape == .declaredOnly)
    #expect(found["Declared"]?.accessor == "sharedController")
    #expect(found["Preferences"]?.accessor == "standard")
    #expect(found["StrictObject"]?.declaration.start.line == 4)
  }

  /// A value type's shared value is one only when code can change it through the accessor: a
  /// settable `static var`, written through. A method or a get-only property hands out a copy,
  /// which no code can change in place, so it is never one, whatever its uses look like (and a
  /// scan never parses a file for them).
  @Test(arguments: [
    ("struct Box { static var shared = Box(); var n = 0 }", "Box.shared.n = 1", true),
    ("struct Box { static var shared = Box(); var n = 0 }", "_ = Box.shared.n", false),
    (
      "struct Box { private static var storage = Box(); static var shared: Box { get { storage } set { storage = newValue } }; var n = 0 }",
      "Box.shared.n = 1", true
    ),
    // `Session` is a class of a framework: the copy's reference reaches the same object, and the
    // index, which cannot tell the type, takes the assignment for a write through the copy.
    (
      "struct Box { private static var storage = Box(); static var shared: Box { storage }; var session = Session() }",
      "Box.shared.session.timeout = 1", false
    ),
    (
      "struct Box { private static var storage = Box(); static func shared() -> Box { storage }; var session = Session() }",
      "Box.shared().session.timeout = 1", false
    ),
    ("enum Mode { case a; static var current: Mode { .a } }", "_ = Mode.current", false),
    ("final class Box { private static var storage = Box(); static var shared: Box { storage }; var n = 0 }", "Box.shared.n = 1", true),
  ])
  func aValueTypeIsOneWhenItsSharedValueCanChange(declaration: String, use: String, isSingleton: Bool) {
    let project = makeProject(["Box.swift": declaration + "\n", "Use.swift": "func use() {\n  \(use)\n}\n"])
    #expect(!project.index.singletons.isEmpty == isSingleton, "\(declaration) / \(use)")
  }

  /// Real code nests deeper than the debug parser's default limit (20): every build reads such a
  /// file as a release build does, finds the references in it, and can edit it.
  @Test func deeplyNestedCodeIsReadInEveryBuild() throws {
    let depth = 120
    let nested = String(repeating: "if true {\n", count: depth) + "Store.shared.count += 1\n"
      + String(repeating: "}\n", count: depth)
    let project = makeProject([
      "Store.swift": "final class Store {\n  static let shared = Store()\n  var count = 0\n}\n",
      "Deep.swift": "final class Deep {\n  func value() {\n\(nested)  }\n}\n",
    ])
    #expect(project.index.warnings.isEmpty, "\(project.index.warnings)")
    let store = try #require(project.index.singletons.first)
    #expect(project.index.references(to: store).map(\.context.typeName) == ["Deep"])
    _ = try project.file("Deep.swift")
  }

  @Test func accessorInAnExtensionInAnotherFileAndNestedTypes() {
    let project = makeProject([
      "A.swift": "enum App {\n  final class Store {\n    var count = 0\n  }\n}\n",
      "B.swift": "extension App.Store {\n  static let shared = App.Store()\n}\n",
      "C.swift": "struct Reader {\n  func read() -> Int { App.Store.shared.count }\n}\n",
    ])
    #expect(project.index.singletons.map(\.typeName) == ["App.Store"])
    let references = project.index.references
    #expect(references.count == 1)
    #expect(references.first?.use == .member("count", .read))
    #expect(references.first?.context.typeName == "Reader")
  }
}

@Suite struct ReferenceTests {
  static let singleton = """
    final class Store: @unchecked Sendable {
      static let shared = Store()
      var count = 0
      var items: [Int] = []
      func reload() {}
    }

    """

  func references(_ consumer: String) -> [Reference] {
    makeProject(["Store.swift": Self.singleton, "Consumer.swift": consumer]).index.references
  }

  @Test func readsWritesCallsAndTheInstance() {
    let refs = references("""
      final class Consumer {
        func work() {
          print(Store.shared.count)
          Store.shared.count = 3
          Store.shared.count += 1
          Store.shared.items.append(4)
          Store.shared.reload()
          use(Store.shared)
          bump(&Store.shared.count)
        }
      }
      """)
    #expect(refs.map(\.use) == [
      .member("count", .read), .member("count", .write), .member("count", .write), .member("items", .write),
      .member("reload", .call), .instance, .member("count", .write),
    ])
    #expect(refs.allSatisfy { $0.context.typeName == "Consumer" && $0.context.memberName == "work()" })
    #expect(refs[0].location.line == 3)
    #expect(refs[0].location.column == 11)
  }

  @Test func localAndPropertyAliases() {
    let refs = references("""
      final class Consumer {
        let store = Store.shared
        func work() {
          let s = Store.shared
          s.reload()
          print(store.count, self.store.items)
        }
      }
      """)
    #expect(refs.map(\.use) == [.alias("store"), .member("count", .read), .member("items", .read), .alias("s"), .member("reload", .call)])
    #expect(refs.map(\.alias) == [nil, "store", "store", nil, "s"])
  }

  @Test func contexts() {
    let refs = references("""
      final class Consumer {
        static func make() { Store.shared.reload() }
        func later() {
          run { [weak self] in Store.shared.reload(); _ = self }
          run { Store.shared.reload() }
        }
      }
      extension Consumer {
        var total: Int { Store.shared.count }
      }
      func global() { Store.shared.reload() }
      Store.shared.reload()
      """)
    #expect(refs.count == 6)
    #expect(refs[0].context.isStatic)
    // Inside closures: still the enclosing member's, an instance one.
    #expect(refs[1].context.typeName == "Consumer" && refs[1].context.memberName == "later()" && !refs[1].context.isStatic)
    #expect(refs[2].context.typeName == "Consumer" && refs[2].context.memberName == "later()" && !refs[2].context.isStatic)
    #expect(refs[3].context.typeName == "Consumer" && refs[3].context.memberName == "total")
    #expect(refs[4].context.typeName == nil && refs[4].context.memberName == "global()")
    #expect(refs[5].context.typeName == nil && refs[5].context.memberName == nil)
  }

  @Test func referencesAreFoundWhereverTheNameIsAndOnlyThere() {
    let refs = references("""
      // Store.shared in a comment, and "Store.shared" in a string, are not references.
      final class Consumer {
        #if DEBUG
        var debugCount: Int { Store.shared.count }
        #endif
        var unshared = 0
        var counts: [Int] = [Store.shared.count]
        func work(_ value: Int = Store.shared.count) -> String {
          let text = "Store.shared"
          return text + "\\(Store.shared.count)" + /* Store.shared */ "\\(Store . shared . items.count)"
        }
      }
      """)
    #expect(refs.map(\.location.line) == [4, 7, 8, 10, 10])
    #expect(refs.allSatisfy { $0.use == .member("count", .read) || $0.use == .member("items", .read) })
    #expect(refs.map(\.context.memberName) == ["debugCount", "counts", "work(_:)", "work(_:)", "work(_:)"])
  }

  /// Only offsets after a dot are descended to; whitespace, a newline or a comment may sit between.
  @Test func referencesAreFoundWithTriviaBetweenTheDotAndTheName() {
    let refs = references("""
      final class Consumer {
        func work(_ flag: Int) -> Int {
          switch flag {
          case 0: return Store .shared.count
          case 1: return Store. /* the store */ shared.count
          case 2: return Store // the store
            .shared.count
          default: return Store
            .shared.count
          }
        }
      }
      """)
    #expect(refs.map(\.location.line) == [4, 5, 6, 8])
    #expect(refs.allSatisfy { $0.use == .member("count", .read) })
  }

  @Test func localTypesAreNotIndexedButNestedAndConditionalOnesAre() {
    let project = makeProject([
      "Types.swift": """
      enum Outer {
        struct Inner {
          #if os(Linux)
          final class Deep {}
          #endif
        }
        func make() {
          struct Local { static let shared = Local() }
          _ = Local.shared
        }
      }
      #if canImport(Foundation)
      extension Outer.Inner { func extra() {} }
      #endif
      """
    ])
    #expect(project.index.allTypeNames == ["Outer", "Outer.Inner", "Outer.Inner.Deep"])
    #expect(project.index.declarations(of: "Outer.Inner").map(\.kind) == [.struct, .extension])
    #expect(project.index.singletons.isEmpty)
  }

  @Test func sharedOfOtherTypesIsNotAReference() {
    let refs = references("func f() { _ = FileManager.default; _ = URLSession.shared; _ = Other.shared.count }")
    #expect(refs.isEmpty)
  }
}

/// Reads and writes decided once, when the index is built, by one rule: the project's `mutating
/// func`s and the standard library's; a class or actor along the chain is not written back.
@Suite struct WriteClassificationTests {
  static let singleton = """
    struct Cart {
      var items: [String] = []
      mutating func addItem(_ item: String) { items.append(item) }
      func total() -> Int { items.count }
    }
    struct Box { var cart = Cart() }
    extension Cart {
      mutating func empty() { items = [] }
    }
    final class Log {
      var lines: [String] = []
      func add(_ line: String) { lines.append(line) }
    }
    final class Store: @unchecked Sendable {
      static let shared = Store()
      var cart = Cart()
      var optionalCart: Cart? = Cart()
      var box: Box = Box()
      var log = Log()
      var count = 0
      var other = 0
    }

    """

  func uses(_ consumer: String) -> [ReferenceUse] {
    makeProject(["Store.swift": Self.singleton, "Consumer.swift": consumer]).index.references.map(\.use)
  }

  @Test func aProjectMutatingMethodThroughAStructPropertyIsAWrite() {
    #expect(uses("""
      final class Consumer {
        func work() {
          Store.shared.cart.addItem("x")
          Store.shared.cart.empty()
          Store.shared.optionalCart?.addItem("x")
          Store.shared.box.cart.addItem("x")
          _ = Store.shared.cart.total()
        }
      }
      """) == [
        .member("cart", .write), .member("cart", .write), .member("optionalCart", .write), .member("box", .write),
        .member("cart", .read),
      ])
  }

  @Test func aMethodOfAClassReachedThroughAPropertyIsARead() {
    #expect(uses("""
      final class Consumer {
        func work() {
          Store.shared.log.add("x")
          Store.shared.log.lines.append("x")
          Store.shared.log.lines = []
        }
      }
      """) == [.member("log", .read), .member("log", .read), .member("log", .read)])
  }

  @Test func assignmentsCompoundAssignmentsAndInout() {
    #expect(uses("""
      func bump(_ value: inout Int) { value += 1 }
      final class Consumer {
        func work() {
          Store.shared.box.cart.items = []
          Store.shared.count += 1
          Store.shared.count <<= 1
          bump(&Store.shared.count)
          swap(&Store.shared.count, &Store.shared.other)
          _ = Store.shared.count == 1
        }
      }
      """) == [
        .member("box", .write), .member("count", .write), .member("count", .write), .member("count", .write),
        .member("count", .write), .member("other", .write), .member("count", .read),
      ])
  }

  @Test func theRuleIsTheIndexs() throws {
    let project = makeProject(["Store.swift": Self.singleton])
    let index = project.index
    #expect(index.access(ofMember: "cart", in: "Store", chain: MemberChain(members: [], end: .call("addItem"))) == .write)
    #expect(index.access(ofMember: "cart", in: "Store", chain: MemberChain(members: [], end: .call("total"))) == .read)
    #expect(index.access(ofMember: "log", in: "Store", chain: MemberChain(members: ["lines"], end: .assigned)) == .read)
    #expect(index.access(ofMember: "count", in: "Store", chain: MemberChain(members: [], end: .call("append"))) == .write)
  }
}

/// References the accessor's own spelling does not show: through a type alias, an implicit member,
/// a subscript or a key path.
@Suite struct IndirectReferenceTests {
  @Test func throughTypeAliases() {
    let project = makeProject([
      "Store.swift": ReferenceTests.singleton,
      "Aliases.swift": """
        typealias AppStore = Store
        typealias Again = AppStore
        enum Scope {
          typealias Inner = Store
        }
        """,
      "Consumer.swift": """
        final class Consumer {
          typealias Local = Store
          func work() {
            _ = AppStore.shared.count
            _ = Again.shared.count
            _ = Scope.Inner.shared.count
            _ = Local.shared.count
          }
        }
        """,
    ])
    let store = project.index.singletons[0]
    #expect(project.index.references(to: store).map(\.baseName) == ["AppStore", "Again", "Scope.Inner", "Local"])
    #expect(project.index.resolveType("AppStore") == "Store")
    #expect(project.index.typeAliasNames(meaningAnyOf: ["Store"]) == ["Again", "AppStore", "Inner", "Local"])
  }

  @Test func implicitMembersWithATypeAnnotation() {
    let project = makeProject([
      "Ledger.swift": """
        final class Ledger: @unchecked Sendable {
          static let shared = Ledger()
          static var current: Ledger = .shared
          var total = 0
        }
        """,
      "Other.swift": """
        final class Other: @unchecked Sendable {
          static let shared = Other()
        }
        """,
      "Consumer.swift": """
        final class Consumer {
          var ledger: Ledger? = .shared
          func work() {
            let l: Ledger = .shared
            _ = l.total
          }
        }
        func use(_ ledger: Ledger) {}
        func caller() { use(.shared) }
        """,
    ])
    let index = project.index
    let ledger = index.singletons.first { $0.typeName == "Ledger" }
    let other = index.singletons.first { $0.typeName == "Other" }
    let ledgerRefs = ledger.map(index.references(to:)) ?? []
    // Variables declared with a type hold the instance as that type, unless a property's whole
    // declaration can take the protocol's type; `use(.shared)` passes the instance to a parameter
    // declared as `Ledger`, so it is Ledger's.
    #expect(ledgerRefs.map(\.use) == [.instance, .instance, .instance, .alias("current")])
    #expect(ledgerRefs.map(\.location.line) == [2, 4, 9, 3])
    // `use(.shared)` is looked up in `use`'s parameter type, `Ledger`: never Other's.
    #expect(other.map(index.references(to:))?.map(\.use) == [])
  }

  /// `URLSession(configuration: .default)`, `UIAlertAction(title: "OK", style: .default)`: an argument
  /// of an init of a type the code does not declare has a framework parameter type, so it is never a
  /// reference of a singleton this code declares; an argument of a project type's init may be.
  @Test func implicitMembersPassedToFrameworkInitsAreNotReferences() {
    let project = makeProject([
      "Store.swift": """
        final class Store {
          static let shared = Store()
          static let `default` = Store()
        }
        """,
      "Uses.swift": """
        import Foundation
        final class Loader {
          let session = URLSession(configuration: .default)
          let other = URLSession.init(configuration: .default)
          func alert() -> UIAlertAction { UIAlertAction(title: "OK", style: .default, handler: nil) }
          func client() -> Client { Client(store: .shared) }
          func pass() { take(.shared) }
        }
        final class Client {
          init(store: Store) {}
        }
        func take(_ store: Store) {}
        """,
    ])
    let index = project.index
    let store = index.singletons.first { $0.typeName == "Store" }
    let references = store.map(index.references(to:)) ?? []
    // `Client(store: .shared)` is a project init and `take(.shared)` a function, each declaring
    // the parameter as `Store`: both pass the instance.
    #expect(references.map(\.use) == [.instance, .instance])
    #expect(references.map(\.location.line) == [6, 7])
  }

  /// An implicit member passed to a project's callable is looked up in the parameter's declared
  /// type: `.shared` is the singleton's only where some declaration of that callee gives the
  /// argument's label a type that can be the singleton. Each row: declarations, a call, whether
  /// the call's `.shared` is a possible reference of `Store.shared`.
  @Test(arguments: [
    ("init(session: URLSession) {}", "Fetcher(session: .shared)", false),
    ("init(store: Store) {}", "Fetcher(store: .shared)", true),
    ("init(store: Store?) {}", "Fetcher(store: .shared)", true),
    ("init(store: Optional<Store>) {}", "Fetcher(store: .shared)", true),
    ("init(store: MyApp.Store) {}", "Fetcher(store: .shared)", true),
    ("init(link: Link) {}", "Fetcher(link: .shared)", true),
    ("init(session: URLSession) {}", "Fetcher(other: .shared)", true),
    ("init(stores: [Store]) {}", "Fetcher(stores: .shared)", false),
    ("init(_ session: URLSession, store: Store) {}", "Fetcher(.shared, store: .shared)", true),
    ("init(_ session: URLSession, _ other: URLSession) {}", "Fetcher(.shared, .shared)", false),
    ("func configure(session: URLSession, count: Int) {}", "Fetcher().configure(session: .shared, count: 1)", false),
    ("func configure(session: Store) {}", "Fetcher().configure(session: .shared)", true),
    // No `configure` here has an `other:` parameter: the call is another's (a framework method's).
    ("func configure(session: Store) {}", "Fetcher().configure(other: .shared)", false),
    // An unlabeled argument may go to a closure property of that name.
    ("func configure(session: URLSession) {}", "Fetcher().configure(.shared)", true),
    ("func apply(_ x: URLSession) {}\n  func apply(_ x: Store) {}", "Fetcher().apply(.shared)", true),
    ("func use<T>(_ value: T) {}", "Fetcher().use(.shared)", true),
    ("func use(_ value: some Service) {}", "Fetcher().use(.shared)", true),
    ("func use(_ value: Service) {}", "Fetcher().use(.shared)", false),
    ("func use(_ value: @escaping () -> Store) {}", "Fetcher().use(.shared)", false),
    ("var session: URLSession", "Fetcher(session: .shared)", false),
    ("let store: Store", "Fetcher(store: .shared)", true),
    ("var session: URLSession\n  init() { session = .shared }", "Fetcher(session: .shared)", true),
  ])
  func implicitMembersAreLookedUpInTheParameterType(declarations: String, call: String, isReference: Bool) {
    let project = makeProject([
      "Store.swift": """
        final class Store {
          static let shared = Store()
        }
        typealias Link = Store
        protocol Service {}
        """,
      "Fetcher.swift": """
        import Foundation
        struct Fetcher {
          \(declarations)
        }
        """,
      "Screen.swift": """
        final class Screen {
          func go() { _ = \(call) }
        }
        """,
    ])
    #expect(Self.storeReferences(in: project, from: "Screen.swift").isEmpty == !isReference, "\(declarations) / \(call)")
  }

  /// An implicit member passed to the enclosing type's own init (`self.init(...)`, `Self.init(...)`,
  /// `Self(...)`) is looked up in that init's parameter, as one passed to `Fetcher(...)` is:
  /// swift-nio's `self.init(..., limitConfiguration: .init())` made every type with an `init()` a
  /// possible creation. Where the type's declarations do not give the label (an inherited or
  /// synthesized init), or the type is local to a function, it stays a possible reference. Each
  /// row: Fetcher's members (the second in an extension, or `-` for none), whether the `.shared`
  /// there is a possible reference of `Store.shared`.
  @Test(arguments: [
    ("init(session: URLSession) {}\n  init(flag: Bool) { self.init(session: .shared) }", "-", false),
    ("init(store: Store) {}\n  init(flag: Bool) { self.init(store: .shared) }", "-", true),
    ("init(session: URLSession) {}", "init(flag: Bool) { self.init(session: .shared) }", false),
    ("init(store: Store) {}", "init(flag: Bool) { self.init(store: .shared) }", true),
    ("init(session: URLSession) {}\n  init(flag: Bool) { self.init(other: .shared) }", "-", true),
    ("init(session: URLSession) {}\n  static func make() -> Fetcher { Self(session: .shared) }", "-", false),
    ("init(session: URLSession) {}\n  static func make() -> Fetcher { Self.init(session: .shared) }", "-", false),
    ("init(store: Store) {}\n  static func make() -> Fetcher { Self(store: .shared) }", "-", true),
    ("init(store: Store) {}\n  static func make() -> Fetcher { Self.init(store: .shared) }", "-", true),
    ("let session: URLSession", "init(flag: Bool) { self.init(session: .shared) }", false),
    ("let store: Store", "init(flag: Bool) { self.init(store: .shared) }", true),
    ("init(session: URLSession) {}\n  init<T>(flag: T) { self.init(session: .shared) }", "-", false),
    ("init(session: URLSession) {}", "init(flag: Bool) { self.init(session: .shared) }\n  func local() { struct Local { init(session: Store) {}\n init() { self.init(session: .shared) } } }", true),
  ])
  func implicitMembersPassedToTheTypesOwnInitAreLookedUpInItsParameter(members: String, extensionMembers: String, isReference: Bool) {
    let project = makeProject([
      "Store.swift": """
        final class Store {
          static let shared = Store()
        }
        """,
      "Fetcher.swift": """
        import Foundation
        struct Fetcher {
          \(members)
        }
        """ + (extensionMembers == "-" ? "" : "\nextension Fetcher {\n  \(extensionMembers)\n}\n"),
    ])
    #expect(Self.storeReferences(in: project, from: "Fetcher.swift").isEmpty == !isReference, "\(members) / \(extensionMembers)")
  }

  /// A generic type's own init whose parameter is not typed by a generic parameter is looked up
  /// as any other's (swift-nio's `HTTPDecoder<In, Out>` passing `limitConfiguration: .init()`).
  @Test func implicitMembersPassedToAGenericTypesOwnInitAreLookedUpInItsParameter() {
    let project = makeProject([
      "Store.swift": "final class Store {\n  static let shared = Store()\n}",
      "Decoder.swift": """
        import Foundation
        final class Decoder<In, Out> {
          init(session: URLSession, input: In?) {}
          convenience init() { self.init(session: .shared, input: nil) }
        }
        """,
    ])
    #expect(Self.storeReferences(in: project, from: "Decoder.swift").isEmpty)
  }

  /// An init other declarations may declare leaves an argument a possible reference: a class's
  /// inherited inits, a protocol's inherited requirements and associated types, a generic
  /// parameter written in an extension, a type only extended here, and a local type named like a
  /// top-level one (whose properties are not the index's either). Each row: Fetcher.swift after
  /// `import Foundation`, where Swift takes the `.shared` for `Store.shared`.
  @Test(arguments: [
    "class Base { init(store: Store) {} }\nclass Sub: Base {\n  convenience init(store: Other) { self.init(store: Store()) }\n  convenience init(flag: Bool) { self.init(store: .shared) }\n}",
    "class Base { required init(store: Store) {} }\nclass Sub: Base {\n  convenience init(store: Other) { self.init(store: Store()) }\n  static func make() -> Sub { Self(store: .shared) }\n}",
    "protocol Q { init(store: Store) }\nprotocol P: Q {}\nextension P {\n  init(store: Other) { self.init(store: Store()) }\n  init(flag: Bool) { self.init(store: .shared) }\n}",
    "class Root { init(store: Store) {} }\nclass Mid: Root { convenience init(store: Other) { self.init(store: Store()) } }\nclass Leaf: Mid { init() { super.init(store: .shared) } }",
    "struct Box<T> { var stored: T }\nextension Box { init(value: T) { self.init(stored: value) } }\nextension Box where T == Store { init() { self.init(value: .shared) } }",
    "struct Box<T: Sequence> { init(element: T.Element) {} }\nextension Box where T == [Store] { init() { self.init(element: .shared) } }",
    "struct Outer<T> { struct Inner { init(value: T) {} } }\nextension Outer.Inner where T == Store { init() { self.init(value: .shared) } }",
    "protocol P { associatedtype Dep; init(dep: Dep) }\nextension P where Dep == Store { init() { self.init(dep: .shared) } }",
    "extension Array { init(repeating value: Element, twice: Bool) { self.init(repeating: value, count: 2) } }\nextension Array where Element == Store { init(one: Bool) { self.init(repeating: .shared, count: 1) } }",
    "class Root { init(store: Store) {} }\nclass Sub: NSObject {}\nfunc make() { class Sub: Root { init() { super.init(store: .shared) } }; _ = Sub() }",
    "struct Config { init(store: Other) {} }\nfunc make() { struct Config { init(store: Store) {}\n init() { self.init(store: .shared) } }; _ = Config() }",
    "struct Config { var store: Mode = .other }\nfunc make() { struct Config { var store: Store?\n mutating func set() { store = .shared } } }",
  ])
  func implicitMembersPassedToAnInitOtherDeclarationsMayDeclareStayPossibleReferences(fetcher: String) {
    let project = makeProject([
      "Store.swift": """
        final class Store {
          static let shared = Store()
        }
        struct Other {}
        enum Mode { case shared, other }
        """,
      "Fetcher.swift": "import Foundation\n" + fetcher,
    ])
    #expect(!Self.storeReferences(in: project, from: "Fetcher.swift").isEmpty, "\(fetcher)")
  }

  /// A declared type a generic parameter may stand for leaves an implicit member a possible
  /// reference wherever the parameter is declared: the type's own (in an extension, or a type
  /// nested in it), a type around it, an associated type of a protocol (in its extension), a
  /// framework type's (`Element` in an extension of `Array`), and `Self` of a protocol. Passed to
  /// an init that names the type, to a method, returned from a getter, or assigned to a property.
  /// Each row: Fetcher.swift after `import Foundation`, where Swift takes the `.shared` for
  /// `Store.shared` (each row type-checks with `swiftc -typecheck` beside Store.swift).
  @Test(arguments: [
    "struct Pair<T> { var first: T }\nextension Pair where T == Store { init(one: T) { first = one } }\nfunc use() { _ = Pair(one: .shared) }",
    "struct Box<T> { let value: T; let tag: Int }\nextension Box { init(value: T) { self.init(value: value, tag: 0) } }\nfunc use() { _ = Box<Store>(value: .shared) }",
    "struct Holder<T> { var items: [T] = [] }\nextension Holder { mutating func put(_ item: T) { items.append(item) } }\nfunc use() { var holder = Holder<Store>(); holder.put(.shared) }",
    "struct Outer<T> { struct Inner { var value: T?\n init(value: T) { self.value = value } } }\nfunc use() { _ = Outer<Store>.Inner(value: .shared) }",
    "struct Wrap<T: Sequence> { init(element: T.Element) {} }\nfunc use() { _ = Wrap<[Store]>(element: .shared) }",
    "func wrap<T: Sequence>(_ items: T, first: T.Element) {}\nfunc use() { wrap([Store](), first: .shared) }",
    "protocol Sink { associatedtype Value\n func take(_ value: Value) }\nextension Sink { func put(_ value: Value) { take(value) } }\nstruct StoreSink: Sink { func take(_ value: Store) {} }\nfunc use() { StoreSink().put(.shared) }",
    "extension Array { func appending(_ element: Element) -> [Element] { self + [element] } }\nfunc use() { _ = [Store]().appending(.shared) }",
    "protocol Absorbing {}\nextension Absorbing { func absorb(_ other: Self) {} }\nextension Store: Absorbing {}\nfunc use() { Store().absorb(.shared) }",
    "struct Lazy2<T> { var make: () -> T }\nextension Lazy2 where T == Store { var fallback: T { .shared } }",
    "struct Outer2<T> { struct Cell { var value: T? } }\nextension Outer2.Cell where T == Store { mutating func fill() { value = .shared } }",
  ])
  func implicitMembersTypedByAGenericParameterStayPossibleReferences(fetcher: String) {
    #expect(!Self.fetcherReferences(fetcher).isEmpty, "\(fetcher)")
  }

  /// A declared type no generic parameter can stand for says what an implicit member is, in an
  /// extension as in the type: `Mode` (an enum with a case `shared`) in an extension of a generic
  /// type, of `Array`, of a protocol with an associated type, and in a nested type; `Self` in an
  /// enum's extension, also of the `==` a comparison may call, in the type or a protocol's
  /// extension (UTM's). Each row:
  /// Fetcher.swift after `import Foundation`, where Swift takes the `.shared` for `Mode.shared`.
  @Test(arguments: [
    "struct Box<T> { var value: T }\nextension Box { init(mode: Mode, value: T) { self.value = value } }\nfunc use() { _ = Box<Int>(mode: .shared, value: 1) }",
    "extension Array { func with(_ mode: Mode) -> [Element] { self } }\nfunc use() { _ = [1].with(.shared) }",
    "protocol Sink { associatedtype Value }\nextension Sink { func set(_ mode: Mode) {} }\nstruct IntSink: Sink { typealias Value = Int }\nfunc use() { IntSink().set(.shared) }",
    "struct Outer<T> { struct Inner { init(mode: Mode) {} } }\nfunc use() { _ = Outer<Int>.Inner(mode: .shared) }",
    "struct Holder<T> { var mode: Mode = .other }\nextension Holder { mutating func reset() { mode = .shared } }",
    "extension Mode { func matches(_ other: Self) -> Bool { self == other } }\nfunc use() { _ = Mode.other.matches(.shared) }",
    "extension Mode { static func == (lhs: Self, rhs: Self) -> Bool { true } }\nfinal class Screen { var mode: Mode = .other\n func go() { _ = mode == .shared } }",
    "protocol Drive: Hashable {}\nextension Drive { static func == (lhs: Self, rhs: Self) -> Bool { true } }\nfinal class Screen { var mode: Mode = .other\n func go() { _ = mode == .shared } }",
  ])
  func implicitMembersTypedByAConcreteTypeInAGenericContextAreThatTypes(fetcher: String) {
    #expect(Self.fetcherReferences(fetcher).isEmpty, "\(fetcher)")
  }

  /// An init called through a type alias is the aliased type's: its parameters say what an
  /// implicit member passed to it is. Each row: Fetcher.swift after `import Foundation`, and
  /// whether Swift takes the `.shared` there for `Store.shared` (each row type-checks beside
  /// Store.swift).
  @Test(arguments: [
    ("final class Fetcher { init(store: Store) {} }\ntypealias Maker = Fetcher\nfunc use() { _ = Maker(store: .shared) }", true),
    ("struct Box<T> { var value: T }\ntypealias StoreBox = Box<Store>\nfunc use() { _ = StoreBox(value: .shared) }", true),
    ("enum Outer { final class Fetcher { init(store: Store) {} } }\ntypealias Maker = Outer.Fetcher\nfunc use() { _ = Maker(store: .shared) }", true),
    ("final class Fetcher { init(mode: Mode) {} }\ntypealias Maker = Fetcher\nfunc use() { _ = Maker(mode: .shared) }", false),
  ])
  func implicitMembersPassedToAnInitThroughATypeAliasAreLookedUpInTheAliasedType(fetcher: String, isReference: Bool) {
    #expect(Self.fetcherReferences(fetcher).isEmpty == !isReference, "\(fetcher)")
  }

  /// An implicit member passed to an `@autoclosure` parameter is looked up in the closure's result
  /// type, and one passed to a parameter typed by an alias of an optional in the wrapped type.
  /// Each row: Fetcher.swift after `import Foundation`, and whether Swift takes the `.shared`
  /// there for `Store.shared` (each row type-checks beside Store.swift).
  @Test(arguments: [
    ("func take(_ store: @autoclosure () -> Store) {}\nfunc use() { take(.shared) }", true),
    ("func take(_ mode: @autoclosure () -> Mode) {}\nfunc use() { take(.shared) }", false),
    ("typealias MaybeStore = Store?\nfunc take(_ store: MaybeStore) {}\nfunc use() { take(.shared) }", true),
    ("typealias MaybeMode = Mode?\nfunc take(_ mode: MaybeMode) {}\nfunc use() { take(.shared) }", false),
  ])
  func implicitMembersPassedToAnAutoclosureOrAnOptionalAliasAreLookedUpInWhatTheyWrap(fetcher: String, isReference: Bool) {
    #expect(Self.fetcherReferences(fetcher).isEmpty == !isReference, "\(fetcher)")
  }

  /// A type the declarations do not settle leaves an implicit member a possible reference of the
  /// singleton it can be: an alias of an optional, a generic alias or a generic type's member
  /// written with the singleton, `Swift.Optional<Store>`, an alias of an autoclosure's function
  /// type, aliases of one name in several types, a nested alias a phased scan must find, the init
  /// of a generic parameter, an associated type or a local type, a standard library method or
  /// type that takes any value (whatever the project declares of the name), a framework
  /// extension's `Instance`, a result builder's component, an alias that stands for a generic
  /// parameter (`typealias Me = T`), an annotation naming an alias declared in the body. Each row: Fetcher.swift after `import
  /// Foundation`, where Swift takes the `.shared` for `Store.shared`; with `--full` and phased.
  @Test(arguments: [
    "typealias MaybeStore = Store?\nfunc use() { let s: MaybeStore = .shared; _ = s }",
    "typealias Ref<T> = T\nfunc use() { let s: Ref<Store> = .shared; _ = s }",
    "func use() { let s: Swift.Optional<Store> = .shared; _ = s }",
    "typealias MaybeStore = Store?\nfunc take(_ s: MaybeStore = .shared) {}",
    "struct Box<T> { typealias Value = T }\nfunc take(_ s: Box<Store>.Value) {}\nfunc use() { take(.shared) }",
    "typealias Make = () -> Store\nfunc take(_ s: @autoclosure Make) {}\nfunc use() { take(.shared) }",
    "struct A { typealias S = Store; func takeA(_ s: S) {} }\nstruct B { typealias S = Int }\nfunc use() { A().takeA(.shared) }",
    "enum NS { typealias S = Store }\nfunc take(_ s: NS.S) {}\nfunc use() { take(.shared) }",
    "protocol Makes { init(store: Store) }\nfunc make<T: Makes>(_ t: T.Type) -> T { T(store: .shared) }",
    "protocol Makes { init(store: Store) }\nprotocol Factory { associatedtype Product: Makes }\nextension Factory { func build() -> Product { Product(store: .shared) } }",
    "func use() { struct Local { init(store: Store) {} }\n _ = Local(store: .shared) }",
    "struct Log { mutating func append(_ line: String) {} }\nfunc use() { var stores: [Store] = []; stores.append(.shared) }",
    "enum LoadState { case success(Int), failure }\nfunc use() { let r = Result<Store, Error>.success(.shared); _ = r }",
    "func use() { _ = ContiguousArray<Store>(repeating: .shared, count: 2) }",
    "extension Unmanaged where Instance == Store { static func wrap(_ i: Instance) -> Unmanaged { .passUnretained(i) } }\nfunc use() { _ = Unmanaged<Store>.wrap(.shared) }",
    "func use() { typealias S = Store; let s: S = .shared; _ = s }",
    "struct Holder<T> { typealias Me = T; var value: Me }\nfunc use() { let h = Holder<Store>(value: .shared); _ = h }",
    "struct Holder<T> { typealias Me = T; var value: Me }\nextension Holder { typealias Other = Me; func take(_ o: Other) {} }\nfunc use() { Holder<Store>(value: Store()).take(.shared) }",
    "struct Bundle { var stores: [Store] }\n@resultBuilder enum BundleBuilder { static func buildExpression(_ s: Store) -> Store { s }\n static func buildBlock(_ s: Store...) -> Bundle { Bundle(stores: s) } }\n@BundleBuilder var bundle: Bundle { .shared }",
  ])
  func implicitMembersOfTypesTheDeclarationsDoNotSettleStayPossibleReferences(fetcher: String) throws {
    let files = [
      "Store.swift": "final class Store {\n  static let shared = Store()\n}\n",
      "Fetcher.swift": "import Foundation\n" + fetcher,
    ]
    #expect(!Self.storeReferences(in: makeProject(files), from: "Fetcher.swift").isEmpty, "\(fetcher)")
    #expect(!(try Self.phasedStoreReferences(files, from: "Fetcher.swift")).isEmpty, "phased: \(fetcher)")
  }

  /// `storeReferences` as the phased scan of the same files on disk finds them: it parses only
  /// what its questions reach.
  static func phasedStoreReferences(_ files: [String: String], from path: String) throws -> [Reference] {
    let directory = try PrinterTestSupport.makeTemporaryDirectory()
    defer { PrinterTestSupport.removeDirectory(directory) }
    for (path, text) in files { try text.write(toFile: directory + "/" + path, atomically: true, encoding: .utf8) }
    let loader = ProjectLoader(
      paths: files.keys.sorted().map { directory + "/" + $0 }, builder: IndexBuilder(threads: 1), mentioning: nil,
      full: false, objectiveCPaths: [], modules: ModuleMap(), bounded: false)
    return try loader.run { storeReferences(in: $0, from: path) }
  }

  /// An operator declared in a file no other question reaches (`func == (l: Mode, r: Store)`) is
  /// found by the phased scan too, though a file's names keep identifiers only: `mode == .shared`
  /// may be `Store.shared`, with `--full` and phased alike. Each row: how Operators.swift declares it.
  @Test(arguments: [
    "func == (l: Mode, r: Store) -> Bool { true }",
    "func==(l: Mode, r: Store) -> Bool { true }",
    "func\n  == (l: Mode, r: Store) -> Bool { true }",
    "func /* compares */ == (l: Mode, r: Store) -> Bool { true }",
  ])
  func operatorsDeclaredInFilesNothingElseReachesAreFoundByThePhasedScan(operators: String) throws {
    let files = [
      "Store.swift": "final class Store {\n  static let shared = Store()\n}\n",
      "Operators.swift": operators + "\n",
      "Screen.swift": "import Foundation\nenum Mode { case a }\nfinal class Screen { var mode: Mode = .a\n  func go() { _ = mode == .shared } }\n",
    ]
    #expect(!Self.storeReferences(in: makeProject(files), from: "Screen.swift").isEmpty, "\(operators)")
    #expect(!(try Self.phasedStoreReferences(files, from: "Screen.swift")).isEmpty, "phased: \(operators)")
  }

  /// A base that is the type's metatype (`Store.self.shared`) is the type: a reference of Store's.
  /// A base whose type the code does not say (`type(of: value).shared`) may be any type with that
  /// accessor: a possible reference of each. Both, with `--full` and phased alike: the byte tests
  /// once took what stands before the dot for no type.
  @Test(arguments: [
    ("Store.self.shared.count += 1", ReferenceUse.member("count", .write)),
    ("Store\n      .self\n      .shared.count += 1", .member("count", .write)),
    ("type(of: value).shared.count += 1", .unresolvedImplicit),
    ("type(of: (value)).shared.count += 1", .unresolvedImplicit),
  ])
  func aMetatypeBaseIsAReference(statement: String, use: ReferenceUse) throws {
    let files = [
      "Store.swift": "final class Store {\n  static let shared = Store()\n  var count = 0\n}\n",
      "Screen.swift": "final class Screen {\n  func go(_ value: Store) {\n    \(statement)\n  }\n}\n",
    ]
    let full = Self.storeReferences(in: makeProject(files), from: "Screen.swift")
    #expect(full.map(\.use) == [use], "\(statement)")
    #expect(try Self.phasedStoreReferences(files, from: "Screen.swift").map(\.use) == [use], "phased: \(statement)")
  }

  /// A call's result is no type (`make().shared`), nor is an instance's `self` (`store.self.shared`).
  @Test(arguments: ["make().shared.count += 1", "value.self.shared.count += 1", "self.shared.count += 1"])
  func anInstanceBaseIsNoReference(statement: String) throws {
    let files = [
      "Store.swift": "final class Store {\n  static let shared = Store()\n  var count = 0\n}\n",
      "Screen.swift": """
        final class Box { var shared = Store() }
        final class Screen {
          var shared = Store()
          func make() -> Box { Box() }
          func go(_ value: Box) {
            \(statement)
          }
        }

        """,
    ]
    #expect(Self.storeReferences(in: makeProject(files), from: "Screen.swift").isEmpty, "\(statement)")
    #expect(try Self.phasedStoreReferences(files, from: "Screen.swift").isEmpty, "phased: \(statement)")
  }

  /// An implicit member passed to `super.init(...)` is looked up in the superclass's inits: a
  /// project superclass's own declaration, a framework class's the framework's
  /// (`super.init(style: .default, reuseIdentifier: id)`); a superclass the model does not know,
  /// or an init its declaration does not give, leaves it a possible reference. Each row: Screen's
  /// superclass, the arguments of its `super.init`, whether the `.shared` there is a possible
  /// reference of `Store.shared`.
  @Test(arguments: [
    ("Base", "store: .shared", true),
    ("Base", "session: .shared", false),
    ("Base", "other: .shared", true),
    ("Derived", "session: .shared", true),
    ("UIView", "frame: .shared", false),
    ("Elsewhere", "session: .shared", true),
  ])
  func implicitMembersPassedToSuperInitAreLookedUpInTheSuperclass(superclass: String, arguments: String, isReference: Bool) {
    let project = makeProject([
      "Store.swift": """
        import UIKit
        final class Store {
          static let shared = Store()
        }
        class Base {
          init(store: Store) {}
          init(session: URLSession) {}
        }
        class Derived: Base {}
        """,
      "Screen.swift": """
        import UIKit
        final class Screen: \(superclass) {
          init() { super.init(\(arguments)) }
        }
        """,
    ])
    #expect(Self.storeReferences(in: project, from: "Screen.swift").isEmpty == !isReference, "\(superclass) / \(arguments)")
  }

  /// An implicit member assigned to or compared with a property is looked up in the property's
  /// declared type, reached from the enclosing type's instance through members and subscripts
  /// (UTM's `mode = .shared` and `networks[i].mode == .shared`, where `NetworkMode` has a case
  /// `shared`). A local name, a closure's parameter or a static member stays a possible reference.
  /// Each row: Screen's declarations, a statement in its method, whether `.shared` there is a
  /// possible reference of `Store.shared`.
  @Test(arguments: [
    ("var mode: Mode = .other", "mode = .shared", false),
    ("var mode: Mode = .other", "self.mode = .shared", false),
    ("var mode: Mode = .other", "[0].forEach { [weak self] _ in self?.mode = .shared }", false),
    ("var mode: Mode = .other", "[0].forEach { [weak self] _ in _ = self?.mode == .shared }", false),
    ("var mode: Mode? = nil", "mode = .shared", false),
    ("var mode: Mode = .other", "_ = mode == .shared", false),
    ("var mode: Mode = .other", "_ = .shared != mode", false),
    ("var mode: Mode = .other\n  var on = true", "_ = on && mode == .shared || on", false),
    ("var mode: Mode = .other", "_ = mode == .shared ? 1 : 2", false),
    ("var networks: [Network] = []", "_ = networks[0].mode == .shared", false),
    ("var byName: [String: Network] = [:]", "_ = byName[\"a\"]?.mode == .shared", false),
    ("var network = Network()", "_ = network.mode == .shared", false),
    ("var session: URLSession = .shared", "session = .shared", false),
    ("var store: Store? = nil", "store = .shared", true),
    ("var link: Link? = nil", "link = .shared", true),
    ("var mode: Mode = .other", "let mode: Store? = nil; _ = mode == .shared", true),
    ("var mode: Mode = .other", "[Store?.none].forEach { mode in _ = mode == .shared }", true),
    ("var mode: Mode = .other", "_ = mode.hashValue + 1 == .shared", true),
    ("var values: [Int] = []", "_ = values.first == .shared", true),
    ("static var mode: Store? = nil\n  static func reset() { mode = .shared }", "_ = 0", true),
  ])
  func implicitMembersAreLookedUpInThePropertyTheyAreAssignedToOrComparedWith(
    declarations: String, statement: String, isReference: Bool
  ) {
    let project = makeProject([
      "Store.swift": """
        import Foundation
        final class Store {
          static let shared = Store()
        }
        typealias Link = Store
        enum Mode { case shared, other }
        struct Network {
          var mode: Mode = .other
        }
        """,
      "Screen.swift": """
        import Foundation
        final class Screen {
          \(declarations)
          func go() { \(statement) }
        }
        """,
    ])
    #expect(Self.storeReferences(in: project, from: "Screen.swift").isEmpty == !isReference, "\(declarations) / \(statement)")
  }

  /// The property is looked up in the superclasses too: a project superclass's declaration, a
  /// framework class's (none in the project: a framework type, not the singleton's), or a project
  /// extension of the framework class, or a protocol of the project the class conforms to (its
  /// extensions too). Each row: Screen's inheritance, a statement in its method, whether
  /// `.shared` there is a possible reference of `Store.shared`.
  @Test(arguments: [
    ("Base", "mode = .shared", false),
    ("Base", "_ = mode != .shared", false),
    ("UIView", "contentMode = .shared", false),
    ("UIView", "_ = layer.contentMode == .shared", true),
    ("UIView, Holding", "contentMode = .shared", false),
    ("UIView, Holding", "holder = .shared", true),
    ("UIView, Keeping", "holder = .shared", true),
    ("UIView", "store = .shared", true),
    ("Elsewhere", "contentMode = .shared", true),
  ])
  func implicitMembersAreLookedUpInInheritedProperties(inheritance: String, statement: String, isReference: Bool) {
    let project = makeProject([
      "Store.swift": """
        import UIKit
        final class Store {
          static let shared = Store()
        }
        enum Mode { case shared, other }
        class Base {
          var mode: Mode = .other
        }
        protocol Holding {}
        protocol Keeping: Holding {}
        extension Holding {
          var holder: Store? { get { nil } set {} }
        }
        extension UIView {
          var store: Store? { get { nil } set {} }
        }
        """,
      "Screen.swift": """
        import UIKit
        final class Screen: \(inheritance) {
          func go() { \(statement) }
        }
        """,
    ])
    #expect(Self.storeReferences(in: project, from: "Screen.swift").isEmpty == !isReference, "\(inheritance) / \(statement)")
  }

  /// Where the property's declarations do not settle the type, `.shared` stays a possible
  /// reference: a name that is not `self`'s (a global, an enclosing type's static, an accessor's
  /// parameter, a property an extension of a framework protocol adds), a type that is only a
  /// generic parameter or a factory's result, a parenthesised type, a comparison with a class
  /// (whose `==` may be a superclass's) or where the project declares `==` between two types, and
  /// a labelled subscript. Each row: Screen.swift's text (after `import Foundation`).
  @Test(arguments: [
    "var currentStore: Store? = nil\nfinal class Screen: NSObject { func go() { currentStore = .shared } }",
    "enum Outer { static var store: Store? = nil\n final class Screen: NSObject { func go() { store = .shared } } }",
    "class Base<T> { var value: T? }\nfinal class Screen: Base<Store> { func go() { value = .shared } }",
    "final class Screen { var store = Store.make()\n func go() { store = .shared } }",
    "final class Screen: NSObject { var s: Store { get { fatalError() } set(v) { _ = v == .shared } } }",
    "extension NSObjectProtocol { var theStore: Store? { nil } }\nfinal class Screen: NSObject { func go() { _ = theStore == .shared } }",
    "final class Special: Store {}\nfinal class Screen { var special = Special()\n func go() { _ = special == .shared } }",
    "struct Config { var cache: Int = 0 }\nfinal class Screen { struct Config { var cache: Store? }\n var config = Config(cache: nil)\n func go() { config.cache = .shared } }",
    "enum Other { typealias Dependency = Int }\nfinal class Screen { typealias Dependency = Store\n var dep: Dependency? = nil\n func go() { dep = .shared } }",
    "enum Mode { case a }\nfunc == (l: Mode, r: Store) -> Bool { true }\nfinal class Screen { var mode: Mode = .a\n func go() { _ = mode == .shared } }",
    "final class Screen { var store: (Store)? = nil\n func go() { store = .shared } }",
    "protocol Holding: AnyObject { associatedtype Item; var item: Item? { get set } }\nextension Holding where Item == Store { func go() { item = .shared } }",
    "extension Array { subscript(safe i: Int) -> Store? { nil } }\nfinal class Screen { var modes: [Int] = []\n func go() { _ = modes[safe: 0] == .shared } }",
    "final class Screen { func go() { let s: Store? = nil; _ = s == .shared } }",
  ])
  func implicitMembersStayPossibleReferencesWhereTheDeclarationsDoNotTell(screen: String) {
    let project = makeProject([
      "Store.swift": """
        import Foundation
        class Store: Equatable {
          static let shared = Store()
          static func make() -> Store { Store() }
          static func == (a: Store, b: Store) -> Bool { a === b }
        }
        """,
      "Screen.swift": "import Foundation\n" + screen,
    ])
    #expect(!Self.storeReferences(in: project, from: "Screen.swift").isEmpty, "\(screen)")
  }

  /// An enum nested in the type, named like the singleton, is the type its property names: its
  /// case `.shared` is never taken for the singleton's instance.
  @Test func aNestedTypeNamedLikeTheSingletonIsNotItsInstance() {
    let project = makeProject([
      "Store.swift": "final class Store {\n  static let shared = Store()\n}\n",
      "Screen.swift": "final class Screen {\n  enum Store { case shared, other }\n  var store: Store = .other\n  func go() { store = .shared }\n}\n",
    ])
    #expect(Self.storeReferences(in: project, from: "Screen.swift").allSatisfy { $0.use != .instance })
  }

  /// The references of `Store.shared` the project's index has in the file at `path`.
  /// The references to `Store.shared` in Fetcher.swift (after `import Foundation`), beside
  /// Store.swift, which declares `Store` and `enum Mode { case shared, other }`.
  static func fetcherReferences(_ fetcher: String) -> [Reference] {
    let project = makeProject([
      "Store.swift": """
        final class Store {
          static let shared = Store()
        }
        enum Mode { case shared, other }
        """,
      "Fetcher.swift": "import Foundation\n" + fetcher,
    ])
    return storeReferences(in: project, from: "Fetcher.swift")
  }

  static func storeReferences(in project: Project, from path: String) -> [Reference] {
    let index = project.index
    let store = index.singletons.first { $0.typeName == "Store" }
    return (store.map(index.references(to:)) ?? []).filter { $0.range.path.hasSuffix(path) }
  }

  /// An element of an array literal passed to a framework method is the framework's, as the
  /// argument itself would be (mastodon's `snapshot.appendSections([.default, .suggestions])`); an
  /// element of one passed to a project function may be the singleton.
  @Test func implicitMembersInAnArrayPassedToAFrameworkMethodAreNotReferences() {
    let project = makeProject([
      "Store.swift": """
        final class Store {
          static let `default` = Store()
        }
        func keep(_ stores: [Store]) {}
        """,
      "Use.swift": """
        func go(_ snapshot: Snapshot) {
          snapshot.appendSections([.default, .other])
          keep([.default])
        }
        """,
    ])
    let index = project.index
    let store = index.singletons.first { $0.typeName == "Store" }
    #expect((store.map(index.references(to:)) ?? []).map(\.location.line) == [3])
  }

  @Test func implicitMembersPassedToFrameworkFunctionsAreNotReferences() {
    let project = makeProject([
      "Store.swift": """
        final class Store {
          static let shared = Store()
        }
        func take(_ store: Store) {}
        """,
      "Uses.swift": """
        import Foundation
        final class Screen {
          var handler: (Store) -> Void = { _ in }
          func framework(_ center: NotificationCenter, _ view: UIView) {
            present(.shared)
            view.configure(with: .shared)
          }
          func project() {
            take(.shared)
            self.handler(.shared)
            Screen.make(.shared)
            Loader().apply(.shared)
          }
          func local(_ run: (Store) -> Void) {
            run(.shared)
            let other: (Store) -> Void = { _ in }
            other(.shared)
            func inner(_ s: Store) {}
            inner(.shared)
            [1].forEach { each in each(.shared) }
          }
          static func make(_ store: Store) {}
        }
        enum Route {
          case open(Store)
        }
        final class Loader {
          func apply(_ store: Store) {}
          let route = Route.open(.shared)
        }
        """,
    ])
    let index = project.index
    let store = index.singletons.first { $0.typeName == "Store" }
    let references = store.map(index.references(to:)) ?? []
    // `present` and `configure` are nobody's here; every other callee is the project's or bound
    // where it is called, so `.shared` may be the singleton there.
    #expect(references.map(\.location.line) == [9, 10, 11, 12, 15, 17, 19, 20, 29])
  }

  /// The declaration an implicit member is the value of says its type: what returns it (a
  /// computed property, a getter, a function, a subscript), an annotated array literal, `self`
  /// in a value type's init, or the init `??` unwraps. A closure's, a generic parameter's, an
  /// init's return or `Optional(x) ?? .shared` says nothing.
  /// (duckduckgo's `var contentBlockingUpdating: ContentBlockingUpdating { .shared }` blocked the
  /// `finish` of six other singletons with a `shared`.)
  @Test func implicitMembersTakeTheTypeTheirDeclarationReturns() {
    let project = makeProject([
      "Store.swift": """
        final class Store {
          static let shared = Store()
          static let `default` = Store()
        }
        """,
      "Other.swift": """
        final class Other {
          static let shared = Other()
          var other: Other { .shared }
          var again: Other { get { return .shared } }
          func make() -> Other? { .shared }
          func choose(_ flag: Bool) -> Other {
            if flag { return .shared }
            return Other.shared
          }
          subscript(index: Int) -> Other { .shared }
          let list: [Other] = [.shared]
        }
        enum Mode {
          case plain, `default`
          init(raw: String) { self = raw == "d" ? .plain : .plain; self = .default }
          init?(name: String) { nil }
          static func named(_ name: String) -> Mode { Mode(name: name) ?? .default }
        }
        """,
      "Open.swift": """
        final class Open {
          func generic<T>() -> T { .shared }
          func inClosure() { let make = { () -> Store in return .shared }; _ = make() }
          var store: Store { .shared }
          func unrelated() { if true { _ = Other.shared } }
          func unwrapped(_ value: Store?) { _ = Optional(value) ?? .shared }
        }
        """,
    ])
    let index = project.index
    let store = index.singletons.first { $0.typeName == "Store" }
    let other = index.singletons.first { $0.typeName == "Other" }
    let storeRefs = store.map(index.references(to:)) ?? []
    // Only `var store: Store { .shared }` is Store's: the generic's and the closure's `.shared` may
    // be any singleton's, and Other's declarations are Other's.
    #expect(storeRefs.map(\.location.line) == [2, 3, 4, 6])
    #expect(storeRefs.map(\.use) == [.unresolvedImplicit, .unresolvedImplicit, .instance, .unresolvedImplicit])
    let otherRefs = other.map(index.references(to:)) ?? []
    #expect(otherRefs.filter { $0.range.path.hasSuffix("Other.swift") }.map(\.location.line) == [3, 4, 5, 7, 8, 10, 11])
    #expect(otherRefs.filter { $0.range.path.hasSuffix("Other.swift") }.allSatisfy { $0.use != .unresolvedImplicit })
  }

  /// A type whose accessor two programs declare (an app's and its extension's `extension
  /// AppContext { static let shared }`, as mastodon's) is one candidate: `.shared` passed to an
  /// `init(context: AppContext)` is its instance, once.
  @Test func anImplicitMemberOfATypeDeclaringItsAccessorTwiceIsOneReference() {
    let project = makeProject([
      "Core/AppContext.swift": "public class AppContext {\n  public var count = 0\n}\n",
      "App/AppContext+Shared.swift": "extension AppContext {\n  static let shared = AppContext()\n}\n",
      "Share/AppContext+Shared.swift": "extension AppContext {\n  static let shared = AppContext()\n}\n",
      "App/Model.swift": """
        final class Model {
          init(context: AppContext) {}
        }
        let model = Model(context: .shared)
        """,
    ])
    let index = project.index
    let context = index.singletons.first { $0.typeName == "AppContext" }
    let references = (context.map(index.references(to:)) ?? []).filter { $0.range.path.hasSuffix("Model.swift") }
    #expect(references.map(\.use) == [.instance])
  }

  /// `.default(.openLink(url))` calls what `.default` names with arguments: an enum case's payload
  /// or a static method, never a singleton's instance unless its type declares `callAsFunction`.
  /// (mastodon's `snapshot.appendItems([.default(.openLink(text))], ...)` held up `AppSecret.default`.)
  @Test func anImplicitMemberCalledWithArgumentsIsAnInstanceOnlyWithCallAsFunction() {
    let project = makeProject([
      "Store.swift": """
        final class Store {
          static let `default` = Store()
        }
        final class Runner {
          static let shared = Runner()
          func callAsFunction(_ value: Int) {}
        }
        """,
      "Use.swift": """
        enum Item { case `default`(Int), other }
        func take<T>(_ item: T) {}
        func go() {
          take(.default(1))
          take(.shared(2))
          take(.default)
        }
        """,
    ])
    let index = project.index
    let store = index.singletons.first { $0.typeName == "Store" }
    let runner = index.singletons.first { $0.typeName == "Runner" }
    #expect((store.map(index.references(to:)) ?? []).map(\.location.line) == [6])
    #expect((runner.map(index.references(to:)) ?? []).map(\.location.line) == [5])
  }

  @Test func implicitMembersInParameterDefaultsAndCasePatterns() {
    let project = makeProject([
      "Ledger.swift": """
        final class Ledger: @unchecked Sendable {
          static let shared = Ledger()
          var total = 0
        }
        """,
      "Consumer.swift": """
        final class Pin {
          let ledger: Ledger
          init(ledger: Ledger = .shared) {
            self.ledger = ledger
          }
        }
        enum Icon {
          case shared, other
          var name: String {
            switch self {
            case .shared: return "s"
            case .other: return "o"
            }
          }
        }
        """,
    ])
    let index = project.index
    let ledger = index.singletons.first { $0.typeName == "Ledger" }
    let references = ledger.map(index.references(to:)) ?? []
    // The default names its parameter's type; the case pattern is the enum's own case.
    #expect(references.map(\.location.line) == [3])
    #expect(references.map(\.baseName) == ["Ledger"])
  }

  /// `case .shared:` compares with `~=` where the switched value's type is `Equatable`: then it
  /// may be the accessor of every `Equatable` singleton with that name (which type the value has
  /// is the compiler's to know); a pattern with a payload is an enum case's only, one that
  /// matches `self` the type around it's (here an enum's own case), one that matches a property
  /// the property's declared type's (`switch mode`, as `mode == .shared`), and one that matches a
  /// parameter the parameter's type's (a real reference where that type is the singleton).
  @Test func aCasePatternMayBeAnEquatableSingletonsAccessor() {
    let project = makeProject([
      "Store.swift": """
        final class Store: Equatable {
          static let shared = Store()
          static func == (lhs: Store, rhs: Store) -> Bool { lhs === rhs }
        }
        final class Ledger {
          static let shared = Ledger()
        }
        """,
      "Feed.swift": """
        enum Scope {
          case shared(Int), local
          var isShared: Bool {
            switch self {
            case .shared: return true
            default: return false
            }
          }
        }
        final class Feed {
          func describe(_ store: Store, _ scope: Scope) -> String {
            let current = store
            switch current {
            case .shared: return "shared"
            default: break
            }
            if case .shared(let count) = scope { return String(count) }
            return "other"
          }
          func isShared(_ store: Store) -> Bool {
            if case .shared = store { return true }
            return false
          }
          let mode: Mode = .solo
          var later: Registry?
          func isShared(_ other: Mode, raw: String) -> Bool {
            if case .shared = self.mode { return true }
            if case .shared = other { return true }
            guard let parsed = Mode(rawValue: raw) else { return false }
            if case .shared = parsed { return true }
            if case .shared = later { return true }
            if let later = Mode(rawValue: raw) { return later == .solo }
            switch mode {
            case .shared: return true
            case .solo: return false
            }
          }
        }
        enum Mode: String { case shared, solo }
        """,
    ])
    let index = project.index
    let store = index.singletons.first { $0.typeName == "Store" }
    let ledger = index.singletons.first { $0.typeName == "Ledger" }
    let references = store.map(index.references(to:)) ?? []
    // `later` at line 31 is the property (of a type the code does not declare), not the local
    // bound after it.
    #expect(references.map(\.location.line) == [14, 21, 31])
    #expect(references.map(\.use) == [.unresolvedImplicit, .instance, .unresolvedImplicit])
    #expect((ledger.map(index.references(to:)) ?? []).isEmpty)
  }

  /// A singleton is `Equatable` through a superclass of the project's that inherits from
  /// `NSObject`, or a protocol of the project's that refines `Hashable`: a `case .shared:` over a
  /// value whose type cannot be told may be its accessor.
  @Test func aCasePatternMayBeTheAccessorOfASingletonEquatableThroughWhatItInherits() {
    let project = makeProject([
      "Registry.swift": """
        import Foundation
        class Service: NSObject {}
        final class Registry: Service {
          static let shared = Registry()
        }
        protocol Model: Hashable {}
        final class Catalog: Model {
          static let shared = Catalog()
        }
        extension Model where Self: AnyObject {
          static func == (lhs: Self, rhs: Self) -> Bool { lhs === rhs }
          func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
        }
        final class Ledger {
          static let shared = Ledger()
        }
        """,
      "Feed.swift": """
        final class Feed {
          func matches(_ registries: [Registry], _ catalogs: [Catalog], _ ledgers: [Ledger]) -> Bool {
            switch registries[0] {
            case .shared: return true
            default: break
            }
            if case .shared = catalogs[0] { return true }
            if case .shared = ledgers[0] { return true }
            return false
          }
        }
        """,
    ])
    let index = project.index
    func lines(_ name: String) -> [Int] {
      (index.singletons.first { $0.typeName == name }.map(index.references(to:)) ?? []).map(\.location.line)
    }
    #expect(lines("Registry") == [4, 7, 8])
    #expect(lines("Catalog") == [4, 7, 8])
    #expect(lines("Ledger").isEmpty)
  }

  @Test func subscriptsAndKeyPaths() {
    let project = makeProject([
      "Bus.swift": """
        final class Bus: @unchecked Sendable {
          static let shared = Bus()
          var events: [String] = []
          subscript(key: String) -> Int {
            get { 0 }
            set {}
          }
        }
        """,
      "Consumer.swift": """
        final class Consumer {
          func work() {
            _ = Bus.shared["x"]
            Bus.shared["x"] = 1
            Bus.shared["x"] += 1
            _ = Bus.shared[keyPath: \\.events]
          }
        }
        """,
    ])
    #expect(project.index.references.map(\.use) == [
      .member("subscript", .read), .member("subscript", .write), .member("subscript", .write), .keyPath,
    ])
  }

  @Test func observersAreNotInitialValues() {
    let refs = makeProject([
      "Store.swift": ReferenceTests.singleton,
      "Consumer.swift": """
        final class Consumer {
          var limit = 0 {
            willSet { Store.shared.count = newValue }
            didSet { Store.shared.reload() }
          }
          var start = Store.shared.count
          var lazyCount: Int { Store.shared.count }
          var made = { Store.shared.count }()
        }
        """,
    ]).index.references
    #expect(refs.map(\.context.memberName) == ["limit", "limit", "start", "lazyCount", "made"])
    #expect(refs.map(\.context.inPropertyInitializer) == [false, false, true, false, true])
  }
}

@Suite struct ScanReportTests {
  static let shopping = [
    "SessionController.swift": """
      @MainActor
      final class SessionController {
        static let sharedController = SessionController()
        var currentUser: String?
        var cart: [String] = []
        func addItemToCart(item: String) { cart.append(item) }
        var fetchedItems: [String] = []
        var availableItems: [String] { fetchedItems.filter { !$0.isEmpty } }
        func fetchAvailableItems() { fetchedItems = ["a"] }
      }
      """,
    "Consumers.swift": """
      @MainActor final class ItemList {
        func load() {
          SessionController.sharedController.fetchAvailableItems()
          _ = SessionController.sharedController.availableItems
          _ = SessionController.sharedController.fetchedItems.count
          SessionController.sharedController.addItemToCart(item: "a")
          _ = SessionController.sharedController.cart.count
        }
      }
      @MainActor final class CartScreen {
        func show() {
          _ = SessionController.sharedController.cart
          SessionController.sharedController.addItemToCart(item: "b")
        }
      }
      @MainActor final class Profile {
        func show() { _ = SessionController.sharedController.currentUser }
      }
      @MainActor final class Login {
        func logIn() { SessionController.sharedController.currentUser = "me" }
      }
      """,
  ]

  @Test func suggestsTheArticlesThreeSlices() throws {
    let report = try ScanReport(project: makeProject(Self.shopping))
    let entry = try #require(report.singletons.first)
    #expect(entry.suggestedSlices == [
      Slice(name: "CurrentUserProvider", members: ["currentUser"]),
      Slice(name: "CurrentCart", members: ["cart", "addItemToCart"]),
      Slice(name: "ItemFetcher", members: ["fetchedItems", "availableItems", "fetchAvailableItems"]),
    ])
    #expect(entry.consumers.map(\.type) == ["CartScreen", "ItemList", "Login", "Profile"])
    #expect(entry.consumers[2].writes == ["currentUser"])
    #expect(entry.consumers[1].calls == ["fetchAvailableItems", "addItemToCart"])
    #expect(entry.references == 9)
  }

  /// A member no consumer uses stays on the singleton, even where a sliced member's body uses it.
  @Test func unusedMembersStayOnTheSingleton() throws {
    var files = Self.shopping
    files["SessionController.swift"] = files["SessionController.swift"]!.replacingOccurrences(
      of: "  func fetchAvailableItems()", with: "  var itemCount: Int { fetchedItems.count }\n  func fetchAvailableItems()")
    let report = try ScanReport(project: makeProject(files))
    let entry = try #require(report.singletons.first)
    #expect(entry.suggestedSlices.last?.members == ["fetchedItems", "availableItems", "fetchAvailableItems"])
    #expect(entry.unsliced == ["itemCount"])
  }

  /// A declaration over several lines is folded onto one, whatever the line ends.
  @Test func signaturesAreFoldedOntoOneLineWithEitherLineEnd() throws {
    for newline in ["\n", "\r\n"] {
      let source = [
        "final class Store {", "  static let shared = Store()", "  func load(", "    id: Int", "  ) -> Int { id }", "}",
        "final class User {", "  func go() -> Int { Store.shared.load(id: 1) }", "}",
      ].joined(separator: newline)
      let report = try ScanReport(project: makeProject(["Store.swift": source]))
      let members = try #require(report.singletons.first?.members)
      #expect(members.map(\.declaration) == ["func load( id: Int ) -> Int"])
    }
  }

  /// With `--census` an entry carries the references outside composition roots, entry points and
  /// tests (the count inject never raises), the same with `--singleton` or without. Here only
  /// `Login`'s use counts: the others' types no code creates (roots), and `Main` creates `Login`.
  /// Once each member consumers use is in a protocol, the suggestion is empty and a note says so.
  @Test func theCensusCountsWhatInjectWeighsAndScanSaysWhenNothingIsLeftToSlice() throws {
    var shopping = Self.shopping
    shopping["Main.swift"] = "@MainActor final class Main {\n  func start() { Login().logIn() }\n}\n"
    let plain = try #require(try ScanReport(project: makeProject(shopping)).singletons.first)
    #expect(plain.referencesOutsideRootsAndTests == nil)
    #expect(plain.note == nil)
    let whole = try #require(try ScanReport(project: makeProject(shopping), census: true).singletons.first)
    let one = try #require(try ScanReport(project: makeProject(shopping), only: "SessionController", census: true).singletons.first)
    #expect(whole.referencesOutsideRootsAndTests == 1)
    #expect(one == whole)
    #expect(try ScanReport(project: makeProject(shopping), census: true).text().contains(
      "  6 members, 9 references (1 outside composition roots, entry points and tests), 4 consumer types\n"))
    var files = Self.shopping
    files["Slices.swift"] = """
      protocol Everything: AnyObject {
        var currentUser: String? { get set }
        var cart: [String] { get }
        func addItemToCart(item: String)
        var fetchedItems: [String] { get }
        var availableItems: [String] { get }
        func fetchAvailableItems()
      }
      extension SessionController: Everything {}
      """
    let sliced = try #require(try ScanReport(project: makeProject(files)).singletons.first)
    #expect(sliced.suggestedSlices.isEmpty)
    #expect(sliced.note == "nothing to slice: every member its consumers use is in a protocol it conforms to already")
  }

  @Test func jsonIsStable() throws {
    let report = try ScanReport(project: makeProject(Self.shopping))
    let json = report.json()
    #expect(json.contains("\"schemaVersion\" : 1"))
    #expect(json.contains("\"suggestedSlices\""))
    #expect(json == (try ScanReport(project: makeProject(Self.shopping))).json())
  }

  /// The report's JSON is written directly; it must be what `JSONEncoder` makes of the `Codable`
  /// schema, byte for byte, with every field and the escapes of any text a source can hold.
  @Test func jsonIsWhatJSONEncoderWrites() throws {
    var report = try ScanReport(project: makeProject(Self.shopping))
    var awkward = "quote \" backslash \\ slash / tab \t newline \n é 😀 \u{2028}"
    for byte in UInt8(0)..<0x20 { awkward.unicodeScalars.append(Unicode.Scalar(byte)) }
    awkward.unicodeScalars.append(Unicode.Scalar(0x7F))
    report.warnings = [awkward, ""]
    let entry = try #require(report.singletons.first)
    var other = entry
    other.type = awkward
    other.accessors = []
    other.consumers = entry.consumers.map { consumer in
      var consumer = consumer
      consumer.passesInstance = [.init(Location(path: awkward, line: 3, column: 9))]
      consumer.keepsAccessor = awkward
      return consumer
    }
    other.unattributed = [.init(place: .init(Location(path: "a/b.swift", line: 1, column: 2)), reason: awkward)]
    other.unsliced = ["x", awkward]
    other.referencesOutsideRootsAndTests = 7
    report.singletons.append(other)
    #expect(!entry.members.isEmpty && !entry.consumers.isEmpty && !entry.suggestedSlices.isEmpty)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let expected = String(decoding: try encoder.encode(report), as: UTF8.self) + "\n"
    #expect(report.json() == expected)
    #expect(try JSONDecoder().decode(ScanReport.self, from: Data(report.json().utf8)) == report)
  }
}

/// Which paths hold test code: a folder whose name ends with `Tests`, or a file named `*Tests.swift`.
@Suite struct TestPathTests {
  /// The rule as it reads: the path's components, the file's last.
  func byComponents(_ path: String) -> Bool {
    let components = path.split(separator: "/")
    if let file = components.last, file.hasSuffix("Tests.swift") { return true }
    return components.dropLast().contains { $0.hasSuffix("Tests") }
  }

  @Test(arguments: [
    "Tests/A.swift", "App/AppTests/A.swift", "AppUITests/x/y.swift", "FooTests.swift", "a/FooTests.swift",
    "a/b.swift", "Tests.swift", "a/Tests", "a/Tests/", "a/Tests//b.swift", "MyTestsHelper/a.swift",
    "a/TestsX/b.swift", "/Tests/a", "Sources/App/Tests.swift/", "Tests", "", "/", "a/ViewTests.swiftx",
  ])
  func agreesWithTheRuleByComponents(_ path: String) {
    #expect(Index.isTestPath(path) == byComponents(path))
  }
}
