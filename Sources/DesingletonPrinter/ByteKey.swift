import Foundation

/// Bytes as a dictionary key, hashed in one call over the whole buffer: `[UInt8]`'s and
/// `ArraySlice<UInt8>`'s own `Hashable` feed the hasher one byte at a time, which made hashing whole
/// files and lines a large part of rendering a plan over hundreds of files.
struct ByteKey: Hashable {
  let bytes: ArraySlice<UInt8>

  init(_ bytes: ArraySlice<UInt8>) {
    self.bytes = bytes
  }

  init(_ bytes: [UInt8]) {
    self.bytes = bytes[...]
  }

  func hash(into hasher: inout Hasher) {
    bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
  }

  static func == (lhs: ByteKey, rhs: ByteKey) -> Bool {
    guard lhs.bytes.count == rhs.bytes.count else { return false }
    return lhs.bytes.withUnsafeBytes { left in
      rhs.bytes.withUnsafeBytes { right in left.count == 0 || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0 }
    }
  }
}
