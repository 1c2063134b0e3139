import DesingletonCore
import DesingletonIndex
@testable import DesingletonPlanner
import Foundation
import Testing

/// One test per signature hazard of `extract-protocol`: the planner runs on inline sources, the
/// whole text of every changed or new file is compared, everything is type-checked together in
/// Swift 6 mode (with a few lines that use the new protocols), and a second run plans nothing.
@Suite struct ExtractProtocolPlannerTests {
  // MARK: Signatures

  @Test func defaultArgumentsGetOverloadsInAProtocolExtension() throws {
    try expectExtraction(
      [
        "Store.swift": """
        @MainActor
        final class Store {
          static let shared = Store()
          func load(limit: Int = 3, offset: Int = 0) -> [Int] {
            Array(offset..<offset + limit)
          }
        }

        """,
        "Feed.swift": """
        @MainActor
        final class Feed {
          func show() {
            _ = Store.shared.load()
            _ = Store.shared.load(limit: 2)
            _ = Store.shared.load(offset: 1)
            _ = Store.shared.load(limit: 2, offset: 1)
          }
        }

        """,
      ],
      singleton: "Store", slices: [Slice(name: "Loader", members: ["load"])],
      produces: [
        "Store.swift": """
        @MainActor
        final class Store {
          static let shared = Store()
          func load(limit: Int = 3, offset: Int = 0) -> [Int] {
            Array(offset..<offset + limit)
          }
        }

        extension Store: Loader {}

        """,
        "Loader.swift": """
        @MainActor
        protocol Loader: AnyObject, Sendable {
          func load(limit: Int, offset: Int) -> [Int]
        }

        @MainActor
        extension Loader {
          func load(limit: Int) -> [Int] {
            load(limit: limit, offset: 0)
          }

          func load(offset: Int) -> [Int] {
            load(limit: 3, offset: offset)
          }

          func load() -> [Int] {
            load(limit: 3, offset: 0)
          }
        }

        """,
      ],
      compilingWith: [
        "UseLoader.swift": """
        @MainActor
        func useLoader() {
          let x: any Loader = Store.shared
          _ = x.load()
          _ = x.load(limit: 2)
          _ = x.load(offset: 1)
          _ = x.load(limit: 2, offset: 1)
          _ = Store.shared.load()
          _ = Store.shared.load(limit: 2)
          _ = Store.shared.load(offset: 1)
          _ = generic(Store.shared)
        }

        @MainActor
        func generic<L: Loader>(_ loader: L) -> [Int] {
          loader.load() + loader.load(limit: 1) + loader.load(offset: 2)
        }

        """
      ])
  }

  @Test func defaultValuesNamingStaticMembersAreQualified() throws {
    let pager = """
      @MainActor
      final class Pager {
        static let shared = Pager()
        static let pageSize = 20
        static let firstPage = 1
        func page(size: Int = pageSize, from start: Int = Pager.firstPage) -> [Int] {
          Array(start..<start + size)
        }
      }

      """
    try expectExtraction(
      ["Pager.swift": pager],
      singleton: "Pager", slices: [Slice(name: "Paging", members: ["page"])],
      produces: [
        "Pager.swift": pager + "\nextension Pager: Paging {}\n",
        "Paging.swift": """
        @MainActor
        protocol Paging: AnyObject, Sendable {
          func page(size: Int, from start: Int) -> [Int]
        }

        @MainActor
        extension Paging {
          func page(size: Int) -> [Int] {
            page(size: size, from: Pager.firstPage)
          }

          func page(from start: Int) -> [Int] {
            page(size: Pager.pageSize, from: start)
          }

          func page() -> [Int] {
            page(size: Pager.pageSize, from: Pager.firstPage)
          }
        }

        """,
      ],
      compilingWith: [
        "UsePaging.swift": """
        @MainActor
        func usePaging() -> Int {
          let paging: any Paging = Pager.shared
          return paging.page().count + paging.page(size: 2).count + paging.page(from: 3).count
        }

        """
      ])
  }

  /// A default value reading a member through the accessor reads it from `self` in the protocol
  /// extension (the instance the overload is called on), so the accessor is used no more than before;
  /// a default that is the accessor itself, or reads what the protocol does not declare, keeps the
  /// member on the singleton.
  /// A default value reading a member through the accessor reads it from `self` in the protocol
  /// extension (the instance the overload is called on), so the accessor is used no more than before;
  /// a default that is the accessor itself, or reads what the protocol does not declare, gets no
  /// overload leaving it out: a call leaving it out keeps the accessor, which inject reports.
  @Test func defaultValuesReadingTheAccessorReadSelfInOverloads() throws {
    let store = """
      @MainActor
      final class Store {
        static let shared = Store()
        var pageSize = 20
        var title = "store"
        func page(size: Int = Store.shared.pageSize) -> [Int] {
          Array(0..<size)
        }
        func label(_ text: String = Store.shared.title, suffix: String = "") -> String {
          text + suffix
        }
        func merge(with other: Store = Store.shared) -> Int {
          other.pageSize
        }
      }

      """
    try expectExtraction(
      ["Store.swift": store],
      singleton: "Store", slices: [Slice(name: "Paging", members: ["pageSize", "page", "label", "merge"])],
      produces: [
        "Store.swift": store + "\nextension Store: Paging {}\n",
        "Paging.swift": """
        @MainActor
        protocol Paging: AnyObject, Sendable {
          var pageSize: Int { get }
          func page(size: Int) -> [Int]
          func label(_ text: String, suffix: String) -> String
          func merge(with other: Store) -> Int
        }

        @MainActor
        extension Paging {
          func page() -> [Int] {
            page(size: self.pageSize)
          }

          func label(_ text: String) -> String {
            label(text, suffix: "")
          }
        }

        """,
      ],
      notes: [
        "Paging: pageSize, page, label, merge -> Paging.swift",
        "  label(_:suffix:): no overload leaves out 'text': its default value 'Store.shared.title' reads the accessor, which the overload would use once more",
        "  merge(with:): no overload leaves out 'other': its default value 'Store.shared' reads the accessor, which the overload would use once more",
        "left on Store only: title",
      ],
      compilingWith: [
        "UsePaging.swift": """
        @MainActor
        func usePaging() -> Int {
          let paging: any Paging = Store.shared
          return paging.page().count + paging.page(size: 2).count + paging.label("a").count + paging.merge(with: Store.shared)
        }

        """
      ])
  }

  @Test func aDefaultValueUsingPrivateStateIsRefused() throws {
    // `Pager.secret` cannot be reached from a protocol extension in another file.
    let files = [
      "Pager.swift": """
      @MainActor
      final class Pager {
        static let shared = Pager()
        private static let secret = 3
        func hidden(limit: Int = secret) -> Int { limit }
      }

      """
    ]
    let project = makeProject(files)
    let singleton = try #require(project.index.singletons.first)
    let options = ExtractProtocolOptions(slices: [Slice(name: "Hiding", members: ["hidden"])])
    let refusal = try #require(throws: Refusal.self) {
      try ExtractProtocolPlanner.plan(singleton: singleton, options: options, project: project)
    }
    #expect(refusal.diagnostics.count == 1)
    #expect(refusal.diagnostics.first?.severity == .error)
    #expect(refusal.diagnostics.first?.location?.path == "Pager.swift")
    #expect(refusal.diagnostics.first?.location?.line == 5)
    #expect(refusal.diagnostics.first?.message.contains("'secret'") == true)
  }

  @Test func aMethodNameCoversItsOverloads() throws {
    // `load()` is a requirement already: the extension must not add a second `load()` as a default
    // implementation of it (a conformer that lacks `load()` would silently get `load(limit: 3)`).
    let store = """
      @MainActor
      final class Store {
        static let shared = Store()
        func load() -> [Int] {
          []
        }
        func load(limit: Int = 3) -> [Int] {
          Array(0..<limit)
        }
        func load(ids: [Int], limit: Int = 10) -> [Int] {
          Array(ids.prefix(limit))
        }
      }

      """
    try expectExtraction(
      ["Store.swift": store],
      singleton: "Store", slices: [Slice(name: "Loader", members: ["load"])],
      produces: [
        "Store.swift": store + "\nextension Store: Loader {}\n",
        "Loader.swift": """
        @MainActor
        protocol Loader: AnyObject, Sendable {
          func load() -> [Int]
          func load(limit: Int) -> [Int]
          func load(ids: [Int], limit: Int) -> [Int]
        }

        @MainActor
        extension Loader {
          func load(ids: [Int]) -> [Int] {
            load(ids: ids, limit: 10)
          }
        }

        """,
      ],
      compilingWith: [
        "UseLoader.swift": """
        @MainActor
        func useLoader() -> Int {
          let loader: any Loader = Store.shared
          return loader.load().count + loader.load(limit: 1).count + loader.load(ids: [1]).count
            + Store.shared.load().count + Store.shared.load(ids: [2]).count
        }

        """
      ])
  }

  @Test func genericsWithWhereClauses() throws {
    try expectExtraction(
      [
        "Store.swift": """
        @MainActor
        final class Store {
          static let shared = Store()
          func sorted<T: Comparable>(_ items: [T], limit: Int = 10) -> [T] where T: Sendable {
            Array(items.sorted().prefix(limit))
          }
          func firstMatch<C: Collection>(in items: C, _ predicate: (C.Element) -> Bool) -> C.Element? where C.Element: Equatable {
            items.first(where: predicate)
          }
        }

        """
      ],
      singleton: "Store", slices: [Slice(name: "Sorting", members: ["sorted", "firstMatch"])],
      produces: [
        "Store.swift": """
        @MainActor
        final class Store {
          static let shared = Store()
          func sorted<T: Comparable>(_ items: [T], limit: Int = 10) -> [T] where T: Sendable {
            Array(items.sorted().prefix(limit))
          }
          func firstMatch<C: Collection>(in items: C, _ predicate: (C.Element) -> Bool) -> C.Element? where C.Element: Equatable {
            items.first(where: predicate)
          }
        }

        extension Store: Sorting {}

        """,
        "Sorting.swift": """
        @MainActor
        protocol Sorting: AnyObject, Sendable {
          func sorted<T: Comparable>(_ items: [T], limit: Int) -> [T] where T: Sendable
          func firstMatch<C: Collection>(in items: C, _ predicate: (C.Element) -> Bool) -> C.Element? where C.Element: Equatable
        }

        @MainActor
        extension Sorting {
          func sorted<T: Comparable>(_ items: [T]) -> [T] where T: Sendable {
            sorted(items, limit: 10)
          }
        }

        """,
      ],
      compilingWith: [
        "UseSorting.swift": """
        @MainActor
        func useSorting() {
          let sorting: any Sorting = Store.shared
          _ = sorting.sorted([3, 1, 2])
          _ = sorting.sorted(["b", "a"], limit: 1)
          _ = sorting.firstMatch(in: [1, 2, 3]) { $0 > 1 }
          _ = Store.shared.sorted([2, 1])
        }

        """
      ])
  }

  @Test func asyncThrowsIsKeptAndOverloadsTryAwait() throws {
    try expectExtraction(
      [
        "Client.swift": """
        @MainActor
        final class Client {
          static let shared = Client()
          func fetch(id: Int, retries: Int = 2) async throws -> String {
            "item \\(id) after \\(retries)"
          }
        }

        """
      ],
      singleton: "Client", slices: [Slice(name: "ItemFetcher", members: ["fetch"])],
      produces: [
        "Client.swift": """
        @MainActor
        final class Client {
          static let shared = Client()
          func fetch(id: Int, retries: Int = 2) async throws -> String {
            "item \\(id) after \\(retries)"
          }
        }

        extension Client: ItemFetcher {}

        """,
        "ItemFetcher.swift": """
        @MainActor
        protocol ItemFetcher: AnyObject, Sendable {
          func fetch(id: Int, retries: Int) async throws -> String
        }

        @MainActor
        extension ItemFetcher {
          func fetch(id: Int) async throws -> String {
            try await fetch(id: id, retries: 2)
          }
        }

        """,
      ],
      compilingWith: [
        "UseFetcher.swift": """
        @MainActor
        func useFetcher() async throws {
          let fetcher: any ItemFetcher = Client.shared
          _ = try await fetcher.fetch(id: 1)
          _ = try await fetcher.fetch(id: 1, retries: 0)
          _ = try await Client.shared.fetch(id: 2)
        }

        """
      ])
  }

  /// An overload passes an `@autoclosure` parameter on as its value (`check(condition(), "")`).
  @Test func anAutoclosureIsPassedOnAsItsValue() throws {
    let validator = """
      @MainActor
      final class Validator {
        static let shared = Validator()
        func check(_ condition: @autoclosure () -> Bool, _ message: String = "") -> Bool {
          condition() || message.isEmpty
        }
      }

      """
    try expectExtraction(
      ["Validator.swift": validator],
      singleton: "Validator", slices: [Slice(name: "Checking", members: ["check"])],
      produces: [
        "Validator.swift": validator + "\nextension Validator: Checking {}\n",
        "Checking.swift": """
        @MainActor
        protocol Checking: AnyObject, Sendable {
          func check(_ condition: @autoclosure () -> Bool, _ message: String) -> Bool
        }

        @MainActor
        extension Checking {
          func check(_ condition: @autoclosure () -> Bool) -> Bool {
            check(condition(), "")
          }
        }

        """,
      ],
      compilingWith: [
        "UseChecking.swift": """
        @MainActor
        func useChecking() -> Bool {
          let checking: any Checking = Validator.shared
          return checking.check(1 < 2) && checking.check(true, "x")
        }

        """
      ])
  }

  /// An overload that leaves out every throwing closure of a `rethrows` method throws only if the
  /// defaults it passes do: `rethrows` with no closure to rethrow does not compile.
  @Test func aRethrowsOverloadWithoutItsClosureThrowsAsItsDefaultsDo() throws {
    let store = """
      @MainActor
      final class Store {
        static let shared = Store()
        var items = [3, 1, 2]
        func sorted(by order: (Int, Int) throws -> Bool = { $0 < $1 }) rethrows -> [Int] {
          try items.sorted(by: order)
        }
        func first(where match: (Int) throws -> Bool = { _ in throw StoreError.none }, limit: Int = 1) rethrows -> Int? {
          try items.prefix(limit).first(where: match)
        }
      }

      enum StoreError: Error { case none }

      """
    try expectExtraction(
      ["Store.swift": store],
      singleton: "Store", slices: [Slice(name: "Sorting", members: ["sorted", "first"])],
      produces: [
        "Store.swift": store + "\nextension Store: Sorting {}\n",
        "Sorting.swift": """
        @MainActor
        protocol Sorting: AnyObject, Sendable {
          func sorted(by order: (Int, Int) throws -> Bool) rethrows -> [Int]
          func first(where match: (Int) throws -> Bool, limit: Int) rethrows -> Int?
        }

        @MainActor
        extension Sorting {
          func sorted() -> [Int] {
            sorted(by: { $0 < $1 })
          }

          func first(where match: (Int) throws -> Bool) rethrows -> Int? {
            try first(where: match, limit: 1)
          }

          func first(limit: Int) throws -> Int? {
            try first(where: { _ in throw StoreError.none }, limit: limit)
          }

          func first() throws -> Int? {
            try first(where: { _ in throw StoreError.none }, limit: 1)
          }
        }

        """,
      ],
      compilingWith: [
        "UseSorting.swift": """
        @MainActor
        func useSorting() throws -> [Int] {
          let sorting: any Sorting = Store.shared
          let first = try sorting.first() ?? sorting.first(where: { $0 > 1 }) ?? 0
          return sorting.sorted() + [first] + (try sorting.first(limit: 2).map { [$0] } ?? [])
        }

        """
      ])
  }

  @Test func typedThrowsIsKept() throws {
    try expectExtraction(
      [
        "NumberReader.swift": """
        enum ParseError: Error {
          case notANumber
        }

        @MainActor
        final class NumberReader {
          static let shared = NumberReader()
          func parse(_ text: String, radix: Int = 10) throws(ParseError) -> Int {
            guard let value = Int(text, radix: radix) else { throw .notANumber }
            return value
          }
        }

        """
      ],
      singleton: "NumberReader", slices: [Slice(name: "NumberParsing", members: ["parse"])],
      produces: [
        "NumberReader.swift": """
        enum ParseError: Error {
          case notANumber
        }

        @MainActor
        final class NumberReader {
          static let shared = NumberReader()
          func parse(_ text: String, radix: Int = 10) throws(ParseError) -> Int {
            guard let value = Int(text, radix: radix) else { throw .notANumber }
            return value
          }
        }

        extension NumberReader: NumberParsing {}

        """,
        "NumberParsing.swift": """
        @MainActor
        protocol NumberParsing: AnyObject, Sendable {
          func parse(_ text: String, radix: Int) throws(ParseError) -> Int
        }

        @MainActor
        extension NumberParsing {
          func parse(_ text: String) throws(ParseError) -> Int {
            try parse(text, radix: 10)
          }
        }

        """,
      ],
      compilingWith: [
        "UseParsing.swift": """
        @MainActor
        func useParsing() {
          let parsing: any NumberParsing = NumberReader.shared
          do throws(ParseError) {
            _ = try parsing.parse("12")
            _ = try parsing.parse("ff", radix: 16)
          } catch {
            let typed: ParseError = error
            _ = typed
          }
        }

        """
      ])
  }

  @Test func inoutParametersArePassedWithAmpersand() throws {
    try expectExtraction(
      [
        "Counter.swift": """
        @MainActor
        final class Counter {
          static let shared = Counter()
          func bump(_ value: inout Int, by step: Int = 1) {
            value += step
          }
          func swapPair(_ a: inout String, _ b: inout String) {
            swap(&a, &b)
          }
        }

        """
      ],
      singleton: "Counter", slices: [Slice(name: "Bumping", members: ["bump", "swapPair"])],
      produces: [
        "Counter.swift": """
        @MainActor
        final class Counter {
          static let shared = Counter()
          func bump(_ value: inout Int, by step: Int = 1) {
            value += step
          }
          func swapPair(_ a: inout String, _ b: inout String) {
            swap(&a, &b)
          }
        }

        extension Counter: Bumping {}

        """,
        "Bumping.swift": """
        @MainActor
        protocol Bumping: AnyObject, Sendable {
          func bump(_ value: inout Int, by step: Int)
          func swapPair(_ a: inout String, _ b: inout String)
        }

        @MainActor
        extension Bumping {
          func bump(_ value: inout Int) {
            bump(&value, by: 1)
          }
        }

        """,
      ],
      compilingWith: [
        "UseBumping.swift": """
        @MainActor
        func useBumping() {
          let bumping: any Bumping = Counter.shared
          var number = 1
          bumping.bump(&number)
          bumping.bump(&number, by: 2)
          var a = "a"
          var b = "b"
          bumping.swapPair(&a, &b)
        }

        """
      ])
  }

  @Test func mutatingIsKeptForAStructSingleton() throws {
    try expectExtraction(
      [
        "Tally.swift": """
        @MainActor
        struct Tally {
          static var shared = Tally()
          var count: Int = 0
          mutating func increment(by step: Int = 1) {
            count += step
          }
          func describe() -> String {
            "\\(count)"
          }
        }

        """,
        "Clicker.swift": """
        @MainActor
        final class Clicker {
          func click() -> String {
            Tally.shared.increment()
            return Tally.shared.describe() + "\\(Tally.shared.count)"
          }
        }

        """,
      ],
      singleton: "Tally", slices: [Slice(name: "Tallying", members: ["count", "increment", "describe"])],
      produces: [
        "Tally.swift": """
        @MainActor
        struct Tally {
          static var shared = Tally()
          var count: Int = 0
          mutating func increment(by step: Int = 1) {
            count += step
          }
          func describe() -> String {
            "\\(count)"
          }
        }

        extension Tally: Tallying {}

        """,
        "Tallying.swift": """
        @MainActor
        protocol Tallying {
          var count: Int { get }
          mutating func increment(by step: Int)
          func describe() -> String
        }

        @MainActor
        extension Tallying {
          mutating func increment() {
            increment(by: 1)
          }
        }

        """,
      ],
      compilingWith: [
        "UseTallying.swift": """
        @MainActor
        func useTallying() -> String {
          var tally: any Tallying = Tally.shared
          tally.increment()
          tally.increment(by: 2)
          return tally.describe() + "\\(tally.count)"
        }

        """
      ])
  }

  @Test func aClassSingletonsProtocolHasNoMutatingAndIsClassBound() throws {
    // A class method is never `mutating`; its protocol must be class-bound so that a setter through a
    // `let` existential compiles (a `mutating` requirement there would not: SWIFT-FACTS 4).
    try expectExtraction(
      [
        "Tally.swift": """
        @MainActor
        final class Tally {
          static let shared = Tally()
          var count: Int = 0
          func increment(by step: Int = 1) {
            count += step
          }
        }

        """,
        "Clicker.swift": """
        @MainActor
        final class Clicker {
          func click() {
            Tally.shared.increment()
            Tally.shared.count = 0
          }
        }

        """,
      ],
      singleton: "Tally", slices: [Slice(name: "Tallying", members: ["count", "increment"])],
      produces: [
        "Tally.swift": """
        @MainActor
        final class Tally {
          static let shared = Tally()
          var count: Int = 0
          func increment(by step: Int = 1) {
            count += step
          }
        }

        extension Tally: Tallying {}

        """,
        "Tallying.swift": """
        @MainActor
        protocol Tallying: AnyObject, Sendable {
          var count: Int { get set }
          func increment(by step: Int)
        }

        @MainActor
        extension Tallying {
          func increment() {
            increment(by: 1)
          }
        }

        """,
      ],
      compilingWith: [
        "UseTallying.swift": """
        @MainActor
        func useTallying() {
          let tally: any Tallying = Tally.shared
          tally.increment()
          tally.count = 3
        }

        """
      ])
  }

  @Test func staticMembersBecomeStaticRequirements() throws {
    try expectExtraction(
      [
        "Settings.swift": """
        @MainActor
        final class Settings {
          static let shared = Settings()
          static let defaultName = "guest"
          static func make(name: String) -> String {
            name.uppercased()
          }
          var name: String = Settings.defaultName
        }

        """
      ],
      singleton: "Settings", slices: [Slice(name: "Naming", members: ["name", "defaultName", "make"])],
      produces: [
        "Settings.swift": """
        @MainActor
        final class Settings {
          static let shared = Settings()
          static let defaultName = "guest"
          static func make(name: String) -> String {
            name.uppercased()
          }
          var name: String = Settings.defaultName
        }

        extension Settings: Naming {}

        """,
        "Naming.swift": """
        @MainActor
        protocol Naming: AnyObject, Sendable {
          var name: String { get }
          static var defaultName: String { get }
          static func make(name: String) -> String
        }

        """,
      ],
      compilingWith: [
        "UseNaming.swift": """
        @MainActor
        func useNaming<N: Naming>(_ type: N.Type, _ instance: N) -> String {
          N.make(name: N.defaultName) + instance.name
        }

        @MainActor
        func useSettings() -> String {
          useNaming(Settings.self, Settings.shared)
        }

        """
      ])
  }

  @Test func nestedTypesAreQualified() throws {
    let store = """
      @MainActor
      final class Store {
        enum State: Sendable {
          case idle, loading
        }
        typealias Handler = @MainActor (State) -> Void
        static let shared = Store()
        var state: State = .idle
        var history: [State] = []
        func observe(_ handler: @escaping Handler) {
          handler(state)
        }
        func transition(to next: State, animated: Bool = false) -> Result<State, Never> {
          state = next
          return .success(next)
        }
        func reset(to initial: State = .idle) {
          state = initial
        }
      }

      """
    try expectExtraction(
      ["Store.swift": store],
      singleton: "Store",
      slices: [Slice(name: "StateMachine", members: ["state", "history", "observe", "transition", "reset"])],
      produces: [
        "Store.swift": store + "\nextension Store: StateMachine {}\n",
        "StateMachine.swift": """
        @MainActor
        protocol StateMachine: AnyObject, Sendable {
          var state: Store.State { get }
          var history: [Store.State] { get }
          func observe(_ handler: @escaping Store.Handler)
          func transition(to next: Store.State, animated: Bool) -> Result<Store.State, Never>
          func reset(to initial: Store.State)
        }

        @MainActor
        extension StateMachine {
          func transition(to next: Store.State) -> Result<Store.State, Never> {
            transition(to: next, animated: false)
          }

          func reset() {
            reset(to: .idle)
          }
        }

        """,
      ],
      compilingWith: [
        "UseStateMachine.swift": """
        @MainActor
        func useStateMachine() {
          let machine: any StateMachine = Store.shared
          machine.observe { _ in }
          _ = machine.transition(to: .loading)
          machine.reset()
          _ = machine.history.count + (machine.state == .idle ? 0 : 1)
        }

        """
      ])
  }

  // MARK: Property types

  @Test func inferredPropertyTypes() throws {
    let store = """
      struct Cart {
        var items: [String] = []
      }

      @MainActor
      final class Store {
        static let shared = Store()
        var count = 0
        var names = [String]()
        var cache = [String: Int]()
        var cart = Cart()
        var spare = Cart.init()
        var tags = Set<String>()
        var ratio = 0.5
        var title = "Shop"
        var isOpen = false
        let limit = -1
      }

      """
    try expectExtraction(
      ["Store.swift": store],
      singleton: "Store",
      slices: [
        Slice(
          name: "StoreState",
          members: ["count", "names", "cache", "cart", "spare", "tags", "ratio", "title", "isOpen", "limit"])
      ],
      produces: [
        "Store.swift": store + "\nextension Store: StoreState {}\n",
        "StoreState.swift": """
        @MainActor
        protocol StoreState: AnyObject, Sendable {
          var count: Int { get }
          var names: [String] { get }
          var cache: [String: Int] { get }
          var cart: Cart { get }
          var spare: Cart { get }
          var tags: Set<String> { get }
          var ratio: Double { get }
          var title: String { get }
          var isOpen: Bool { get }
          var limit: Int { get }
        }

        """,
      ])
  }

  @Test func anUninferablePropertyTypeIsRefusedWithItsLocation() throws {
    let files = [
      "Store.swift": """
      func makeThing() -> Int { 1 }

      @MainActor
      final class Store {
        static let shared = Store()
        var count = 0
        var x = makeThing()
      }

      """
    ]
    try expectRefusal(
      files, singleton: "Store", slices: [Slice(name: "Things", members: ["count", "x"])],
      "Store.swift:7:3: error: 'x' cannot be in slice 'Things': cannot infer the type of 'x'; add a type annotation; leave it out of the slice")
  }

  @Test func aTypeWithAFailableInitIsNotInferred() throws {
    let files = [
      "Store.swift": """
      struct Thing {
        init?(seed: Int) {}
      }

      @MainActor
      final class Store {
        static let shared = Store()
        var thing = Thing(seed: 1)
      }

      """
    ]
    try expectRefusal(
      files, singleton: "Store", slices: [Slice(name: "Things", members: ["thing"])],
      "Store.swift:8:3: error: 'thing' cannot be in slice 'Things': cannot infer the type of 'thing'; add a type annotation; leave it out of the slice")
  }

  @Test func privateSetBecomesGetOnly() throws {
    let store = """
      @MainActor
      final class Store {
        static let shared = Store()
        private(set) var count = 0
        func increment() {
          count += 1
        }
      }

      """
    try expectExtraction(
      [
        "Store.swift": store,
        "Badge.swift": """
        @MainActor
        final class Badge {
          func tap() -> Int {
            Store.shared.increment()
            return Store.shared.count
          }
        }

        """,
      ],
      singleton: "Store", slices: [Slice(name: "Counting", members: ["count", "increment"])],
      produces: [
        "Store.swift": store + "\nextension Store: Counting {}\n",
        "Counting.swift": """
        @MainActor
        protocol Counting: AnyObject, Sendable {
          var count: Int { get }
          func increment()
        }

        """,
      ])
  }

  @Test func aVarWrittenByAConsumerIsGetSetAndOneOnlyReadIsGet() throws {
    let session = """
      @MainActor
      final class Session {
        static let shared = Session()
        var user: String?
        var theme: String = "light"
      }

      """
    try expectExtraction(
      [
        "Session.swift": session,
        "Screens.swift": """
        @MainActor
        final class Login {
          func logIn() {
            Session.shared.user = "me"
          }
        }

        @MainActor
        final class Appearance {
          func current() -> String {
            Session.shared.theme
          }
        }

        """,
      ],
      singleton: "Session", slices: [Slice(name: "SessionState", members: ["user", "theme"])],
      produces: [
        "Session.swift": session + "\nextension Session: SessionState {}\n",
        "SessionState.swift": """
        @MainActor
        protocol SessionState: AnyObject, Sendable {
          var user: String? { get set }
          var theme: String { get }
        }

        """,
      ],
      compilingWith: [
        "UseSessionState.swift": """
        @MainActor
        func useSessionState() -> String {
          let state: any SessionState = Session.shared
          state.user = "you"
          return (state.user ?? "") + state.theme
        }

        """
      ])
  }

  // MARK: Isolation and access

  @Test func mainActorSingletonGetsAMainActorSendableProtocol() throws {
    let counter = """
      @MainActor
      final class Counter {
        static let shared = Counter()
        var value: Int = 0
        func increment() {
          value += 1
        }
      }

      """
    try expectExtraction(
      ["Counter.swift": counter],
      singleton: "Counter", slices: [Slice(name: "Counting", members: ["value", "increment"])],
      produces: [
        "Counter.swift": counter + "\nextension Counter: Counting {}\n",
        "Counting.swift": """
        @MainActor
        protocol Counting: AnyObject, Sendable {
          var value: Int { get }
          func increment()
        }

        """,
      ],
      compilingWith: [
        // A Sendable holder of the existential compiles only when the protocol is Sendable (SWIFT-FACTS 2).
        "Refresher.swift": """
        final class Refresher: Sendable {
          let counter: any Counting

          init(counter: any Counting) {
            self.counter = counter
          }

          @MainActor func refresh() -> Int {
            counter.increment()
            return counter.value
          }
        }

        @MainActor
        func makeRefresher() -> Refresher {
          Refresher(counter: Counter.shared)
        }

        """
      ])
  }

  @Test func sendableFinalClassGetsASendableProtocol() throws {
    let clock = """
      final class Clock: Sendable {
        static let shared = Clock()
        let zone: String = "UTC"
        func now() -> Int {
          0
        }
      }

      """
    try expectExtraction(
      ["Clock.swift": clock],
      singleton: "Clock", slices: [Slice(name: "TimeProvider", members: ["zone", "now"])],
      produces: [
        "Clock.swift": clock + "\nextension Clock: TimeProvider {}\n",
        "TimeProvider.swift": """
        protocol TimeProvider: AnyObject, Sendable {
          var zone: String { get }
          func now() -> Int
        }

        """,
      ],
      compilingWith: [
        "UseTime.swift": """
        final class Report: Sendable {
          let clock: any TimeProvider = Clock.shared
        }

        func stamp() async -> Int {
          let report = Report()
          return await Task.detached { report.clock.now() }.value
        }

        """
      ])
  }

  @Test func actorSingletonGetsAnActorProtocol() throws {
    let cache = """
      actor ImageCache {
        static let shared = ImageCache()
        var hits = 0
        func record(key: String, weight: Int = 1) {
          hits += weight
        }
      }

      """
    try expectExtraction(
      ["ImageCache.swift": cache],
      singleton: "ImageCache", slices: [Slice(name: "CacheRecording", members: ["hits", "record"])],
      produces: [
        "ImageCache.swift": cache + "\nextension ImageCache: CacheRecording {}\n",
        "CacheRecording.swift": """
        protocol CacheRecording: Actor {
          var hits: Int { get }
          func record(key: String, weight: Int)
        }

        extension CacheRecording {
          func record(key: String) {
            record(key: key, weight: 1)
          }
        }

        """,
      ],
      compilingWith: [
        "UseCache.swift": """
        func useCache() async -> Int {
          let cache: any CacheRecording = ImageCache.shared
          await cache.record(key: "a")
          await cache.record(key: "b", weight: 2)
          await ImageCache.shared.record(key: "c")
          return await cache.hits
        }

        """
      ])
  }

  @Test func publicSingletonGetsPublicProtocolAndExtensionMembers() throws {
    let store = """
      @MainActor
      public final class Store {
        public static let shared = Store()
        public private(set) var count: Int = 0
        public func load(limit: Int = 3) -> [Int] {
          Array(0..<limit)
        }
        @discardableResult
        public func save(force: Bool = false) -> Bool {
          force
        }
      }

      """
    try expectExtraction(
      ["Store.swift": store],
      singleton: "Store", slices: [Slice(name: "Loader", members: ["count", "load", "save"])],
      produces: [
        "Store.swift": store + "\nextension Store: Loader {}\n",
        "Loader.swift": """
        @MainActor
        public protocol Loader: AnyObject, Sendable {
          var count: Int { get }
          func load(limit: Int) -> [Int]
          @discardableResult func save(force: Bool) -> Bool
        }

        @MainActor
        extension Loader {
          public func load() -> [Int] {
            load(limit: 3)
          }

          @discardableResult public func save() -> Bool {
            save(force: false)
          }
        }

        """,
      ],
      compilingWith: [
        "UseLoader.swift": """
        @MainActor
        public func useLoader(_ loader: any Loader) -> Int {
          loader.save()
          return loader.load().count + loader.count
        }

        """
      ])
  }

  @Test func aPrivateMemberInASliceIsRefusedWithItsLocation() throws {
    let files = [
      "Store.swift": """
      @MainActor
      final class Store {
        static let shared = Store()
        var count: Int = 0
        private var token: String = ""
        fileprivate func sign() {}
      }

      """
    ]
    try expectRefusal(
      files, singleton: "Store", slices: [Slice(name: "Auth", members: ["count", "token", "sign"])],
      """
      Store.swift:5:3: error: 'token' is private and cannot be a protocol requirement; make it internal or leave it out of the slice
      Store.swift:6:3: error: 'sign' is fileprivate and cannot be a protocol requirement; make it internal or leave it out of the slice
      """)
  }

  @Test func discardableResultIsKeptOnRequirementAndOverload() throws {
    let store = """
      @MainActor
      final class Store {
        static let shared = Store()
        @discardableResult func save(force: Bool = false) -> Bool {
          force
        }
      }

      """
    try expectExtraction(
      ["Store.swift": store],
      singleton: "Store", slices: [Slice(name: "Saving", members: ["save"])],
      produces: [
        "Store.swift": store + "\nextension Store: Saving {}\n",
        "Saving.swift": """
        @MainActor
        protocol Saving: AnyObject, Sendable {
          @discardableResult func save(force: Bool) -> Bool
        }

        @MainActor
        extension Saving {
          @discardableResult func save() -> Bool {
            save(force: false)
          }
        }

        """,
      ],
      compilingWith: [
        "UseSaving.swift": """
        @MainActor
        func useSaving() {
          let saving: any Saving = Store.shared
          saving.save()
          saving.save(force: true)
          Store.shared.save()
        }

        """
      ],
      warningsAreErrors: true)
  }

  @Test func aMemberDeclaredInEveryBranchOfAnIfIsOneRequirement() throws {
    let store = """
      final class Store: Sendable {
        static let shared = Store()
        #if os(Linux)
        var root: String { "/tmp" }
        #else
        var root: String { "/private/tmp" }
        #endif
        #if DEBUG
        var verbose: Bool { true }
        #endif
      }

      """
    try expectExtraction(
      ["Store.swift": store], singleton: "Store", slices: [Slice(name: "Rooted", members: ["root", "verbose"])],
      produces: [
        "Store.swift": store + "\nextension Store: Rooted {}\n",
        "Rooted.swift": """
        protocol Rooted: AnyObject, Sendable {
          var root: String { get }
          #if DEBUG
          var verbose: Bool { get }
          #endif
        }

        """,
      ])
  }

  @Test func aTypeDeclaredOncePerPlatformGetsOneProtocolUnderAnyOfItsConditions() throws {
    let store = """
      import Foundation

      #if os(Linux)
      import Glibc

      final class Store: Sendable {
        static let shared = Store()
        var stamp: Date { Date(timeIntervalSince1970: 0) }
        var pageSize: Int { Int(sysconf(Int32(_SC_PAGESIZE))) }
      }
      #elseif os(Windows)
      import WinSDK

      final class Store: Sendable {
        static let shared = Store()
        var stamp: Date { Date(timeIntervalSince1970: 0) }
        var handle: HANDLE? { nil }
      }
      #endif

      """
    try expectExtraction(
      ["Store.swift": store], singleton: "Store",
      slices: [Slice(name: "Stamping", members: ["stamp", "pageSize", "handle"])],
      produces: [
        "Store.swift": store + "\n#if os(Linux) || os(Windows)\nextension Store: Stamping {}\n#endif\n",
        "Stamping.swift": """
        import Foundation

        #if os(Linux)
        import Glibc
        #endif

        #if !os(Linux) && os(Windows)
        import WinSDK
        #endif

        #if os(Linux) || os(Windows)
        protocol Stamping: AnyObject, Sendable {
          var stamp: Date { get }
          #if os(Linux)
          var pageSize: Int { get }
          #endif
          #if !os(Linux) && os(Windows)
          var handle: HANDLE? { get }
          #endif
        }
        #endif

        """,
      ])
  }

  @Test func aProtocolImportsOnlyTheModulesItsRequirementsName() throws {
    let store = """
      import Foundation
      import Dispatch

      final class Store: Sendable {
        static let shared = Store()
        var name: String { "store" }
        var created: Date { Date(timeIntervalSince1970: 0) }
        let queue = DispatchQueue(label: "store")
      }

      """
    try expectExtraction(
      ["Store.swift": store], singleton: "Store",
      slices: [Slice(name: "Naming", members: ["name"]), Slice(name: "Dating", members: ["created"])],
      produces: [
        "Store.swift": store + "\nextension Store: Naming, Dating {}\n",
        "Naming.swift": """
        protocol Naming: AnyObject, Sendable {
          var name: String { get }
        }

        """,
        "Dating.swift": """
        import Foundation

        protocol Dating: AnyObject, Sendable {
          var created: Date { get }
        }

        """,
      ])
  }

  @Test func objcMembersMakeAnObjcProtocol() throws {
    // `@objc` needs the Objective-C runtime, which Linux lacks: the text is checked, not compiled.
    let bridge = """
      import Foundation

      @MainActor
      final class Bridge: NSObject {
        static let shared = Bridge()
        @objc func ping(_ value: Int) -> Int {
          value
        }
        @objc var name: String = ""
      }

      """
    // A consumer reaches `ping` through `#selector`: once it holds a `Pinging`, the selector names
    // the protocol's requirement, which must then be `@objc`.
    let button = """
      import Foundation

      @MainActor
      final class PingButton {
        var action: Selector { #selector(Bridge.shared.ping(_:)) }
        var title: String { Bridge.shared.name }
      }

      """
    try expectExtraction(
      ["Bridge.swift": bridge, "PingButton.swift": button],
      singleton: "Bridge", slices: [Slice(name: "Pinging", members: ["ping", "name"])],
      produces: [
        "Bridge.swift": bridge + "\nextension Bridge: Pinging {}\n",
        "Pinging.swift": """
        import Foundation

        @objc
        @MainActor
        protocol Pinging: AnyObject, Sendable {
          @objc func ping(_ value: Int) -> Int
          @objc var name: String { get }
        }

        """,
      ],
      compiles: false)
  }

  @Test func objcMembersThatNothingSelectsMakeASwiftProtocol() throws {
    let bridge = """
      import Foundation

      @MainActor
      final class Bridge: NSObject {
        static let shared = Bridge()
        @objc func ping(_ value: Int) -> Int {
          value
        }
        @objc var name: String = ""
        var timeout: (min: Int, max: Int) { (0, 1) }
      }

      """
    let expected = [
      "Bridge.swift": bridge + "\nextension Bridge: Pinging, Timing {}\n",
      "Pinging.swift": """
      @MainActor
      protocol Pinging: AnyObject, Sendable {
        func ping(_ value: Int) -> Int
      }

      """,
      "Timing.swift": """
      @MainActor
      protocol Timing: AnyObject, Sendable {
        var name: String { get }
        var timeout: (min: Int, max: Int) { get }
      }

      """,
    ]
    try expectExtraction(
      ["Bridge.swift": bridge], singleton: "Bridge",
      slices: [Slice(name: "Pinging", members: ["ping"]), Slice(name: "Timing", members: ["name", "timeout"])],
      produces: expected, compiles: false)
    // Linux has no Objective-C runtime, but the compiler checks `@objc` with interop turned on.
    #expect(try objcTypeCheckErrors(expected) == "")
  }

  @Test func membersOfAPrivateExtensionAreNoRequirements() throws {
    let files = [
      "Store.swift": """
      @MainActor
      final class Store {
        static let shared = Store()

        func initialize() {
          refresh()
        }
      }

      private extension Store {
        func refresh() {}
      }

      """,
      "App.swift": """
      @MainActor
      final class AppStart {
        func start() {
          Store.shared.initialize()
        }
      }

      """,
    ]
    try expectRefusal(
      files, singleton: "Store", slices: [Slice(name: "Initializing", members: ["initialize", "refresh"])],
      "Store.swift:11:3: error: 'refresh' is fileprivate and cannot be a protocol requirement; make it internal or leave it out of the slice")
    // Suggested slices leave it on the singleton.
    try expectExtraction(
      files, singleton: "Store", slices: nil,
      produces: [
        "Store.swift": files["Store.swift"]! + "\nextension Store: StoreProtocol {}\n",
        "StoreProtocol.swift": """
        @MainActor
        protocol StoreProtocol: AnyObject, Sendable {
          func initialize()
        }

        """,
      ])
  }

  // MARK: Options

  @Test func moveDerivedMovesOnlyWhatUsesItsOwnSlice() throws {
    try expectExtraction(
      [
        "Shop.swift": """
        @MainActor
        final class Shop {
          static let shared = Shop()
          var items: [String] = []
          var taxRate: Double = 0.2
          private var discount = 1

          /// How many items there are.
          var itemCount: Int {
            items.count
          }

          var total: Double { Double(items.count) * (1 + taxRate) }
          var discounted: Int { items.count - discount }
          func clear() {
            items = []
          }
        }

        """
      ],
      singleton: "Shop",
      slices: [
        Slice(name: "Inventory", members: ["items", "itemCount", "total", "discounted", "clear"]),
        Slice(name: "Pricing", members: ["taxRate"]),
      ],
      moveDerived: true,
      produces: [
        "Shop.swift": """
        @MainActor
        final class Shop {
          static let shared = Shop()
          var items: [String] = []
          var taxRate: Double = 0.2
          private var discount = 1

          var total: Double { Double(items.count) * (1 + taxRate) }
          var discounted: Int { items.count - discount }
          func clear() {
            items = []
          }
        }

        extension Shop: Inventory, Pricing {}

        """,
        "Inventory.swift": """
        @MainActor
        protocol Inventory: AnyObject, Sendable {
          var items: [String] { get }
          var itemCount: Int { get }
          var total: Double { get }
          var discounted: Int { get }
          func clear()
        }

        @MainActor
        extension Inventory {
          /// How many items there are.
          var itemCount: Int {
            items.count
          }
        }

        """,
        "Pricing.swift": """
        @MainActor
        protocol Pricing: AnyObject, Sendable {
          var taxRate: Double { get }
        }

        """,
      ],
      notes: [
        "Inventory: items, itemCount, total, discounted, clear -> Inventory.swift; moved to extension Inventory: itemCount",
        "  total stays on Shop: it uses members of other slices (taxRate)",
        "  discounted stays on Shop: it uses private state (discount)",
        "  clear stays on Shop: it changes the singleton's state",
        // `discount` is private: it could be in no slice, so it is not listed as left out.
        "Pricing: taxRate -> Pricing.swift",
      ],
      compilingWith: [
        "UseInventory.swift": """
        @MainActor
        func useInventory() -> Int {
          let inventory: any Inventory = Shop.shared
          return inventory.itemCount + Shop.shared.itemCount
        }

        """
      ])
  }

  @Test func splitMutableAddsAMutableProtocolRefiningTheReadOnlyOne() throws {
    let session = """
      @MainActor
      final class Session {
        static let shared = Session()
        var user: String?
        func logOut() {
          user = nil
        }
      }

      """
    try expectExtraction(
      [
        "Session.swift": session,
        "Screens.swift": """
        @MainActor
        final class Profile {
          func name() -> String? {
            Session.shared.user
          }
        }

        @MainActor
        final class Login {
          func logIn() {
            Session.shared.user = "me"
          }
        }

        """,
      ],
      singleton: "Session", slices: [Slice(name: "UserProvider", members: ["user", "logOut"])], splitMutable: true,
      produces: [
        "Session.swift": session + "\nextension Session: MutableUserProvider {}\n",
        "UserProvider.swift": """
        @MainActor
        protocol UserProvider: AnyObject, Sendable {
          var user: String? { get }
          func logOut()
        }

        @MainActor
        protocol MutableUserProvider: UserProvider {
          var user: String? { get set }
        }

        """,
      ],
      compilingWith: [
        "UseUserProvider.swift": """
        @MainActor
        func useUserProvider() -> String? {
          let writer: any MutableUserProvider = Session.shared
          writer.user = "you"
          let reader: any UserProvider = writer
          reader.logOut()
          return reader.user
        }

        """
      ])
  }

  // MARK: Bad slices

  static let plainStore = """
    @MainActor
    final class Store {
      static let shared = Store()
      var count: Int = 0
      func reload() {}
    }

    struct Cart {}

    """

  @Test func anUnknownMemberIsRefused() throws {
    try expectRefusal(
      ["Store.swift": Self.plainStore], singleton: "Store",
      slices: [Slice(name: "Counting", members: ["count", "nope"])],
      "Store.swift:1:1: error: 'Store' has no member 'nope'")
  }

  @Test func aMemberInTwoSlicesIsRefused() throws {
    try expectRefusal(
      ["Store.swift": Self.plainStore], singleton: "Store",
      slices: [Slice(name: "Counting", members: ["count", "reload"]), Slice(name: "Reloading", members: ["reload"])],
      "Store.swift:1:1: error: member 'reload' is named in two slices, 'Counting' and 'Reloading'")
  }

  @Test func aSliceNamedLikeAnExistingStructIsRefused() throws {
    try expectRefusal(
      ["Store.swift": Self.plainStore], singleton: "Store", slices: [Slice(name: "Cart", members: ["count"])],
      "Store.swift:8:1: error: slice 'Cart' clashes with struct 'Cart', which is not a protocol")
  }

  @Test func anExistingProtocolOfTheSameNameIsReused() throws {
    let store = """
      @MainActor
      final class Store {
        static let shared = Store()
        var count: Int = 0
        func load() {}
      }

      """
    try expectExtraction(
      [
        "Store.swift": store,
        "Loading.swift": """
        @MainActor
        protocol Loading: AnyObject {
          func load()
        }

        """,
      ],
      singleton: "Store",
      slices: [Slice(name: "Loading", members: ["load"]), Slice(name: "Counting", members: ["count"])],
      produces: [
        "Store.swift": store + "\nextension Store: Loading, Counting {}\n",
        "Counting.swift": """
        @MainActor
        protocol Counting: AnyObject, Sendable {
          var count: Int { get }
        }

        """,
      ],
      notes: ["Loading: exists already; conformance added", "Counting: count -> Counting.swift"])
  }

  // MARK: Formatting

  @Test func crlfFileWithFourSpacesGetsCRLFAndFourSpaces() throws {
    let store = """
      @MainActor
      final class Store {
          static let shared = Store()   
          // keep this comment and the trailing spaces above
          func load(limit: Int = 3) -> [Int] {
              Array(0..<limit)
          }
      }

      """.replacingOccurrences(of: "\n", with: "\r\n")
    try expectExtraction(
      ["Store.swift": store],
      singleton: "Store", slices: [Slice(name: "Loader", members: ["load"])],
      produces: [
        "Store.swift": store + "\r\nextension Store: Loader {}\r\n",
        "Loader.swift": """
        @MainActor
        protocol Loader: AnyObject, Sendable {
            func load(limit: Int) -> [Int]
        }

        @MainActor
        extension Loader {
            func load() -> [Int] {
                load(limit: 3)
            }
        }

        """.replacingOccurrences(of: "\n", with: "\r\n"),
      ])
  }

  @Test func tabIndentedFileWithoutFinalNewlineGetsTabs() throws {
    let store =
      "import Foundation\n\n@MainActor\nfinal class Store {\n\tstatic let shared = Store()\n"
      + "\tvar count: Int = 0\n\tfunc load(limit: Int = 3) -> [Int] {\n\t\tArray(0..<limit)\n\t}\n}"
    try expectExtraction(
      ["Store.swift": store],
      singleton: "Store", slices: [Slice(name: "Loader", members: ["count", "load"])],
      produces: [
        "Store.swift": store + "\n\nextension Store: Loader {}\n",
        "Loader.swift": "@MainActor\nprotocol Loader: AnyObject, Sendable {\n"
          + "\tvar count: Int { get }\n\tfunc load(limit: Int) -> [Int]\n}\n\n"
          + "@MainActor\nextension Loader {\n\tfunc load() -> [Int] {\n\t\tload(limit: 3)\n\t}\n}\n",
      ])
  }
}

// MARK: - Shapes that compiled wrong or were refused for no reason

extension ExtractProtocolPlannerTests {
  @Test func membersUnderIfConfigKeepTheirConditionsInTheProtocol() throws {
    let input = [
      "Store.swift": """
      @MainActor
      final class Store {
        static let shared = Store()
        var count: Int = 0
        #if DEBUG
        var debugName: String { "store" }
        func dump(limit: Int = 2) -> String {
          count += limit
          return "\\(count)"
        }
        #elseif os(Linux)
        func trace() {
          count = 0
        }
        #else
        func release() {
          count = 1
        }
        #endif
      }

      #if DEBUG
      extension Store {
        func reset() {
          count = 0
        }
      }
      #endif

      """
    ]
    let expected = [
      "Store.swift": """
      @MainActor
      final class Store {
        static let shared = Store()
        var count: Int = 0
        #if DEBUG
        func dump(limit: Int = 2) -> String {
          count += limit
          return "\\(count)"
        }
        #elseif os(Linux)
        func trace() {
          count = 0
        }
        #else
        func release() {
          count = 1
        }
        #endif
      }

      #if DEBUG
      extension Store {
        func reset() {
          count = 0
        }
      }
      #endif

      extension Store: Counting {}

      """,
      "Counting.swift": """
      @MainActor
      protocol Counting: AnyObject, Sendable {
        var count: Int { get }
        #if DEBUG
        var debugName: String { get }
        func dump(limit: Int) -> String
        #endif
        #if !DEBUG && os(Linux)
        func trace()
        #endif
        #if !DEBUG && !os(Linux)
        func release()
        #endif
        #if DEBUG
        func reset()
        #endif
      }

      @MainActor
      extension Counting {
        #if DEBUG
        var debugName: String { "store" }

        func dump() -> String {
          dump(limit: 2)
        }
        #endif
      }

      """,
    ]
    let use = [
      "UseCounting.swift": """
      @MainActor
      func useCounting() -> Int {
        let counting: any Counting = Store.shared
        #if DEBUG
        _ = counting.dump() + counting.debugName + Store.shared.debugName
        counting.reset()
        #else
        counting.trace()
        #endif
        return counting.count
      }

      """
    ]
    try expectExtraction(
      input, singleton: "Store",
      slices: [Slice(name: "Counting", members: ["count", "debugName", "dump", "trace", "release", "reset"])],
      moveDerived: true, produces: expected, compilingWith: use)
    // `expectExtraction` type-checks without `DEBUG`; the `#if DEBUG` clauses must hold together too.
    #expect(try compileErrors(input, flags: ["-D", "DEBUG"]) == "", "the input does not compile with DEBUG")
    #expect(try compileErrors(expected.merging(use) { $1 }, flags: ["-D", "DEBUG"]) == "", "the result does not compile with DEBUG")
  }

  @Test func aSingletonDeclaredUnderIfConfigGetsItsProtocolAndConformanceUnderIt() throws {
    let store = """
      #if DEBUG
      import Foundation

      @MainActor
      final class Store {
        static let shared = Store()
        var date: Date = Date()
        func reload() {}
      }
      #endif

      """
    let expected = [
      "Store.swift": store + "\n#if DEBUG\nextension Store: Clock {}\n#endif\n",
      "Clock.swift": """
      #if DEBUG
      import Foundation

      @MainActor
      protocol Clock: AnyObject, Sendable {
        var date: Date { get }
        func reload()
      }
      #endif

      """,
    ]
    try expectExtraction(
      ["Store.swift": store], singleton: "Store", slices: [Slice(name: "Clock", members: ["date", "reload"])],
      produces: expected)
    #expect(try compileErrors(expected, flags: ["-D", "DEBUG"]) == "", "the result does not compile with DEBUG")
  }

  @Test func nestedIfConfigClausesGiveOneConditionEach() throws {
    let project = makeProject([
      "Store.swift": """
      #if os(Linux) || os(macOS)
      final class Store: Sendable {
        static let shared = Store()
        #if DEBUG
        func a() {}
        #elseif FAST || SMALL
        func b() {}
        #elseif canImport(Foundation)
        func c() {}
        #else
        func d() {}
        #endif
        func e() {}
      }
      #endif

      """
    ])
    let conditions = project.index.members(of: "Store").map { "\($0.name): \($0.conditions)" }
    #expect(
      conditions == [
        "shared: [\"os(Linux) || os(macOS)\"]",
        "a: [\"os(Linux) || os(macOS)\", \"DEBUG\"]",
        "b: [\"os(Linux) || os(macOS)\", \"!DEBUG && (FAST || SMALL)\"]",
        "c: [\"os(Linux) || os(macOS)\", \"!DEBUG && !(FAST || SMALL) && canImport(Foundation)\"]",
        "d: [\"os(Linux) || os(macOS)\", \"!DEBUG && !(FAST || SMALL) && !canImport(Foundation)\"]",
        "e: [\"os(Linux) || os(macOS)\"]",
      ])
    #expect(
      ConditionalText.condition(["os(Linux) || os(macOS)", "!DEBUG && (FAST || SMALL)"])
        == "(os(Linux) || os(macOS)) && (!DEBUG && (FAST || SMALL))")
  }

  @Test func anOpaqueMemberMovedIntoTheExtensionIsNoRequirement() throws {
    let store = """
      @MainActor
      final class Store {
        static let shared = Store()
        var numbers: [Int] = [1, 2, 3]
        var evens: some Sequence<Int> {
          numbers.filter { $0 % 2 == 0 }
        }
      }

      """
    try expectExtraction(
      ["Store.swift": store],
      singleton: "Store", slices: [Slice(name: "Numbers", members: ["numbers", "evens"])], moveDerived: true,
      produces: [
        "Store.swift": """
        @MainActor
        final class Store {
          static let shared = Store()
          var numbers: [Int] = [1, 2, 3]
        }

        extension Store: Numbers {}

        """,
        "Numbers.swift": """
        @MainActor
        protocol Numbers: AnyObject, Sendable {
          var numbers: [Int] { get }
        }

        @MainActor
        extension Numbers {
          var evens: some Sequence<Int> {
            numbers.filter { $0 % 2 == 0 }
          }
        }

        """,
      ],
      notes: ["Numbers: numbers, evens -> Numbers.swift; moved to extension Numbers: evens"],
      compilingWith: [
        "UseNumbers.swift": """
        @MainActor
        func useNumbers() -> Int {
          let numbers: any Numbers = Store.shared
          return Array(numbers.evens).count + Array(Store.shared.evens).count
        }

        """
      ])
  }

  @Test func anOpaqueMemberThatCannotMoveStaysOnTheSingleton() throws {
    let store = """
      @MainActor
      final class Store {
        static let shared = Store()
        var numbers: [Int] = [1, 2, 3]
        var evens: some Sequence<Int> {
          numbers.filter { $0 % 2 == 0 }
        }
      }

      """
    let screen = """
      @MainActor
      final class Screen {
        func show() -> Int {
          Store.shared.numbers.count + Array(Store.shared.evens).count
        }
      }

      """
    try expectExtraction(
      ["Store.swift": store, "Screen.swift": screen],
      singleton: "Store", slices: nil,
      produces: [
        "Store.swift": store + "\nextension Store: NumbersProvider {}\n",
        "NumbersProvider.swift": """
        @MainActor
        protocol NumbersProvider: AnyObject, Sendable {
          var numbers: [Int] { get }
        }

        """,
      ],
      notes: [
        "NumbersProvider: numbers -> NumbersProvider.swift",
        "  evens stays on Store: its type 'some Sequence<Int>' is opaque, which a protocol requirement cannot be",
      ])
    try expectRefusal(
      ["Store.swift": store], singleton: "Store", slices: [Slice(name: "Numbers", members: ["numbers", "evens"])],
      "Store.swift:5:3: error: 'evens' cannot be in slice 'Numbers': its type 'some Sequence<Int>' is opaque, which a protocol requirement cannot be; leave it out of the slice or move it into the protocol extension with --move-derived")
  }

  @Test func aSecondDefaultRunWithMoveDerivedPlansNothing() throws {
    // The first run moves `loadedItems` (which named the slice) into the protocol extension; a second
    // run must not cut what is left into a protocol of another name.
    try expectExtraction(
      [
        "Store.swift": """
        @MainActor
        final class Store {
          static let shared = Store()
          var items: [String] = []
          func loadedItems() -> [String] {
            items
          }
        }

        """,
        "Feed.swift": """
        @MainActor
        final class Feed {
          func show() -> Int {
            Store.shared.items.count + Store.shared.loadedItems().count
          }
        }

        """,
      ],
      singleton: "Store", slices: nil, moveDerived: true,
      produces: [
        "Store.swift": """
        @MainActor
        final class Store {
          static let shared = Store()
          var items: [String] = []
        }

        extension Store: ItemLoader {}

        """,
        "ItemLoader.swift": """
        @MainActor
        protocol ItemLoader: AnyObject, Sendable {
          var items: [String] { get }
          func loadedItems() -> [String]
        }

        @MainActor
        extension ItemLoader {
          func loadedItems() -> [String] {
            items
          }
        }

        """,
      ],
      notes: ["ItemLoader: items, loadedItems -> ItemLoader.swift; moved to extension ItemLoader: loadedItems"])
  }

  static let inbox = """
    @MainActor
    final class Inbox {
      static let shared = Inbox()
      private var messages: [String] = []
      func messages(from sender: String) -> [String] {
        messages.filter { $0.hasPrefix(sender) }
      }
    }

    """

  @Test func aNameSharedWithAPrivatePropertyNamesTheMethod() throws {
    try expectExtraction(
      ["Inbox.swift": Self.inbox],
      singleton: "Inbox", slices: [Slice(name: "Messaging", members: ["messages"])],
      produces: [
        "Inbox.swift": Self.inbox + "\nextension Inbox: Messaging {}\n",
        "Messaging.swift": """
        @MainActor
        protocol Messaging: AnyObject, Sendable {
          func messages(from sender: String) -> [String]
        }

        """,
      ],
      notes: ["Messaging: messages -> Messaging.swift"])
  }

  @Test func aSuggestedSliceTakesTheMethodAndLeavesThePrivatePropertyOfItsName() throws {
    // With --move-derived the method stays: its body reads the private property of the same name.
    try expectExtraction(
      [
        "Inbox.swift": Self.inbox,
        "Screen.swift": """
        @MainActor
        final class Screen {
          func show() -> Int {
            Inbox.shared.messages(from: "a").count
          }
        }

        """,
      ],
      singleton: "Inbox", slices: nil, moveDerived: true,
      produces: [
        "Inbox.swift": Self.inbox + "\nextension Inbox: InboxProtocol {}\n",
        "InboxProtocol.swift": """
        @MainActor
        protocol InboxProtocol: AnyObject, Sendable {
          func messages(from sender: String) -> [String]
        }

        """,
      ],
      notes: [
        "InboxProtocol: messages -> InboxProtocol.swift",
        "  messages stays on Inbox: it uses private state (messages)",
      ])
  }

  static let logger = """
    @MainActor
    final class Logger {
      static let shared = Logger()
      var lines: [String] = []
      func log(_ items: String..., level: Int = 0) {
        lines.append(contentsOf: items.map { "\\(level) \\($0)" })
      }
    }

    """

  @Test func aVariadicMethodWithDefaultsStaysOnTheSingletonWhenSuggested() throws {
    // No overload can pass a variadic parameter on (`log(items, level: 0)` does not compile), so
    // the short forms cannot be written and the method is no requirement.
    try expectExtraction(
      [
        "Logger.swift": Self.logger,
        "Screen.swift": """
        @MainActor
        final class Screen {
          func show() -> Int {
            Logger.shared.log("a", "b")
            return Logger.shared.lines.count
          }
        }

        """,
      ],
      singleton: "Logger", slices: nil,
      produces: [
        "Logger.swift": Self.logger + "\nextension Logger: LinesProvider {}\n",
        "LinesProvider.swift": """
        @MainActor
        protocol LinesProvider: AnyObject, Sendable {
          var lines: [String] { get }
        }

        """,
      ],
      notes: [
        "LinesProvider: lines -> LinesProvider.swift",
        "  log(_:level:) stays on Logger: it has a variadic parameter and default arguments, and a variadic parameter cannot be passed on from an overload",
      ])
    try expectRefusal(
      ["Logger.swift": Self.logger], singleton: "Logger", slices: [Slice(name: "Logging", members: ["lines", "log"])],
      "Logger.swift:5:3: error: 'log(_:level:)' cannot be in slice 'Logging': it has a variadic parameter and default arguments, and a variadic parameter cannot be passed on from an overload; leave it out of the slice or move it into the protocol extension with --move-derived")
  }

  @Test func aDefaultNamingAPrivateStaticStaysOnTheSingletonWhenSuggested() throws {
    let store = """
      @MainActor
      final class Store {
        static let shared = Store()
        private static let defaultLimit = 3
        var count: Int = 0
        func load(limit: Int = Store.defaultLimit) -> [Int] {
          Array(0..<limit)
        }
        func page(size: Int = defaultLimit) -> [Int] {
          Array(0..<size)
        }
      }

      """
    try expectExtraction(
      [
        "Store.swift": store,
        "Screen.swift": """
        @MainActor
        final class Screen {
          func show() -> Int {
            Store.shared.count + Store.shared.load().count + Store.shared.page().count
          }
        }

        """,
      ],
      singleton: "Store", slices: nil,
      produces: [
        "Store.swift": store + "\nextension Store: CountProvider {}\n",
        "CountProvider.swift": """
        @MainActor
        protocol CountProvider: AnyObject, Sendable {
          var count: Int { get }
        }

        """,
      ],
      notes: [
        "CountProvider: count -> CountProvider.swift",
        "  load(limit:) stays on Store: its default value uses 'defaultLimit', which is private to 'Store' and cannot be passed from a protocol extension",
        "  page(size:) stays on Store: its default value uses 'defaultLimit', which is private to 'Store' and cannot be passed from a protocol extension",
      ])
    try expectRefusal(
      ["Store.swift": store], singleton: "Store", slices: [Slice(name: "Paging", members: ["page"])],
      "Store.swift:9:3: error: 'page(size:)' cannot be in slice 'Paging': its default value uses 'defaultLimit', which is private to 'Store' and cannot be passed from a protocol extension; leave it out of the slice")
  }

  static let fetchingStore = """
    @MainActor
    final class Store {
      static let shared = Store()
      var items: [String] = []
      func fetchItems() {
        items = ["a"]
      }
    }

    """

  static let unrelatedFetcher = """
    @MainActor
    protocol ItemFetcher {
      func other()
    }

    """

  @Test func aSuggestedSliceIsNotNamedLikeAnUnrelatedProtocol() throws {
    try expectExtraction(
      [
        "Store.swift": Self.fetchingStore,
        "ItemFetcher.swift": Self.unrelatedFetcher,
        "Feed.swift": """
        @MainActor
        final class Feed {
          func show() -> Int {
            Store.shared.fetchItems()
            return Store.shared.items.count
          }
        }

        """,
      ],
      singleton: "Store", slices: nil,
      produces: [
        "Store.swift": Self.fetchingStore + "\nextension Store: StoreProtocol {}\n",
        "StoreProtocol.swift": """
        @MainActor
        protocol StoreProtocol: AnyObject, Sendable {
          var items: [String] { get }
          func fetchItems()
        }

        """,
      ],
      notes: ["StoreProtocol: items, fetchItems -> StoreProtocol.swift"])
  }

  /// The same name and labels are not enough: the types must match too.
  @Test func anExistingProtocolWithTheSameNamesButOtherTypesIsNotReused() throws {
    let fetching = """
      @MainActor
      protocol ItemFetching {
        var items: [Int] { get }
        func fetchItems()
      }

      """
    try expectRefusal(
      ["Store.swift": Self.fetchingStore, "ItemFetching.swift": fetching], singleton: "Store",
      slices: [Slice(name: "ItemFetching", members: ["items", "fetchItems"])],
      "ItemFetching.swift:1:1: error: slice 'ItemFetching' names an existing protocol that 'Store' does not conform to and cannot: it requires 'items' of type '[Int]', which 'Store' does not have; choose another name")
  }

  @Test func aNamedSliceIsNoExistingProtocolTheSingletonCannotSatisfy() throws {
    try expectRefusal(
      ["Store.swift": Self.fetchingStore, "ItemFetcher.swift": Self.unrelatedFetcher], singleton: "Store",
      slices: [Slice(name: "ItemFetcher", members: ["fetchItems"])],
      "ItemFetcher.swift:1:1: error: slice 'ItemFetcher' names an existing protocol that 'Store' does not conform to and cannot: it requires 'other()', which 'Store' does not have; choose another name")
  }

  @Test func anExistingProtocolIsReusedOnlyForMembersItDeclares() throws {
    // `Fetching` has `fetchItems()` and implements `reset()` itself: the singleton can conform, but
    // `items` would not be in it.
    let fetching = """
      @MainActor
      protocol Fetching: AnyObject {
        func fetchItems()
        func reset()
      }

      extension Fetching {
        func reset() {}
      }

      """
    try expectRefusal(
      ["Store.swift": Self.fetchingStore, "Fetching.swift": fetching], singleton: "Store",
      slices: [Slice(name: "Fetching", members: ["fetchItems", "items"])],
      "Store.swift:1:1: error: slice 'Fetching' exists already and does not declare 'items'; name it in a new slice")
    try expectExtraction(
      ["Store.swift": Self.fetchingStore, "Fetching.swift": fetching],
      singleton: "Store", slices: [Slice(name: "Fetching", members: ["fetchItems"])],
      produces: ["Store.swift": Self.fetchingStore + "\nextension Store: Fetching {}\n"],
      notes: ["Fetching: exists already; conformance added", "left on Store only: items"])
  }

  @Test func aFileInTheWayOfTheNewProtocolIsRefusedFromTheIndex() throws {
    try expectRefusal(
      ["Store.swift": Self.fetchingStore, "Loader.swift": "struct Unrelated {}\n"], singleton: "Store",
      slices: [Slice(name: "Loader", members: ["fetchItems"])],
      "Loader.swift:1:1: error: 'Loader.swift' exists already and does not declare protocol 'Loader'")
  }
}

// MARK: - Helpers

/// Plans `extract-protocol`, applies the plan and checks the whole text of every changed or new file;
/// then type-checks the result with `alsoCompiling` in Swift 6 mode and runs the planner again on
/// the result, which must plan nothing. The input itself must type-check too (without the extra
/// files, which use the protocols that do not exist yet), so that a failure is the planner's.
private func expectExtraction(
  _ files: [String: String], singleton name: String, slices: [Slice]?, moveDerived: Bool = false,
  splitMutable: Bool = false, produces expected: [String: String], notes: [String]? = nil,
  compilingWith extra: [String: String] = [:], compiles: Bool = true, warningsAreErrors: Bool = false,
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let options = ExtractProtocolOptions(slices: slices, moveDerived: moveDerived, splitMutable: splitMutable)
  if compiles {
    let inputErrors = try compileErrors(files)
    #expect(inputErrors == "", "the input does not compile", sourceLocation: sourceLocation)
  }
  try expectPlan(
    files, singleton: name, produces: expected, notes: notes, compilingWith: extra, compiles: compiles,
    warningsAreErrors: warningsAreErrors, sourceLocation: sourceLocation
  ) { try ExtractProtocolPlanner.plan(singleton: $0, options: options, project: $1) }
}

/// Expects the planner to refuse with exactly `diagnostics` (one `path:line:col: error:` line each).
private func expectRefusal(
  _ files: [String: String], singleton name: String, slices: [Slice]?, _ diagnostics: String,
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let project = makeProject(files)
  let singleton = try #require(project.index.singletons.first { $0.typeName == name }, sourceLocation: sourceLocation)
  do {
    let plan = try ExtractProtocolPlanner.plan(
      singleton: singleton, options: ExtractProtocolOptions(slices: slices), project: project)
    Issue.record(
      "expected a refusal, got a plan for \((Array(plan.edits.keys) + Array(plan.newFiles.keys)).sorted())",
      sourceLocation: sourceLocation)
  } catch let refusal as Refusal {
    #expect(refusal.description == diagnostics, sourceLocation: sourceLocation)
  }
}

/// Type-checks `files` with Objective-C interoperability turned on, which the compiler allows on
/// Linux for checking `@objc` declarations (nothing is built or run); "" when they type-check.
private func objcTypeCheckErrors(_ files: [String: String]) throws -> String {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("desingleton-objc-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  var paths: [String] = []
  for (name, text) in files.sorted(by: { $0.key < $1.key }) {
    let url = directory.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    paths.append(url.path)
  }
  let result = try run(
    ["swiftc", "-frontend", "-typecheck", "-enable-objc-interop", "-disable-objc-attr-requires-foundation-module",
     "-swift-version", "6", "-module-name", "Check"] + paths)
  return result.status == 0 ? "" : result.standardError + result.output
}
