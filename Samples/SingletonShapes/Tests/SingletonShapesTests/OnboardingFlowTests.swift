import Foundation
import Testing
@testable import SingletonShapes

/// The `static let standard` shape, with generic members.
@MainActor
struct OnboardingFlowTests {

    let flow = OnboardingFlow()

    @Test func completingOnboardingRemembersTheName() {
        let name = "Ada \(UUID().uuidString.prefix(6))"

        flow.complete(name: name)

        #expect(!flow.shouldShowOnboarding)
        #expect(flow.greeting == "Welcome back, \(name)!")
    }

    @Test func eachLaunchIsCounted() {
        let first = flow.recordLaunch()
        let second = flow.recordLaunch()

        #expect(first >= 1)
        #expect(second == first + 1)
    }

    @Test func anInstanceStoresValuesOfAnyStringConvertibleType() {
        let preferences = Preferences(values: [.launchCount: "3"])

        #expect(preferences.value(forKey: .launchCount) == 3)
        #expect(preferences.value(forKey: .hasSeenOnboarding) as Bool? == nil)

        preferences.set(true, forKey: .hasSeenOnboarding)
        preferences.set(Optional<Int>.none, forKey: .launchCount)

        #expect(preferences.value(forKey: .hasSeenOnboarding) == true)
        #expect(preferences.value(forKey: .launchCount) as Int? == nil)
    }
}
