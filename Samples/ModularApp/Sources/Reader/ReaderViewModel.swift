import Core
import Foundation

/// The reading screen's state.
public final class ReaderViewModel {
    public private(set) var pages: [String]

    public init(pages: [String]) {
        self.pages = pages
    }

    public var textSize: Int { Settings.shared.fontSize }

    public func zoomIn() {
        Settings.shared.increaseFontSize()
    }

    public func cacheFile(for page: Int) -> URL {
        Settings.shared.cacheDirectory.appendingPathComponent("page-\(page)")
    }
}
