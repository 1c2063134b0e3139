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
    // `currentUser` is read through instances only (in tests): it stays on the singleton.
    #expect(slices(report, "UserManager") == ["LogInService: logIn", "LogOutService: logOut"])
    #expect(report.singletons[0].unsliced == ["currentUser"])
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
    #expect(slices(report, "Analytics") == ["CurrentEvents: events, log", "SessionCountProvider: sessionCount", "Tracking: track"])
    #expect(slices(report, "Logger") == ["CurrentEntries: entries, log"])
    #expect(report.singletons.first { $0.type == "NotificationRouter" }?.unsliced == ["register"])
  }
}

/// The god object: every member a consumer uses in a slice, at most one slice per three members,
/// each consumer receiving mostly what it uses; names without digits, like no type of the project.
@Suite struct GodObjectScanTests {
  @Test func aGodObjectsSlicesServeEveryConsumerWithNamesOfTheirOwn() throws {
    let directory = packageRoot + "/Samples/GodObject"
    let files = try FileLoader().swiftFiles(in: [directory]).files
    let project = Project(index: IndexBuilder().build(paths: files))
    let report = try ScanReport(project: project)
    let entry = try #require(report.singletons.first { $0.type == "AppServices" })
    #expect(entry.members.count >= 60)
    #expect(entry.consumers.count >= 12)
    let quality = try #require(entry.quality)
    #expect(quality.coverage == 1 && quality.uncoveredConsumers.isEmpty, "\(quality.summary)")
    #expect(quality.meanCohesion >= 0.5 && quality.medianProtocols <= 2, "\(quality.summary)")
    #expect(quality.slices * 3 <= quality.slicedMembers, "\(quality.summary)")
    for slice in entry.suggestedSlices {
      let hasDigit = slice.name.contains { $0.isNumber }
      #expect(!hasDigit, "\(slice.name)")
      #expect(!project.index.hasType(slice.name) && project.index.types(named: slice.name).isEmpty, "\(slice.name)")
    }
    #expect(Set(entry.suggestedSlices.map(\.name)).count == entry.suggestedSlices.count)
    // Every member some consumer uses is in a slice; nothing is kept.
    let used = Set(entry.consumers.flatMap { $0.reads + $0.writes + $0.calls })
    #expect(used.subtracting(entry.suggestedSlices.flatMap(\.members)).isEmpty)
    #expect(entry.kept.isEmpty)
    #expect(entry.suggestedSlices.map(\.name).contains("UnreadCounting"))
    #expect(entry.suggestedSlices.map(\.name).contains("ContactProviding"))
    // A cap keeps the most used slices and lists the consumers it leaves uncovered.
    let three = try ScanReport(project: project, maxSlices: 3).singletons[0]
    #expect(three.suggestedSlices.count == 3)
    #expect(!three.kept.isEmpty && three.kept.allSatisfy { $0.reason.contains("--max-slices") })
    #expect(three.quality.map { !$0.uncoveredConsumers.isEmpty } == true)
  }
}

/// Every slice `scan` suggests for the samples, one line each (sample, singleton, slice, members),
/// against `Tests/Golden/slice-names.txt`: a change of name shows in review, and is recorded with
/// `DESINGLETON_RECORD=1` only once the new names have been read.
@Suite struct SliceNameTests {
  @Test func everySuggestedNameOfTheSamples() throws {
    var lines: [String] = []
    for (sample, directory) in try sampleDirectories() where !["UIKit", "SwiftUI"].contains(sample) {
      let found = try FileLoader().swiftFiles(in: [directory])
      let index = IndexBuilder().importing(objectiveC: found.objectiveCFiles).build(paths: found.files)
      let report = try ScanReport(project: Project(index: index, objectiveCPaths: found.objectiveCFiles))
      for entry in report.singletons {
        for slice in entry.suggestedSlices {
          lines.append("\(sample) \(entry.type)\(entry.module.map { " (\($0))" } ?? ""): \(slice.name): \(slice.members.joined(separator: ", "))")
        }
      }
    }
    let path = packageRoot + "/Tests/Golden/slice-names.txt"
    let actual = lines.joined(separator: "\n") + "\n"
    if GoldenTests.recording {
      try Data(actual.utf8).write(to: URL(fileURLWithPath: path))
      Issue.record("recorded \(path)")
      return
    }
    let expected = try String(contentsOfFile: path, encoding: .utf8)
    #expect(actual == expected)
  }
}
