/// Decides whether to show onboarding, and remembers who finished it.
@MainActor
struct OnboardingFlow {

    var shouldShowOnboarding: Bool {
        let hasSeenOnboarding: Bool? = Preferences.standard.value(forKey: .hasSeenOnboarding)
        return hasSeenOnboarding != true
    }

    var greeting: String {
        if let name: String = Preferences.standard.value(forKey: .preferredName) {
            return "Welcome back, \(name)!"
        }
        return "Welcome!"
    }

    func complete(name: String) {
        Preferences.standard.set(true, forKey: .hasSeenOnboarding)
        Preferences.standard.set(name, forKey: .preferredName)
    }

    /// Counts this launch and returns the new count.
    @discardableResult
    func recordLaunch() -> Int {
        let launches = (Preferences.standard.value(forKey: .launchCount) ?? 0) + 1
        Preferences.standard.set(launches, forKey: .launchCount)
        return launches
    }
}
