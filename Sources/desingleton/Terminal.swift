import ArgumentParser
import DesingletonCore
import Foundation

/// `--color`: whether diffs (stdout) and the summary (stderr) are coloured.
enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
  /// Colour on a terminal, unless `NO_COLOR` is set or `TERM` is `dumb`.
  case auto, always, never
}

/// What the process writes to the terminal besides its results: colours and the progress line.
/// Nothing of either goes to a pipe or a file (unless `--color always`).
final class Terminal: @unchecked Sendable {
  static let shared = Terminal()

  private let lock = NSLock()
  private(set) var colorsStandardOutput = false
  private(set) var colorsStandardError = false
  /// What the progress line shows; the index builder advances it.
  let progress = RunProgress()
  private var lineShown = false
  private var started = Date()
  /// A progress line only when a run takes longer than this.
  private var delay: TimeInterval = 1

  /// Decides colours from the flag and the environment, and starts the progress line when stderr
  /// is a terminal.
  func configure(color: ColorChoice, environment: [String: String] = ProcessInfo.processInfo.environment) {
    let plain = environment["NO_COLOR"].map { !$0.isEmpty } ?? false || environment["TERM"] == "dumb"
    switch color {
    case .always: (colorsStandardOutput, colorsStandardError) = (true, true)
    case .never: (colorsStandardOutput, colorsStandardError) = (false, false)
    case .auto: (colorsStandardOutput, colorsStandardError) = (!plain && isatty(1) == 1, !plain && isatty(2) == 1)
    }
    // For tests of the progress line under a pseudo-terminal, which cannot wait a second per case.
    if let seconds = environment["DESINGLETON_PROGRESS_DELAY"].flatMap(TimeInterval.init) { delay = seconds }
    guard isatty(2) == 1, environment["TERM"] != "dumb" else { return }
    started = Date()
    let thread = Thread { [self] in
      while true {
        drawProgress()
        Thread.sleep(forTimeInterval: 0.1)
      }
    }
    thread.stackSize = 1 << 16
    thread.start()
  }

  private func drawProgress() {
    guard Date().timeIntervalSince(started) >= delay else { return }
    let state = progress.current
    var line = "desingleton: \(state.phase)"
    if state.total > 0 { line += " \(state.done)/\(state.total) files" }
    lock.lock()
    FileHandle.standardError.write(Data(("\r\u{1B}[2K" + line).utf8))
    lineShown = true
    lock.unlock()
  }

  /// Writes a line to stderr, over the progress line; diagnostics' severities coloured.
  func writeError(_ line: String) {
    lock.lock()
    defer { lock.unlock() }
    var text = lineShown ? "\r\u{1B}[2K" : ""
    lineShown = false
    text += colorsStandardError ? Terminal.colored(summary: line) : line
    FileHandle.standardError.write(Data((text + "\n").utf8))
  }

  /// Removes the progress line before the process ends.
  func finish() {
    lock.lock()
    if lineShown { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
    lineShown = false
    started = .distantFuture
    lock.unlock()
  }

  /// A diff for stdout: headers bold, hunks cyan, removals red, additions green.
  func diff(_ text: String) -> String {
    guard colorsStandardOutput else { return text }
    return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      if line.hasPrefix("diff --git") || line.hasPrefix("--- ") || line.hasPrefix("+++ ") || line.hasPrefix("new file")
        || line.hasPrefix("deleted file")
      {
        return Terminal.paint(line, "1")
      }
      if line.hasPrefix("@@") { return Terminal.paint(line, "36") }
      if line.hasPrefix("+") { return Terminal.paint(line, "32") }
      if line.hasPrefix("-") { return Terminal.paint(line, "31") }
      return String(line)
    }.joined(separator: "\n")
  }

  /// `error:` red, `warning:` yellow, `note:` cyan, bold, as the compiler colours them.
  static func colored(summary line: String) -> String {
    for (word, code) in [("error:", "1;31"), ("warning:", "1;33"), ("note:", "1;36")] {
      if line.hasPrefix(word) { return paint(word, code) + line.dropFirst(word.count) }
      if let range = line.range(of: ": " + word) {
        return String(line[..<range.lowerBound]) + ": " + paint(word, code) + line[range.upperBound...]
      }
    }
    return line
  }

  static func paint<Text: StringProtocol>(_ text: Text, _ code: String) -> String {
    "\u{1B}[\(code)m\(text)\u{1B}[0m"
  }
}
