import Testing
import UIKit
@testable import XcodeFolders

/// The settings screen against the generated doubles of its two slices.
@MainActor
@Suite struct DoubleTests {
    /// A stubbed volume and a spy on mute: the label follows what the slices say.
    @Test func theLabelShowsTheStubbedVolumeThenMuted() {
        let volume = VolumeControlMock()
        volume.volume = 7
        let muteSwitch = MuteSwitchMock()
        muteSwitch.muteHandler = { muteSwitch.isMuted = true }
        let screen = SettingsScreen(volumeControl: volume, muteSwitch: muteSwitch)

        screen.refresh()
        #expect(screen.volumeLabel.text == "volume 7")

        screen.mute()
        #expect(muteSwitch.muteCallCount == 1)
        #expect(screen.volumeLabel.text == "muted")
    }
}
