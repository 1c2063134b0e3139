import DesingletonCore
import DesingletonIndex
import DesingletonPlanner
import Foundation
import Testing

/// `finish --singleton A --singleton B`: two singletons that need each other, after `inject` gave
/// one of them the other in a property set after creation. The root makes both in one stored
/// property, in the order their accessors need them, and sets that property, which becomes weak.
@Suite struct FinishTogetherTests {
  static func files(playerAccessor: String = "Player()", root: String = "final class") -> [String: String] {
    [
      "Player.swift": """
      @MainActor
      final class Player {
        /// Set after creation by whoever makes both: 'SyncService' needs this 'Player' while it is made.
        lazy var reporting: Reporting = SyncService.shared

        static let shared = \(playerAccessor)
        var current = "none"
        func play(_ song: String) {
          current = song
          reporting.report(song)
        }
      }

      extension Player: CurrentProvider {}

      """,
      "SyncService.swift": """
      @MainActor
      final class SyncService {
        private let currentProvider: CurrentProvider

        init(currentProvider: CurrentProvider) {
          self.currentProvider = currentProvider
        }

        static let shared = SyncService(currentProvider: Player.shared)
        var reported: [String] = []
        func report(_ song: String) { reported.append(song) }
        func nowPlaying() -> String { currentProvider.current }
      }

      extension SyncService: Reporting {}

      """,
      "Protocols.swift": """
      @MainActor
      protocol CurrentProvider: AnyObject {
        var current: String { get }
      }

      @MainActor
      protocol Reporting: AnyObject {
        func report(_ song: String)
      }

      """,
      "AppRoot.swift": """
      @MainActor
      \(root) AppRoot {
        func play(_ song: String) {
          Player.shared.play(song)
        }

        func nowPlaying() -> String {
          SyncService.shared.nowPlaying()
        }
      }

      """,
    ]
  }

  func plan(_ files: [String: String], root: String = "AppRoot") throws -> (Project, Plan) {
    let project = makeProject(files)
    let singletons = ["Player", "SyncService"].compactMap { name in project.index.singletons.first { $0.typeName == name } }
    #expect(singletons.count == 2)
    return (project, try FinishPlanner.runTogether(singletons: singletons, options: FinishOptions(root: root), project: project).plan)
  }

  func refusal(_ files: [String: String]) throws -> String {
    do {
      _ = try plan(files)
      return "a plan"
    } catch let refusal as Refusal {
      return refusal.description
    }
  }

  @Test func theRootMakesBothAndSetsTheOneSetAfterCreation() throws {
    let files = Self.files()
    #expect(try compileErrors(files) == "", "the input does not compile")
    let (project, plan) = try plan(files)
    let result = try apply(plan, to: project, files: files)
    expectText(
      result["AppRoot.swift"],
      """
      @MainActor
      final class AppRoot {
        /// Made together: 'SyncService' needs 'Player' while it is made; 'Player' is given 'SyncService' after.
        private let (player, syncService): (Player, SyncService) = {
          let player = Player()
          let syncService = SyncService(currentProvider: player)
          player.reporting = syncService
          return (player, syncService)
        }()

        func play(_ song: String) {
          player.play(song)
        }

        func nowPlaying() -> String {
          syncService.nowPlaying()
        }
      }

      """)
    expectText(
      result["Player.swift"],
      """
      @MainActor
      final class Player {
        /// Set by 'AppRoot' right after it makes both: 'SyncService' needs this 'Player' while it is made; weak, as 'AppRoot' owns it.
        weak var reporting: Reporting!

        var current = "none"
        func play(_ song: String) {
          current = song
          reporting.report(song)
        }
      }

      extension Player: CurrentProvider {}

      """)
    #expect(result["SyncService.swift"]?.contains("static let shared") == false)
    #expect(try compileErrors(result) == "", "the result does not compile")
    #expect(makeProject(result).index.singletons.isEmpty)
  }

  /// An extension of the root in another file reads one of them: the pair is internal, which that
  /// file can see (a private one it cannot).
  @Test func aRootExtendedInAnotherFileHoldsThemInAnInternalProperty() throws {
    var files = Self.files()
    files["AppRoot+Queue.swift"] = """
      extension AppRoot {
        func queue(_ songs: [String]) {
          for song in songs { Player.shared.play(song) }
        }
      }

      """
    #expect(try compileErrors(files) == "", "the input does not compile")
    let (project, plan) = try plan(files)
    let result = try apply(plan, to: project, files: files)
    #expect(result["AppRoot.swift"]?.contains("\n  let (player, syncService): (Player, SyncService) = {\n") == true)
    #expect(result["AppRoot+Queue.swift"]?.contains("for song in songs { player.play(song) }") == true)
    #expect(try compileErrors(result) == "", "the result does not compile")
  }

  /// Alone, neither can go: each one's accessor or property set after creation uses the other's.
  @Test func aloneEachSaysToFinishThemTogether() throws {
    let project = makeProject(Self.files())
    for (name, expected) in [
      ("Player", "SyncService.swift:9:52: error: 'Player.shared' is used by 'SyncService', a singleton made with it (in its accessor, or a property set after creation); finish them together: 'desingleton finish --singleton Player --singleton SyncService --root AppRoot'"),
      ("SyncService", "Player.swift:4:35: error: 'SyncService.shared' is used by 'Player', a singleton made with it (in its accessor, or a property set after creation); finish them together: 'desingleton finish --singleton Player --singleton SyncService --root AppRoot'"),
    ] {
      let singleton = try #require(project.index.singletons.first { $0.typeName == name })
      do {
        _ = try FinishPlanner.plan(singleton: singleton, options: FinishOptions(root: "AppRoot"), project: project)
        Issue.record("expected a refusal for \(name)")
      } catch let refusal as Refusal {
        #expect(refusal.diagnostics.first?.description == expected)
      }
    }
  }

  /// Accessors that read each other cannot be made in any order.
  @Test func accessorsThatNeedEachOtherAreRefused() throws {
    var files = Self.files(playerAccessor: "Player(reporting: SyncService.shared)")
    files["Player.swift"] = files["Player.swift"]?.replacingOccurrences(
      of: "  /// Set after creation by whoever makes both: 'SyncService' needs this 'Player' while it is made.\n  lazy var reporting: Reporting = SyncService.shared\n",
      with: "  private let reporting: Reporting\n\n  init(reporting: Reporting) {\n    self.reporting = reporting\n  }\n")
    let said = try refusal(files)
    #expect(
      said
        == "Player.swift:9:3: error: 'Player' and 'SyncService' each need the other while they are made; let one of them take the other after it is made ('inject' gives a type in a creation cycle properties set after creation), then finish them together")
  }

  @Test func aRootThatIsNotAClassIsRefused() throws {
    #expect(
      try refusal(Self.files(root: "struct"))
        == "AppRoot.swift:1:1: error: 'AppRoot' is not a class: its one stored property holding the instances made together would need a class; make them in its init by hand")
  }
}
