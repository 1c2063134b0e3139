import Foundation

/// The app's settings: one instance for the whole app.
public final class Settings: @unchecked Sendable {
    public static let shared = Settings()

    public var theme: String = "light"
    public var fontSize: Int = 14
    public private(set) var lastChange: Date?

    /// Kept for the sync service inside this module only.
    var pendingUpload: [String] = []

    private init() {}

    public func setTheme(_ theme: String) {
        self.theme = theme
        record("theme")
    }

    public func increaseFontSize(by step: Int = 1) {
        fontSize += step
        record("fontSize")
    }

    #if os(Linux)
    public var cacheDirectory: URL {
        URL(fileURLWithPath: "/tmp/modular-app")
    }
    #else
    public var cacheDirectory: URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("modular-app")
    }
    #endif

    private func record(_ key: String) {
        lastChange = Date()
        pendingUpload.append(key)
    }
}

public extension Settings {
    /// Whether nothing was changed from the defaults.
    var isDefault: Bool { theme == "light" && fontSize == 14 }

    func reset() {
        theme = "light"
        fontSize = 14
    }
}
