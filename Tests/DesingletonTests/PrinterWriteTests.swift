import DesingletonCore
import Foundation
import Testing

@testable import DesingletonPrinter

/// Writes run against a real temporary directory: two existing files to edit (one with unusual
/// permissions) and a new file two directories deep.
@Suite("Printer: write")
struct PrinterWriteTests {
  private struct Fixture {
    let directory: String
    let outputs: [FileOutput]

    var a: String { directory + "/A.swift" }
    var b: String { directory + "/Sub/B.swift" }
    var new: String { directory + "/Gen/Deep/C.swift" }

    static let aText = "let a = 1\r\nlet keep = \"😀\"\r\n"
    static let bText = "let b = 2"
    static let newText = "struct C {}\n"

    init() throws {
      directory = try PrinterTestSupport.makeTemporaryDirectory()
      let a = directory + "/A.swift"
      let b = directory + "/Sub/B.swift"
      try PrinterTestSupport.writeFile(a, Array(Fixture.aText.utf8))
      try PrinterTestSupport.writeFile(b, Array(Fixture.bText.utf8), permissions: 0o640)
      var plan = Plan()
      plan.add(PrinterTestSupport.replacing("1", with: "10", in: Fixture.aText), in: a)
      plan.add(PrinterTestSupport.replacing("2", with: "20", in: Fixture.bText), in: b)
      plan.newFiles[directory + "/Gen/Deep/C.swift"] = Fixture.newText
      let sources = [a: SourceText(path: a, text: Fixture.aText), b: SourceText(path: b, text: Fixture.bText)]
      outputs = try Printer(root: directory).render(plan, sources: sources)
    }

    func remove() { PrinterTestSupport.removeDirectory(directory) }
  }

  /// Runs `write` expecting a refusal whose text contains `message`, and checks that the directory
  /// is exactly as it was before, with no stray temporary or backup file.
  private func expectRefusal(
    _ message: String,
    writing outputs: [FileOutput],
    in directory: String,
    fileSystem: (any FileSystem)? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let before = try PrinterTestSupport.snapshot(directory)
    let printer = fileSystem.map { Printer(root: directory, fileSystem: $0) } ?? Printer(root: directory)
    do {
      try printer.write(outputs)
      Issue.record("expected a refusal containing '\(message)'", sourceLocation: sourceLocation)
    } catch {
      #expect("\(error)".contains(message), "\(error)", sourceLocation: sourceLocation)
    }
    let after = try PrinterTestSupport.snapshot(directory)
    let changed = Set(after.keys).union(before.keys).filter { after[$0] != before[$0] }.sorted()
    #expect(after == before, "the directory changed: \(changed)", sourceLocation: sourceLocation)
  }

  private func expectWritten(_ fixture: Fixture, sourceLocation: SourceLocation = #_sourceLocation) throws {
    #expect(
      try PrinterTestSupport.readFile(fixture.a) == Array("let a = 10\r\nlet keep = \"😀\"\r\n".utf8),
      sourceLocation: sourceLocation
    )
    #expect(try PrinterTestSupport.readFile(fixture.b) == Array("let b = 20".utf8), sourceLocation: sourceLocation)
    #expect(try PrinterTestSupport.readFile(fixture.new) == Array(Fixture.newText.utf8), sourceLocation: sourceLocation)
    #expect(try PrinterTestSupport.permissions(of: fixture.b) == 0o640, sourceLocation: sourceLocation)
    let names = try FileManager.default.subpathsOfDirectory(atPath: fixture.directory).sorted()
    #expect(
      names == ["A.swift", "Gen", "Gen/Deep", "Gen/Deep/C.swift", "Sub", "Sub/B.swift"],
      "stray files",
      sourceLocation: sourceLocation
    )
  }

  @Test func writesEveryFile() throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    #expect(fixture.outputs.count == 3)
    try Printer(root: fixture.directory).write(fixture.outputs)
    try expectWritten(fixture)
  }

  @Test func writingNothingTouchesNothing() throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    let before = try PrinterTestSupport.snapshot(fixture.directory)
    try Printer(root: fixture.directory).write([])
    #expect(try PrinterTestSupport.snapshot(fixture.directory) == before)
  }

  @Test func aNewFileThatIsAlreadyThereWithTheSameBytesIsSkipped() throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    try PrinterTestSupport.writeFile(fixture.new, Array(Fixture.newText.utf8), permissions: 0o600)
    try Printer(root: fixture.directory).write(fixture.outputs)
    try #expect(PrinterTestSupport.permissions(of: fixture.new) == 0o600)
    #expect(try PrinterTestSupport.readFile(fixture.a) == Array("let a = 10\r\nlet keep = \"😀\"\r\n".utf8))
  }

  @Test func refusesAReadOnlyFile() throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: fixture.b)
    try expectRefusal("error: '\(fixture.b)' is read-only", writing: fixture.outputs, in: fixture.directory)
  }

  @Test func refusesAFileChangedSinceItWasRead() throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    try PrinterTestSupport.writeFile(fixture.a, Array("let a = 1 // edited by hand\r\n".utf8))
    try expectRefusal(
      "error: '\(fixture.a)' changed on disk since it was read",
      writing: fixture.outputs,
      in: fixture.directory
    )
  }

  @Test func refusesAFileDeletedSinceItWasRead() throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    try FileManager.default.removeItem(atPath: fixture.b)
    try expectRefusal(
      "'\(fixture.b)' changed on disk since it was read",
      writing: fixture.outputs,
      in: fixture.directory
    )
  }

  @Test func refusesAFileReplacedByASymbolicLink() throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    try FileManager.default.moveItem(atPath: fixture.b, toPath: fixture.directory + "/Sub/Real.swift")
    try FileManager.default.createSymbolicLink(atPath: fixture.b, withDestinationPath: "Real.swift")
    try expectRefusal("'\(fixture.b)' is a symbolic link", writing: fixture.outputs, in: fixture.directory)
  }

  @Test func refusesADirectoryWhereANewFileShouldGo() throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    try FileManager.default.createDirectory(atPath: fixture.new, withIntermediateDirectories: true)
    try expectRefusal(
      "cannot create '\(fixture.new)': a directory is in the way",
      writing: fixture.outputs,
      in: fixture.directory
    )
  }

  @Test func refusesADifferentFileWhereANewFileShouldGo() throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    try PrinterTestSupport.writeFile(fixture.new, Array("struct Other {}\n".utf8))
    try expectRefusal("a different file is already there", writing: fixture.outputs, in: fixture.directory)
  }

  @Test func refusesAFileWhereAParentDirectoryShouldBe() throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    try PrinterTestSupport.writeFile(fixture.directory + "/Gen", Array("not a directory\n".utf8))
    try expectRefusal(
      "cannot create '\(fixture.new)': '\(fixture.directory)/Gen' is not a directory",
      writing: fixture.outputs,
      in: fixture.directory
    )
  }

  @Test func reportsEveryProblemAtOnce() throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: fixture.b)
    try PrinterTestSupport.writeFile(fixture.a, Array("changed\n".utf8))
    try expectRefusal("changed on disk", writing: fixture.outputs, in: fixture.directory)
    try expectRefusal("is read-only", writing: fixture.outputs, in: fixture.directory)
  }

  /// Makes each step of the write fail in turn: every time, the directory is left exactly as it was.
  /// Once more on a file system without hard links, where originals are renamed aside instead.
  @Test(arguments: [false, true])
  func aFailureAtAnyStepRestoresEverything(linksUnsupported: Bool) throws {
    var failures = 0
    for failingStep in 1...50 {
      let fixture = try Fixture()
      defer { fixture.remove() }
      let fileSystem = HookedFileSystem.failing(atStep: failingStep, linksUnsupported: linksUnsupported)
      let before = try PrinterTestSupport.snapshot(fixture.directory)
      do {
        try Printer(root: fixture.directory, fileSystem: fileSystem).write(fixture.outputs)
      } catch {
        failures += 1
        #expect("\(error)".contains("injected failure; nothing was written"), "step \(failingStep): \(error)")
        #expect(try PrinterTestSupport.snapshot(fixture.directory) == before, "step \(failingStep) left changes")
        continue
      }
      // No step failed: every step has been tried.
      try expectWritten(fixture)
      break
    }
    // Temporary files (3), directories (2), then per edited file a backup and a rename (2 x 2), and
    // for the new file a link and the removal of its temporary name, or else a single rename.
    #expect(failures == (linksUnsupported ? 10 : 11))
  }

  @Test func aNewFileThatAppearsDuringTheWriteIsNotOverwritten() throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    let intruder = fixture.new
    let fileSystem = HookedFileSystem { _, operation, path in
      if operation == "link", path == intruder {
        try PrinterTestSupport.writeFile(intruder, Array("// someone else's\n".utf8))
      }
    }
    do {
      try Printer(root: fixture.directory, fileSystem: fileSystem).write(fixture.outputs)
      Issue.record("expected a refusal")
    } catch {
      #expect("\(error)".contains("cannot create '\(intruder)': something appeared there during the write"), "\(error)")
    }
    #expect(try PrinterTestSupport.readFile(intruder) == Array("// someone else's\n".utf8))
    #expect(try PrinterTestSupport.readFile(fixture.a) == Array(Fixture.aText.utf8))
    #expect(try PrinterTestSupport.readFile(fixture.b) == Array(Fixture.bText.utf8))
    #expect(try PrinterTestSupport.permissions(of: fixture.b) == 0o640)
    let names = try FileManager.default.subpathsOfDirectory(atPath: fixture.directory).sorted()
    #expect(names == ["A.swift", "Gen", "Gen/Deep", "Gen/Deep/C.swift", "Sub", "Sub/B.swift"])
  }

  @Test func writesWithoutHardLinks() throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    try Printer(root: fixture.directory, fileSystem: HookedFileSystem(linksUnsupported: true) { _, _, _ in })
      .write(fixture.outputs)
    try expectWritten(fixture)
  }

  /// A file edited by someone else while the temporary files are written is noticed before it is replaced.
  @Test func aFileChangedDuringTheWriteIsNoticed() throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    let target = fixture.b
    let fileSystem = HookedFileSystem { step, _, _ in
      if step == 1 { try PrinterTestSupport.writeFile(target, Array("let b = 3".utf8)) }
    }
    let before = try PrinterTestSupport.snapshot(fixture.directory)
    do {
      try Printer(root: fixture.directory, fileSystem: fileSystem).write(fixture.outputs)
      Issue.record("expected a refusal")
    } catch {
      #expect("\(error)".contains("'\(target)' changed on disk since it was read"), "\(error)")
    }
    var expected = before
    expected["Sub/B.swift"] = try PrinterTestSupport.snapshot(fixture.directory)["Sub/B.swift"]
    #expect(try PrinterTestSupport.snapshot(fixture.directory) == expected)
    #expect(try PrinterTestSupport.readFile(target) == Array("let b = 3".utf8))
  }

  @Test func relativePathsAreWrittenRelativeToTheCurrentDirectory() throws {
    let directory = try PrinterTestSupport.makeTemporaryDirectory()
    defer { PrinterTestSupport.removeDirectory(directory) }
    let current = FileManager.default.currentDirectoryPath
    let relative = PathName.relative(directory, to: PathName.absolute(current, in: "/")) + "/R.swift"
    try PrinterTestSupport.writeFile(directory + "/R.swift", Array("let r = 1\n".utf8))
    let source = SourceText(path: relative, text: "let r = 1\n")
    let output = FileOutput(path: relative, original: source, new: Array("let r = 2\n".utf8))
    try Printer(root: directory).write([output])
    #expect(try PrinterTestSupport.readFile(directory + "/R.swift") == Array("let r = 2\n".utf8))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["R.swift"])
  }
}
