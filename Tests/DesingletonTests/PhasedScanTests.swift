import DesingletonCore
import DesingletonIndex
import DesingletonPlanner
import Foundation
import Testing

/// The byte tests that decide which files a scan parses: each must keep every file that can hold
/// what it is for.
@Suite struct BytePrefilterTests {
  func declaresAccessor(_ text: String, extra: [String] = []) -> Bool {
    BytePrefilter.canDeclareAccessor(Array(text.utf8), accessors: AccessorNames(extra: extra))
  }

  @Test func keepsEveryWayOfDeclaringAnAccessor() {
    #expect(declaresAccessor("final class Store {\n  static let shared = Store()\n}"))
    #expect(declaresAccessor("enum Palette {\n  static var `default` = Palette.red\n}"))
    #expect(declaresAccessor("class Legacy {\n  class var sharedLegacy: Legacy { one }\n}"))
    #expect(declaresAccessor("class Legacy {\n  class func sharedInstance() -> Legacy { one }\n}"))
    #expect(declaresAccessor("extension UserDefaults {\n  static let standardSuite = UserDefaults()\n}"))
    #expect(declaresAccessor("class Log {\n#if DEBUG\n  static let instance = Log()\n#endif\n}"))
    #expect(declaresAccessor("class Log {\n  public static\n  let\n    shared = Log()\n}"))
    #expect(declaresAccessor("class Log {\n  static let a = 1, shared = Log()\n}"))
    #expect(declaresAccessor("class Log {\n  static let /* the one */ shared = Log()\n}"))
    #expect(declaresAccessor("class Log {\n  static nonisolated(unsafe) let defaultInstance = Log()\n}"))
    #expect(declaresAccessor("class Log {\n  @MainActor\n  static var shared = Log()\n}"))
    #expect(declaresAccessor("class Log {\n  private(set) static var shared = Log()\n}"))
    #expect(
      declaresAccessor("class Log {\n  @available(*, deprecated, message: \"use (init)\") static var shared = Log()\n}")
    )
    #expect(declaresAccessor("class Log {\n  static let (shared, other) = (Log(), 1)\n}"))
    #expect(declaresAccessor("class Log {\n  static let a = [1, 2], b = f(x, y), `default` = Log()\n}"))
    #expect(declaresAccessor("class Clock {\n  static let current = Clock()\n}", extra: ["current"]))
    #expect(!declaresAccessor("class Clock {\n  static let current = Clock()\n}"))
  }

  @Test func keepsAccessorsThatNameTheirTypeAnywhereInTheDeclaration() {
    #expect(declaresAccessor("class Store {\n  static let shared: Store = {\n    let s = make()\n    return s\n  }()\n}"))
    #expect(declaresAccessor("extension Outer.Inner {\n  static let shared = Outer.Inner()\n}"))
    #expect(declaresAccessor("class Box {\n  static var shared: Self { fatalError() }\n}"))
    #expect(declaresAccessor("class Box {\n  static func sharedInstance<T>(_ t: T.Type) -> Box { Box() }\n}"))
    #expect(declaresAccessor("final class Hub {\n  static let shared =\n    Hub(name: \"hub\", size: [1, 2])\n}"))
    #expect(declaresAccessor("final class Hub: Locating {\n  static var shared: Locating = Hub()\n}"))
    #expect(declaresAccessor("class `Log` {\n  static let instance = `Log`()\n}"))
    // What cannot be read is "maybe": a block comment, a string with an escape or interpolation.
    #expect(declaresAccessor("struct A {\n  static let defaultName = /* later */ 1\n}"))
    #expect(declaresAccessor("struct A {\n  static let defaultName = \"\\(x)\"\n}"))
  }

  @Test func leavesOutStaticMembersThatAreNoAccessor() {
    #expect(!declaresAccessor("struct Config {\n  static let defaultPort = 8080\n  var port = 1\n}"))
    #expect(!declaresAccessor("enum Keys {\n  static let sharedKey = \"shared\"\n}\nlet k = Keys.self"))
    #expect(!declaresAccessor("class A {\n  static var instanceCount = 0\n  func f() -> A { A() }\n}"))
    #expect(!declaresAccessor("class A {\n  static let defaultTimeout: TimeInterval = 5 // A\n}\nextension A {}"))
  }

  /// A type whose qualified name has no dot is declared outside every brace: a file that only
  /// nests a type of that simple name in another is not read for it. Braces in comments and string
  /// literals do not count; where the bytes cannot be read that far for sure, the answer is "maybe".
  @Test(arguments: [
    ("final class Store {}", true),
    ("extension Store {\n  func f() {}\n}", true),
    ("public final class /* the one */ Store: Base {}", true),
    ("#if DEBUG\nextension Store {}\n#endif", true),
    ("enum Outer {\n  struct Store {}\n}", false),
    ("extension Outer {\n  final class Store {}\n}", false),
    ("struct A {\n  let s = \"}\"\n}\nstruct B {\n  class Store {}\n}", false),
    ("struct A {\n  let s = \"\\(f { x in \"}\" })\"\n  struct Store {}\n}", false),
    ("struct A {\n  let s = #\"\\\"}\"#\n  struct Store {}\n}", false),
    ("struct A {\n  let s = \"\"\"\n  }\n  \"\"\"\n  struct Store {}\n}", false),
    ("// }\nstruct A {\n  /* } /* } */ */\n  struct Store {}\n}", false),
    ("let s = \"{\"\nstruct Store {}", true),
    ("func f() {\n  struct Store {}\n}", false),
    // What cannot be read for sure: a regular expression, braces that do not balance.
    ("struct A {\n  let r = /{/\n  struct Store {}\n}", true),
    ("struct A {\n  let r = #/}/#\n}\nstruct B {\n  struct Store {}\n}", true),
    ("struct A {\n  struct Store {}\n", true),
    // No declaration of the name at all.
    ("struct A {\n  let store = Store()\n}", false),
  ])
  func tellsTopLevelDeclarations(text: String, declares: Bool) {
    #expect(BytePrefilter.canDeclareAtTopLevel([Array("Store".utf8)], in: Array(text.utf8)) == declares, "\(text)")
  }

  @Test func leavesOutFilesThatOnlyUseAnAccessor() {
    #expect(!declaresAccessor("final class Feed {\n  func run() { Store.shared.load() }\n}"))
    #expect(!declaresAccessor("struct Feed {\n  static func run() { switch x { default: break } }\n}"))
    #expect(!declaresAccessor("final class Feed {\n  static let isShared = true\n}"))
    #expect(!declaresAccessor("let shared = Store()\nstruct A {}"))
    #expect(
      !declaresAccessor("struct A {\n  static let a = 1\n  func f() { result[key(x), default: []].append(x) }\n}")
    )
    #expect(!declaresAccessor("final class A {\n  static let a = 1\n  public var defaultHeaders: [String] = []\n}"))
    #expect(
      !declaresAccessor("final class A {\n  static let a = 1\n  func f() { let instance = make(); use(instance) }\n}")
    )
  }

  /// Every file of the samples that declares a singleton's accessor passes the test.
  @Test func agreesWithTheIndexOnTheSamples() throws {
    let directory = packageRoot + "/Samples"
    let files = try FileLoader().swiftFiles(in: [directory]).files
    let index = IndexBuilder().build(paths: files)
    #expect(!index.singletons.isEmpty)
    for singleton in index.singletons {
      let bytes = try #require(readBytes(singleton.declaration.path))
      #expect(BytePrefilter.canDeclareAccessor(bytes, accessors: .standard), "\(singleton.declaration.path)")
    }
  }

  @Test func declarationSites() {
    func declares(_ name: String, _ text: String) -> Bool {
      BytePrefilter.canDeclare([Array(name.utf8)], in: Array(text.utf8))
    }
    #expect(declares("Cart", "final class Cart {}"))
    #expect(declares("Cart", "struct\n  Cart<Item> {}"))
    #expect(declares("Cart", "extension Shop.Cart: Sendable {}"))
    #expect(declares("Cart", "typealias Cart = [Item]"))
    #expect(declares("Cart", "class `Cart` {}"))
    #expect(declares("empty", "mutating func empty() {}"))
    #expect(!declares("Cart", "final class CartItem {}"))
    #expect(!declares("Cart", "let cart = Cart()"))
    #expect(!declares("Cart", "class View: Cart {}"))
    // Many names: one pass over the identifiers, the same answers.
    let many = ["Cart", "Order", "Item", "Shop", "User", "Price", "Tax", "Fee", "Coupon", "Card"].map { Array($0.utf8) }
    for (text, expected) in [
      ("final class Cart {}", true), ("extension Shop.Cart {}", true), ("typealias `Fee` = Int", true),
      ("let cart = Cart()", false), ("final class CartItem {}", false), ("class View: Cart {}", false),
    ] {
      #expect(BytePrefilter.canDeclare(many, in: Array(text.utf8)) == expected, "\(text)")
    }
  }

  @Test func referenceSites() {
    func references(_ name: String, _ text: String, bases: Set<String>? = nil) -> Bool {
      BytePrefilter.canReference([Array(name.utf8)], bases: bases.map { Set($0.map { Array($0.utf8) }) }, in: Array(text.utf8))
    }
    #expect(references("shared", "Store.shared.load()"))
    #expect(references("shared", "Store\n  .shared\n  .load()"))
    #expect(references("default", "Palette.`default`"))
    #expect(references("shared", "use(.shared)"))
    #expect(!references("shared", "static let shared = Store()"))
    #expect(!references("default", "switch x { default: break }"))
    // Through one of the bases, or where no type stands before the dot.
    let store: Set<String> = ["Store", "Self"]
    #expect(references("shared", "Store.shared.load()", bases: store))
    #expect(references("shared", "App.Store.shared", bases: store))
    #expect(references("shared", "Store\n  .shared", bases: store))
    #expect(references("shared", "Self.shared", bases: store))
    #expect(references("shared", "use(.shared)", bases: store))
    #expect(references("shared", "return .shared", bases: store))
    #expect(references("shared", "return\n  .shared", bases: store))
    #expect(references("shared", "Box<Int>.shared", bases: store))
    #expect(references("shared", "pick(\n#if DEBUG\n  .shared\n#endif\n)", bases: store))
    #expect(references("shared", "Other /* c */.shared", bases: store))
    #expect(!references("shared", "Other.shared", bases: store))
    #expect(!references("shared", "Other\n  .shared", bases: store))
    #expect(!references("shared", "_Storage.shared", bases: store))
    #expect(!references("shared", "store.shared; self.shared; make().shared; list[0].shared; x?.shared", bases: store))
  }

  /// What stands before a member access's dot, as a reference to a type's static member is told by it.
  @Test func referenceBases() {
    let cases: [(String, String?)] = [
      ("Store.shared", "Store"), ("App.Store.shared", "Store"), ("Self.shared", "Self"),
      ("Store\n    .shared", "Store"), ("Store // note\n  .shared", "Store"), ("f(\"a\") // note\n  .shared", nil), ("#if DEBUG\n  .shared", nil),
      ("f(.shared)", nil), ("a ?? .shared", nil), ("return .shared", nil), ("return\n  .shared", nil),
      ("Box<Int>.shared", nil), ("`Store`.shared", nil), ("Störe.shared", "Störe"), ("éStore.shared", nil),
      ("Store .shared", nil), (".shared", nil),
    ]
    for (text, expected) in cases {
      let bytes = Array(text.utf8)
      let dot = bytes.lastIndex(of: UInt8(ascii: "."))!
      switch BytePrefilter.referenceBase(dotAt: dot, in: bytes) {
      case .word(let word): #expect(String(decoding: bytes[word], as: UTF8.self) == expected, "\(text)")
      case .unknown: #expect(expected == nil, "\(text)")
      case .notAType: Issue.record("\(text): not a type")
      }
    }
    for text in ["store.shared", "self.shared", "_Box.shared", "make().shared", "list[0].shared", "x?.shared", "x!.shared"] {
      let bytes = Array(text.utf8)
      #expect(BytePrefilter.referenceBase(dotAt: bytes.lastIndex(of: UInt8(ascii: "."))!, in: bytes) == .notAType, "\(text)")
    }
  }

  @Test func typeAliasNames() {
    let text = "typealias A = Store\nenum E { public typealias `B` = A }\ntypealias /* c */ C<T> = [T]\ntypealias // d\n  D = Int\nlet typealiasName = 1\n"
    let names = BytePrefilter.typeAliasNames(in: Array(text.utf8)).map { String(decoding: $0, as: UTF8.self) }
    #expect(Set(names) == ["A", "B", "C", "D"])
  }
}

/// Files a generator wrote are told by their name or a marker in a comment of their header.
@Suite struct GeneratedFileTests {
  func generated(_ text: String, path: String = "Sources/A.swift") -> Bool {
    GeneratedFile.isGenerated(path: path, bytes: Array(text.utf8))
  }

  @Test func markersInTheHeaderInAnyCase() {
    #expect(generated("// DO NOT EDIT.\nstruct A {}\n"))
    #expect(generated("// Code Generated by Sourcery\nstruct A {}\n"))
    #expect(generated("/*\n * @generated\n */\nstruct A {}\n"))
    #expect(generated("//\n//  Auto-Generated file\n//\nstruct A {}\n"))
    #expect(generated("struct A {}\n", path: "Sources/A.pb.swift"))
  }

  @Test func codeThatMentionsTheWordsIsNot() {
    #expect(!generated("struct A {}\n"))
    #expect(!generated("// Edits a document.\nstruct Editor {}\n"))
    #expect(!generated("let note = \"do not edit\"\nstruct A {}\n"))
    #expect(!generated(String(repeating: "// padding\n", count: 200) + "// DO NOT EDIT\n"))
  }
}

/// The names a file can declare or reference, kept from one pass over its bytes, answer what the
/// byte tests answer for every identifier in it.
@Suite struct NameSitesTests {
  static let tricky = [
    "final class Cart {}\nextension Shop.Cart {}\nlet cart = Cart()\n",
    "class `Cart` {}\nPalette.`default`\na`b\n`x`.`y`\n",
    "let u = \"http://x\"\n  shared\n// class Foo\nbar // note\n\n  baz\n/* c */ qux\nx / y\n",
    "Store\n  .shared\n  .load()\nswitch x { default: break }\nmutating func empty() {}\nnonmutating set {}\n",
    "typealias\tAlias = Int\r\nfunc\u{0B}f() {}\nstruct é {}\n.ü\n`\nshared",
    "_Box.shared\nbox.shared; make().shared; x?.shared\nStore\n  .shared\nreturn\n  .shared\n#if DEBUG\n  .shared\n#endif\nBox<T>.shared\nStore .shared\n",
    "let reserved = \".Sendable\"\nextension os.Logger {}\nlet n = \"x\".count\nlet s = \"Store\".shared\nf(\".shared\")\nlet t = \"\"\"\n  a\n  \"\"\".shared\n"
      + "let u: Swift.String = \"\"\nextension Box: Swift.Hashable {}\npublic extension Outer.Inner.Deep {}\nextension Outer<T>.Generic {}\n"
      + "extension /* c */ Outer.Commented {}\nextension Outer\n  .Wrapped {}\nOuter.Called()\nextension `Quoted`.Name {}\n",
    Self.comments,
    "use(.shared)\nlet s: Store = .current\nreturn .main\nx ?? .standard\ntry .make\n[.first, .second]\ncase .third\nf(.`default`)\na]\n  .fourth\nb!\n\t.fifth\n// c\n  .sixth\nx /* c */ .seventh\nawait\n  .eighth\nselfish.ninth\n",
  ]

  /// Comments between a name and what precedes it: a line's `//` comment is read past when the
  /// line's bytes say where it starts; the first word of a comment's text, a name after `/` and a
  /// name after a line that does not say are what they are ("maybe" for the last).
  static let comments = """
    let a = 1
    /// map the shared store
    func // keyword above
      declared() {}
    Store. // a dot above, with Text.b in the text
      shared
    Store. // text with \\(x) in it
      viaEscape
    let s = "a" // a string before
      afterString
    x / divided
    /* c */ blockEnd
    let u = "http://x"
      afterURL
    Store. // ends */ here
      afterBlockEnd
    //lead
    func
    // between
      secondLine() {}

    """

  @Test func aLineCommentIsReadPastWhereItsLineSaysWhereItStarts() {
    let bytes = Array(Self.comments.utf8)
    let sites = NameSites(bytes)
    let declares = [
      ("map", false), ("declared", true), ("afterString", true), ("divided", false), ("blockEnd", true),
      ("afterURL", true), ("afterBlockEnd", true), ("lead", false), ("secondLine", true), ("shared", false),
    ]
    for (name, expected) in declares {
      let fromSites = sites.canDeclare(NameSites.Query([name]))
      #expect(fromSites == expected, "\(name)")
      #expect(BytePrefilter.canDeclare([Array(name.utf8)], in: bytes) == expected, "\(name)")
    }
    // Through another base: only where the dot before the name cannot be read.
    let references = [("shared", false), ("viaEscape", true), ("map", false), ("b", false), ("afterBlockEnd", true)]
    for (name, expected) in references {
      let fromSites = sites.canReference(NameSites.ReferenceQuery(accessors: [name], bases: ["Other"]))
      #expect(fromSites == expected, "\(name)")
      #expect(BytePrefilter.canReference([Array(name.utf8)], bases: [Array("Other".utf8)], in: bytes) == expected, "\(name)")
    }
    for (name, base) in [("shared", "Store"), ("b", "Text")] {
      let fromSites = sites.canReference(NameSites.ReferenceQuery(accessors: [name], bases: [base]))
      #expect(fromSites, "\(name)")
      #expect(BytePrefilter.canReference([Array(name.utf8)], bases: [Array(base.utf8)], in: bytes), "\(name)")
    }
  }

  /// Letters, digits, `_` and the bytes of non-ASCII characters.
  func isIdentifierByte(_ byte: UInt8) -> Bool {
    byte >= 0x80 || byte == UInt8(ascii: "_") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
      || ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z"))
  }

  func identifiers(_ bytes: [UInt8]) -> Set<String> {
    var names: Set<String> = []
    var index = 0
    while index < bytes.count {
      guard isIdentifierByte(bytes[index]) else {
        index += 1
        continue
      }
      var end = index + 1
      while end < bytes.count, isIdentifierByte(bytes[end]) { end += 1 }
      names.insert(String(decoding: bytes[index..<end], as: UTF8.self))
      index = end
    }
    return names
  }

  @Test func agreeWithTheByteTestsOnEveryIdentifier() throws {
    let files = try FileLoader().swiftFiles(in: [packageRoot + "/Samples"]).files
    var texts = try files.map { try #require(readBytes($0)) }
    texts += NameSitesTests.tricky.map { Array($0.utf8) }
    var checked = 0
    for bytes in texts {
      let sites = NameSites(bytes)
      #expect(sites.mentionsMutating == BytePrefilter.mentions([Array("mutating".utf8)], in: bytes))
      #expect(sites.mentionsTypeAlias == identifiers(bytes).contains("typealias"))
      #expect(lineCount(bytes) == 1 + bytes.count { $0 == UInt8(ascii: "\n") })
      for end in [0, 1, 7, 8, 9, 17, 2_039, 2_040, 2_041, 4_100] where end <= bytes.count {
        #expect(lineCount(Array(bytes[..<end])) == 1 + bytes[..<end].count { $0 == UInt8(ascii: "\n") })
      }
      let names = identifiers(bytes)
      for name in names {
        let query = NameSites.Query([name])
        let utf8 = Array(name.utf8)
        #expect(sites.canDeclare(query) == BytePrefilter.canDeclare([utf8], in: bytes), "declares \(name)")
        for bases in [nil, [], ["Store", "Self"], names] as [Set<String>?] {
          let byteBases = bases.map { Set($0.map { Array($0.utf8) }) }
          #expect(
            sites.canReference(NameSites.ReferenceQuery(accessors: [name], bases: bases))
              == BytePrefilter.canReference([utf8], bases: byteBases, in: bytes), "references \(name) through \(bases?.count ?? -1)")
        }
        #expect(
          sites.canReferenceImplicitly(query) == BytePrefilter.canReferenceImplicitly([utf8], in: bytes), "implicit \(name)")
        checked += 1
      }
      // A name the file does not have is neither declared nor referenced.
      #expect(!sites.canDeclare(NameSites.Query(["NoSuchNameAnywhere"])))
    }
    #expect(checked > 1_000)
  }

  /// A name after a dot declares something only as the end of an extended type's name
  /// (`extension os.Logger`, `extension Outer.Inner.Deep`): not in a type annotation
  /// (`Swift.String`, everywhere in generated code), a conformance or a call. A dot right after a
  /// `"` follows a string literal (`"x".count`) or is text in one (`".Sendable"`, a message name in
  /// generated code): it names no type's accessor either, explicitly or implicitly.
  @Test func aNameAfterADotDeclaresOnlyWhereAnExtensionNamesIt() {
    let bytes = Array((Self.tricky.first { $0.hasPrefix("let reserved") } ?? "").utf8)
    let sites = NameSites(bytes)
    let cases = [
      ("Sendable", false), ("Logger", true), ("count", false), ("String", false), ("Hashable", false), ("Inner", true),
      ("Deep", true), ("Generic", true), ("Commented", true), ("Wrapped", true), ("Called", false), ("Name", true),
    ]
    for (name, declares) in cases {
      let fromSites = sites.canDeclare(NameSites.Query([name]))
      let fromBytes = BytePrefilter.canDeclare([Array(name.utf8)], in: bytes)
      #expect(fromSites == declares, "\(name)")
      #expect(fromBytes == declares, "\(name)")
    }
    let shared = [Array("shared".utf8)]
    #expect(!BytePrefilter.canReference(shared, bases: [Array("Store".utf8)], in: bytes))
    let explicit = sites.canReference(NameSites.ReferenceQuery(accessors: ["shared"], bases: ["Store"]))
    #expect(!explicit)
    #expect(!BytePrefilter.canReferenceImplicitly(shared, in: bytes))
    let implicit = sites.canReferenceImplicitly(NameSites.Query(["shared"]))
    #expect(!implicit)
  }

  /// `.init` as an implicit member: where the code gives the type (an assignment, an argument, a
  /// return), not after a type, an instance or `super`; a comment before the dot may hide what
  /// ends an expression.
  @Test(arguments: [
    ("self.part = .init()", true),
    ("use(part: .init(), .init(x: 1))", true),
    ("return\n  .init()", true),
    ("let p = flag ? .init() : old", true),
    ("let p = Part.init()", false),
    ("let p = part.init", false),
    ("super.init()", false),
    ("init() {}", false),
    ("let s = \"x\".init", false),
    ("let q = value /* note */ .init()", true),
    ("let initial = .initial", false),
  ])
  func findsAnImplicitInit(code: String, holds: Bool) {
    #expect(BytePrefilter.mayHoldImplicitMember(Array("init".utf8), in: Array(code.utf8)) == holds)
  }

  @Test func tellsTheKeywordsAnImplicitMemberCanFollow() throws {
    let files = try FileLoader().swiftFiles(in: [packageRoot + "/Samples"]).files
    var words = BytePrefilter.expressionKeywords
    for path in files { words.formUnion(identifiers(try #require(readBytes(path)))) }
    words.formUnion(["iff", "i", "returns", "ret", "Return", "self", "super", "init", "fi", "ds", "anyway", "awaits"])
    for word in words {
      let bytes = Array(" \(word).".utf8)
      #expect(
        BytePrefilter.isExpressionKeyword(bytes, 1..<(1 + word.utf8.count)) == BytePrefilter.expressionKeywords.contains(word), "\(word)")
    }
  }

  @Test func countsLinesOfEveryLength() {
    for count in [0, 1, 8, 2_040, 2_048, 5_000] {
      let feeds = [UInt8](repeating: UInt8(ascii: "\n"), count: count)
      #expect(lineCount(feeds) == count + 1)
      let mixed: [UInt8] = (0..<count).map { (position: Int) -> UInt8 in
        position % 3 == 0 ? 0x0A : UInt8(0x80 + position % 100)
      }
      #expect(lineCount(mixed) == 1 + mixed.count { $0 == UInt8(ascii: "\n") })
    }
  }

  @Test func answersForManyNamesAtOnce() {
    let sites = NameSites(Array("final class Cart {}\nStore.shared.load()\n".utf8))
    #expect(sites.canDeclare(NameSites.Query(["Order", "Item", "Cart"])))
    #expect(!sites.canDeclare(NameSites.Query(["Order", "Item", "Store"])))
    #expect(sites.canReference(NameSites.ReferenceQuery(accessors: ["default", "shared"], bases: nil)))
    #expect(sites.canReference(NameSites.ReferenceQuery(accessors: ["default", "shared"], bases: ["Cart", "Store"])))
    #expect(!sites.canReference(NameSites.ReferenceQuery(accessors: ["default", "shared"], bases: ["Cart"])))
    #expect(!sites.canReference(NameSites.ReferenceQuery(accessors: ["Cart", "Store"], bases: nil)))
    #expect(!sites.canReference(NameSites.ReferenceQuery(accessors: [String](), bases: nil)))
  }

  @Test func valuesAFileCanDeclare() {
    let sites = NameSites(Array("struct A {\n  var handler = 1\n  let (x, y) = (1, 2)\n  func run() {}\n}\nenum E { case open(Int) }\nhandle(.shared)\n".utf8))
    for name in ["handler", "run", "open"] { #expect(sites.canDeclareValue(NameSites.Query([name])), "\(name)") }
    // Called, not declared.
    #expect(!sites.canDeclareValue(NameSites.Query(["handle", "shared"])))
  }
}

/// A scan that parses only the files that can matter reports exactly what a scan of every file does.
@Suite struct PhasedScanTests {
  /// Each file is a trap for a scan that reads too little: the accessor declared in an extension
  /// away from the type, under `#if`, through a type alias, a value type's singleton written from
  /// a static member, a member chain through a struct with a `mutating func` declared elsewhere,
  /// a protocol the singleton conforms to in another file, a configured accessor name.
  let files: [String: String] = [
    "Store.swift":
      "final class Store: Loading {\n  var cart = Cart()\n  var count = 0\n  func load() {}\n  func save() {}\n}\n",
    "Store+Shared.swift": "extension Store {\n  static let shared = Store()\n}\n",
    "Loading.swift": "protocol Loading {\n  func load()\n}\n",
    "Cart.swift": "struct Cart {\n  var items: [Int] = []\n}\n",
    "Cart+Empty.swift": "extension Cart {\n  mutating func empty() { items = [] }\n}\n",
    "Alias.swift": "typealias TheStore = Store\n",
    "Base.swift": "class Base {\n  func start() {}\n}\n",
    "Feed.swift": """
    class Feed: Base {
      func run() {
        TheStore.shared.load()
        Store.shared.cart.empty()
        Store.shared.count += 1
      }
    }

    """,
    "Settings.swift": "struct Settings {\n  static var `default` = Settings()\n  var flag = false\n}\n",
    "Tweaks.swift": "enum Tweaks {\n  static func apply() { Settings.default.flag = true }\n}\n",
    "Logger.swift": "class Logger {\n  func log(_ text: String) {}\n}\n",
    "Logger+Shared.swift":
      "#if DEBUG\nextension Logger {\n  private static let one = Logger()\n  class var shared: Logger { one }\n}\n#endif\n",
    "Screen.swift": "final class Screen {\n  func show() { Logger.shared.log(\"x\"); Clock.current.tick() }\n}\n",
    "Clock.swift": "final class Clock {\n  static let current = Clock()\n  func tick() {}\n}\n",
    "Noise.swift": "struct Unrelated {\n  let a = 1\n  let b = 2\n  func c() {}\n}\n",
    // `take` is declared only where nothing names a singleton, `present` nowhere.
    "Presenter.swift": "final class Presenter {\n  func go() {\n    take(.shared)\n    present(.shared)\n  }\n}\n",
    "Router.swift": "final class Router {\n  var take: (Int) -> Void = { _ in }\n}\n",
    // Each reaches `Store.shared` without `Store` right before the dot, or on the line above it.
    "Nested.swift": "enum Outer {\n  typealias Link = Store\n}\n",
    "Deep.swift": "final class Deep {\n  func go() { Outer.Link.shared.save() }\n}\n",
    "Lines.swift": "final class Lines {\n  func go() {\n    Store\n      .shared\n      .save()\n  }\n}\n",
    "Branches.swift": "final class Branches {\n  func go() -> Store {\n    pick(\n    #if DEBUG\n      .shared\n    #endif\n    )\n  }\n}\n",
    // `shared` of no singleton's type: not worth a parse.
    "Elsewhere.swift": "struct Elsewhere {\n  let a = _Box.shared\n  let b = box.shared\n  let c = make().shared\n  let d = Other.shared\n}\n",
  ]

  func writeFiles() throws -> (String, [String]) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "desingleton-phased-\(UUID().uuidString)"
    ).path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    for (name, text) in files { try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8) }
    return (directory, try FileLoader().swiftFiles(in: [directory]).files)
  }

  @Test(arguments: [[], ["current"]]) func reportsWhatAFullScanReports(extra: [String]) throws {
    let (directory, paths) = try writeFiles()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let builder = IndexBuilder(threads: 2, accessors: AccessorNames(extra: extra))
    let full = try ScanReport(project: Project(index: builder.build(paths: paths))).json()
    let scan = PhasedScan(paths: paths, builder: builder)
    let phased = try scan.run { index in try ScanReport(project: Project(index: index)).json() }
    #expect(phased == full)
    #expect(full.contains("\"Store\"") && full.contains("\"Logger\"") && full.contains("\"Settings\""))
    #expect(full.contains("\"Clock\"") == !extra.isEmpty)
    // `take(.shared)` may be Store's or Logger's; `present(.shared)` is neither.
    #expect(full.components(separatedBy: "/Presenter.swift\"").count - 1 == 2)
    // `Noise.swift` and `Elsewhere.swift` can hold nothing the scan looks for: counted, not parsed.
    #expect(scan.parsed.files < paths.count)
    #expect(!scan.parsedPaths.contains { $0.hasSuffix("/Elsewhere.swift") || $0.hasSuffix("/Noise.swift") })
    for consumer in ["Deep", "Lines"] { #expect(full.contains("\"\(consumer)\""), "\(consumer)") }
    #expect(scan.phases.count >= 2)
  }

  /// Whether a consumer is test code (`@Suite`, a `@Test` method, a test file, an `XCTestCase`
  /// subclass) is read from the type's outline: no file is parsed again for its members.
  @Test func tellsTestConsumersWithoutParsingTheirFilesAgain() throws {
    let (full, phased, scan, fullIndex) = try scannedBothWays([
      "Store.swift": "final class Store {\n  static let shared = Store()\n  var count = 0\n}\n",
      "Feed.swift": "final class Feed {\n  func run() -> Int { Store.shared.count }\n}\n",
      "Checks.swift": "struct Checks {\n  @Test func counts() { _ = Store.shared.count }\n}\n",
      "Base.swift": "class Base: XCTestCase {}\n",
      "Later.swift": "final class Later: Base {\n  func testCount() { _ = Store.shared.count }\n}\n",
    ])
    #expect(phased == full)
    #expect(["Checks", "Later"].allSatisfy(fullIndex.isTestType) && !fullIndex.isTestType("Feed"))
    #expect(scan.phases.reduce(0) { $0 + $1.files } == scan.parsed.files)
  }

  /// Writes `files` to a new folder and scans it whole and in phases: both reports, the phased
  /// scan and the whole index.
  func scannedBothWays(_ files: [String: String]) throws -> (String, String, PhasedScan, Index) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "desingleton-phased-\(UUID().uuidString)"
    ).path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    for (name, text) in files { try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8) }
    let paths = try FileLoader().swiftFiles(in: [directory]).files
    let builder = IndexBuilder(threads: 2)
    let fullIndex = builder.build(paths: paths)
    let full = try ScanReport(project: Project(index: fullIndex)).json()
    let scan = PhasedScan(paths: paths, builder: builder)
    let phased = try scan.run { index in try ScanReport(project: Project(index: index)).json() }
    return (full, phased, scan, fullIndex)
  }

  /// A singleton's declarations are its type's at the top level: a file that nests a type of the same
  /// simple name in another (generated code names messages after anything) is not parsed for them,
  /// and the report is the full scan's.
  @Test func leavesOutNestedNamesakesOfASingleton() throws {
    let (full, phased, scan, _) = try scannedBothWays([
      "Store.swift": "final class Store {\n  static let shared = Store()\n  var count = 0\n}\n",
      "Store+Save.swift": "extension Store {\n  func save() {}\n}\n",
      "Feed.swift": "final class Feed {\n  func run() { Store.shared.save(); _ = Store.shared.count }\n}\n",
      "Names.swift": "enum Names {\n  struct Store {\n    var count = 1\n    func save() {}\n  }\n}\n",
    ])
    #expect(phased == full)
    #expect(full.contains("\"Feed\""))
    #expect(scan.parsedPaths.contains { $0.hasSuffix("/Store+Save.swift") })
    #expect(!scan.parsedPaths.contains { $0.hasSuffix("/Names.swift") })
  }

  /// A file a scan parses for its references leaves out whole the top-level declarations that
  /// hold none, and is parsed whole once a question is about what it left out: here an extension
  /// that makes a consumer a test.
  @Test func aFileLeavesOutWhatNoQuestionIsAbout() throws {
    let (full, phased, scan, fullIndex) = try scannedBothWays([
      "Store.swift": "final class Store {\n  static let shared = Store()\n  var count = 0\n}\n",
      "Feed.swift": "final class Feed {\n  func run() -> Int { Store.shared.count }\n}\nstruct Row {\n  var title = \"\"\n}\n",
      "Checks.swift":
        "final class Checks {\n  func run() -> Int { Store.shared.count }\n}\nextension Checks {\n  @Test func counts() {}\n}\n",
    ])
    #expect(phased == full)
    #expect(fullIndex.isTestType("Checks") && !fullIndex.isTestType("Feed"))
    #expect(scan.partlyParsedPaths.map { ($0 as NSString).lastPathComponent } == ["Feed.swift"])
    // Checks.swift was parsed twice: in part, then whole.
    #expect(scan.phases.reduce(0) { $0 + $1.files } == scan.parsed.files + 1)
  }

  /// Every sample, whole: the phased scan's report is the full scan's, byte for byte.
  @Test func samplesReportWhatAFullScanReports() throws {
    var compared = 0
    for (sample, directory) in try sampleDirectories() {
      let paths = try FileLoader().swiftFiles(in: [directory]).files
      let builder = IndexBuilder(threads: 2)
      let full = try ScanReport(project: Project(index: builder.build(paths: paths))).json()
      let scan = PhasedScan(paths: paths, builder: builder)
      let phased = try scan.run { index in try ScanReport(project: Project(index: index)).json() }
      #expect(phased == full, "\(sample)")
      compared += 1
    }
    #expect(compared >= 15)
  }

  /// Types the scan never asks about keep no members; the singleton keeps them all.
  @Test func keepsMembersOnlyOfTypesAskedAbout() throws {
    let (directory, paths) = try writeFiles()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let scan = PhasedScan(paths: paths, builder: IndexBuilder(threads: 1))
    let index = try scan.run { $0 }
    #expect(index.declarations(of: "Store").flatMap(\.members).map(\.name).contains("save"))
    let feed = index.files.first { $0.path.hasSuffix("/Feed.swift") }?.types.first
    #expect(feed?.name == "Feed")
    #expect(feed?.membersOmitted == true)
  }

  /// A phase parses for what is asked and not covered yet: an index asks again, in each run, for
  /// what it asked before, and a byte search of every file for it again finds nothing new.
  @Test func aPhaseAsksOnlyWhatIsNotCoveredYet() {
    var asked = NameCoverage.Needs()
    asked.types = ["Cart", "Store"]
    asked.members = ["Store"]
    asked.implicitAccessors = ["shared"]
    asked.mentions = ["@main"]
    asked.accessors = [NameCoverage.Accessor(type: "Store", name: "shared")]
    var covered = NameCoverage.Needs()
    covered.types = ["Store"]
    covered.implicitAccessors = ["shared"]
    covered.accessors = [NameCoverage.Accessor(type: "Cart", name: "shared")]
    let rest = asked.subtracting(covered)
    #expect(rest.types == ["Cart"])
    #expect(rest.members == ["Store"])
    #expect(rest.implicitAccessors.isEmpty)
    #expect(rest.mentions == ["@main"])
    #expect(rest.accessors == [NameCoverage.Accessor(type: "Store", name: "shared")])
    #expect(!rest.everything)
    // A name's members at any depth cover its top-level declarations; its top-level ones, its outline.
    asked.topLevelMembers = ["Store", "Feed"]
    asked.topLevelTypes = ["Store", "Feed", "Cart", "Log"]
    covered.members = ["Store"]
    covered.topLevelMembers = ["Feed"]
    let top = asked.subtracting(covered)
    #expect(top.topLevelMembers.isEmpty)
    #expect(top.topLevelTypes == ["Cart", "Log"])
    covered.types.insert("Cart")
    #expect(asked.subtracting(covered).topLevelTypes == ["Log"])
    covered.everything = true
    #expect(asked.subtracting(covered).isEmpty)
    #expect(covered.subtracting(asked).everything)
    #expect(asked.subtracting(asked).isEmpty)
  }
}

/// Resolving a written type name tests many candidates for a common simple name.
@Suite struct ComponentSuffixTests {
  @Test func agreesWithTheStringTest() {
    let names = ["A", "B.A", "C.B.A", "BA", "X.BA", ".A", "Ü.A", "B.Ü", "é", "e\u{301}", "X.é", "X.e\u{301}", ""]
    for whole in names {
      for tail in names {
        #expect(Index.endsWithComponent(whole, tail) == whole.hasSuffix("." + tail), "\(whole) \(tail)")
      }
    }
  }
}

/// A type whose members a scan leaves out is read without making them: what the index keeps of it
/// is what it keeps when the members are made.
@Suite struct OmittedMembersTests {
  static let tricky = """
    enum Palette {
      case red, `default`
      case shared
    }
    struct Cart {
      typealias Item = Int
      mutating func empty() {}
      #if DEBUG
      mutating func fill() {}
      typealias Debug = String
      static var shared = Cart()
      #endif
      struct Inner { static let `default` = Inner() }
    }
    class Box { class var sharedBox: Box { Box() }; static subscript(i: Int) -> Int { i } }
    extension Box { static func instance() -> Box { Box() } }
    struct Plain { var a = 1; func b() {}; static let c = 2 }
    """

  func summaries(_ text: String, path: String) -> (full: FileSummary, outlined: FileSummary) {
    let source = SourceText(path: path, bytes: Array(text.utf8))
    return (
      FileIndexer.index(source, keepingMembersOf: { _ in true }),
      FileIndexer.index(source, keepingMembersOf: { _ in false })
    )
  }

  @Test func keepsWhatMakingTheMembersKeeps() throws {
    let files = try FileLoader().swiftFiles(in: [packageRoot + "/Samples"]).files
    var texts = try files.map { (try #require(readBytes($0)), $0) }
    texts.append((Array(OmittedMembersTests.tricky.utf8), "Tricky.swift"))
    var omitted = 0
    for (bytes, path) in texts {
      let (full, outlined) = summaries(String(decoding: bytes, as: UTF8.self), path: path)
      #expect(outlined.types.map(\.qualifiedName) == full.types.map(\.qualifiedName), "\(path)")
      #expect(outlined.types.map(\.range) == full.types.map(\.range), "\(path)")
      #expect(outlined.types.map(\.inherited) == full.types.map(\.inherited), "\(path)")
      #expect(outlined.typeAliases == full.typeAliases, "\(path)")
      #expect(outlined.mutatingMethodNames == full.mutatingMethodNames, "\(path)")
      for (kept, type) in zip(outlined.types, full.types) {
        // Left out unless a static member is named like an accessor.
        let accessorLike = type.members.contains { $0.isStatic && AccessorNames.standard.matches($0.name) }
        #expect(kept.membersOmitted == !accessorLike, "\(path): \(type.qualifiedName)")
        #expect(kept.members == (accessorLike ? type.members : []), "\(path): \(type.qualifiedName)")
        if kept.membersOmitted { omitted += 1 }
      }
    }
    #expect(omitted > 100)
    let (_, tricky) = summaries(OmittedMembersTests.tricky, path: "Tricky.swift")
    #expect(tricky.types.filter { !$0.membersOmitted }.map(\.qualifiedName) == ["Palette", "Cart", "Cart.Inner", "Box", "Box"])
    #expect(tricky.mutatingMethodNames == ["empty", "fill"])
  }
}

@Suite struct TypeNameComponentTests {
  @Test func agreeWithSplitting() {
    let names = ["", ".", "<", "A", "A.B", "A.B.C", ".A", "A.", "A..B", "A<B.C>", "<T>", "Outer.Inner<T, U.V>", "é.ü", "A<<B"]
    for name in names {
      #expect(name.firstComponent(separatedBy: UInt8(ascii: "<")) == name.split(separator: "<").first, "\(name)")
      #expect(name.lastComponent(separatedBy: UInt8(ascii: ".")) == name.split(separator: ".").last, "\(name)")
    }
  }
}
