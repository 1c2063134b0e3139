import DesingletonCore
import DesingletonIndex
import Foundation
import Testing

@testable import DesingletonPlanner

/// The Swift names and types `ObjectiveCImporter` gives Objective-C members, one rule a case, each
/// checked against the compiler: a protocol requiring every member the importer knows, written as
/// the importer writes it, must be one the class conforms to when Swift imports the header
/// (`swiftc -enable-objc-interop -import-objc-header`, Swift 6). A member it does not know stays
/// out with its reason. Foundation's bridged types (`NSString`, `NSArray`) and its `NSUInteger`
/// (imported as `Int` only from Foundation) are not on Linux, so those rules are checked against
/// the text only.
@Suite struct ObjectiveCImportTests {
  struct Rule: CustomTestStringConvertible, Sendable {
    var name: String
    /// The members of `@interface MetricsLogger : NSObject`, inside `NS_ASSUME_NONNULL`.
    var members: String
    /// The Swift declaration of each member, in order; `?` for a member the importer does not model.
    var swift: [String]
    /// Checked by the compiler (false where the types need Foundation).
    var compiles = true
    var testDescription: String { name }
  }

  static let rules: [Rule] = [
    Rule(
      name: "a class property returning the class drops the words the class name ends with",
      members: "@property (class, nonatomic, readonly) MetricsLogger *sharedLogger;",
      swift: ["class var shared: MetricsLogger { get }"]),
    Rule(
      name: "so does a class method, and a keyword name is backquoted",
      members: "+ (MetricsLogger *)defaultLogger;\n+ (instancetype)currentMetricsLogger;",
      swift: ["class func `default`() -> MetricsLogger", "class func current() -> MetricsLogger"]),
    Rule(
      name: "a name with no words of the class keeps them all",
      members: "+ (instancetype)sharedInstance;", swift: ["class func sharedInstance() -> MetricsLogger"]),
    Rule(
      name: "C scalars and NSInteger",
      members: "- (NSInteger)count:(int)a flag:(BOOL)b;\n- (unsigned long)total;\n- (long long)big;\n- (double)seconds:(float)f;",
      swift: [
        "func count(_ a: Int32, flag b: Bool) -> Int", "func total() -> UInt", "func big() -> Int64",
        "func seconds(_ f: Float) -> Double",
      ]),
    Rule(
      name: "With before a value is kept in the label",
      members: "- (void)loadWithName:(int)name;\n- (void)openWithTimeout:(double)t retries:(int)r;",
      swift: ["func load(withName name: Int32)", "func open(withTimeout t: Double, retries r: Int32)"]),
    Rule(
      name: "With before a block goes, and a completion handler is Sendable",
      members: "- (void)flushWithCompletion:(void (^)(BOOL success))completion;\n- (void)saveWithHandler:(void (^)(void))handler;\n- (void)run:(int)x completion:(void (^)(void))completion;\n- (void)load:(int)x completionHandler:(void (^)(int))completionHandler;\n- (void)sync:(int)x completionBlock:(void (^)(void))block;",
      swift: [
        "func flush(completion: @escaping @Sendable (Bool) -> Void)", "func save(handler: @escaping () -> Void)",
        "func run(_ x: Int32, completion: @escaping @Sendable () -> Void)",
        "func load(_ x: Int32, completionHandler: @escaping @Sendable (Int32) -> Void)",
        "func sync(_ x: Int32, completionBlock block: @escaping @Sendable () -> Void)",
      ]),
    Rule(
      name: "a block that is no completion handler is not Sendable",
      members: "- (void)observe:(void (^)(int value))changes;\n- (int)count:(int)x completion:(void (^)(int))completion;\n- (void)h:(int)x completion:(nullable void (^)(int))completion;",
      swift: [
        "func observe(_ changes: @escaping (Int32) -> Void)",
        "func count(_ x: Int32, completion: @escaping (Int32) -> Void) -> Int32",
        "func h(_ x: Int32, completion: (@Sendable (Int32) -> Void)?)",
      ]),
    Rule(
      name: "nullability: nullable, nonnull by the region, unspecified outside it",
      members: "- (nullable Item *)lastItem;\n- (Item *)firstItem;\n- (void)use:(nullable Item *)item;",
      swift: ["func lastItem() -> Item?", "func firstItem() -> Item", "func use(_ item: Item?)"]),
    Rule(
      name: "properties: readwrite and readonly, id and protocols",
      members: "@property (nonatomic) int level;\n@property (nonatomic, readonly) double totalSeconds;\n@property (nonatomic, nullable) id<Listening> listener;",
      swift: ["var level: Int32 { get set }", "var totalSeconds: Double { get }", "var listener: (any Listening)? { get set }"]),
    Rule(
      name: "NS_SWIFT_NAME gives the name",
      members: "- (void)resetCounters NS_SWIFT_NAME(reset());\n- (void)setupName:(int)x NS_SWIFT_NAME(setUp(name:));",
      swift: ["func reset()", "func setUp(name x: Int32)"]),
    Rule(
      name: "names the importer shortens in ways not modelled stay out",
      members: "- (void)addItem:(Item *)item;\n- (Item *)itemForName:(int)name;\n@property (nonatomic, getter=isOn) BOOL on;\n- (void)runWithBlock:(void (^)(void))block;\n- (void)each:(int)x withBlock:(void (^)(void))block;",
      swift: ["?", "?", "?", "?", "?"]),
    Rule(
      name: "Foundation's bridged types, and NSUInteger as Int",
      members: "- (NSArray<Item *> *)items;\n- (NSDictionary<NSString *, NSNumber *> *)counts;\n- (void)log:(NSString *)text;\n- (nullable NSURL *)link;\n- (NSUInteger)size;",
      swift: [
        "func items() -> [Item]", "func counts() -> [String: NSNumber]", "func log(_ text: String)", "func link() -> URL?",
        "func size() -> Int",
      ],
      compiles: false),
  ]

  static let base = """
    #pragma once
    #define NS_ASSUME_NONNULL_BEGIN _Pragma("clang assume_nonnull begin")
    #define NS_ASSUME_NONNULL_END _Pragma("clang assume_nonnull end")
    #define NS_UNAVAILABLE __attribute__((unavailable))
    #define NS_SWIFT_NAME(name) __attribute__((swift_name(#name)))
    typedef _Bool BOOL;
    typedef long NSInteger;
    typedef unsigned long NSUInteger;
    NS_ASSUME_NONNULL_BEGIN
    __attribute__((objc_root_class))
    @interface NSObject
    + (instancetype)alloc;
    - (instancetype)init;
    @end
    @protocol Listening
    @end
    @interface Item : NSObject
    @end
    NS_ASSUME_NONNULL_END

    """

  static func header(_ members: String) -> String {
    "#import \"Base.h\"\n\nNS_ASSUME_NONNULL_BEGIN\n\n@interface MetricsLogger : NSObject\n\n\(members)\n\n@end\n\nNS_ASSUME_NONNULL_END\n"
  }

  /// The Swift declaration of each member of `MetricsLogger`, as the index reads the header; `?`
  /// for one with a problem.
  static func imported(_ header: String, implementation: String = "") -> (declarations: [String], index: Index) {
    var sources = [SourceText(path: "Legacy/MetricsLogger.h", text: header)]
    if !implementation.isEmpty { sources.append(SourceText(path: "Legacy/MetricsLogger.m", text: implementation)) }
    let index = IndexBuilder(threads: 1).build(sources: sources)
    guard let interface = index.imported.interfaces["Legacy/MetricsLogger.h"],
      let type = index.declarations(of: "MetricsLogger").first
    else { return ([], index) }
    let declarations = type.members.filter { $0.kind != .initializer }.map { member -> String in
      if member.imported?.problem != nil { return "?" }
      // What the Swift declaration is, without the `public` every imported member has.
      let text = String(decoding: interface.bytes[member.range.bytes], as: UTF8.self)
      return text.hasPrefix("public ") ? String(text.dropFirst(7)) : text
    }
    return (declarations, index)
  }

  @Test(arguments: rules)
  func ruleMatchesTheCompiler(_ rule: Rule) throws {
    let header = Self.header(rule.members)
    let (declarations, _) = Self.imported(header)
    #expect(declarations == rule.swift)
    guard rule.compiles else { return }
    let known = declarations.filter { $0 != "?" }
    guard !known.isEmpty else { return }
    // Class members satisfy `static` requirements.
    let requirements = known.map { "  " + ($0.hasPrefix("class ") ? "static " + $0.dropFirst(6) : Substring($0)) }
    let swift = "protocol Check: AnyObject {\n\(requirements.joined(separator: "\n"))\n}\n\nextension MetricsLogger: Check {}\n"
    let errors = try Self.typeCheck(header: header, swift: swift)
    #expect(errors.isEmpty, "\(swift)\n\(errors)")
  }

  @Test func aClassMethodReturningAStaticIsASingletonAndOneReturningANewInstanceIsNot() {
    let header = Self.header("+ (instancetype)sharedInstance;\n+ (instancetype)defaultLogger;\n- (void)log;")
    let implementation = """
      #import "MetricsLogger.h"
      static MetricsLogger *theLogger = nil;
      @implementation MetricsLogger
      + (instancetype)sharedInstance {
          if (theLogger == nil) { theLogger = [[self alloc] init]; }
          return theLogger;
      }
      + (instancetype)defaultLogger {
          MetricsLogger *fresh = [[self alloc] init];
          return fresh;
      }
      - (void)log {}
      @end
      """
    let singletons = Self.imported(header, implementation: implementation).index.singletons
    #expect(singletons.map(\.accessExpression) == ["MetricsLogger.sharedInstance()"])
    #expect(singletons.first?.isStrict == false)
    // Without its implementation a header does not tell an accessor from a factory.
    #expect(Self.imported(header).index.singletons.isEmpty)
  }

  @Test func anUnavailableInitOrAnAllocWithZoneOverrideMakesItStrict() {
    let dispatched = """
      @implementation MetricsLogger
      + (MetricsLogger *)sharedLogger {
          static MetricsLogger *shared = nil;
          static dispatch_once_t once;
          dispatch_once(&once, ^{ shared = [[self alloc] init]; });
          return shared;
      }
      @end
      """
    let unavailable = Self.header("@property (class, readonly) MetricsLogger *sharedLogger;\n- (instancetype)init NS_UNAVAILABLE;")
    let strict = Self.imported(unavailable, implementation: dispatched).index.singletons
    #expect(strict.map(\.accessExpression) == ["MetricsLogger.shared"] && strict.first?.isStrict == true)
    let open = Self.header("@property (class, readonly) MetricsLogger *sharedLogger;")
    #expect(Self.imported(open, implementation: dispatched).index.singletons.first?.isStrict == false)
    let overriding = dispatched.replacingOccurrences(
      of: "@end", with: "+ (instancetype)allocWithZone:(struct _NSZone *)zone { return [self sharedLogger]; }\n@end")
    #expect(Self.imported(open, implementation: overriding).index.singletons.first?.isStrict == true)
  }

  @Test func aNameTheImporterMayShortenIsSettledByASwiftCallByThatName() throws {
    // Whether the importer keeps `restoreNote(_:)` or gives `restore(_:)` depends on more than the
    // header says (both happen in real apps); the project's own Swift code, which compiles, calls
    // the one that exists.
    let header = "#import \"Base.h\"\n@class Note;\n\nNS_ASSUME_NONNULL_BEGIN\n\n@interface MetricsLogger : NSObject\n\n"
      + "+ (instancetype)sharedInstance;\n- (void)restoreNote:(Note *)note;\n- (void)trashNote:(Note *)note;\n\n@end\n\nNS_ASSUME_NONNULL_END\n"
    let note = "#import \"Base.h\"\n@interface Note : NSObject\n@end\n"
    let implementation =
      "static MetricsLogger *theLogger = nil;\n@implementation MetricsLogger\n+ (instancetype)sharedInstance { return theLogger; }\n@end\n"
    let swift = "final class Screen {\n  func undo(_ note: Note) { MetricsLogger.sharedInstance().restoreNote(note) }\n}\n"
    let index = IndexBuilder(threads: 1).build(sources: [
      SourceText(path: "Legacy/MetricsLogger.h", text: header), SourceText(path: "Legacy/Note.h", text: note),
      SourceText(path: "Legacy/MetricsLogger.m", text: implementation), SourceText(path: "App/Screen.swift", text: swift),
    ])
    let members = index.members(of: "MetricsLogger")
    let restore = try #require(members.first { $0.name == "restoreNote" })
    let trash = try #require(members.first { $0.name == "trashNote" })
    #expect(index.importProblem(of: restore, in: "MetricsLogger") == nil)
    #expect(index.importProblem(of: trash, in: "MetricsLogger") == "the importer may shorten 'trashNote' after its parameter's type")
    // What `scan` shows for it: the declaration as the header writes it.
    #expect(trash.imported?.written == "- (void)trashNote:(Note *)note")
  }

  @Test func theInterfaceKeepsTheHeadersLinesAndAPlanThatWouldEditTheHeaderIsRefused() throws {
    let header = Self.header("- (void)logScreen:(int)screenID duration:(double)seconds;")
    let (_, index) = Self.imported(header)
    let member = try #require(index.members(of: "MetricsLogger").first)
    // The Objective-C declaration is on line 7 of the header; so is its Swift one.
    #expect(member.location.line == 7 && member.location.path == "Legacy/MetricsLogger.h")
    let project = Project(index: index, objectiveCPaths: ["Legacy/MetricsLogger.h"])
    #expect(throws: Refusal.self) { try project.sources(of: ["Legacy/MetricsLogger.h"]) }
  }

  @Test func aSwiftPackagesCFamilyTargetsSingletonIsSlicedAmongTheSwiftCodeThatImportsIt() throws {
    let header = "#import \"Base.h\"\n\nNS_ASSUME_NONNULL_BEGIN\n\n@interface MetricsLogger : NSObject\n\n"
      + "@property (class, nonatomic, readonly) MetricsLogger *sharedLogger;\n- (void)logScreen:(int)screenID duration:(double)seconds;\n\n@end\n\nNS_ASSUME_NONNULL_END\n"
    let files = [
      "Package.swift": """
        // swift-tools-version: 6.0
        import PackageDescription

        let package = Package(
          name: "Mixed",
          targets: [.target(name: "Legacy"), .target(name: "App", dependencies: ["Legacy"])]
        )
        """,
      "Sources/Legacy/include/Base.h": Self.base,
      "Sources/Legacy/include/MetricsLogger.h": header,
      "Sources/Legacy/MetricsLogger.m": """
        #import "MetricsLogger.h"
        @implementation MetricsLogger
        + (MetricsLogger *)sharedLogger {
            static MetricsLogger *shared = nil;
            return shared;
        }
        - (void)logScreen:(int)screenID duration:(double)seconds {}
        @end
        """,
      "Sources/App/Home.swift": "import Legacy\n\nfinal class Home {\n  func show() { MetricsLogger.shared.logScreen(1, duration: 2) }\n}\n",
    ]
    let project = makeProject(files)
    let singleton = try #require(project.index.singletons.first)
    let plan = try ExtractProtocolPlanner.plan(
      singleton: singleton, options: ExtractProtocolOptions(slices: [Slice(name: "Logging", members: ["logScreen"])]),
      project: project)
    #expect(plan.edits.isEmpty)
    let created = try #require(plan.newFiles["Sources/App/Logging.swift"])
    // In an Xcode project the new file joins the targets of the Swift file beside it, not the header's.
    #expect(plan.companions["Sources/App/Logging.swift"] == "Sources/App/Home.swift")
    expectText(
      created,
      "import Legacy\n\nprotocol Logging: AnyObject {\n    func logScreen(_ screenID: Int32, duration seconds: Double)\n}\n\nextension MetricsLogger: Logging {}\n")
    // The package's Swift target, with the new file, type-checks against the C-family target's module.
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("desingleton-objc-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let include = directory.appendingPathComponent("include")
    try FileManager.default.createDirectory(at: include, withIntermediateDirectories: true)
    try Data(Self.base.utf8).write(to: include.appendingPathComponent("Base.h"))
    try Data(header.utf8).write(to: include.appendingPathComponent("MetricsLogger.h"))
    try Data("module Legacy {\n  header \"MetricsLogger.h\"\n  export *\n}\n".utf8).write(to: include.appendingPathComponent("module.modulemap"))
    let use = "import Legacy\n\nfinal class Home {\n  let logging: Logging\n  init(logging: Logging) { self.logging = logging }\n  func show() { logging.logScreen(1, duration: 2) }\n}\n"
    try Data(created.utf8).write(to: directory.appendingPathComponent("Logging.swift"))
    try Data(use.utf8).write(to: directory.appendingPathComponent("Home.swift"))
    let result = try run(
      ["swiftc", "-frontend", "-typecheck", "-swift-version", "6", "-enable-objc-interop",
       "-disable-objc-attr-requires-foundation-module", "-I", include.path, "-module-name", "App",
       directory.path + "/Logging.swift", directory.path + "/Home.swift"])
    #expect(result.status == 0, "\(result.standardError)")
  }

  @Test func finishLeavesTheHeaderAloneAndAStrictOnesRootTakesTheAccessorsInstance() throws {
    let header = Self.header("@property (class, nonatomic, readonly) MetricsLogger *sharedLogger;\n- (instancetype)init NS_UNAVAILABLE;\n- (void)log;")
    let files = [
      "Legacy/Base.h": Self.base,
      "Legacy/MetricsLogger.h": header,
      "Legacy/MetricsLogger.m":
        "@implementation MetricsLogger\n+ (MetricsLogger *)sharedLogger {\n    static MetricsLogger *shared = nil;\n    return shared;\n}\n- (void)log {}\n@end\n",
      "App/Logging.swift": "protocol Logging: AnyObject {\n  func log()\n}\n\nextension MetricsLogger: Logging {}\n",
      "App/Screen.swift": "final class Screen {\n  let logging: Logging\n  init(logging: Logging) { self.logging = logging }\n}\n",
      "App/AppRoot.swift": "final class AppRoot {\n  let screen = Screen(logging: MetricsLogger.shared)\n}\n",
    ]
    let project = makeProject(files)
    let singleton = try #require(project.index.singletons.first)
    #expect(singleton.isStrict)
    let plan = try FinishPlanner.plan(singleton: singleton, options: FinishOptions(root: "AppRoot"), project: project)
    #expect(Set(plan.edits.keys) == ["App/AppRoot.swift"] && plan.newFiles.isEmpty)
    let result = try apply(plan, to: project, files: files)
    expectText(
      result["App/AppRoot.swift"],
      "final class AppRoot {\n  private let metricsLogger: MetricsLogger = MetricsLogger.shared\n\n  let screen: Screen\n\n  init() {\n    self.screen = Screen(logging: metricsLogger)\n  }\n}\n")
    // The result type-checks against the header.
    let swift = ["App/Logging.swift", "App/Screen.swift", "App/AppRoot.swift"].compactMap { result[$0] }.joined(separator: "\n")
    let errors = try Self.typeCheck(header: header, swift: swift)
    #expect(errors.isEmpty, "\(errors)")
  }

  /// "" when `swift` type-checks against the header (and `Base.h`) with Objective-C interoperability.
  static func typeCheck(header: String, swift: String) throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("desingleton-objc-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try Data(base.utf8).write(to: directory.appendingPathComponent("Base.h"))
    try Data(header.utf8).write(to: directory.appendingPathComponent("MetricsLogger.h"))
    try Data(swift.utf8).write(to: directory.appendingPathComponent("Check.swift"))
    let result = try run(
      ["swiftc", "-frontend", "-typecheck", "-swift-version", "6", "-enable-objc-interop",
       "-disable-objc-attr-requires-foundation-module", "-import-objc-header", directory.path + "/MetricsLogger.h",
       "-I", directory.path, "-module-name", "Check", directory.path + "/Check.swift"])
    return result.status == 0 ? "" : result.standardError + result.output
  }
}
