import DesingletonIndex
import Testing

@testable import DesingletonPlanner

/// The merging step of the slice suggestion, on groups of members with the consumers that use them,
/// and the access each member allows the slice it joins.
@Suite struct SliceMergerTests {
  typealias Group = SliceSuggester.Group

  func merged(
    _ groups: [Group], godObject: Bool = false, demand: [String: AccessLevel] = [:], exposable: [String: AccessLevel] = [:]
  ) -> [[String]] {
    var groups = groups
    SliceSuggester.merge(&groups, godObject: godObject, demand: { demand[$0] }, exposable: { exposable[$0] ?? .public })
    return groups.map { $0.members.sorted() }.sorted { $0.joined() < $1.joined() }
  }

  /// Two groups about the same thing merge when every consumer still uses half of what it
  /// receives; groups that share nothing stay apart (each consumer keeps cohesion 1).
  @Test func groupsAboutTheSameThingMergeAndOthersStayApart() {
    let groups = [
      Group(members: ["cacheProfileImage"], consumers: ["Avatar", "Coordinator"]),
      Group(members: ["cachedProfileImage"], consumers: ["ProfileView", "Coordinator"]),
      Group(members: ["tearDown"], consumers: ["Coordinator"]),
    ]
    #expect(merged(groups) == [["cacheProfileImage", "cachedProfileImage"], ["tearDown"]])
    // Without the shared noun, the merge costs two consumers half of what they receive.
    let apart = [
      Group(members: ["cacheProfileImage"], consumers: ["Avatar", "Coordinator"]),
      Group(members: ["removeFriend"], consumers: ["ProfileView", "Coordinator"]),
    ]
    #expect(merged(apart) == [["cacheProfileImage"], ["removeFriend"]])
  }

  /// The same merge is not made when a consumer in another module needs the slice public and one
  /// of its members is internal: the member would have to leave the slice.
  @Test func noMergePutsAnInternalMemberIntoASliceAnotherModuleUses() {
    let groups = [
      Group(members: ["imageCache"], consumers: ["Avatar"]),
      Group(members: ["imageCacheSize"], consumers: ["Avatar", "Widget"]),
    ]
    #expect(merged(groups) == [["imageCache", "imageCacheSize"]])
    #expect(
      merged(groups, demand: ["Widget": .public], exposable: ["imageCache": .internal]) == [["imageCache"], ["imageCacheSize"]])
    // `package` suffices for a module of the same package.
    #expect(
      merged(groups, demand: ["Widget": .package], exposable: ["imageCache": .package]) == [["imageCache", "imageCacheSize"]])
  }

  /// A god object (its consumers use ten members or more) gets at most one slice per three
  /// members, even where every merge costs cohesion.
  @Test func aGodObjectGetsAtMostOneSlicePerThreeMembers() {
    let groups = (0..<12).map { Group(members: ["member\($0)"], consumers: ["Consumer\($0)"]) }
    #expect(merged(groups, godObject: true).count == 4)
    // In a smaller singleton, nothing forces a merge that costs cohesion.
    #expect(merged(groups).count == 12)
  }

  /// The merges do not depend on what the consumers are called (nor on the order a set lists
  /// them): two merges that gain the same, summed in another order, are a tie, and the first pair
  /// wins. The shape of a real app's preferences singleton, where which slice took
  /// `inAppBrowserReaderView` changed from one run of the same binary to the next.
  @Test func theMergesDoNotDependOnTheConsumersNames() {
    let uses: [(String, [String])] = [
      ("EmojiTextApp", ["animateEmojis"]),
      ("HapticManager", ["hapticButtonPressEnabled", "hapticTabSelectionEnabled", "hapticTimelineEnabled"]),
      ("IceCubesApp", ["refreshServerPreferences", "reloadNotificationsCount"]),
      ("InAppSafariManager", ["inAppBrowserReaderView"]),
      ("NotificationServiceContentProvider", ["notificationsCount", "reloadNotificationsCount", "totalNotificationsCount"]),
      ("PushNotificationsService", ["reloadNotificationsCount"]),
      ("SoundEffectManager", ["soundEffectEnabled"]),
      ("EditorStore", ["appRequireAltText"]),
      ("TextService", ["getReplyVisibility"]),
      ("StatusRowViewModel", ["autoExpandSpoilers", "collapseLongPosts", "preferredTranslationType", "userDeeplAPIFree"]),
      ("TimelineViewModel", ["fullTimelineFetch", "streamHomeTimeline"]),
    ]
    // In the order the singleton declares them.
    let members = [
      "appRequireAltText", "animateEmojis", "preferredTranslationType", "userDeeplAPIFree", "inAppBrowserReaderView",
      "hapticTabSelectionEnabled", "hapticTimelineEnabled", "hapticButtonPressEnabled", "soundEffectEnabled",
      "collapseLongPosts", "streamHomeTimeline", "fullTimelineFetch", "getReplyVisibility", "autoExpandSpoilers",
      "notificationsCount", "totalNotificationsCount", "reloadNotificationsCount", "refreshServerPreferences",
    ]
    func groups(naming name: (Int) -> String) -> [Group] {
      var consumersOf: [String: Set<String>] = [:]
      for (position, use) in uses.enumerated() {
        for member in use.1 { consumersOf[member, default: []].insert(name(position)) }
      }
      return SliceSuggester.groupedBySameConsumers(members, consumersOf: consumersOf).groups
    }
    let first = merged(groups { uses[$0].0 }, godObject: true)
    for shift in 1..<60 {
      // The same consumers under other names, which number them in another order.
      let renamed = merged(groups { "C\(($0 * (1 + shift % 10) + shift) % uses.count)\($0)" }, godObject: true)
      #expect(renamed == first, "renamed with \(shift)")
    }
  }

  /// Why a member cannot be public names the first type its signature writes among the least
  /// visible ones, the same on every run (they were a set: a real app's report named one of two
  /// internal types at random).
  @Test func theTypeThatKeepsAMemberInternalIsTheFirstWritten() throws {
    let project = makeProject([
      "Store.swift": """
        struct Zebra {}
        struct Apple {}
        fileprivate struct Mango {}
        public final class Store {
          public static let shared = Store()
          public func send(_ z: Zebra, _ a: Apple) {}
          public func keep(_ a: Apple, _ m: Mango, _ z: Zebra) {}
        }
        """
    ])
    let members = project.index.members(of: "Store")
    let send = try #require(members.first { $0.name == "send" })
    let keep = try #require(members.first { $0.name == "keep" })
    let sent = try SliceVisibility.exposure(of: send, project: project)
    #expect(sent.level == .internal && sent.hidden?.name == "Zebra")
    // The least visible wins over the first written.
    let kept = try SliceVisibility.exposure(of: keep, project: project)
    #expect(kept.level == .fileprivate && kept.hidden?.name == "Mango")
  }
}
