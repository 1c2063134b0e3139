import DesingletonCore
import DesingletonIndex
@testable import DesingletonPlanner
import Foundation
import Testing

/// One test per shape of `mocks`: the planner runs on inline sources, the whole text of every new
/// double is compared (after its two header lines, whose hash is checked to match), the doubles are
/// type-checked in Swift 6 mode together with the protocols and a few lines that use them, and a
/// second run plans nothing.
@Suite struct MocksPlannerTests {
  // MARK: Shapes

  @Test func aMainActorProtocolGetsAMainActorFinalClass() throws {
    try expectMocks(
      [
        "Sources/SessionController.swift": """
        @MainActor
        final class SessionController {
            static let shared = SessionController()
            var cart = Cart()
            var currentUser: String?
            func addItemToCart(item: Int) { cart.items.append(item) }
        }

        struct Cart { var items: [Int] = [] }

        extension SessionController: CurrentCart, CurrentUserProvider {}

        """,
        "Sources/CurrentCart.swift": """
        @MainActor
        protocol CurrentCart: AnyObject, Sendable {
            var cart: Cart { get }
            func addItemToCart(item: Int)
        }

        """,
        "Sources/CurrentUserProvider.swift": """
        @MainActor
        protocol CurrentUserProvider: AnyObject, Sendable {
            var currentUser: String? { get set }
        }

        """,
      ],
      singleton: "SessionController",
      produces: [
        "Tests/CurrentCartMock.swift": """
        @MainActor
        final class CurrentCartMock: CurrentCart {
            init(cart: Cart) {
                self.cart = cart
            }

            private(set) var cartSetCallCount: Int = 0
            var cart: Cart { didSet { cartSetCallCount += 1 } }

            private(set) var addItemToCartCallCount: Int = 0
            private(set) var addItemToCartArgValues: [Int] = []
            var addItemToCartHandler: (@MainActor (Int) -> Void)?
            func addItemToCart(item: Int) {
                addItemToCartCallCount += 1
                addItemToCartArgValues.append(item)
                if let addItemToCartHandler {
                    addItemToCartHandler(item)
                }
            }
        }

        """,
        "Tests/CurrentUserProviderMock.swift": """
        @MainActor
        final class CurrentUserProviderMock: CurrentUserProvider {
            private(set) var currentUserSetCallCount: Int = 0
            var currentUser: String? = nil { didSet { currentUserSetCallCount += 1 } }
        }

        """,
      ],
      compilingWith: [
        "Use.swift": """
        @MainActor
        func useMocks() {
            let cart = CurrentCartMock(cart: Cart())
            var added: [Int] = []
            cart.addItemToCartHandler = { added.append($0) }
            let slice: any CurrentCart = cart
            slice.addItemToCart(item: 3)
            precondition(cart.addItemToCartCallCount == 1 && cart.addItemToCartArgValues == [3] && added == [3])
            let user = CurrentUserProviderMock()
            user.currentUser = "ann"
            precondition(user.currentUserSetCallCount == 1)
        }

        """
      ])
  }

  /// A closure the mock stores comes into its init as `@escaping`; an optional one escapes already.
  @Test func aClosurePropertyComesInAsEscaping() throws {
    try expectMocks(
      [
        "Sources/Player.swift": """
        @MainActor
        final class Player {
            static let shared = Player()
            var onFinish: () -> Void = {}
            var onPause: (() -> Void)?
        }

        extension Player: FinishHandling {}

        """,
        "Sources/FinishHandling.swift": """
        @MainActor
        protocol FinishHandling: AnyObject {
            var onFinish: () -> Void { get set }
            var onPause: (() -> Void)? { get set }
        }

        """,
      ],
      singleton: "Player",
      produces: [
        "Tests/FinishHandlingMock.swift": """
        @MainActor
        final class FinishHandlingMock: FinishHandling {
            init(onFinish: @escaping () -> Void) {
                self.onFinish = onFinish
            }

            private(set) var onFinishSetCallCount: Int = 0
            var onFinish: () -> Void { didSet { onFinishSetCallCount += 1 } }

            private(set) var onPauseSetCallCount: Int = 0
            var onPause: (() -> Void)? = nil { didSet { onPauseSetCallCount += 1 } }
        }

        """
      ])
  }

  @Test func aSendableProtocolGetsALockedClassWithSendableHandlers() throws {
    try expectMocks(
      [
        "Sources/Loader.swift": """
        protocol Loader: AnyObject, Sendable {
          var count: Int { get }
          func load(limit: Int, offset: Int) async throws -> [Int]
          func title() -> Title
          func observe(_ handler: @escaping @Sendable (Int) -> Void)
        }

        struct Title: Sendable { var text: String }

        """
      ],
      protocols: ["Loader"],
      produces: [
        "Tests/LoaderMock.swift": """
        import Foundation

        final class LoaderMock: Loader, @unchecked Sendable {
          private let lock = NSLock()

          private var _countSetCallCount: Int = 0
          var countSetCallCount: Int { lock.withLock { _countSetCallCount } }
          private var _count: Int = 0
          var count: Int {
            get { lock.withLock { _count } }
            set { lock.withLock { _count = newValue; _countSetCallCount += 1 } }
          }

          private var _loadCallCount: Int = 0
          var loadCallCount: Int { lock.withLock { _loadCallCount } }
          private var _loadArgValues: [(limit: Int, offset: Int)] = []
          var loadArgValues: [(limit: Int, offset: Int)] { lock.withLock { _loadArgValues } }
          private var _loadHandler: (@Sendable (Int, Int) async throws -> [Int])?
          var loadHandler: (@Sendable (Int, Int) async throws -> [Int])? {
            get { lock.withLock { _loadHandler } }
            set { lock.withLock { _loadHandler = newValue } }
          }
          func load(limit: Int, offset: Int) async throws -> [Int] {
            let handler = lock.withLock {
              _loadCallCount += 1
              _loadArgValues.append((limit: limit, offset: offset))
              return _loadHandler
            }
            if let handler {
              return try await handler(limit, offset)
            }
            return []
          }

          private var _titleCallCount: Int = 0
          var titleCallCount: Int { lock.withLock { _titleCallCount } }
          private var _titleHandler: (@Sendable () -> Title)?
          var titleHandler: (@Sendable () -> Title)? {
            get { lock.withLock { _titleHandler } }
            set { lock.withLock { _titleHandler = newValue } }
          }
          func title() -> Title {
            let handler = lock.withLock {
              _titleCallCount += 1
              return _titleHandler
            }
            if let handler {
              return handler()
            }
            fatalError("set titleHandler")
          }

          private var _observeCallCount: Int = 0
          var observeCallCount: Int { lock.withLock { _observeCallCount } }
          private var _observeArgValues: [@Sendable (Int) -> Void] = []
          var observeArgValues: [@Sendable (Int) -> Void] { lock.withLock { _observeArgValues } }
          private var _observeHandler: (@Sendable (@escaping @Sendable (Int) -> Void) -> Void)?
          var observeHandler: (@Sendable (@escaping @Sendable (Int) -> Void) -> Void)? {
            get { lock.withLock { _observeHandler } }
            set { lock.withLock { _observeHandler = newValue } }
          }
          func observe(_ handler: @escaping @Sendable (Int) -> Void) {
            let observeHandler = lock.withLock {
              _observeCallCount += 1
              _observeArgValues.append(handler)
              return _observeHandler
            }
            if let observeHandler {
              observeHandler(handler)
            }
          }
        }

        """
      ],
      compilingWith: [
        "Use.swift": """
        func useLoader() async throws {
          let mock = LoaderMock()
          mock.loadHandler = { limit, _ in Array(0..<limit) }
          mock.titleHandler = { Title(text: "t") }
          let loader: any Loader = mock
          _ = try await loader.load(limit: 2, offset: 0)
          await withTaskGroup(of: Void.self) { group in
            for _ in 0..<10 { group.addTask { _ = loader.title() } }
          }
          precondition(mock.loadCallCount == 1 && mock.loadArgValues[0].limit == 2 && mock.titleCallCount == 10)
          mock.observeHandler = { $0(5) }
          loader.observe { precondition($0 == 5) }
          precondition(mock.observeArgValues.count == 1)
        }

        """
      ])
  }

  @Test func anActorProtocolGetsAnActorWhoseStateTestsReachWithoutAwait() throws {
    try expectMocks(
      [
        "Sources/Counter.swift": """
        protocol Counter: Actor {
          var value: Int { get }
          func bump(by step: Int) -> Int
          static func make() -> Int
        }

        """
      ],
      protocols: ["Counter"],
      produces: [
        "Tests/CounterMock.swift": """
        import Foundation

        actor CounterMock: Counter {
          private let lock = NSLock()
          private static let staticLock = NSLock()

          private nonisolated(unsafe) var _valueSetCallCount: Int = 0
          nonisolated var valueSetCallCount: Int { lock.withLock { _valueSetCallCount } }
          private nonisolated(unsafe) var _value: Int = 0
          nonisolated var value: Int {
            get { lock.withLock { _value } }
            set { lock.withLock { _value = newValue; _valueSetCallCount += 1 } }
          }

          private nonisolated(unsafe) var _bumpCallCount: Int = 0
          nonisolated var bumpCallCount: Int { lock.withLock { _bumpCallCount } }
          private nonisolated(unsafe) var _bumpArgValues: [Int] = []
          nonisolated var bumpArgValues: [Int] { lock.withLock { _bumpArgValues } }
          private nonisolated(unsafe) var _bumpHandler: (@Sendable (Int) -> Int)?
          nonisolated var bumpHandler: (@Sendable (Int) -> Int)? {
            get { lock.withLock { _bumpHandler } }
            set { lock.withLock { _bumpHandler = newValue } }
          }
          func bump(by step: Int) -> Int {
            let handler = lock.withLock {
              _bumpCallCount += 1
              _bumpArgValues.append(step)
              return _bumpHandler
            }
            if let handler {
              return handler(step)
            }
            return 0
          }

          private nonisolated(unsafe) static var _makeCallCount: Int = 0
          static var makeCallCount: Int { staticLock.withLock { _makeCallCount } }
          private nonisolated(unsafe) static var _makeHandler: (@Sendable () -> Int)?
          static var makeHandler: (@Sendable () -> Int)? {
            get { staticLock.withLock { _makeHandler } }
            set { staticLock.withLock { _makeHandler = newValue } }
          }
          static func make() -> Int {
            let handler = staticLock.withLock {
              _makeCallCount += 1
              return _makeHandler
            }
            if let handler {
              return handler()
            }
            return 0
          }
        }

        """
      ],
      compilingWith: [
        "Use.swift": """
        func useCounter() async {
          let mock = CounterMock()
          mock.bumpHandler = { $0 * 2 }
          mock.value = 4
          let counter: any Counter = mock
          let result = await counter.bump(by: 3)
          let value = await counter.value
          precondition(result == 6 && value == 4 && mock.bumpArgValues == [3] && CounterMock.make() == 0)
        }

        """
      ])
  }

  @Test func aPlainProtocolGetsAFinalClassWithEveryKindOfRequirement() throws {
    try expectMocks(
      [
        "Sources/Store.swift": """
        struct StoreError: Error {}
        struct Record { var id: Int }

        protocol Store: AnyObject {
          var record: Record { get set }
          static var version: Int { get }
          func save(_ record: Record) throws(StoreError)
          func bump(_ value: inout Int)
          func decode<T: Decodable>(_ type: T.Type, from data: [UInt8]) -> T
          func transform(_ body: (Int) throws -> Int) rethrows -> Int
          func observe(_ handler: @escaping (Record) -> Void)
          func load(limit: Int) -> [Record]
          func load(id: Int) -> Record?
          func log(_ items: String...)
        }

        extension Store {
          func load() -> [Record] { load(limit: 10) }
        }

        """
      ],
      protocols: ["Store"],
      produces: [
        "Tests/StoreMock.swift": """
        final class StoreMock: Store {
          init(record: Record) {
            self.record = record
          }

          private(set) var recordSetCallCount: Int = 0
          var record: Record { didSet { recordSetCallCount += 1 } }

          private(set) nonisolated(unsafe) static var versionSetCallCount: Int = 0
          nonisolated(unsafe) static var version: Int = 0 { didSet { versionSetCallCount += 1 } }

          private(set) var saveCallCount: Int = 0
          private(set) var saveArgValues: [Record] = []
          var saveHandler: ((Record) throws(StoreError) -> Void)?
          func save(_ record: Record) throws(StoreError) {
            saveCallCount += 1
            saveArgValues.append(record)
            if let saveHandler {
              try saveHandler(record)
            }
          }

          private(set) var bumpCallCount: Int = 0
          private(set) var bumpArgValues: [Int] = []
          var bumpHandler: ((inout Int) -> Void)?
          func bump(_ value: inout Int) {
            bumpCallCount += 1
            bumpArgValues.append(value)
            if let bumpHandler {
              bumpHandler(&value)
            }
          }

          private(set) var decodeCallCount: Int = 0
          private(set) var decodeArgValues: [(type: Any, data: [UInt8])] = []
          var decodeHandler: ((Any, [UInt8]) -> Any)?
          func decode<T: Decodable>(_ type: T.Type, from data: [UInt8]) -> T {
            decodeCallCount += 1
            decodeArgValues.append((type: type as Any, data: data))
            if let decodeHandler {
              if let result = decodeHandler(type as Any, data) as? T { return result }
              fatalError("decodeHandler returned a value that is not a 'T'")
            }
            fatalError("set decodeHandler")
          }

          private(set) var transformCallCount: Int = 0
          var transformHandler: (((Int) throws -> Int) -> Int)?
          func transform(_ body: (Int) throws -> Int) rethrows -> Int {
            transformCallCount += 1
            if let transformHandler {
              return transformHandler(body)
            }
            return 0
          }

          private(set) var observeCallCount: Int = 0
          private(set) var observeArgValues: [(Record) -> Void] = []
          var observeHandler: ((@escaping (Record) -> Void) -> Void)?
          func observe(_ handler: @escaping (Record) -> Void) {
            observeCallCount += 1
            observeArgValues.append(handler)
            if let observeHandler {
              observeHandler(handler)
            }
          }

          private(set) var loadLimitCallCount: Int = 0
          private(set) var loadLimitArgValues: [Int] = []
          var loadLimitHandler: ((Int) -> [Record])?
          func load(limit: Int) -> [Record] {
            loadLimitCallCount += 1
            loadLimitArgValues.append(limit)
            if let loadLimitHandler {
              return loadLimitHandler(limit)
            }
            return []
          }

          private(set) var loadIdCallCount: Int = 0
          private(set) var loadIdArgValues: [Int] = []
          var loadIdHandler: ((Int) -> Record?)?
          func load(id: Int) -> Record? {
            loadIdCallCount += 1
            loadIdArgValues.append(id)
            if let loadIdHandler {
              return loadIdHandler(id)
            }
            return nil
          }

          private(set) var logCallCount: Int = 0
          private(set) var logArgValues: [[String]] = []
          var logHandler: (([String]) -> Void)?
          func log(_ items: String...) {
            logCallCount += 1
            logArgValues.append(items)
            if let logHandler {
              logHandler(items)
            }
          }
        }

        """
      ],
      compilingWith: [
        "Use.swift": """
        func useStore() throws {
          let mock = StoreMock(record: Record(id: 1))
          mock.decodeHandler = { _, _ in 7 }
          mock.bumpHandler = { $0 += 1 }
          var value = 1
          let store: any Store = mock
          store.bump(&value)
          let decoded: Int = store.decode(Int.self, from: [])
          _ = store.load()
          store.log("a", "b")
          precondition(value == 2 && decoded == 7 && mock.loadLimitArgValues == [10] && mock.logArgValues == [["a", "b"]])
          try store.save(Record(id: 2))
          _ = try store.transform { $0 }
        }

        """
      ])
  }

  @Test func borrowedConsumedAndNoncopyableArgumentsAreHandedOnNotRecorded() throws {
    try expectMocks(
      [
        "Sources/Reader.swift": """
        struct Descriptor: ~Copyable { let number: Int32 }

        protocol Reader: AnyObject {
          func read(from descriptor: borrowing Descriptor, upTo limit: Int) -> [UInt8]
          func close(_ descriptor: consuming Descriptor)
          func note(_ text: borrowing String)
          func reset(_ descriptor: inout Descriptor)
        }

        """
      ],
      protocols: ["Reader"],
      produces: [
        "Tests/ReaderMock.swift": """
        final class ReaderMock: Reader {
          private(set) var readCallCount: Int = 0
          private(set) var readArgValues: [Int] = []
          var readHandler: ((borrowing Descriptor, Int) -> [UInt8])?
          func read(from descriptor: borrowing Descriptor, upTo limit: Int) -> [UInt8] {
            readCallCount += 1
            readArgValues.append(limit)
            if let readHandler {
              return readHandler(descriptor, limit)
            }
            return []
          }

          private(set) var closeCallCount: Int = 0
          var closeHandler: ((consuming Descriptor) -> Void)?
          func close(_ descriptor: consuming Descriptor) {
            closeCallCount += 1
            if let closeHandler {
              closeHandler(descriptor)
            }
          }

          private(set) var noteCallCount: Int = 0
          var noteHandler: ((borrowing String) -> Void)?
          func note(_ text: borrowing String) {
            noteCallCount += 1
            if let noteHandler {
              noteHandler(text)
            }
          }

          private(set) var resetCallCount: Int = 0
          var resetHandler: ((inout Descriptor) -> Void)?
          func reset(_ descriptor: inout Descriptor) {
            resetCallCount += 1
            if let resetHandler {
              resetHandler(&descriptor)
            }
          }
        }

        """
      ],
      compilingWith: [
        "Use.swift": """
        func useReader() {
          let mock = ReaderMock()
          mock.readHandler = { descriptor, limit in [UInt8(descriptor.number), UInt8(limit)] }
          let reader: any Reader = mock
          let descriptor = Descriptor(number: 3)
          let bytes = reader.read(from: descriptor, upTo: 4)
          reader.note("x")
          var other = Descriptor(number: 5)
          reader.reset(&other)
          reader.close(descriptor)
          precondition(bytes == [3, 4] && mock.readArgValues == [4] && mock.closeCallCount == 1)
        }

        """
      ])
  }

  @Test func importsUnderIfKeepTheirConditionInTheDouble() throws {
    try expectMocks(
      [
        "Sources/Tracker.swift": """
        #if canImport(Observation)
        import Observation
        #endif

        protocol Tracker: AnyObject {
          func track(_ registrar: ObservationRegistrar)
        }

        """,
        "Sources/Joiner.swift": """
        #if canImport(Distributed)
        import Distributed

        protocol Joiner: AnyObject {
          func join(_ system: LocalTestingDistributedActorSystem)
        }
        #endif

        """,
      ],
      protocols: ["Tracker", "Joiner"],
      produces: [
        "Tests/TrackerMock.swift": """
        #if canImport(Observation)
        import Observation
        #endif

        final class TrackerMock: Tracker {
          private(set) var trackCallCount: Int = 0
          private(set) var trackArgValues: [ObservationRegistrar] = []
          var trackHandler: ((ObservationRegistrar) -> Void)?
          func track(_ registrar: ObservationRegistrar) {
            trackCallCount += 1
            trackArgValues.append(registrar)
            if let trackHandler {
              trackHandler(registrar)
            }
          }
        }

        """,
        "Tests/JoinerMock.swift": """
        #if canImport(Distributed)
        import Distributed

        final class JoinerMock: Joiner {
          private(set) var joinCallCount: Int = 0
          private(set) var joinArgValues: [LocalTestingDistributedActorSystem] = []
          var joinHandler: ((LocalTestingDistributedActorSystem) -> Void)?
          func join(_ system: LocalTestingDistributedActorSystem) {
            joinCallCount += 1
            joinArgValues.append(system)
            if let joinHandler {
              joinHandler(system)
            }
          }
        }
        #endif

        """,
      ])
  }

  @Test func requirementsUnderIfKeepTheirConditionAndTheProtocolsCondition() throws {
    try expectMocks(
      [
        "Sources/OpenService.swift": """
        #if os(Linux) || canImport(Darwin)
        public protocol OpenService: AnyObject, Sendable {
            func open(_ path: String) -> Int
            #if os(Linux)
            var pageSize: Int { get }
            var root: Root { get }
            #else
            func close(_ id: Int)
            #endif
        }
        #endif

        public struct Root: Sendable {}

        """
      ],
      protocols: ["OpenService"],
      produces: [
        "Tests/OpenServiceMock.swift": """
        import Foundation

        #if os(Linux) || canImport(Darwin)
        final class OpenServiceMock: OpenService, @unchecked Sendable {
            private let lock = NSLock()

            private var _openCallCount: Int = 0
            var openCallCount: Int { lock.withLock { _openCallCount } }
            private var _openArgValues: [String] = []
            var openArgValues: [String] { lock.withLock { _openArgValues } }
            private var _openHandler: (@Sendable (String) -> Int)?
            var openHandler: (@Sendable (String) -> Int)? {
                get { lock.withLock { _openHandler } }
                set { lock.withLock { _openHandler = newValue } }
            }
            func open(_ path: String) -> Int {
                let handler = lock.withLock {
                    _openCallCount += 1
                    _openArgValues.append(path)
                    return _openHandler
                }
                if let handler {
                    return handler(path)
                }
                return 0
            }

            #if os(Linux)
            private var _pageSizeSetCallCount: Int = 0
            var pageSizeSetCallCount: Int { lock.withLock { _pageSizeSetCallCount } }
            private var _pageSize: Int = 0
            var pageSize: Int {
                get { lock.withLock { _pageSize } }
                set { lock.withLock { _pageSize = newValue; _pageSizeSetCallCount += 1 } }
            }

            private var _rootSetCallCount: Int = 0
            var rootSetCallCount: Int { lock.withLock { _rootSetCallCount } }
            private var _root: Root?
            var root: Root {
                get {
                    guard let value = lock.withLock({ _root }) else { fatalError("set root") }
                    return value
                }
                set { lock.withLock { _root = newValue; _rootSetCallCount += 1 } }
            }
            #else
            private var _closeCallCount: Int = 0
            var closeCallCount: Int { lock.withLock { _closeCallCount } }
            private var _closeArgValues: [Int] = []
            var closeArgValues: [Int] { lock.withLock { _closeArgValues } }
            private var _closeHandler: (@Sendable (Int) -> Void)?
            var closeHandler: (@Sendable (Int) -> Void)? {
                get { lock.withLock { _closeHandler } }
                set { lock.withLock { _closeHandler = newValue } }
            }
            func close(_ id: Int) {
                let handler = lock.withLock {
                    _closeCallCount += 1
                    _closeArgValues.append(id)
                    return _closeHandler
                }
                if let handler {
                    handler(id)
                }
            }
            #endif
        }
        #endif

        """
      ])
  }

  @Test func aProtocolRefiningAnotherGetsBothRequirements() throws {
    try expectMocks(
      [
        "Sources/Slices.swift": """
        protocol Reading: AnyObject {
          var name: String { get }
        }

        protocol Writing: Reading {
          func rename(to name: String)
        }

        """
      ],
      protocols: ["Writing"],
      produces: [
        "Tests/WritingMock.swift": """
        final class WritingMock: Writing {
          private(set) var renameCallCount: Int = 0
          private(set) var renameArgValues: [String] = []
          var renameHandler: ((String) -> Void)?
          func rename(to name: String) {
            renameCallCount += 1
            renameArgValues.append(name)
            if let renameHandler {
              renameHandler(name)
            }
          }

          private(set) var nameSetCallCount: Int = 0
          var name: String = "" { didSet { nameSetCallCount += 1 } }
        }

        """
      ])
  }

  @Test func aRequirementNamedLockLeavesTheLockAnotherName() throws {
    try expectMocks(
      [
        "Sources/Locking.swift": """
        protocol Locking: AnyObject, Sendable {
          func lock()
        }

        """
      ],
      protocols: ["Locking"],
      produces: [
        "Tests/LockingMock.swift": """
        import Foundation

        final class LockingMock: Locking, @unchecked Sendable {
          private let mockLock = NSLock()

          private var _lockCallCount: Int = 0
          var lockCallCount: Int { mockLock.withLock { _lockCallCount } }
          private var _lockHandler: (@Sendable () -> Void)?
          var lockHandler: (@Sendable () -> Void)? {
            get { mockLock.withLock { _lockHandler } }
            set { mockLock.withLock { _lockHandler = newValue } }
          }
          func lock() {
            let handler = mockLock.withLock {
              _lockCallCount += 1
              return _lockHandler
            }
            if let handler {
              handler()
            }
          }
        }

        """
      ])
  }

  // MARK: Refusals

  @Test func requirementsAMockCannotImplementAreRefusedWithTheirPlace() throws {
    let project = makeProject([
      "Sources/Cache.swift": """
      protocol Cache: AnyObject {
        associatedtype Key
        subscript(key: Int) -> String { get }
      }

      protocol Named: Equatable {}

      struct Handle: ~Copyable {}

      protocol Sink {
        func send<T: ~Copyable>(_ value: borrowing T)
        var handle: Handle { get }
      }

      """
    ])
    let options = MocksOptions(protocols: ["Cache", "Named", "Sink"], outputDirectory: "Tests")
    let refusal = try #require(throws: Refusal.self) { try MocksPlanner.plan(typeName: nil, options: options, project: project) }
    #expect(
      refusal.diagnostics.map(\.description) == [
        "Sources/Cache.swift:2:3: error: this requirement cannot be mocked yet (mocks implement properties and methods); write this double by hand",
        "Sources/Cache.swift:6:1: error: a mock of 'Named' cannot implement 'Equatable', which it refines; write this double by hand",
        "Sources/Cache.swift:11:27: error: a 'borrowing' or 'consuming' parameter of a generic type cannot be mocked yet (mocks implement properties and methods); write this double by hand",
      ])
  }

  /// A requirement named in backticks (`var \`default\``) is refused at its place: the double's
  /// names are made from it (`defaultCallCount`), and the file it wrote did not parse.
  @Test func aRequirementNamedInBackticksIsRefusedAtItsPlace() throws {
    let project = makeProject([
      "Sources/Defaults.swift": """
      protocol Defaults: AnyObject {
        var `default`: Int { get }
        func `return`(_ value: Int) -> Int
      }

      """
    ])
    let options = MocksOptions(protocols: ["Defaults"], outputDirectory: "Tests")
    let refusal = try #require(throws: Refusal.self) { try MocksPlanner.plan(typeName: nil, options: options, project: project) }
    #expect(
      refusal.diagnostics.map(\.description) == [
        "Sources/Defaults.swift:2:7: error: a property named in backticks ('`default`') cannot be mocked yet (mocks implement properties and methods); write this double by hand"
      ])
  }

  @Test func aModuleWithoutATestTargetNeedsAnOutputDirectory() throws {
    let project = makeProject([
      "Package.swift": """
      // swift-tools-version: 6.0
      import PackageDescription
      let package = Package(name: "App", targets: [.target(name: "Core")])

      """,
      "Sources/Core/Counting.swift": """
      protocol Counting: AnyObject {
        func count() -> Int
      }

      """,
    ])
    let refusal = try #require(throws: Refusal.self) {
      try MocksPlanner.plan(typeName: nil, options: MocksOptions(protocols: ["Counting"]), project: project)
    }
    #expect(
      refusal.diagnostics.map(\.description) == [
        "Sources/Core/Counting.swift:1:1: error: no test target depends on the module 'Core' that declares 'Counting'; say where its mock goes with --output-dir"
      ])
  }

  /// A test target whose folder holds no Swift file (its tests lie in `Tests/`, where SwiftPM does not
  /// look) is not written into: a new `Tests/CoreTests/` would change what the package builds.
  @Test func aTestTargetWithoutItsFolderNeedsAnOutputDirectory() throws {
    let project = makeProject([
      "Package.swift": """
      // swift-tools-version: 6.0
      import PackageDescription
      let package = Package(name: "App", targets: [.target(name: "Core"), .testTarget(name: "CoreTests", dependencies: ["Core"])])

      """,
      "Sources/Core/Counting.swift": """
      protocol Counting: AnyObject {
        func count() -> Int
      }

      """,
      "Tests/RouterTests.swift": """
      import Testing

      """,
    ])
    let refusal = try #require(throws: Refusal.self) {
      try MocksPlanner.plan(typeName: nil, options: MocksOptions(protocols: ["Counting"]), project: project)
    }
    #expect(
      refusal.diagnostics.map(\.description) == [
        "Sources/Core/Counting.swift:1:1: error: the test target 'CoreTests' that depends on the module 'Core' has no Swift file in 'Tests/CoreTests', so the package does not build it; say where the mock of 'Counting' goes with --output-dir"
      ])
  }

  // MARK: Placement and regeneration

  @Test func theMockGoesToTheTestTargetOfTheProtocolsModuleWithATestableImport() throws {
    let files = [
      "Package.swift": """
      // swift-tools-version: 6.0
      import PackageDescription
      let package = Package(
        name: "App",
        targets: [
          .target(name: "Core"),
          .testTarget(name: "AppTests", dependencies: ["Core"]),
          .testTarget(name: "CoreTests", dependencies: ["Core"]),
        ])

      """,
      "Sources/Core/Counting.swift": """
      import Foundation

      protocol Counting: AnyObject {
        func count() -> Int
      }

      public protocol Resetting: AnyObject {
        func reset()
      }

      """,
      "Tests/CoreTests/CountingTests.swift": """
      import Testing

      """,
    ]
    let project = makeProject(files)
    let plan = try MocksPlanner.plan(typeName: nil, options: MocksOptions(protocols: ["Counting", "Resetting"]), project: project)
    #expect(plan.newFiles.keys.sorted() == ["Tests/CoreTests/Mocks/CountingMock.swift", "Tests/CoreTests/Mocks/ResettingMock.swift"])
    let counting = try #require(plan.newFiles["Tests/CoreTests/Mocks/CountingMock.swift"])
    #expect(body(of: counting).hasPrefix("import Foundation\n@testable import Core\n\nfinal class CountingMock: Counting {\n"))
    let resetting = try #require(plan.newFiles["Tests/CoreTests/Mocks/ResettingMock.swift"])
    #expect(body(of: resetting).hasPrefix("import Foundation\nimport Core\n\nfinal class ResettingMock: Resetting {\n"))
  }

  /// A double goes with a file of its test target (its companion), so an Xcode project adds it
  /// to that target; with `--output-dir` there is none.
  @Test func aMockJoinsTheTargetsOfAFileOfItsTestTarget() throws {
    let files = [
      "Package.swift": """
      // swift-tools-version: 6.0
      import PackageDescription
      let package = Package(
        name: "App",
        targets: [.target(name: "Core"), .testTarget(name: "CoreTests", dependencies: ["Core"])])

      """,
      "Sources/Core/Counting.swift": """
      protocol Counting: AnyObject {
        func count() -> Int
      }

      """,
      "Tests/CoreTests/ZTests.swift": "import Testing\n",
      "Tests/CoreTests/CountingTests.swift": "import Testing\n",
    ]
    let project = makeProject(files)
    let plan = try MocksPlanner.plan(typeName: nil, options: MocksOptions(protocols: ["Counting"]), project: project)
    #expect(plan.companions == ["Tests/CoreTests/Mocks/CountingMock.swift": "Tests/CoreTests/CountingTests.swift"])
    let elsewhere = try MocksPlanner.plan(
      typeName: nil, options: MocksOptions(protocols: ["Counting"], outputDirectory: "Doubles"), project: project)
    #expect(elsewhere.companions.isEmpty)
  }

  @Test func aChangedProtocolRegeneratesItsMockAndAnEditedMockIsKeptUnlessForced() throws {
    let protocolV1 = """
      protocol Counting: AnyObject {
        func count() -> Int
      }

      """
    let first = makeProject(["Sources/Counting.swift": protocolV1])
    let options = MocksOptions(protocols: ["Counting"], outputDirectory: "Tests")
    let generated = try #require(try MocksPlanner.plan(typeName: nil, options: options, project: first).newFiles["Tests/CountingMock.swift"])
    #expect(MockHeader.state(of: generated) == .generated)

    // The protocol gains a requirement: the mock is rewritten in place.
    let protocolV2 = protocolV1.replacingOccurrences(of: "func count() -> Int", with: "func count() -> Int\n  func reset()")
    let files = ["Sources/Counting.swift": protocolV2, "Tests/CountingMock.swift": generated]
    let second = makeProject(files)
    let plan = try MocksPlanner.plan(typeName: nil, options: options, project: second)
    let result = try apply(plan, to: second, files: files)
    let regenerated = try #require(result["Tests/CountingMock.swift"])
    #expect(regenerated.contains("func reset() {") && MockHeader.state(of: regenerated) == .generated)
    #expect(try compileErrors(result) == "")
    #expect(try MocksPlanner.plan(typeName: nil, options: options, project: makeProject(result)).isEmpty)

    // Edited by hand: refused, unless forced.
    let edited = ["Sources/Counting.swift": protocolV2, "Tests/CountingMock.swift": generated + "// mine\n"]
    let refusal = try #require(throws: Refusal.self) { try MocksPlanner.plan(typeName: nil, options: options, project: makeProject(edited)) }
    #expect(
      refusal.diagnostics.map(\.description) == [
        "Tests/CountingMock.swift:1:1: error: this mock was edited by hand since it was generated; keep your edits, or replace it with --force"
      ])
    var forced = options
    forced.force = true
    let forcedProject = makeProject(edited)
    let forcedResult = try apply(try MocksPlanner.plan(typeName: nil, options: forced, project: forcedProject), to: forcedProject, files: edited)
    #expect(forcedResult["Tests/CountingMock.swift"] == regenerated)

    // A file the tool did not write is not replaced either.
    let foreign = ["Sources/Counting.swift": protocolV2, "Tests/CountingMock.swift": "// by hand\n"]
    #expect(throws: Refusal.self) { try MocksPlanner.plan(typeName: nil, options: options, project: makeProject(foreign)) }
  }

  @Test func overloadsAreNamedByTheirFirstDifferingLabelOrTheirTypes() throws {
    let items = MockRequirements.named(
      [
        method("fetch", keys: ["id"], types: ["Int"]), method("fetch", keys: ["name"], types: ["String"]),
        method("open", keys: ["path"], types: ["String"]), method("open", keys: ["path"], types: ["URL"]),
        method("reset", keys: [], types: []), method("reset", keys: ["all"], types: ["Bool"]),
        method("single", keys: ["x"], types: ["Int"]),
      ])
    let names = items.compactMap { item -> String? in
      if case .method(let method) = item { return method.mockName }
      return nil
    }
    #expect(names == ["fetchId", "fetchName", "openString", "openURL", "reset", "resetAll", "single"])
  }

  private func method(_ name: String, keys: [String], types: [String]) -> MockItem {
    let parameters = zip(keys, types).map {
      MockMethod.Parameter(name: $0.0, handlerType: $0.1, storedType: $0.1, isInout: false, key: $0.0)
    }
    let signature = "func \(name)(" + zip(keys, types).map { "\($0.0): \($0.1)" }.joined(separator: ", ") + ")"
    return .method(
      MockMethod(
        name: name, mockName: name, signature: signature, parameters: parameters, isStatic: false, isAsync: false,
        handlerThrows: nil, returnType: nil, castsResult: false, defaultResult: nil))
  }
}

/// A generated file without its two header lines.
private func body(of text: String) -> String {
  text.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false).dropFirst(2).joined(separator: "\n")
}

/// Runs `mocks` on inline sources (the doubles go to `Tests/`), compares each new double's text
/// after its header (whose hash must match), type-checks everything in Swift 6 mode with `extra`,
/// and runs again on the result, which must plan nothing.
private func expectMocks(
  _ files: [String: String], singleton: String? = nil, protocols: [String]? = nil, produces expected: [String: String],
  compilingWith extra: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let project = makeProject(files)
  let options = MocksOptions(protocols: protocols, outputDirectory: "Tests")
  let typeName = try singleton.map { name in try #require(project.index.types(named: name).first, sourceLocation: sourceLocation) }
  let plan = try MocksPlanner.plan(typeName: typeName, options: options, project: project)
  let result = try apply(plan, to: project, files: files)
  let changed = result.keys.filter { result[$0] != files[$0] }.sorted()
  #expect(changed == expected.keys.sorted(), "new files", sourceLocation: sourceLocation)
  for (path, text) in expected.sorted(by: { $0.key < $1.key }) {
    guard let actual = result[path] else { continue }
    #expect(MockHeader.state(of: actual) == .generated, "\(path): the header's hash", sourceLocation: sourceLocation)
    expectText(body(of: actual), text, sourceLocation: sourceLocation)
  }
  let errors = try compileErrors(result.merging(extra) { original, _ in original })
  #expect(errors == "", "the result does not compile", sourceLocation: sourceLocation)
  let again = makeProject(result)
  let secondPlan = try MocksPlanner.plan(typeName: typeName, options: options, project: again)
  #expect(secondPlan.isEmpty, "a second run changes something", sourceLocation: sourceLocation)
}
