/// A byte in a file: the key for anything found at a place in the code. An offset alone is no
/// key, since two files hold a declaration at the same byte as often as not.
public struct FilePlace: Hashable, Sendable, Comparable {
  public var path: String
  public var offset: Int

  public init(path: String, offset: Int) {
    self.path = path
    self.offset = offset
  }

  public static func < (lhs: FilePlace, rhs: FilePlace) -> Bool {
    (lhs.path, lhs.offset) < (rhs.path, rhs.offset)
  }
}
