import DesingletonCore

/// The new content of one file: an existing file rewritten, or a new file (`original == nil`).
public struct FileOutput: Sendable {
  /// The path as loaded (`SourceText.path`) or as the plan names a new file.
  public var path: String
  /// The file as it was read; nil for a new file.
  public var original: SourceText?
  public var new: [UInt8]

  public init(path: String, original: SourceText?, new: [UInt8]) {
    self.path = path
    self.original = original
    self.new = new
  }

  public var isNewFile: Bool { original == nil }

  /// The unified diff of this file, with `displayPath` in its headers.
  public func diff(as displayPath: String) -> String {
    UnifiedDiff.render(path: displayPath, old: original?.bytes, new: new)
  }
}
