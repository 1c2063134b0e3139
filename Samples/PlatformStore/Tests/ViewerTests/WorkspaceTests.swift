import Foundation
import Testing
@testable import Viewer

/// The store is shared by the process and not thread-safe: the tests run one at a time.
@Suite(.serialized) struct WorkspaceTests {
    @Test func anOpenDocumentHasAHandleAndADate() {
        let workspace = Workspace()
        let viewer = workspace.open("/notes.txt")
        #expect(viewer.handle != nil)
        #expect(viewer.lastModified == Date(timeIntervalSince1970: 0))
        viewer.dismiss()
        #expect(viewer.handle == nil)
        #expect(viewer.lastModified == nil)
    }

    @Test func theStatusBarCountsOpenFiles() {
        let workspace = Workspace()
        let viewer = workspace.open("/a.txt")
        #expect(workspace.status.text.hasSuffix(" open"))
        viewer.dismiss()
    }

    #if os(Linux) || canImport(Darwin)
    @Test func theStatusBarShowsThePageSize() {
        #expect(Workspace().status.pageText.hasPrefix("pages of "))
    }
    #endif
}
