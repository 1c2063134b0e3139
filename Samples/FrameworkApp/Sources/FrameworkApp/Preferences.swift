import UIKit

/// The app's settings: the singleton every screen reaches for.
@MainActor
public final class Preferences {
    public static let shared = Preferences()

    public private(set) var fontSize = 14
    public var theme = "light"
    /// What changed, kept by a helper the preferences make for themselves.
    let history = History()

    init() {}

    public func increaseFontSize() {
        fontSize += 1
        history.record("font size")
    }
}
