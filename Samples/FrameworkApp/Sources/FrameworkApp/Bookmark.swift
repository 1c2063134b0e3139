import UIKit

/// A saved place, read back with a decoder.
struct Bookmark: Codable, Equatable {
    var title: String
    var row: Int

    @MainActor
    func label() -> String {
        "\(title) (\(Preferences.shared.fontSize) pt)"
    }
}
