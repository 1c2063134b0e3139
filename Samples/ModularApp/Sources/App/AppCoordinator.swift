import Profile
import Reader

/// Builds the app's screens: the composition root.
public final class AppCoordinator {
    public private(set) var profile: ProfileViewModel?
    public private(set) var reader: ReaderViewModel?
    public private(set) var settings: SettingsScreen?

    public init() {}

    public func start(userName: String) {
        profile = ProfileViewModel(userName: userName)
        reader = ReaderViewModel(pages: ["one", "two"])
        settings = SettingsScreen()
    }
}
