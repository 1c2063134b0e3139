import Testing
@testable import CycleApp

/// The player and the sync service need each other: what one screen does through one of them, the
/// other screen sees through the other. That holds only with one instance of each.
@MainActor
struct ScreenTests {
    @Test func whatOneScreenPlaysTheOtherShows() {
        let root = AppRoot()
        let playing = root.makeNowPlaying()
        let progress = root.makeProgress()
        playing.tapPlay("ep-1")
        playing.drag(to: 42)
        #expect(progress.rows.contains("ep-1: 42.0"))
        #expect(progress.resume == "ep-1")
        #expect(playing.title == "ep-1")
    }

    @Test func screensMadeLaterShareTheInstances() {
        let root = AppRoot()
        root.makeNowPlaying().tapPlay("ep-2")
        #expect(root.makeProgress().resume == "ep-2")
        #expect(root.makeNowPlaying().title == "ep-2")
    }

    @Test func aScreenThatUsesBothResumesWhereTheListenerLeftOff() {
        let root = AppRoot()
        let playing = root.makeNowPlaying()
        playing.tapPlay("ep-5")
        playing.drag(to: 120)
        playing.tapPlay("ep-6")
        let episode = root.makeEpisode("ep-5")
        episode.resume()
        #expect(episode.isPlaying)
        #expect(root.makeProgress().rows.contains("ep-5: 120.0"))
        #expect(playing.title == "ep-5")
    }
}
