/// The app's colour theme.
///
/// Declared the Swift 1 way, with a class property over a nested struct's static constant;
/// subclasses could override `shared`.
@MainActor
class ThemeManager {

    class var shared: ThemeManager {
        struct Static {
            @MainActor static let instance = ThemeManager()
        }
        return Static.instance
    }

    enum Theme: String, Sendable {
        case light
        case dark

        var opposite: Theme {
            self == .light ? .dark : .light
        }
    }

    private(set) var current: Theme = .light

    /// How many times the theme was changed.
    var changeCount = 0

    func apply(_ theme: Theme, animated: Bool = true) {
        guard theme != current else { return }
        current = theme
        changeCount += 1
    }
}
