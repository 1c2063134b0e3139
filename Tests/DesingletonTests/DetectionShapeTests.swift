import DesingletonCore
import DesingletonIndex
import DesingletonPlanner
import Foundation
import Testing

/// Shapes real apps write that are singletons, and shapes that look like one but are not.
@Suite struct DetectionShapeTests {
  func project(_ files: [String: String], accessors: [String] = []) -> Project {
    let sources = files.map { SourceText(path: $0.key, text: $0.value) }
    let index = IndexBuilder(threads: 2, accessors: AccessorNames(extra: accessors)).build(sources: sources)
    return Project(index: index, sources: Dictionary(uniqueKeysWithValues: sources.map { ($0.path, $0) }))
  }

  func found(_ project: Project) -> [String: Singleton] {
    Dictionary(uniqueKeysWithValues: project.index.singletons.map { ($0.typeName, $0) })
  }

  @Test func anAccessorInBackticksIsFoundAndSoAreItsReferences() throws {
    let project = project([
      "Palette.swift": """
      public final class Palette: Sendable {
        public static let `default`: Palette = {
          Palette()
        }()
        public let tint = 1
      }
      struct Screen {
        func tint() -> Int { Palette.`default`.tint + Palette.default.tint }
      }
      """
    ])
    let palette = try #require(found(project)["Palette"])
    #expect(palette.accessor == "default")
    #expect(palette.shape == .closureInitialized)
    #expect(project.index.references(to: palette).count == 2)
  }

  @Test func projectAccessorNamesAreFoundOnlyWhenGiven() throws {
    let files = [
      "Environment.swift": """
      final class Environment {
        static var current = Environment()
        static let main = Environment()
        var apiURL = "https://example.com"
      }
      struct Client {
        func url() -> String { Environment.current.apiURL }
      }
      """
    ]
    #expect(found(project(files))["Environment"] == nil)
    let environment = try #require(found(project(files, accessors: ["current", "main"]))["Environment"])
    #expect(environment.accessors == ["current", "main"])
    #expect(project(files, accessors: ["current"]).index.references(to: environment).count == 1)
  }

  @Test func factoriesAreNotSingletons() {
    let project = project([
      "Options.swift": """
      struct Options {
        static var defaults: Self { Self(retries: 2) }
        var retries: Int
      }
      final class Formatter {
        static var shared: Formatter { return Formatter() }
        class func sharedInstance() -> Formatter { .init() }
      }
      struct Use {
        func f() -> Int { Options.defaults.retries }
      }
      """
    ])
    #expect(project.index.singletons.isEmpty)
  }

  @Test func valueTypeConstantsAreNotSingletonsButAChangedStaticVarIs() throws {
    let project = project([
      "Style.swift": """
      struct HighlightStyle {
        static let defaultStyle = HighlightStyle(weight: 1)
        var weight: Int
      }
      struct Counter {
        static var shared = Counter()
        var count = 0
        mutating func bump() { count += 1 }
      }
      struct Settings {
        static var shared = Settings()
        var volume = 1
      }
      struct Limits {
        static var shared = Limits()
        var maximum = 1
      }
      struct Extensions {
        static var `default` = Extensions()
        var names: [String] = []
      }
      final class Navigator {
        var shown: Extensions = .default
        func add() { shown.names.append("swift") }
      }
      struct Screen {
        func f() -> Int {
          Counter.shared.bump()
          Settings.shared.volume = 2
          return HighlightStyle.defaultStyle.weight + Limits.shared.maximum
        }
      }
      """
    ])
    #expect(found(project).keys.sorted() == ["Counter", "Settings"])
    #expect(project.index.references.allSatisfy { ["Counter", "Settings"].contains($0.baseName) })
  }

  static let userDefaults = """
    import Foundation

    extension UserDefaults {
      static let shared = UserDefaults(suiteName: "group.example")!
    }
    extension Notification.Name {
      static let defaultChanged = Notification.Name("changed")
    }
    final class Onboarding {
      var isDone: Bool { UserDefaults.shared.bool(forKey: "done") }
      func finish() { UserDefaults.shared.set(true, forKey: "done") }
    }
    """

  @Test func anAccessorInAnExtensionOfAFrameworkClassIsReportedButNotSliced() throws {
    let project = project(["Defaults.swift": Self.userDefaults])
    let defaults = try #require(found(project)["UserDefaults"])
    #expect(defaults.isForeign)
    #expect(found(project)["Notification.Name"] == nil)
    let report = try ScanReport(project: project)
    let entry = try #require(report.singletons.first)
    #expect(entry.consumers.map(\.type) == ["Onboarding"])
    #expect(entry.consumers[0].calls == ["bool", "set"])
    #expect(entry.suggestedSlices.isEmpty)
    #expect(entry.note?.contains("declared outside the project") == true)
    #expect(!report.text().contains("desingleton extract-protocol"))
    do {
      _ = try ExtractProtocolPlanner.plan(singleton: defaults, options: ExtractProtocolOptions(), project: project)
      Issue.record("expected a refusal")
    } catch let refusal as Refusal {
      #expect(
        refusal.description.hasPrefix(
          "Defaults.swift:4:3: error: 'UserDefaults' is declared outside the project: the signatures of its members are not known here"))
    }
  }

  @Test func generatedFilesAreReadButTheirTypesAreNotSingletons() throws {
    let project = project([
      "Model.pb.swift": """
      final class Storage {
        static let defaultInstance = Storage()
        var value = 0
      }
      func touch() -> Int { Store.shared.count }
      """,
      "Cache.swift": """
      // Generated using Sourcery 2.1 — https://github.com/krzysztofzablocki/Sourcery
      // DO NOT EDIT
      final class Cache {
        static let shared = Cache()
      }
      """,
      "Store.swift": """
      final class Store {
        static let shared = Store()
        var count = 0
      }
      """,
    ])
    #expect(found(project).keys.sorted() == ["Store"])
    let store = try #require(found(project)["Store"])
    #expect(project.index.references(to: store).map(\.range.path) == ["Model.pb.swift"])
    #expect(project.index.isGenerated("Cache.swift") && project.index.isGenerated("Model.pb.swift"))
    #expect(!project.index.isGenerated("Store.swift"))
    var plan = Plan()
    plan.add(.insert("x", at: 0), in: "Model.pb.swift")
    plan.add(.insert("x", at: 0), in: "Store.swift")
    #expect(throws: Refusal.self) { try plan.refusingGeneratedFiles(in: project.index) }
    var fine = Plan()
    fine.add(.insert("x", at: 0), in: "Store.swift")
    try fine.refusingGeneratedFiles(in: project.index)
  }

  @Test func aProtocolTypedAccessorIsCutIntoProtocolsItRefines() throws {
    let locator = """
      protocol ServiceLocating: AnyObject {
        var lastAccountRefresh: Double { get }
        var unreadCount: Int { get }
        func refreshAccount()
        func resetUnreadCount()
      }

      final class ServiceLocator: ServiceLocating {
        nonisolated(unsafe) static var shared: ServiceLocating = ServiceLocator()
        var lastAccountRefresh = 0.0
        var unreadCount = 0
        func refreshAccount() {}
        func resetUnreadCount() { unreadCount = 0 }
      }

      """
    let consumers = """
      final class Inbox {
        func clear() -> Int {
          ServiceLocator.shared.resetUnreadCount()
          return ServiceLocator.shared.unreadCount
        }
      }
      final class Badge {
        func text() -> String { "\\(ServiceLocator.shared.unreadCount)" }
      }
      final class Account {
        func refresh() -> String {
          ServiceLocator.shared.refreshAccount()
          return String(ServiceLocator.shared.lastAccountRefresh)
        }
      }

      """
    let files = ["ServiceLocator.swift": locator, "Consumers.swift": consumers]
    let singleton = try #require(found(project(files))["ServiceLocator"])
    #expect(singleton.accessorProtocol == "ServiceLocating")
    try expectPlan(
      files, singleton: "ServiceLocator",
      produces: [
        "ServiceLocator.swift": locator.replacingOccurrences(
          of: "protocol ServiceLocating: AnyObject {", with: "protocol ServiceLocating: AnyObject, AccountRefreshing, UnreadCounting {"),
        "UnreadCounting.swift": """
        protocol UnreadCounting: AnyObject {
          var unreadCount: Int { get }
          func resetUnreadCount()
        }

        """,
        "AccountRefreshing.swift": """
        protocol AccountRefreshing: AnyObject {
          var lastAccountRefresh: Double { get }
          func refreshAccount()
        }

        """,
      ],
      notes: nil, sourceLocation: #_sourceLocation
    ) { singleton, project in
      try ExtractProtocolPlanner.plan(singleton: singleton, options: ExtractProtocolOptions(), project: project)
    }
  }
}

/// What the suggestion is made of, and that `scan`'s command is what `extract-protocol` accepts.
@Suite struct SuggestionTests {
  /// A singleton of `groups` × `perGroup` members (`accountRefresh3`-style names, digits included),
  /// used by consumers in overlapping patterns.
  static func godObject(groups: [String], perGroup: Int, consumers: Int) -> [String: String] {
    var members: [String] = []
    var uses: [[String]] = Array(repeating: [], count: consumers)
    for (number, group) in groups.enumerated() {
      for position in 0..<perGroup {
        let name = "\(group)\(position)"
        members.append(position % 2 == 0 ? "  var \(name) = \(position)" : "  func \(name)() {}")
        // Each group has two consumers of its own and shares one with the next group.
        for consumer in [number % consumers, (number + 1) % consumers, (number * 3 + 2) % consumers] {
          uses[consumer].append(position % 2 == 0 ? "_ = Hub.shared.\(name)" : "Hub.shared.\(name)()")
        }
      }
    }
    var consumerText = ""
    for (number, lines) in uses.enumerated() {
      consumerText += "@MainActor final class Consumer\(number) {\n  func run() {\n"
      consumerText += lines.map { "    " + $0 + "\n" }.joined() + "  }\n}\n"
    }
    return [
      "Hub.swift": "@MainActor\nfinal class Hub {\n  static let shared = Hub()\n" + members.joined(separator: "\n") + "\n}\n",
      "Consumers.swift": consumerText,
      // A type named like a natural suggestion: the suggestion must not take its name.
      "AccountRefreshing.swift": "struct AccountRefreshing {}\n",
    ]
  }

  /// 60 members, 12 consumers in overlapping patterns: every used member is in a slice, at most one
  /// slice per three members, each consumer receives mostly what it uses and few protocols.
  @Test func aGodObjectsSlicesServeEveryConsumerCompileAndASecondRunIsEmpty() throws {
    let groups = [
      "refreshAccount", "unreadCount", "loadMessage", "saveDraft", "syncFolder", "trackEvent", "searchQuery",
      "contactList", "imageCache", "logLine", "themeColor", "notifyUser",
    ]
    let files = Self.godObject(groups: groups, perGroup: 5, consumers: 12)
    let project = makeProject(files)
    let hub = try #require(project.index.singletons.first)
    let analysis = try SingletonAnalysis(singleton: hub, project: project)
    #expect(analysis.members.count == 60)
    #expect(analysis.consumers.count == 12)
    let suggestion = SliceSuggester.suggestion(analysis, project: project)
    let quality = SliceQuality(
      slices: suggestion.slices, usage: analysis.consumers.map { ($0.typeName, $0.members.sorted()) },
      requirable: suggestion.requirable.contains)
    #expect(quality.coverage == 1 && quality.uncoveredConsumers.isEmpty)
    #expect(quality.slices * 3 <= quality.slicedMembers, "\(quality.summary)")
    #expect(quality.meanCohesion >= 0.5, "\(quality.summary)")
    #expect(quality.medianProtocols <= 2, "\(quality.summary)")
    #expect(suggestion.kept.isEmpty)
    // A user's cap keeps the most used slices and leaves the others' consumers uncovered.
    let capped = SliceSuggester.suggestion(analysis, project: project, maxSlices: 2)
    #expect(capped.slices.count == 2 && !capped.kept.isEmpty)
    #expect(capped.kept.allSatisfy { $0.reason == "beyond the 2 slices suggested (--max-slices)" })
    for slice in suggestion.slices {
      let hasDigit = slice.name.contains { $0.isNumber }
      #expect(!hasDigit, "\(slice.name)")
      #expect(slice.name != "AccountRefreshing")
      #expect(slice.name.first?.isUppercase == true)
    }
    // scan's command names the slices: it is accepted, compiles, and then a default run plans nothing.
    let applied = try apply(
      ExtractProtocolPlanner.plan(singleton: hub, options: ExtractProtocolOptions(slices: suggestion.slices), project: project),
      to: project, files: files)
    #expect(try compileErrors(applied) == "")
    let again = makeProject(applied)
    let second = try ExtractProtocolPlanner.plan(
      singleton: try #require(again.index.singletons.first), options: ExtractProtocolOptions(), project: again)
    #expect(second.isEmpty)
  }

  @Test func namesComeFromSharedWordsWithoutDigits() {
    func members(_ names: [(String, MemberDecl.Kind)]) -> [MemberDecl] {
      names.map {
        MemberDecl(
          name: $0.0, kind: $0.1, isStored: $0.1 == .property,
          range: SourceRange(path: "a", bytes: 0..<0, start: Location(path: "a", line: 1, column: 1)))
      }
    }
    let name = { (list: [(String, MemberDecl.Kind)]) in
      SliceNamer.name(for: members(list), typeName: "Store", wholeType: false, isTaken: { _ in false })
    }
    #expect(name([("unreadCount", .property), ("resetUnreadCount", .method), ("unreadCountText", .property), ("incrementUnreadCount", .method)]) == "UnreadCounting")
    #expect(name([("refreshAccount", .method), ("lastAccountRefresh", .property), ("accountName", .property), ("accountID", .property)]) == "AccountRefreshing")
    #expect(name([("load3", .method)]) == "Loading")
    #expect(name([("exportTheme", .method)]) == "ThemeExporting")
    #expect(name([("logOut", .method)]) == "LogOutService")
    #expect(name([("fetchArticles2", .method)]) == "ArticleFetcher")
    let taken = SliceNamer.name(for: members([("fetchArticles", .method)]), typeName: "Store", wholeType: false) {
      $0 == "ArticleFetcher"
    }
    #expect(taken == "ArticleFetching")
  }

  /// `Current` names a property the other members act on, and the singleton's subject keeps its
  /// own casing.
  @Test(arguments: [
    // The others name the property's thing, or are a verb alone: they act on it.
    (["var cart", "addItemToCart"], "Session", "CurrentCart"),
    (["var notes", "add", "removeAll"], "NoteStore", "CurrentNotes"),
    (["var userName", "rename"], "Preferences", "CurrentUserName"),
    (["var accountID", "signIn"], "AccountManager", "CurrentAccountID"),
    // The others are about something else: the words they share name the group, else the singleton's subject.
    (["var windowWidth", "showsSidebar", "toggleSidebar"], "Preferences", "SidebarProviding"),
    (["rename", "var previousTheme", "cancelDetails"], "ThemeModel", "ThemeService"),
    (["var databasePath", "vacuum"], "ImageMetadataDatabase", "ImageMetadataDatabaseService"),
    // A flag is a question, never a current thing.
    (["var vibrates: Bool", "mute", "var ringtone"], "Preferences", "PreferencesService"),
    (["newDefaultNote", "var tags"], "SPObjectManager", "SPObjectService"),
  ])
  func currentNamesAThingTheOthersActOn(members: [String], typeName: String, expected: String) {
    // `var name` is a stored property, `var name: Type` one of that type; a bare name, a method.
    let decls = members.map { written in
      let declaration = written.split(separator: ":").map { $0.trimmingCharacters(in: .whitespaces) }
      return MemberDecl(
        name: String(declaration[0].split(separator: " ").last!), kind: written.hasPrefix("var ") ? .property : .method,
        isStored: written.hasPrefix("var "), typeText: declaration.count > 1 ? declaration[1] : nil,
        range: SourceRange(path: "a", bytes: 0..<0, start: Location(path: "a", line: 1, column: 1)))
    }
    #expect(SliceNamer.name(for: decls, typeName: typeName, wholeType: false, isTaken: { _ in false }) == expected)
  }

  /// Words the members write side by side make a phrase where every member naming its first noun
  /// writes it so: the longest, with generic words (`type`, `size`) inside it.
  @Test(arguments: [
    (["setRecentAutoFillEntry", "getRecentAutoFillEntry", "removeRecentAutoFillEntry"], "Keychain", "RecentAutoFillEntryProviding"),
    (["getDeviceBootTimestamp", "setDeviceBootTimestamp"], "Keychain", "DeviceBootTimestampProviding"),
    (["var isQuickTypeEnabled: Bool", "getQuickTypeDatabaseCount"], "Settings", "QuickTypeProviding"),
    (["var fontSize: Int", "increaseFontSize", "var cacheDirectory: URL"], "Settings", "FontSizeProviding"),
    // `destroyShade` names the shade alone: not `ShadeAlpha`.
    (["var gammaInterferenceWarningShown", "enforceGammaActivity", "moveGammaActivityEnforcer", "destroyShade",
      "updateShade", "getShadeAlpha", "setShadeAlpha"], "DisplayManager", "ShadeProviding"),
    // `patreonCreatorAccessToken` does not write `patreonAccess`.
    (["var patreonAccessToken", "var patreonRefreshToken", "var patreonCreatorAccessToken", "var patreonAccountID"],
      "Keychain", "PatreonProviding"),
  ])
  func aPhraseIsWrittenByEveryMemberNamingItsNoun(members: [String], typeName: String, expected: String) {
    currentNamesAThingTheOthersActOn(members: members, typeName: typeName, expected: expected)
  }

  /// Names when the first choice is another slice's: words of the members before a letter or
  /// `Slice` after a name.
  @Test(arguments: [
    // A `UserDefaults` wrapper's typed getters, once `StoreService` names the first slice.
    (["bool", "string"], "Store", ["StoreService"], "StoreBoolStringService"),
    (["int", "set"], "Store", ["StoreService"], "StoreIntSetService"),
    // `updating(_:)` and `delete` change what the type holds (a verb's inflection counts).
    (["updating", "delete", "activateAuthentication"], "AuthenticationServiceProvider", [], "AuthenticationEditing"),
    (["updating", "delete", "activateAuthentication"], "AuthenticationServiceProvider", ["AuthenticationEditing"],
      "AuthenticationUpdateDeleteEditing"),
    // A word of the subject says nothing new (`accounts` of `AccountManager`): one word is left,
    // too few to tell the slice apart, so the singleton's name goes in front.
    (["var accounts", "var sortedAccounts"], "AccountManager", ["AccountProviding", "AccountService"],
      "AccountManagerAccountProviding"),
  ])
  func namesWhenTheFirstChoiceIsTaken(members: [String], typeName: String, taken: [String], expected: String) {
    // `var name` is a property; a bare name, a method.
    let decls = members.map {
      MemberDecl(
        name: String($0.split(separator: " ").last!), kind: $0.hasPrefix("var ") ? .property : .method, isStored: false,
        range: SourceRange(path: "a", bytes: 0..<0, start: Location(path: "a", line: 1, column: 1)))
    }
    #expect(SliceNamer.name(for: decls, typeName: typeName, wholeType: false, isTaken: taken.contains) == expected)
  }

  @Test func aPrivateOverloadStaysWithoutBlockingItsPublicSibling() throws {
    let store = """
      @MainActor
      final class Store {
        static let shared = Store()
        var elapsed = -1 as Double
        func load() -> Int { load(limit: 3) }
        private func load(limit: Int) -> Int { limit }
      }

      """
    let files = [
      "Store.swift": store,
      "Screen.swift": """
      @MainActor
      final class Screen {
        func show() -> Double { Double(Store.shared.load()) + Store.shared.elapsed }
      }

      """,
    ]
    let project = makeProject(files)
    let analysis = try SingletonAnalysis(singleton: try #require(project.index.singletons.first), project: project)
    let suggestion = SliceSuggester.suggestion(analysis, project: project)
    #expect(suggestion.slices.map(\.members) == [["elapsed", "load"]])
    // The command scan prints is accepted: the private overload stays on the singleton.
    try expectPlan(
      files, singleton: "Store",
      produces: [
        "Store.swift": store + "\nextension Store: StoreProtocol {}\n",
        "StoreProtocol.swift": """
        @MainActor
        protocol StoreProtocol: AnyObject, Sendable {
          var elapsed: Double { get }
          func load() -> Int
        }

        """,
      ],
      notes: nil, sourceLocation: #_sourceLocation
    ) { singleton, project in
      try ExtractProtocolPlanner.plan(
        singleton: singleton, options: ExtractProtocolOptions(slices: suggestion.slices), project: project)
    }
  }

  @Test func membersThatCannotBeRequirementsAreLeftOutWithTheReason() throws {
    let files = [
      "Store.swift": """
      final class Store {
        static let shared = Store()
        var count = 0
        var thing = Thing.make()
      }
      struct Thing { static func make() -> Thing { Thing() } }
      """,
      "Screen.swift": """
      final class Screen {
        func show() -> Int { _ = Store.shared.thing; return Store.shared.count }
      }
      """,
    ]
    let project = makeProject(files)
    let analysis = try SingletonAnalysis(singleton: try #require(project.index.singletons.first), project: project)
    let suggestion = SliceSuggester.suggestion(analysis, project: project)
    #expect(suggestion.slices.map(\.members) == [["count"]])
    #expect(suggestion.kept == [KeptMember(member: "thing", reason: "cannot infer the type of 'thing'; add a type annotation")])
    let report = try ScanReport(project: project).text()
    #expect(report.contains("(stays on Store) thing: cannot infer the type of 'thing'; add a type annotation"))
  }
}
