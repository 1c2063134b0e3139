/// An image. Here an image is its name or its bytes; nothing is decoded.
open class UIImage: @unchecked Sendable {

    /// The asset or symbol name the image was created from, if any.
    public let name: String?

    /// The bytes the image was created from, if any.
    public let data: Data?

    public let size: CGSize

    /// Returns `nil` for an empty name, as UIKit returns `nil` for a missing asset.
    public init?(named name: String) {
        guard !name.isEmpty else { return nil }
        self.name = name
        self.data = nil
        self.size = CGSize(width: 1, height: 1)
    }

    public init?(systemName name: String) {
        guard !name.isEmpty else { return nil }
        self.name = name
        self.data = nil
        self.size = CGSize(width: 1, height: 1)
    }

    /// Returns `nil` for empty data, as UIKit does for data it cannot decode.
    public init?(data: Data) {
        guard !data.isEmpty else { return nil }
        self.name = nil
        self.data = data
        self.size = CGSize(width: 1, height: 1)
    }
}
