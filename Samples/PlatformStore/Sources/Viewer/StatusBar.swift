import Storage

/// Counts the open files.
public final class StatusBar {
    public init() {}

    public var text: String {
        "\(FileStore.shared.openFiles.count) open"
    }

    #if os(Linux) || canImport(Darwin)
    public var pageText: String {
        "pages of \(FileStore.shared.pageSize) bytes"
    }
    #endif
}
