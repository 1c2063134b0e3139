import Testing
@testable import PhoneApp

/// The call screen against the phone app's generated double of its preferences.
@MainActor
struct CallScreenDoubleTests {

    @Test func silencingMutesOnceThroughThePreferences() {
        let preferences = PreferencesProtocolMock()
        preferences.ringtone = "Marimba"
        var muted = 0
        preferences.muteHandler = { muted += 1 }
        let screen = CallScreen(preferencesProtocol: preferences, caller: "Ada")

        #expect(screen.summary == "Ada, Marimba")
        screen.silence()
        #expect(preferences.muteCallCount == 1 && muted == 1)
    }
}
