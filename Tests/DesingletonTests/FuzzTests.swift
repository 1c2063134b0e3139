import DesingletonCore
import Foundation
import Testing

/// Mutates the sample apps at random (seeded, so every run makes the same mutants) and runs every
/// command's library entry point on each mutant, in memory. No mutant may crash or hang the tool; each
/// command either refuses with proper diagnostics or produces outputs that parse no worse than their
/// originals. See `FuzzMutator` for the mutations and `FuzzPipeline` for the commands and checks.
/// `rewritesOfCompilingMutantsTypeCheck` also compiles (`FuzzTypeChecker`): mutants that still type-check,
/// most of them with consumers added by `FuzzConsumerMutator`, must have rewrites that type-check.
///
/// Environment:
/// - `DESINGLETON_FUZZ_ITERATIONS`: mutants to try (default 12; `make fuzz` runs 2000).
/// - `DESINGLETON_FUZZ_SEED`: the base seed, decimal or 0x-hex (default fixed).
/// - `DESINGLETON_FUZZ_ITERATION`: run just this one mutant (to replay a failure).
/// - `DESINGLETON_FUZZ_DUMP`: a folder to write the replayed mutant's files into, to run the CLI on it.
/// - `DESINGLETON_FUZZ_TIMEOUT`: seconds one mutant may take before it counts as a hang (default 120).
/// - `DESINGLETON_FUZZ_JOBS`: mutants run at the same time (default: the number of cores).
/// - `DESINGLETON_FUZZ_VERBOSE`: print each mutant skipped because it does not type-check, with its errors.
/// - `DESINGLETON_FUZZ_TYPECHECKS`: mutants whose changed app or test target still parses that
///   `rewritesOfCompilingMutantsTypeCheck` compiles (default 12, or a twentieth
///   of `DESINGLETON_FUZZ_ITERATIONS` when that is set).
@Suite(.serialized) struct FuzzTests {
  static let environment = ProcessInfo.processInfo.environment
  static let iterations = Int(environment["DESINGLETON_FUZZ_ITERATIONS"] ?? "") ?? 12
  static let seed: UInt64 = parseSeed(environment["DESINGLETON_FUZZ_SEED"]) ?? 0xDE51_6E70_F022_0001
  static let only = Int(environment["DESINGLETON_FUZZ_ITERATION"] ?? "")
  static let dump = environment["DESINGLETON_FUZZ_DUMP"]
  static let timeout = Double(environment["DESINGLETON_FUZZ_TIMEOUT"] ?? "") ?? 120
  static let jobs = max(
    1,
    Int(environment["DESINGLETON_FUZZ_JOBS"] ?? "") ?? ProcessInfo.processInfo.activeProcessorCount
  )
  static let verbose = environment["DESINGLETON_FUZZ_VERBOSE"] != nil
  static let typeChecks =
    Int(environment["DESINGLETON_FUZZ_TYPECHECKS"] ?? "")
    ?? Int(environment["DESINGLETON_FUZZ_ITERATIONS"] ?? "").map { max(1, $0 / 20) } ?? 12
  /// Failures recorded one by one; past this many they are only counted.
  static let reportedFailures = 25

  @Test func samplesPassThePipelineUnchanged() throws {
    let samples = try FuzzSample.all()
    #expect(!samples.isEmpty, "no samples found under \(FuzzSample.directory)")
    for sample in samples {
      let pipeline = FuzzPipeline(compositionRoot: sample.compositionRoot)
      let problems = pipeline.problems(in: sample.files)
      #expect(problems.isEmpty, "\(sample.name), unchanged:\n\(problems.joined(separator: "\n\n"))")
      #expect(pipeline.commands > 1, "\(sample.name): no singleton found, nothing was planned")
    }
  }

  @Test func mutantsAreRefusedOrStillParse() throws {
    let samples = try FuzzSample.all()
    try #require(!samples.isEmpty, "no samples found under \(FuzzSample.directory)")
    let iterations = Self.only.map { [$0] } ?? Array(0..<Self.iterations)
    if let dump = Self.dump, let only = Self.only {
      try FuzzMutant(seed: Self.seed, iteration: only, samples: samples).write(to: dump)
    }
    let watchdog = FuzzWatchdog(limitSeconds: Self.timeout)
    defer { watchdog.stop() }
    let start = Date()
    // Mutants are independent; the index parses a sample's files on all cores but plans on one.
    let entries = parallelMap(count: iterations.count, threads: Self.jobs) { position -> FuzzEntry in
      let mutant = FuzzMutant(seed: Self.seed, iteration: iterations[position], samples: samples)
      watchdog.begin(position, mutant.description + "\n" + mutant.replay(Self.parseTest))
      let pipeline = FuzzPipeline(
        compositionRoot: mutant.sample.compositionRoot,
        singletonLimit: 2,
        selectionSeed: mutant.selectionSeed,
        chain: mutant.chain
      )
      let problems = pipeline.problems(in: mutant.files)
      watchdog.end(position)
      return FuzzEntry(
        report: problems.isEmpty
          ? nil : "\(mutant.description)\n\(problems.joined(separator: "\n\n"))\n\(mutant.replay(Self.parseTest))",
        commands: pipeline.commands,
        refusals: pipeline.refusals,
        changes: pipeline.changes
      )
    }
    let failed = entries.compactMap(\.report)
    for report in failed.prefix(Self.reportedFailures) { Issue.record(Comment(rawValue: report)) }
    if failed.count > Self.reportedFailures {
      Issue.record("\(failed.count) mutants failed in all; the first \(Self.reportedFailures) are shown")
    }
    print(
      "fuzz: \(iterations.count) mutants of \(samples.map(\.name).joined(separator: ", ")) (seed \(hex(Self.seed))), "
        + "\(entries.reduce(0) { $0 + $1.commands }) commands: \(entries.reduce(0) { $0 + $1.refusals }) refused, "
        + "\(entries.reduce(0) { $0 + $1.changes }) changed files, \(failed.count) mutants failed, "
        + String(format: "%.1f s", Date().timeIntervalSince(start))
    )
  }

  /// Mutants whose app or test target was changed and still type-checks go through the same commands, and
  /// each rewrite a command would write must type-check too. A mutant whose modules have syntax errors or do
  /// not type-check is no valid input: it is skipped and counted. The candidates are the first mutants, in
  /// iteration order, whose changed modules parse, so a run is the same on every machine.
  @Test func rewritesOfCompilingMutantsTypeCheck() throws {
    let start = Date()
    let samples = try FuzzSample.all()
    try #require(!samples.isEmpty, "no samples found under \(FuzzSample.directory)")
    try #require(FuzzTypeChecker.uiKitModule.directory != nil, Comment(rawValue: FuzzTypeChecker.uiKitModule.errors))
    let checkers = Dictionary(uniqueKeysWithValues: samples.map { ($0.name, FuzzTypeChecker(sample: $0)) })
    // Without this, a broken toolchain or stand-in would skip every mutant and pass.
    let unchanged = parallelMap(count: samples.count, threads: Self.jobs) { position in
      checkers[samples[position].name].map { $0.errors(of: $0.moduleFiles(samples[position].files)) } ?? ""
    }
    for (sample, errors) in zip(samples, unchanged) {
      try #require(errors.isEmpty, "\(sample.name) does not type-check unchanged:\n\(errors)")
    }
    var candidates: [FuzzMutant] = []
    var untouched = 0
    var unparsable = 0
    var iteration = 0
    if let dump = Self.dump, let only = Self.only {
      try FuzzMutant(seed: Self.seed, iteration: only, samples: samples, consumers: true).write(to: dump)
    }
    while candidates.count < (Self.only == nil ? Self.typeChecks : 1), iteration < Self.typeChecks * 100 {
      let mutant = FuzzMutant(seed: Self.seed, iteration: Self.only ?? iteration, samples: samples, consumers: true)
      iteration += 1
      guard let checker = checkers[mutant.sample.name] else { continue }
      let modules = checker.moduleFiles(mutant.files)
      if modules == checker.moduleFiles(mutant.sample.files) {
        untouched += 1
      } else if modules.contains(where: { !FuzzSyntax.errors(in: $0.bytes).isEmpty }) {
        unparsable += 1
      } else {
        candidates.append(mutant)
      }
      if Self.only != nil { break }
    }
    let watchdog = FuzzWatchdog(limitSeconds: Self.timeout)
    defer { watchdog.stop() }
    let chosen = candidates
    let entries = parallelMap(count: chosen.count, threads: Self.jobs) { position -> FuzzTypeEntry in
      let mutant = chosen[position]
      guard let checker = checkers[mutant.sample.name] else { return FuzzTypeEntry(compiles: false) }
      watchdog.begin(position, mutant.description + "\n" + mutant.replay(Self.typeTest))
      defer { watchdog.end(position) }
      let inputErrors = checker.errors(of: checker.moduleFiles(mutant.files))
      guard inputErrors.isEmpty else {
        if Self.verbose {
          print("skipped, does not type-check: \(mutant.description)\n\(FuzzTypeChecker.firstErrors(inputErrors))")
        }
        return FuzzTypeEntry(compiles: false)
      }
      let pipeline = FuzzPipeline(
        compositionRoot: mutant.sample.compositionRoot,
        singletonLimit: 2,
        selectionSeed: mutant.selectionSeed,
        // `inject` rewrites only where protocols exist: most of what is type-checked comes from the chain.
        chain: true,
        focus: mutant.focus,
        typeChecker: checker
      )
      let problems = pipeline.problems(in: mutant.files)
      return FuzzTypeEntry(
        compiles: true,
        report: problems.isEmpty
          ? nil : "\(mutant.description)\n\(problems.joined(separator: "\n\n"))\n\(mutant.replay(Self.typeTest))",
        typeChecks: pipeline.typeChecks,
        commands: pipeline.commands,
        refusals: pipeline.refusals
      )
    }
    let failed = entries.compactMap(\.report)
    for report in failed.prefix(Self.reportedFailures) { Issue.record(Comment(rawValue: report)) }
    if failed.count > Self.reportedFailures {
      Issue.record("\(failed.count) mutants failed in all; the first \(Self.reportedFailures) are shown")
    }
    let compiling = entries.filter(\.compiles).count
    print(
      "fuzz type-check: \(iteration) mutants drawn (seed \(hex(Self.seed))): \(untouched) left both modules "
        + "unchanged, \(unparsable) skipped with syntax errors, \(candidates.count - compiling) skipped as not "
        + "type-checking, \(compiling) type-checked: \(entries.reduce(0) { $0 + $1.commands }) commands, "
        + "\(entries.reduce(0) { $0 + $1.refusals }) refused, \(entries.reduce(0) { $0 + $1.typeChecks }) rewrites checked "
        + "(\(checkers.values.reduce(0) { $0 + $1.runs }) compiler runs), \(failed.count) mutants failed, "
        + String(format: "%.1f s", Date().timeIntervalSince(start))
    )
  }

  /// The check `rewritesOfCompilingMutantsTypeCheck` relies on finds errors in the app target, including
  /// those only the SIL passes report, and in the test target.
  @Test func typeCheckerReportsErrorsInEitherModule() throws {
    let sample = try #require(try FuzzSample.all().first { $0.name == "ProfileApp" })
    let checker = FuzzTypeChecker(sample: sample)
    let target = try #require(sample.files.firstIndex { $0.path.hasSuffix("/Sources/ProfileApp/User.swift") })
    let test = try #require(
      sample.files.firstIndex { $0.path.hasSuffix("/Tests/ProfileAppTests/UserManagerTests.swift") }
    )
    var unset = sample.files
    unset[target].bytes += Array("\nfinal class FuzzUnset {\n  let value: Int\n  init() {}\n}\n".utf8)
    let unsetErrors = checker.errors(of: checker.moduleFiles(unset))
    #expect(unsetErrors.contains("User.swift:") && unsetErrors.contains(": error: "), "\(unsetErrors)")
    var mistyped = sample.files
    mistyped[test].bytes += Array("\nlet fuzzMistyped: Int = \"s\"\n".utf8)
    let mistypedErrors = checker.errors(of: checker.moduleFiles(mistyped))
    #expect(
      mistypedErrors.contains("UserManagerTests.swift:") && mistypedErrors.contains(": error: "),
      "\(mistypedErrors)"
    )
    #expect(FuzzTypeChecker.firstErrors(mistypedErrors).contains("fuzzMistyped"))
  }

  static let parseTest = "FuzzTests/mutantsAreRefusedOrStillParse"
  static let typeTest = "FuzzTests/rewritesOfCompilingMutantsTypeCheck"

  static func parseSeed(_ text: String?) -> UInt64? {
    guard let text else { return nil }
    if text.hasPrefix("0x") { return UInt64(text.dropFirst(2).replacingOccurrences(of: "_", with: ""), radix: 16) }
    return UInt64(text)
  }
}

func hex(_ value: UInt64) -> String { "0x" + String(value, radix: 16) }

/// One mutant's outcome.
struct FuzzEntry {
  var report: String?
  var commands = 0
  var refusals = 0
  var changes = 0
}

/// One type-checked mutant's outcome; `compiles` is false for an input skipped because it does not.
struct FuzzTypeEntry {
  var compiles: Bool
  var report: String?
  var typeChecks = 0
  var commands = 0
  var refusals = 0
}

/// One mutant: a sample with one to three mutations, all drawn from the seed and the iteration number.
struct FuzzMutant: CustomStringConvertible {
  var iteration: Int
  var seed: UInt64
  var sample: FuzzSample
  var files: [FuzzFile]
  var mutations: [String]
  var selectionSeed: UInt64
  /// Whether this mutant also runs `inject` and `finish` on the result of `extract-protocol`.
  var chain: Bool
  /// Singletons the mutations added consumers of: the pipeline runs the commands for them first.
  var focus: [String] = []

  /// With `consumers`, three mutations in four add a consumer (`FuzzConsumerMutator`) instead of damaging code.
  init(seed: UInt64, iteration: Int, samples: [FuzzSample], consumers: Bool = false) {
    self.seed = seed
    self.iteration = iteration
    var random = FuzzRandom(seed: seed ^ (UInt64(iteration) &* 0xD6E8_FEB8_6659_FD93))
    sample = samples[iteration % samples.count]
    var files = sample.files
    var mutations: [String] = []
    for _ in 0..<(1 + random.below(3)) {
      if consumers, random.below(4) != 0,
        let added = FuzzConsumerMutator.mutate(
          &files,
          targetPrefix: "\(sample.virtualRoot)/Sources/\(sample.name)/",
          testPrefix: "\(sample.virtualRoot)/Tests/\(sample.name)Tests/",
          using: &random
        )
      {
        mutations.append(added.description)
        if !focus.contains(added.singleton) { focus.append(added.singleton) }
      } else {
        mutations.append(FuzzMutator.mutate(&files, using: &random))
      }
    }
    self.files = files
    self.mutations = mutations
    selectionSeed = random.next()
    chain = random.below(4) == 0
  }

  var description: String {
    "fuzz seed \(hex(seed)) iteration \(iteration): \(sample.name): \(mutations.joined(separator: "; "))"
      + (chain ? " (with the extract-protocol -> inject -> finish chain)" : "")
  }

  func replay(_ test: String) -> String {
    "replay: DESINGLETON_FUZZ_SEED=\(hex(seed)) DESINGLETON_FUZZ_ITERATION=\(iteration) "
      + "DESINGLETON_FUZZ_DUMP=/tmp/fuzz-\(iteration) swift test --filter \(test)"
  }

  /// Writes the mutant's files below `directory`, by their paths in the sample.
  func write(to directory: String) throws {
    for file in files {
      let relative = String(file.path.dropFirst(sample.virtualRoot.count + 1))
      let url = URL(fileURLWithPath: directory).appendingPathComponent(relative)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(file.bytes).write(to: url)
    }
  }
}

/// A sample app's Swift files, under a made-up absolute root so that nothing is read from, or found on, disk.
struct FuzzSample: Sendable {
  var name: String
  var files: [FuzzFile]
  var compositionRoot: String

  var virtualRoot: String { "/desingleton-fuzz/\(name)" }

  static let names = ["ShoppingApp", "ProfileApp", "ThumbnailCache", "SingletonShapes"]

  static let directory: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.appendingPathComponent("Samples").path
  }()

  /// The samples that exist, in `names` order.
  static func all() throws -> [FuzzSample] {
    try names.compactMap { name in
      let folder = directory + "/" + name
      guard FileManager.default.fileExists(atPath: folder) else { return nil }
      let paths = (FileManager.default.subpaths(atPath: folder) ?? [])
        .filter { $0.hasSuffix(".swift") && !$0.hasPrefix(".build") && !$0.contains("/.build") }
        .sorted()
      let files = try paths.map { path in
        FuzzFile(
          path: "/desingleton-fuzz/\(name)/\(path)",
          bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/" + path)))
        )
      }
      let text = files.map { String(decoding: $0.bytes, as: UTF8.self) }.joined()
      let root = ["AppCoordinator", "AppNavigator"].first { text.contains("class \($0)") } ?? "AppCoordinator"
      return FuzzSample(name: name, files: files, compositionRoot: root)
    }
  }
}
