import Foundation

/// Facts about the device the app runs on.
///
/// A strict singleton: there is one device, so there is one `DeviceInfo`. The initializer is
/// private, and copying returns the shared instance instead of a new one.
final class DeviceInfo: NSObject, Sendable {

    static let shared = DeviceInfo()

    let model: String
    let systemVersion: String

    // Make sure the class has only one instance: no one else may create one or copy it.
    private override init() {
        model = "iPhone"
        systemVersion = "18.0"
        super.init()
    }

    override func copy() -> Any {
        return self
    }

    override func mutableCopy() -> Any {
        return self
    }

    /// The value of the User-Agent header for API requests.
    func userAgent(appName: String, version: String = "1.0") -> String {
        "\(appName)/\(version) (\(model); iOS \(systemVersion))"
    }
}
