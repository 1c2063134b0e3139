/// A handle to an open file, as the store hands it out.
public struct FileHandleID: Hashable, Sendable {
    public let rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }
}
