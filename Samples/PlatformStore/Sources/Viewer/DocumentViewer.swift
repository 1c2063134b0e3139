import Foundation
import Handles
import Storage

/// Shows one document: opens it in the store and closes it when done.
public final class DocumentViewer {
    public let path: String
    public private(set) var handle: FileHandleID?

    public init(path: String) {
        self.path = path
    }

    public func show() {
        handle = FileStore.shared.open(path)
    }

    public func dismiss() {
        if let handle { FileStore.shared.close(handle) }
        handle = nil
    }

    public var lastModified: Date? {
        handle.flatMap { FileStore.shared.modificationDate(of: $0) }
    }
}
