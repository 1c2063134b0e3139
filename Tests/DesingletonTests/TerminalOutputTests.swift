import Foundation
import Testing

/// Colours and the progress line: on a terminal only (or with `--color always`), never in a pipe.
@Suite(.serialized) struct TerminalOutputTests {
  static let binary = packageRoot + "/.build/debug/desingleton"
  static let escape = "\u{1B}["

  /// A scratch project with a singleton and a consumer, and a default run that has a diff.
  func project() throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "desingleton-tty-\(UUID().uuidString)"
    ).path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try Data(CommandLineTests.store.utf8).write(to: URL(fileURLWithPath: directory + "/Store.swift"))
    try Data(CommandLineTests.consumer.utf8).write(to: URL(fileURLWithPath: directory + "/Counter.swift"))
    return directory
  }

  /// Runs the tool under a pseudo-terminal (stdout and stderr both the terminal) and returns what it wrote.
  func underTerminal(_ arguments: [String], in directory: String, environment: [String: String]) throws -> String {
    let script = """
      import os, pty, sys
      pid, fd = pty.fork()
      if pid == 0:
          os.execv(sys.argv[1], sys.argv[1:])
      out = b""
      while True:
          try:
              data = os.read(fd, 65536)
          except OSError:
              break
          if not data:
              break
          out += data
      os.waitpid(pid, 0)
      sys.stdout.write(out.decode("utf-8", "replace"))
      """
    return try run(["python3", "-c", script, Self.binary] + arguments, in: directory, environment: environment).output
  }

  let plainTerminal = ["NO_COLOR": "", "TERM": "xterm-256color", "DESINGLETON_PROGRESS_DELAY": "0"]

  @Test func pipedRunsHaveNeitherColourNorProgress() throws {
    let directory = try project()
    for color in [[], ["--color", "auto"], ["--color", "never"]] {
      let result = try run(
        [Self.binary, "extract-protocol", "--dry-run"] + color,
        in: directory,
        environment: plainTerminal
      )
      #expect(result.status == 0)
      #expect(result.output.hasPrefix("diff --git"))
      #expect(!result.output.contains(Self.escape) && !result.standardError.contains(Self.escape))
      #expect(!result.standardError.contains("parsing"))
    }
  }

  @Test func alwaysColoursDiffsAndTheSummaryEvenInAPipe() throws {
    let directory = try project()
    let result = try run(
      [Self.binary, "extract-protocol", "--dry-run", "--color", "always"],
      in: directory,
      environment: ["NO_COLOR": "1"]
    )
    #expect(result.output.contains("\u{1B}[1mdiff --git a/Store.swift b/Store.swift\u{1B}[0m\n"))
    #expect(result.output.contains("\u{1B}[32m+protocol BumpService: AnyObject, Sendable {\u{1B}[0m"))
    let refused = try run([Self.binary, "scan", "--singleton", "Nope", "--color", "always"], in: directory)
    #expect(refused.standardError == "\u{1B}[1;31merror:\u{1B}[0m no singleton named 'Nope'; singletons found: Store\n")
  }

  @Test func aTerminalGetsColourAndProgressUnlessToldOtherwise() throws {
    let directory = try project()
    // Every sample parsed: long enough for the progress line to be drawn.
    let shown = try underTerminal(
      ["scan", "--singleton", "Nope", packageRoot + "/Samples"],
      in: directory,
      environment: plainTerminal
    )
    #expect(shown.contains("\u{1B}[1;31merror:\u{1B}[0m no singleton named 'Nope'"), "\(shown.debugDescription)")
    #expect(shown.contains("desingleton: parsing"), "\(shown.debugDescription)")
    // The progress line is erased before anything else is written.
    #expect(shown.contains("\r\u{1B}[2K\u{1B}[1;31merror:"))

    let noColor = try underTerminal(
      ["scan", "--singleton", "Nope"],
      in: directory,
      environment: plainTerminal.merging(["NO_COLOR": "1"]) { $1 }
    )
    #expect(!noColor.contains("\u{1B}[1;31m") && noColor.contains("error: no singleton named 'Nope'"))
    let never = try underTerminal(
      ["extract-protocol", "--dry-run", "--color", "never"],
      in: directory,
      environment: plainTerminal
    )
    #expect(!never.contains("\u{1B}[3") && !never.contains("\u{1B}[1m") && never.contains("+protocol BumpService"))

    // A run shorter than the delay draws no progress line.
    let quick = try underTerminal(
      ["scan"],
      in: directory,
      environment: plainTerminal.merging(["DESINGLETON_PROGRESS_DELAY": "30"]) { $1 }
    )
    #expect(!quick.contains("parsing") && quick.contains("1 singleton in 2 files"))
  }
}
