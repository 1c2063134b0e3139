import Foundation

/// Describes the app to the API: the headers every request carries.
struct APIClient: Sendable {

    let appName: String
    var appVersion: String?

    func defaultHeaders() -> [String: String] {
        let device = DeviceInfo.shared
        let userAgent: String
        if let appVersion {
            userAgent = device.userAgent(appName: appName, version: appVersion)
        } else {
            userAgent = device.userAgent(appName: appName)
        }
        return [
            "User-Agent": userAgent,
            "X-Device-Model": device.model,
            "X-OS-Version": DeviceInfo.shared.systemVersion,
        ]
    }
}
