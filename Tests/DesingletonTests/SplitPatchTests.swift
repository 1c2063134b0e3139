import Foundation
import Testing

/// `--dry-run --split-by module|consumer --patch-dir DIR` on ModularApp: the patches, applied one by
/// one in `ls` order with `git apply`, leave a sample that builds after each, and together they are
/// the whole change.
@Suite(.serialized) struct SplitPatchTests {
  static let binary = packageRoot + "/.build/debug/desingleton"

  /// Its own build folder: the golden cases build ModularApp at the same time.
  static let scratch = packageRoot + "/.build-golden/ModularApp-split"

  func desingleton(_ arguments: [String], in work: SampleCopy, sourceLocation: SourceLocation = #_sourceLocation) throws
  {
    let result = try run([Self.binary] + arguments, in: work.path)
    #expect(result.status == 0, "\(arguments): \(result.standardError)", sourceLocation: sourceLocation)
  }

  func patches(in directory: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".patch") }.sorted()
  }

  /// Applies the patches in order, building after each.
  func applyAndBuild(
    _ names: [String], from directory: String, in work: SampleCopy, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    for name in names {
      let apply = try run(["git", "apply", directory + "/" + name], in: work.path)
      #expect(apply.status == 0, "\(name) does not apply: \(apply.standardError)", sourceLocation: sourceLocation)
      let build = try run(["swift", "build", "--build-tests", "-q", "--scratch-path", Self.scratch], in: work.path)
      #expect(
        build.status == 0, "the sample does not build after \(name):\n\(build.output)\(build.standardError)",
        sourceLocation: sourceLocation)
    }
  }

  @Test func patchesApplyAndBuildOneByOne() throws {
    let work = try SampleCopy(sample: "ModularApp", name: "split")
    defer { work.remove() }
    let directory = work.path + "/../patches"

    // The slices: one patch, built.
    try desingleton(["extract-protocol", "--dry-run", "--split-by", "module", "--patch-dir", directory], in: work)
    #expect(try patches(in: directory) == ["001-Core.patch"])
    #expect(work.isClean(), "a dry run wrote files")
    try applyAndBuild(["001-Core.patch"], from: directory, in: work)
    try work.commit("slices")
    let sliced = try work.treeHash()

    // The whole inject, for comparison.
    let whole = try run([Self.binary, "inject", "--all", "--dry-run"], in: work.path)
    #expect(whole.status == 0)
    try Data(whole.output.utf8).write(to: URL(fileURLWithPath: work.path + "/../whole.diff"))
    #expect(try run(["git", "apply", work.path + "/../whole.diff"], in: work.path).status == 0)
    let injected = try work.treeHash()
    try work.reset()
    #expect(try work.treeHash() == sliced)

    // Per consumer: numbered after the slices, one consumer and its creations each.
    try desingleton(["inject", "--all", "--dry-run", "--split-by", "consumer", "--patch-dir", directory], in: work)
    let byConsumer = try patches(in: directory)
    #expect(
      byConsumer == [
        "001-Core.patch", "002-ProfileViewModel.patch", "003-ReaderViewModel.patch", "004-SettingsScreen.patch",
        "005-SyncService.patch",
      ])
    try applyAndBuild(Array(byConsumer.dropFirst()), from: directory, in: work)
    #expect(try work.treeHash() == injected, "the patches together are not the whole change")
    let test = try run(["swift", "test", "--skip-build", "--scratch-path", Self.scratch], in: work.path)
    #expect(test.status == 0, "the sample's tests fail:\n\(test.output.suffix(2000))")
    try work.reset()

    // Per module: a changed init goes with the modules that call it.
    let modules = work.path + "/../by-module"
    try desingleton(["inject", "--all", "--dry-run", "--split-by", "module", "--patch-dir", modules], in: work)
    let byModule = try patches(in: modules)
    #expect(byModule == ["001-Core+CoreTests.patch", "002-Profile+Reader+App.patch"])
    try applyAndBuild(byModule, from: modules, in: work)
    #expect(try work.treeHash() == injected, "the patches together are not the whole change")
  }

  /// The options go together, and only with a dry run.
  @Test func splitNeedsDryRunAndDirectory() throws {
    let work = try SampleCopy(sample: "ModularApp", name: "split-usage")
    defer { work.remove() }
    let noDryRun = try run(
      [Self.binary, "extract-protocol", "--split-by", "module", "--patch-dir", "p"], in: work.path)
    #expect(noDryRun.status == 2)
    #expect(noDryRun.standardError.contains("--split-by and --patch-dir go with --dry-run"))
    let noDirectory = try run([Self.binary, "extract-protocol", "--dry-run", "--split-by", "module"], in: work.path)
    #expect(noDirectory.status == 2)
    #expect(noDirectory.standardError.contains("--split-by and --patch-dir go together"))
    #expect(work.isClean())
  }
}
