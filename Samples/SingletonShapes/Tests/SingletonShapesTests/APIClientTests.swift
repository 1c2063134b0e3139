import Testing
@testable import SingletonShapes

/// Shape 1, the strict `NSObject` singleton, seen through its consumer.
struct APIClientTests {

    @Test func headersDescribeTheAppAndTheDevice() {
        let headers = APIClient(appName: "Shapes").defaultHeaders()

        #expect(headers == [
            "User-Agent": "Shapes/1.0 (iPhone; iOS 18.0)",
            "X-Device-Model": "iPhone",
            "X-OS-Version": "18.0",
        ])
    }

    @Test func anExplicitVersionReplacesTheDefault() {
        let client = APIClient(appName: "Shapes", appVersion: "2.3")
        #expect(client.defaultHeaders()["User-Agent"] == "Shapes/2.3 (iPhone; iOS 18.0)")
    }
}
