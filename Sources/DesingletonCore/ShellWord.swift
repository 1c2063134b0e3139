/// Text made one word for a POSIX shell: as it is when it holds only characters no shell treats
/// specially, else in single quotes (a quote inside written `'\\''`).
public func shellWord(_ text: String) -> String {
  let plain = !text.isEmpty && text.utf8.allSatisfy { byte in
    (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a)
      || "/._-+=:,@%".utf8.contains(byte)
  }
  guard !plain else { return text }
  var quoted = "'"
  for character in text {
    if character == "'" { quoted += "'\\''" } else { quoted.append(character) }
  }
  return quoted + "'"
}
