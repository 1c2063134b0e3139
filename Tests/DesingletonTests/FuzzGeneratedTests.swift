import DesingletonCore
import Foundation
import Testing

/// Programs from `GeneratedProgram`'s grammar go through the whole journey as a user runs it (the
/// built binary: `scan`, the `extract-protocol` command scan prints pasted into a shell, `inject --all`,
/// `finish` at the root it proposes, else at `AppRoot`, `mocks`), and each program is its own oracle: it is built with `swiftc` and run before,
/// and after every step that changed something it must build and print exactly what it printed
/// before. A program that does not build unchanged is no valid input: it is counted and skipped.
/// Every step must also refuse without touching a file, or change nothing on a second run, and
/// `inject` and `finish` must not leave the accessor more used outside the root than before.
///
/// Environment:
/// - `DESINGLETON_GEN_PROGRAMS`: how many programs (default 8; `make fuzz` runs more).
/// - `DESINGLETON_GEN_SEED`: the base seed, decimal or 0x-hex (default fixed); program `n` is drawn
///   from the base seed and `n`.
/// - `DESINGLETON_GEN_PROGRAM`: run only program `n` and print its files (and write them into the
///   folder `DESINGLETON_GEN_DUMP` names, to replay the journey by hand).
/// - `DESINGLETON_GEN_SHRINK`: how many smaller programs to try on the first failure (default 40).
/// - `DESINGLETON_GEN_VERBOSE`: print each program's steps, or why it is no valid input.
/// - `DESINGLETON_FUZZ_JOBS`: parallel journeys (default 2).
@Suite struct FuzzGeneratedTests {
  static let environment = ProcessInfo.processInfo.environment
  static let programs = Int(environment["DESINGLETON_GEN_PROGRAMS"] ?? "") ?? 8
  static let seed = FuzzTests.parseSeed(environment["DESINGLETON_GEN_SEED"]) ?? 0x6E4E_5EED_0000_0001
  static let only = Int(environment["DESINGLETON_GEN_PROGRAM"] ?? "")
  static let shrinkBudget = Int(environment["DESINGLETON_GEN_SHRINK"] ?? "") ?? 40
  static let jobs = Int(environment["DESINGLETON_FUZZ_JOBS"] ?? "") ?? 2

  static func programSeed(_ number: Int) -> UInt64 { seed ^ (UInt64(number + 1) &* 0x9E37_79B9_7F4A_7C15) }

  @Test func generatedProgramsBehaveTheSameAfterEveryStep() throws {
    let start = Date()
    let numbers = Self.only.map { [$0] } ?? Array(0..<Self.programs)
    let outcomes = parallelMap(count: numbers.count, threads: Self.jobs) { position in
      GeneratedJourney(program: GeneratedProgram(seed: Self.programSeed(numbers[position]))).run()
    }
    if let only = Self.only {
      let program = GeneratedProgram(seed: Self.programSeed(only))
      print("program \(only): \(program)")
      for (path, text) in program.files().sorted(by: { $0.key < $1.key }) {
        print("// \(path)\n\(text)")
        if let dump = Self.environment["DESINGLETON_GEN_DUMP"] {
          let full = dump + "/" + path
          try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
          try Data(text.utf8).write(to: URL(fileURLWithPath: full))
        }
      }
      print(outcomes[0].steps.joined(separator: "\n"))
    }
    let valid = outcomes.filter { $0.invalid == nil }
    // Without this, a broken generator or toolchain would skip every program and pass.
    #expect(
      valid.count * 2 >= outcomes.count,
      "only \(valid.count) of \(outcomes.count) generated programs build; the first reason:\n\(outcomes.compactMap(\.invalid).first ?? "")")
    let failed = zip(numbers, outcomes).filter { !$0.1.problems.isEmpty }
    if let (number, outcome) = failed.first {
      let program = GeneratedProgram(seed: Self.programSeed(number))
      let signature = outcome.problems[0].signature
      let small = program.shrinking(budget: Self.shrinkBudget) { candidate in
        GeneratedJourney(program: candidate).run().problems.contains { $0.signature == signature }
      }
      let smallOutcome = GeneratedJourney(program: small).run()
      let files = small.files().sorted { $0.key < $1.key }.map { "// \($0.key)\n\($0.value)" }.joined(separator: "\n")
      Issue.record(
        """
        program \(number) (seed \(hex(Self.seed))) failed: \(outcome.problems.map { $0.text }.joined(separator: "\n"))
        shrunk to \(small)
        \(smallOutcome.problems.map { $0.text }.joined(separator: "\n"))
        \(files)
        replay: DESINGLETON_GEN_SEED=\(hex(Self.seed)) DESINGLETON_GEN_PROGRAM=\(number) swift test --filter FuzzGeneratedTests
        """)
      if failed.count > 1 { Issue.record("\(failed.count) programs failed: \(failed.map { $0.0 })") }
    }
    if Self.environment["DESINGLETON_GEN_VERBOSE"] != nil {
      for (number, outcome) in zip(numbers, outcomes) {
        if let invalid = outcome.invalid { print("program \(number) does not build:\n\(FuzzTypeChecker.firstErrors(invalid, count: 1))") }
        else { print("program \(number): \(outcome.steps.joined(separator: ", "))\n" + outcome.refusals.map { "  " + $0 + "\n" }.joined()) }
      }
    }
    let steps = outcomes.flatMap(\.steps)
    func count(_ word: String) -> Int { steps.filter { $0.hasSuffix(": " + word) }.count }
    print(
      "fuzz generated: \(numbers.count) programs (seed \(hex(Self.seed))), \(valid.count) built unchanged; "
        + "steps: \(count("changed")) changed and kept their behaviour, \(count("nothing")) changed nothing, "
        + "\(count("refused")) refused; \(failed.count) programs failed, "
        + String(format: "%.1f s", Date().timeIntervalSince(start)))
  }

  /// Shrinking keeps what fails and drops the rest, here with a predicate in place of the journey.
  @Test func shrinkingKeepsTheFailureAndDropsTheRest() {
    var program = GeneratedProgram(seed: 7)
    program.swift6 = true
    program.consumers += [
      GeneratedConsumer(kind: .structType, nesting: .inEnum, generic: true, initForm: .labeled, uses: [.record, .cart, .alias]),
      GeneratedConsumer(kind: .openClass, initForm: .convenience, uses: [.closure], creation: .lazyIn(0)),
    ]
    for index in program.consumers.indices { program.consumers[index].normalize() }
    let fails: (GeneratedProgram) -> Bool = { candidate in
      candidate.consumers.contains { $0.kind == .structType && $0.uses.contains(.cart) }
    }
    #expect(fails(program))
    let small = program.shrinking(budget: 500, fails)
    #expect(fails(small))
    #expect(small.consumers.count == 1)
    #expect(small.consumers.first?.uses == [.cart])
    #expect(small.consumers.first?.nesting == .top && small.consumers.first?.generic == false)
    #expect(!small.swift6)
    // Every program shrinking passes through still renders the consumer it keeps.
    #expect(small.files()["Sources/Gen/C0.swift"]?.contains("cart.addItem(\"C0\")") == true)
  }

  /// Programs the generator found failing, each kept as it was drawn (its description), with what
  /// went wrong before the fix. Each now goes through the whole journey with no problem, and
  /// `finish` succeeds where the program has no shape that must keep the accessor.
  static let found: [(String, String, Bool)] = [
    // Seed 0x6e4e5eed00000001, program 24: finish moved `let c4 = C4<Int>(...)` into the root's
    // init as `let c4: C4`, which does not build.
    (
      #"{"accessor":"shared","computedAccessor":false,"consumers":[{"creation":{"implicitInit":{}},"generic":false,"initForm":"convenience","isPublic":false,"kind":"subclass","nesting":"inExtension","uses":["closure"]},{"creation":{"root":{}},"generic":false,"initForm":"implicit","isPublic":true,"kind":"finalClass","nesting":"top","uses":["record"]},{"creation":{"implicitInit":{}},"generic":false,"initForm":"implicit","isPublic":false,"kind":"openClass","nesting":"top","uses":["readTitle"]},{"creation":{"lazyIn":{"_0":1}},"generic":false,"initForm":"inExtension","isPublic":false,"kind":"subclass","nesting":"top","uses":["deferUse","computed"]},{"creation":{"rootProperty":{}},"generic":true,"initForm":"plain","isPublic":true,"kind":"finalClass","nesting":"top","uses":["throwing","writeCount"]}],"mainActor":false,"swift6":false}"#,
      "finish: does not build", true
    ),
    // Seed 0x6e4e5eed00000001, program 55: a creator of a type whose required init keeps its
    // signature took what that type needed, grew the count and was left out; the second
    // `inject --all` injected it.
    (
      #"{"accessor":"shared","computedAccessor":false,"consumers":[{"creation":{"root":{}},"generic":false,"initForm":"required","isPublic":false,"kind":"subclass","nesting":"top","uses":["map"]},{"creation":{"root":{}},"generic":false,"initForm":"implicit","isPublic":false,"kind":"finalClass","nesting":"top","uses":["readCount"]},{"creation":{"byConsumer":{"_0":0}},"generic":true,"initForm":"required","isPublic":false,"kind":"subclass","nesting":"top","uses":["add","ifDebug"]},{"creation":{"root":{}},"generic":false,"initForm":"implicit","isPublic":false,"kind":"finalClass","nesting":"top","uses":["record"]},{"creation":{"factory":{}},"generic":false,"initForm":"labeled","isPublic":false,"kind":"structType","nesting":"top","uses":["computed"]}],"mainActor":false,"swift6":false}"#,
      "inject: changes more on a second run", false
    ),
    // Seed 0x6e4e5eed00000001, program 9: a class's own `required init()` took the accessor and
    // `finish` refused with nothing to suggest ('inject --type' would change nothing); and every
    // program's root, which names the instance in a local, was refused by `finish` ("through an alias").
    (
      #"{"accessor":"sharedInstance","computedAccessor":false,"consumers":[{"creation":{"root":{}},"generic":false,"initForm":"required","isPublic":false,"kind":"openClass","nesting":"inExtension","uses":["weakSelfClosure"]},{"creation":{"root":{}},"generic":true,"initForm":"inExtension","isPublic":false,"kind":"structType","nesting":"inExtension","uses":["ifDebug","wrapper"]}],"mainActor":false,"swift6":false}"#,
      "finish: refused", true
    ),
  ]

  @Test(arguments: 0..<found.count)
  func programsFoundFailingPassTheJourney(position: Int) throws {
    let (json, before, finishes) = Self.found[position]
    let outcome = GeneratedJourney(program: try GeneratedProgram(json: json)).run()
    #expect(outcome.invalid == nil, "the program does not build: \(outcome.invalid ?? "")")
    #expect(outcome.problems.isEmpty, "(before the fix: \(before))\n\(outcome.problems.map { $0.text }.joined(separator: "\n"))")
    if finishes {
      #expect(outcome.steps.contains { $0.hasPrefix("finish") && $0.hasSuffix(": changed") }, "\(outcome.steps)\n\(outcome.refusals)")
    }
  }

  /// A program round-trips through its description, which is how a failure is kept as a test.
  @Test func aProgramIsItsDescription() throws {
    let program = GeneratedProgram(seed: Self.programSeed(3))
    #expect(try GeneratedProgram(json: program.description) == program)
  }
}

/// One step's problem: `signature` is the step and what went wrong, for shrinking to keep.
struct JourneyProblem {
  var step: String
  var kind: String
  var detail: String
  var signature: String { step + " " + kind }
  var text: String { "\(step): \(kind)\n\(detail)" }
}

/// What one program's journey found.
struct JourneyOutcome {
  /// Why the program is no valid input (it does not build or run unchanged); nil when it is.
  var invalid: String?
  var problems: [JourneyProblem] = []
  /// `step: changed`, `step: nothing` or `step: refused`, in order.
  var steps: [String] = []
  /// Each refusal's first line.
  var refusals: [String] = []
}

/// The journey of one generated program, in a temporary folder of its own.
struct GeneratedJourney {
  let program: GeneratedProgram

  static let binary = packageRoot + "/.build/debug/desingleton"

  func run() -> JourneyOutcome {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("desingleton-gen-\(UUID().uuidString)").path
    let directory = base + "/project"
    let build = base + "/build"
    defer { try? FileManager.default.removeItem(atPath: base) }
    do {
      try FileManager.default.createDirectory(atPath: build, withIntermediateDirectories: true)
      for (path, text) in program.files() {
        let full = directory + "/" + path
        try FileManager.default.createDirectory(
          atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: full))
      }
      let baseline = try execute(directory, build: build)
      guard baseline.errors.isEmpty else { return JourneyOutcome(invalid: baseline.errors) }
      return try journey(directory, build: build, baseline: baseline.output)
    } catch {
      return JourneyOutcome(problems: [JourneyProblem(step: "harness", kind: "error", detail: "\(error)")])
    }
  }

  private func journey(_ directory: String, build: String, baseline: String) throws -> JourneyOutcome {
    var outcome = JourneyOutcome()
    if let difference = try scanDiffers(directory, build: build) {
      outcome.problems.append(JourneyProblem(step: "scan", kind: "reports what a full scan does not", detail: difference))
    }
    let scan = try desingleton(["scan", "--singleton", "Store"], in: directory, build: build)
    guard scan.status == 0 else {
      outcome.problems.append(JourneyProblem(step: "scan", kind: "exited \(scan.status)", detail: scan.standardError))
      return outcome
    }
    // `finish` first at the root it proposes, then at `AppRoot` where it proposed none or refused.
    var steps: [(name: String, arguments: [String])] = []
    if let command = scan.output.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) })
      .first(where: { $0.hasPrefix("desingleton extract-protocol ") })
    {
      steps.append(("extract-protocol", ["sh", "-c", "'\(Self.binary)'" + command.dropFirst("desingleton".count)]))
    } else {
      outcome.steps.append("scan: no command")
    }
    steps.append(("inject", [Self.binary, "inject", "--all", "--singleton", "Store"]))
    steps.append(("finish (its root)", [Self.binary, "finish", "--singleton", "Store"]))
    steps.append(("finish", [Self.binary, "finish", "--singleton", "Store", "--root", "AppRoot"]))
    steps.append(("mocks", [Self.binary, "mocks", "--singleton", "Store", "--output-dir", "Tests/GenTests"]))
    var finished = false
    for step in steps {
      if step.name == "finish" && finished { continue }
      let before = try snapshot(directory)
      let result = try DesingletonTests.run(step.arguments, in: directory, environment: ["TMPDIR": build])
      let after = try snapshot(directory)
      func problem(_ kind: String, _ detail: String) {
        outcome.problems.append(JourneyProblem(step: step.name, kind: kind, detail: detail))
      }
      if result.standardError.contains("internal error") { problem("internal error", result.standardError) }
      guard result.status == 0 else {
        outcome.steps.append("\(step.name): refused")
        outcome.refusals.append("\(step.name): " + (result.standardError.split(separator: "\n").first.map(String.init) ?? ""))
        if after != before { problem("refused and changed files", changedPaths(before, after)) }
        if !result.standardError.contains("error: ") { problem("refused without an error line", result.standardError) }
        continue
      }
      guard after != before else {
        outcome.steps.append("\(step.name): nothing")
        continue
      }
      outcome.steps.append("\(step.name): changed")
      if step.name.hasPrefix("finish") { finished = true }
      if let difference = try scanDiffers(directory, build: build) {
        problem("leaves code a scan reports otherwise than a full scan", difference)
      }
      let executed = try execute(directory, build: build)
      if !executed.errors.isEmpty {
        problem("does not build", FuzzTypeChecker.firstErrors(executed.errors) + "\n" + diff(before, after))
      } else if executed.output != baseline {
        problem("prints something else", "before:\n\(baseline)\nafter:\n\(executed.output)\n" + diff(before, after))
      }
      if step.name == "inject" || step.name.hasPrefix("finish") {
        let (was, now) = (accessorUses(before), accessorUses(after))
        if now > was { problem("uses the accessor more", "\(was) uses outside the root before, \(now) after\n" + diff(before, after)) }
      }
      _ = try DesingletonTests.run(step.arguments, in: directory, environment: ["TMPDIR": build])
      let again = try snapshot(directory)
      if again != after { problem("changes more on a second run", diff(after, again)) }
    }
    return outcome
  }

  /// The scan's report against the one a parse of every file gives (`--full`): where they differ,
  /// both.
  private func scanDiffers(_ directory: String, build: String) throws -> String? {
    let phased = try desingleton(["scan", "--format", "json"], in: directory, build: build)
    let full = try desingleton(["scan", "--full", "--format", "json"], in: directory, build: build)
    if phased.status == full.status && phased.output == full.output { return nil }
    return "scan (exit \(phased.status)):\n\(phased.output)\nscan --full (exit \(full.status)):\n\(full.output)"
  }

  private func desingleton(_ arguments: [String], in directory: String, build: String) throws -> ProcessResult {
    try DesingletonTests.run([Self.binary] + arguments, in: directory, environment: ["TMPDIR": build])
  }

  /// Builds the program's Swift files as one executable and runs it.
  private func execute(_ directory: String, build: String) throws -> (output: String, errors: String) {
    let sources = try snapshot(directory).keys.filter { $0.hasSuffix(".swift") }.sorted().map { directory + "/" + $0 }
    let executable = build + "/gen"
    try? FileManager.default.removeItem(atPath: executable)
    let compiled = try DesingletonTests.run(
      ["swiftc", "-swift-version", program.swift6 ? "6" : "5", "-module-name", "Gen", "-D", "DEBUG", "-o", executable]
        + sources,
      in: build, environment: ["TMPDIR": build])
    guard compiled.status == 0 else {
      let text = (compiled.standardError + compiled.output).replacingOccurrences(of: directory + "/", with: "")
      return ("", text.isEmpty ? "swiftc exited \(compiled.status)" : text)
    }
    let ran = try DesingletonTests.run([executable], in: build)
    guard ran.status == 0 else { return ("", "the program exited \(ran.status): \(ran.standardError)") }
    return (ran.output, "")
  }

  /// Uses of the accessor outside the root's file: `Store.shared`, and `.shared` where a `Store` is expected.
  private func accessorUses(_ files: [String: Data]) -> Int {
    files.filter { !$0.key.hasSuffix("/AppRoot.swift") }.values.reduce(0) { total, data in
      let text = String(decoding: data, as: UTF8.self)
      return total + text.components(separatedBy: "Store.\(program.accessor)").count - 1
        + text.components(separatedBy: "= .\(program.accessor)").count - 1
    }
  }

  private func snapshot(_ directory: String) throws -> [String: Data] {
    var result: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(atPath: directory)
    while let name = enumerator?.nextObject() as? String {
      let path = directory + "/" + name
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
        result[name] = FileManager.default.contents(atPath: path)
      }
    }
    return result
  }

  private func changedPaths(_ before: [String: Data], _ after: [String: Data]) -> String {
    Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted().joined(separator: ", ")
  }

  /// The changed files, whole, as they are after.
  private func diff(_ before: [String: Data], _ after: [String: Data]) -> String {
    Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted().map { path in
      "--- \(path)\n" + (after[path].map { String(decoding: $0, as: UTF8.self) } ?? "(removed)\n")
    }.joined()
  }
}
