import Foundation

/// The bytes of one source file exactly as they are on disk, with a line table for
/// turning UTF-8 offsets into line and column.
public struct SourceText: Sendable {
  /// The path as shown to the user (relative to the directory the command runs in, when it is below it).
  public var path: String
  public var bytes: [UInt8]
  /// Offsets of the first byte of every line.
  public let lineStarts: [Int]

  public init(path: String, bytes: [UInt8]) {
    self.path = path
    self.bytes = bytes
    self.lineStarts = SourceText.lineStarts(in: bytes)
  }

  /// Offsets of the first byte of every line of `bytes`.
  public static func lineStarts(in bytes: [UInt8]) -> [Int] {
    var starts = [0]
    starts.reserveCapacity(bytes.count / 32 + 1)
    // `memchr` from one newline to the next: lines are tens of bytes long.
    bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      var offset = 0
      while offset < buffer.count, let found = memchr(base + offset, Int32(UInt8(ascii: "\n")), buffer.count - offset) {
        offset = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
        starts.append(offset)
      }
    }
    return starts
  }

  public init(path: String, text: String) {
    self.init(path: path, bytes: Array(text.utf8))
  }

  public var text: String { String(decoding: bytes, as: UTF8.self) }

  public func location(ofOffset offset: Int) -> Location {
    var low = 0
    var high = lineStarts.count - 1
    while low < high {
      let mid = (low + high + 1) / 2
      if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
    }
    return Location(path: path, line: low + 1, column: offset - lineStarts[low] + 1)
  }

  /// The line ending the file uses most: `"\r\n"` or `"\n"`.
  public var lineEnding: String {
    var crlf = 0
    var lf = 0
    for start in lineStarts.dropFirst() {
      if start >= 2 && bytes[start - 2] == UInt8(ascii: "\r") { crlf += 1 } else { lf += 1 }
    }
    return crlf > lf ? "\r\n" : "\n"
  }

  /// One level of indentation as the file writes it: a tab, or the smallest number of
  /// spaces by which one line is indented deeper than the line before it (4 when the file has none).
  public var indentUnit: String {
    var tabs = 0
    var spaces = 0
    var smallestStep = Int.max
    var previous = 0
    for start in lineStarts {
      var i = start
      var width = 0
      var sawTab = false
      while i < bytes.count, bytes[i] == UInt8(ascii: " ") || bytes[i] == UInt8(ascii: "\t") {
        if bytes[i] == UInt8(ascii: "\t") { sawTab = true }
        width += 1
        i += 1
      }
      if i >= bytes.count || bytes[i] == UInt8(ascii: "\n") || bytes[i] == UInt8(ascii: "\r") { continue }
      if width > 0 {
        if sawTab { tabs += 1 } else { spaces += 1 }
        if !sawTab && width > previous && width - previous < smallestStep { smallestStep = width - previous }
      }
      previous = sawTab ? previous : width
    }
    if tabs > spaces { return "\t" }
    if smallestStep == Int.max { return "    " }
    return String(repeating: " ", count: min(max(smallestStep, 2), 8))
  }
}

/// How deeply the Swift parser may nest before it gives up on a file: the release parser's own
/// limit, in every build, so that a debug build reads the files a release build reads (the debug
/// parser's default is 20, which real code exceeds).
public let swiftParserNestingLimit = 256
