import DesingletonCore
import DesingletonIndex
import DesingletonPlanner
import Foundation
import Testing

/// `scan` on each sample app as it is in the repository: the singletons found and the slices suggested.
@Suite struct SampleScanTests {
  func report(_ sample: String) throws -> ScanReport {
    let directory = packageRoot + "/Samples/" + sample
    let files = try FileLoader().swiftFiles(in: [directory]).files
    return try ScanReport(project: Project(index: IndexBuilder().build(paths: files)))
  }

  func slices(_ report: ScanReport, _ type: String) -> [String] {
    report.singletons.first { $0.type == type }?.suggestedSlices.map { "\($0.name): \($0.members.joined(separator: ", "))" } ?? []
  }

  @Test func shoppingApp() throws {
    let report = try report("ShoppingApp")
    #expect(report.singletons.map(\.type) == ["SessionController"])
    #expect(slices(report, "SessionController") == [
      "CurrentUserProvider: currentUser",
      "CurrentCart: cart, addItemToCart",
      "ItemFetcher: fetchedItems, availableItems, fetchAvailableItems",
    ])
    let consumers = report.singletons[0].consumers
    #expect(consumers.map(\.type) == ["CartViewController", "ItemListViewController", "LoginViewController", "ProfileViewController"])
    #expect(consumers.first { $0.type == "LoginViewController" }?.writes == ["currentUser"])
  }

  @Test func profileApp() throws {
    let report = try report("ProfileApp")
    #expect(report.singletons.map(\.type) == ["UserManager"])
    #expect(slices(report, "UserManager") == ["CurrentUserService: currentUser, logIn", "LogOutService: logOut"])
  }

  @Test func thumbnailCache() throws {
    let report = try report("ThumbnailCache")
    #expect(report.singletons.map(\.accessor) == ["sharedThumbnailCache"])
    #expect(slices(report, "ThumbnailCache") == [
      "ProfileImageCaching: cacheProfileImage, cachedProfileImage", "TearDownService: tearDown",
    ])
    #expect(report.singletons[0].consumers.map(\.type) == ["AppCoordinator", "AvatarProvider", "FriendListViewController", "ProfileImageView"])
  }

  @Test func singletonShapes() throws {
    let report = try report("SingletonShapes")
    let shapes = Dictionary(uniqueKeysWithValues: report.singletons.map { ($0.type, "\($0.accessor) \($0.shape) \($0.strict ? "strict" : "not strict")") })
    #expect(shapes == [
      "Analytics": "shared static-let not strict",
      "DeviceInfo": "shared static-let strict",
      "DownloadManager": "sharedInstance accessor-method strict",
      "FeatureFlags": "shared computed strict",
      "Logger": "shared closure-initialized not strict",
      "NotificationRouter": "sharedController static-let not strict",
      "Preferences": "standard static-let not strict",
      "ThemeManager": "shared class-var not strict",
    ])
    #expect(slices(report, "Analytics") == ["CurrentEvents: events, log", "CurrentSessionCount: sessionCount, track"])
    #expect(slices(report, "Logger") == ["LoggerProtocol: minimumLevel, entries, log"])
    #expect(report.singletons.first { $0.type == "NotificationRouter" }?.unsliced == ["register"])
  }
}

/// The god object: at most eight slices, named without digits and like no type of the project, and
/// the rest listed with the reason.
@Suite struct GodObjectScanTests {
  @Test func aGodObjectGetsAtMostEightSlicesWithNamesOfItsOwn() throws {
    let directory = packageRoot + "/Samples/GodObject"
    let files = try FileLoader().swiftFiles(in: [directory]).files
    let project = Project(index: IndexBuilder().build(paths: files))
    let report = try ScanReport(project: project)
    let entry = try #require(report.singletons.first { $0.type == "AppServices" })
    #expect(entry.members.count >= 60)
    #expect(entry.consumers.count >= 12)
    #expect(entry.suggestedSlices.count == 8)
    for slice in entry.suggestedSlices {
      let hasDigit = slice.name.contains { $0.isNumber }
      #expect(!hasDigit, "\(slice.name)")
      #expect(!project.index.hasType(slice.name) && project.index.types(named: slice.name).isEmpty, "\(slice.name)")
    }
    #expect(Set(entry.suggestedSlices.map(\.name)).count == 8)
    // Every member some consumer uses is in a slice or listed with the reason it stays.
    let used = Set(entry.consumers.flatMap { $0.reads + $0.writes + $0.calls })
    let placed = Set(entry.suggestedSlices.flatMap(\.members) + entry.kept.map(\.member))
    #expect(used.subtracting(placed).isEmpty)
    #expect(entry.kept.allSatisfy { $0.reason.contains("--max-slices") })
    #expect(entry.suggestedSlices.map(\.name).contains("UnreadCounting"))
    #expect(entry.suggestedSlices.map(\.name).contains("AccountRefreshing"))
    // A smaller cap keeps the most used groups.
    let three = try ScanReport(project: project, maxSlices: 3).singletons[0]
    #expect(three.suggestedSlices.count == 3)
    #expect(three.kept.count > entry.kept.count)
  }
}
