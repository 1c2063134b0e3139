import UIKit

/// A length that grows with the font size. The compiler makes one for each property it wraps.
@MainActor
@propertyWrapper
struct Scaled {
    private var base: Int

    init(wrappedValue: Int) {
        base = wrappedValue
    }

    var wrappedValue: Int {
        get { base * Preferences.shared.fontSize / 14 }
        set { base = newValue }
    }
}
