import DesingletonCore
import DesingletonIndex
import DesingletonPlanner
import Foundation
import Testing

/// On every sample, for every singleton: `extract-protocol` with the suggested slices, then
/// `inject --all`, leaves the accessor only in composition roots, types the system creates, static
/// contexts, tests, coder inits and the singleton with what it makes; nothing elsewhere; and never
/// more used outside roots, entry points and tests than before.
@Suite struct ConvergenceTests {
  static let samples = [
    "ShoppingApp", "ProfileApp", "ThumbnailCache", "SingletonShapes", "FrameworkApp", "SwiftUIApp", "GodObject", "SwinjectApp",
    "DependenciesApp",
  ]

  @Test(arguments: samples)
  func injectAllLeavesTheAccessorOnlyWhereNoInitCanTakeIt(_ sample: String) throws {
    var files = try Self.sources(of: sample)
    let singletons = makeProject(files).index.singletons.map(\.typeName)
    #expect(!singletons.isEmpty)
    for name in singletons {
      let sliced = makeProject(files)
      guard let singleton = sliced.index.singletons.first(where: { $0.typeName == name }) else { continue }
      let extraction = try ExtractProtocolPlanner.plan(singleton: singleton, options: ExtractProtocolOptions(), project: sliced)
      files = try apply(extraction, to: sliced, files: files)
      let extracted = makeProject(files)
      let target = try #require(extracted.index.singletons.first { $0.typeName == name })
      let before = try AccessorCensus(singleton: target, project: extracted)
      // A singleton inject refuses as a whole (its instance is replaced at run time) is left as it is.
      let injection: (plan: Plan, report: InjectReport)
      do {
        injection = try InjectPlanner.run(singleton: target, options: InjectOptions(), project: extracted) { plan in
          makeProject(try apply(plan, to: extracted, files: files))
        }
      } catch let refusal as Refusal where refusal.diagnostics.first?.message.contains("given a new instance") == true {
        continue
      }
      let (plan, report) = injection
      files = try apply(plan, to: extracted, files: files)
      let injected = makeProject(files)
      let after = try AccessorCensus(singleton: try #require(injected.index.singletons.first { $0.typeName == name }), project: injected)
      // Never more used outside roots, entry points and tests than before.
      #expect(
        after.spreadRanges.count <= before.spreadRanges.count,
        "\(sample) '\(name)': \(before.spreadRanges.count) → \(after.spreadRanges.count) outside roots and tests")
      #expect(
        after.elsewhere == 0,
        "\(sample) '\(name)': \(before.total) → \(after.total), still used by \(after.elsewhereTypes); skipped: \(report.skipped.map(\.typeName))")
    }
  }

  /// Every Swift file of a sample, by its path inside the sample.
  static func sources(of sample: String) throws -> [String: String] {
    let root = packageRoot + "/Samples/" + sample
    var files: [String: String] = [:]
    let enumerator = FileManager.default.enumerator(atPath: root)
    while let path = enumerator?.nextObject() as? String {
      if path.hasPrefix(".build") { enumerator?.skipDescendants(); continue }
      guard path.hasSuffix(".swift") else { continue }
      files[path] = try String(contentsOfFile: root + "/" + path, encoding: .utf8)
    }
    return files
  }
}
