import Testing
import UIKit
@testable import XcodeFolders

@MainActor
struct XcodeFoldersTests {
    @Test func theScreenShowsTheVolumeAndMutes() {
        let screen = SettingsScreen()
        _ = screen.view
        screen.louder()
        #expect(screen.volumeLabel.text?.hasPrefix("volume ") == true)
        screen.mute()
        #expect(screen.volumeLabel.text == "muted")
        screen.louder()
        #expect(screen.volumeLabel.text != "muted")
    }

    @Test func freshSettingsAreLoudEnough() {
        let settings = Settings()
        settings.louder()
        #expect(settings.volume == 6)
    }

    @Test func greets() {
        #expect(Greeting.text(for: "Ada") == "Hello, Ada")
    }
}
