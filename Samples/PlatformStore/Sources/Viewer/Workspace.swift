/// The composition root: the viewers and the status bar of one window.
public final class Workspace {
    public private(set) var viewers: [DocumentViewer] = []
    public let status: StatusBar

    public init() {
        status = StatusBar()
    }

    public func open(_ path: String) -> DocumentViewer {
        let viewer = DocumentViewer(path: path)
        viewer.show()
        viewers.append(viewer)
        return viewer
    }
}
