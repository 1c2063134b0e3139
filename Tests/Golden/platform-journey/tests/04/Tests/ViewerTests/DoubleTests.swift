import Foundation
import Handles
import Storage
import Testing
@testable import Viewer

@Suite struct DoubleTests {
    /// The viewer opens its path through the service, asks it for the date, and closes what it opened.
    @Test func theViewerOpensAndClosesThroughTheService() {
        let service = FileServiceMock()
        service.openHandler = { _ in FileHandleID(rawValue: 42) }
        service.modificationDateHandler = { _ in Date(timeIntervalSince1970: 7) }
        let viewer = DocumentViewer(fileService: service, path: "/notes.txt")

        viewer.show()
        #expect(viewer.lastModified == Date(timeIntervalSince1970: 7))
        viewer.dismiss()

        #expect(service.openArgValues == ["/notes.txt"])
        #expect(service.modificationDateArgValues == [FileHandleID(rawValue: 42)])
        #expect(service.closeArgValues == [FileHandleID(rawValue: 42)])
        #expect(viewer.lastModified == nil)
    }

    /// The status bar counts what the provider stubs.
    @Test func theStatusBarCountsTheStubbedFiles() {
        let provider = FileProvidingMock()
        provider.openFiles = [FileHandleID(rawValue: 1): "/a", FileHandleID(rawValue: 2): "/b"]
        #expect(StatusBar(fileProviding: provider).text == "2 open")
        #if os(Linux)
        provider.pageSize = 512
        #expect(StatusBar(fileProviding: provider).pageText == "pages of 512 bytes")
        #endif
    }
}
