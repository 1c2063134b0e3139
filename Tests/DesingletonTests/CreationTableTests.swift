import DesingletonCore
import Foundation
import DesingletonIndex
import SwiftSyntax
import Testing

@testable import DesingletonPlanner

/// The creations of a set of types are what one walk of each file for all of them finds, whatever
/// questions were asked before and in which order (`CreationTable`).
@Suite struct CreationTableTests {
  static let files = [
    "Types.swift": """
    final class Badge { init(count: Int) {} }
    struct Card { var title: String }
    enum Feed { struct Cell { init() {} } }
    enum Shop { struct Cell { init() {} } }
    class Base { init(name: String) {} }
    final class Derived: Base { init() { super.init(name: "d") } }
    final class Tag {
      let name: String
      init(name: String) { self.name = name }
      convenience init() { self.init(name: "none") }
      static func make() -> Self { Self(name: "made") }
    }

    """,
    "Screens.swift": """
    final class Screen {
      let badge = Badge(count: 1)
      var card: Card { .init(title: "x") }
      func show() {
        let cards = [Card(title: "a"), Card.init(title: "b")]
        let make = Badge.init
        present(.init())
        let cell = Cell()
        _ = (cards, make, cell, Feed.Cell(), Derived(), Tag())
      }
      func present(_ badge: Badge) {}
    }
    extension Feed {
      static func first() -> Cell { Cell() }
    }

    """,
    "Nested.swift": """
    struct Outer {
      func build() -> Badge { Badge(count: Card(title: Tag().name).title.count) }
      func nested() { _ = Badge(count: [Card(title: "n")].count) }
    }

    """,
  ]

  static let subclasses = ["Derived": "Base"]

  /// Questions asked one after another on one project; each answer must be the one walk's.
  @Test(arguments: [
    [["Badge"], ["Card"], ["Badge", "Card", "Feed.Cell"], ["Shop.Cell", "Tag"]],
    [["Badge", "Card", "Feed.Cell", "Shop.Cell", "Tag", "Base"]],
    [["Feed.Cell"], ["Shop.Cell", "Card"], ["Feed.Cell", "Shop.Cell"], ["Tag"], ["Tag", "Badge"], ["Base", "Tag"], ["Card", "Base"]],
  ] as [[[String]]])
  func answersAreOneWalksWhateverWasAskedBefore(questions: [[String]]) throws {
    let project = makeProject(Self.files)
    for (number, types) in questions.enumerated() {
      // Every other question also asks for the subclasses' `super.init` calls.
      let subclasses = number % 2 == 0 ? Self.subclasses : [:]
      let table = try InitCallFinder.calls(of: Set(types), superclassOf: subclasses, project: project)
      let files = try project.paths(naming: types + subclasses.keys).map { try project.file($0) }
      let walk = InitCallFinder.calls(of: Set(types), superclassOf: subclasses, in: files, index: project.index)
      #expect(Self.describe(table) == Self.describe(walk), "question \(number + 1): \(types)")
      #expect(!table.calls.isEmpty)
    }
  }

  /// An `.init(...)` assigned to a name the declarations do not settle is a creation whose type
  /// is not told, never "not the project's": a global, a generic superclass's property, a
  /// property a factory gives its value, a generic parameter's type (returned, or passed to a
  /// method of an extension). Each row: Screen.swift's text (after `import Foundation`).
  @Test(arguments: [
    "var current: Widget? = nil\nfinal class Screen: NSObject { func go() { current = .init(size: 1) } }",
    "class Base<T> { var value: T? }\nfinal class Screen: Base<Widget> { func go() { value = .init(size: 1) } }",
    "final class Screen { var widget = Widget.make()\n func go() { widget = .init(size: 1) } }",
    "final class Screen { func go() { let w: Widget = .init(size: 1); _ = w } }",
    "struct Box<T> { var make: () -> T }\nextension Box where T == Widget { var fresh: T { .init(size: 1) } }",
    "struct Holder<T> { var items: [T] = [] }\nextension Holder where T == Widget {\n mutating func put(_ item: T) { items.append(item) }\n mutating func fill() { put(.init(size: 1)) } }",
    "protocol Sized { init(size: Int) }\nextension Widget: Sized {}\nstruct Maker<T: Sized> { func make() -> T { .init(size: 1) } }",
  ])
  func anImplicitInitTheDeclarationsDoNotSettleIsKept(screen: String) throws {
    let project = makeProject([
      "Widget.swift": "final class Widget { init(size: Int) {}\n static func make() -> Widget { Widget(size: 0) } }",
      "Screen.swift": "import Foundation\n" + screen,
    ])
    let found = try InitCallFinder.calls(of: ["Widget"], superclassOf: [:], project: project)
    let inScreen = found.calls.filter { $0.path.hasSuffix("Screen.swift") }.count
      + found.unrewritable.filter { $0.path.hasSuffix("Screen.swift") }.count
    #expect(inScreen == 1, "\(screen)")
  }

  /// An `.init()` passed to an init of the enclosing type is looked up in that init's parameter:
  /// its own (`self.init`, `Self(...)`, `Self.init`: swift-nio's `self.init(...,
  /// limitConfiguration: .init())`) or its superclass's (`super.init`). It creates `Limits`, and
  /// no other type with an `init()` is blocked by it; a framework superclass's is not the
  /// project's; where the declarations do not give the label (one it inherits) or the superclass is
  /// not known, which type it creates stays unknown. Each row: Screen's inheritance clause, a
  /// member of Screen, what the `.init()` creates.
  @Test(arguments: [
    ("", "convenience init() { self.init(limits: .init()) }", InitCallFinder.ContextualType.named("Limits")),
    ("", "static func make() -> Screen { Self(limits: .init()) }", .named("Limits")),
    ("", "static func make() -> Screen { Self.init(limits: .init()) }", .named("Limits")),
    ("", "convenience init() { self.init(other: .init()) }", .unknown),
    (": Base", "init() { super.init(limits: .init()) }", .named("Limits")),
    (": UIView", "init() { super.init(frame: .init()) }", .notProject),
    (": Elsewhere", "init() { super.init(limits: .init()) }", .unknown),
  ])
  func anImplicitInitPassedToAnInitOfTheEnclosingTypeCreatesItsParameterType(
    inheritance: String, member: String, created: InitCallFinder.ContextualType
  ) throws {
    let project = makeProject([
      "Widget.swift": "import UIKit\nfinal class Widget { init() {} }\nstruct Limits { init() {} }\nclass Base { init(limits: Limits) {} }",
      // A root class declares the init its own calls take; a subclass's come from its superclass.
      "Screen.swift": "import UIKit\nfinal class Screen\(inheritance) {\n  \(inheritance.isEmpty ? "init(limits: Limits) {}\n  " : "")"
        + "func show(_ widget: Widget) {}\n  \(member)\n}",
    ])
    let found = try InitCallFinder.calls(of: ["Widget"], superclassOf: [:], project: project)
    let implicit = found.unrewritable.filter { $0.path.hasSuffix("Screen.swift") }
    #expect(implicit.count == 1, "\(inheritance) \(member)")
    let slot = try #require(implicit.first?.argument, "\(inheritance) \(member)")
    #expect(InitCallFinder.argumentType(of: slot, index: project.index) == created, "\(inheritance) \(member)")
  }

  /// The table finds what the code holds: each kind of creation, once.
  @Test func eachKindOfCreationIsFound() throws {
    let project = makeProject(Self.files)
    let found = try InitCallFinder.calls(
      of: ["Badge", "Card", "Feed.Cell", "Shop.Cell", "Tag", "Base"], superclassOf: Self.subclasses, project: project)
    let lines = Self.describe(found).sorted()
    #expect(
      lines == [
        "call Nested.swift:41 Badge",
        "call Nested.swift:54 Card",
        "call Nested.swift:66 Tag",
        "call Nested.swift:115 Badge",
        "call Nested.swift:129 Card",
        "call Screens.swift:35 Badge",
        "call Screens.swift:70 Card",
        "call Screens.swift:123 Card",
        "call Screens.swift:141 Card",
        "call Screens.swift:261 Feed.Cell",
        "call Screens.swift:285 Tag",
        "call Screens.swift:381 Feed.Cell",
        "call Types.swift:230 Base super",
        "call Types.swift:358 Tag self",
        "call Types.swift:415 Tag",
        "implicitMember Screens.swift:202 -",
        "ambiguous Screens.swift:226 Feed.Cell",
        "functionReference Screens.swift:179 Badge",
      ].sorted())
  }

  static func describe(_ found: (calls: [InitCall], unrewritable: [UnrewritableCreation])) -> [String] {
    found.calls.map { call in
      "call \(call.path):\(call.call.positionAfterSkippingLeadingTrivia.utf8Offset) \(call.typeName)"
        + (call.isSuperInit ? " super" : "") + (call.isSelfInit ? " self" : "")
    } + found.unrewritable.map { "\($0.kind) \($0.path):\($0.offset) \($0.typeName ?? "-")" }
  }
}

/// A file is visited for creations from the tokens that can name one (a type's name, `Self`,
/// `init`): on every sample, what that finds is what a walk of the whole tree finds, in its order.
@Suite struct DirectedCreationVisitTests {
  @Test func findsWhatAWalkOfTheWholeTreeFindsOnEverySample() throws {
    var compared = 0
    var calls = 0
    for (_, directory) in try sampleDirectories() {
      let paths = try FileLoader().swiftFiles(in: [directory]).files
      let project = Project(index: IndexBuilder().build(paths: paths))
      let index = project.index
      let declared = index.files.flatMap(\.types).filter { !$0.isExtension }
      let types = Set(declared.map(\.qualifiedName))
      var subclasses: [String: String] = [:]
      for type in declared where type.kind == .class {
        if let parent = type.inherited.first.map(index.resolveType), types.contains(parent) { subclasses[type.qualifiedName] = parent }
      }
      // All of them, and a few at a time (`deep` and what is asked differ).
      let sets = [types] + types.sorted().chunked(into: 3).map(Set.init)
      for path in paths {
        let file = try project.file(path)
        for set in sets {
          let simpleNames = InitCallFinder.Visitor.names(of: set, index: index).map { Array($0.utf8) }
          let deep = simpleNames.contains { name in !occurrences(of: [name], in: file.source.bytes).isEmpty }
          let whole = InitCallFinder.Visitor(types: set, subclasses: subclasses, index: index, path: path, deep: deep)
          whole.walk(file.tree)
          let directed = InitCallFinder.walk(file, types: set, subclasses: subclasses, index: index)
          #expect(
            CreationTableTests.describe((directed.found, directed.unrewritable))
              == CreationTableTests.describe((whole.found, whole.unrewritable)), "\(path)")
          #expect(directed.ambiguousCandidates == whole.ambiguousCandidates, "\(path)")
          compared += 1
          calls += whole.found.count
        }
      }
    }
    #expect(compared > 1_000 && calls > 300)
  }
}

extension Array {
  fileprivate func chunked(into size: Int) -> [[Element]] {
    stride(from: 0, to: count, by: size).map { Array(self[$0..<Swift.min($0 + size, count)]) }
  }
}
