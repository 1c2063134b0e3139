import Foundation
import Testing
@testable import SingletonShapes

/// Consumers against the generated doubles: an async, throwing and generic main-actor slice, and a
/// `Sendable` one whose protocol extension supplies a default argument.
@MainActor
struct DoubleTests {

    @Test func theLoaderDecodesWhatTheStubbedDownloaderReturns() async throws {
        let downloads = DownloadServiceMock()
        downloads.downloadHandler = { _ in Data("hello".utf8) }
        downloads.decodeHandler = { _, _ in AttachmentLoader.Manifest(version: 3, files: ["a.txt"]) }
        let loader = AttachmentLoader(downloadService: downloads, baseURL: URL(string: "https://example.com")!)

        let text = try await loader.text(named: "a.txt")
        let manifest = try await loader.manifest()

        #expect(text == "hello")
        #expect(manifest == AttachmentLoader.Manifest(version: 3, files: ["a.txt"]))
        #expect(downloads.downloadArgValues.map(\.lastPathComponent) == ["a.txt"])
        #expect(downloads.decodeArgValues.map(\.url.lastPathComponent) == ["manifest.json"])
    }

    @Test func theHeadersCarryTheStubbedDeviceAndTheDefaultVersion() {
        let device = DeviceInfoProtocolMock()
        device.model = "Phone"
        device.systemVersion = "18.0"
        device.userAgentHandler = { name, version in "\(name)/\(version)" }

        let headers = APIClient(deviceInfoProtocol: device, appName: "Shapes").defaultHeaders()

        #expect(headers == ["User-Agent": "Shapes/1.0", "X-Device-Model": "Phone", "X-OS-Version": "18.0"])
        #expect(device.userAgentCallCount == 1)
        #expect(device.userAgentArgValues.map(\.version) == ["1.0"])
    }
}
