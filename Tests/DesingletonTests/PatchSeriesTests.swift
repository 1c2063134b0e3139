import DesingletonCore
import DesingletonIndex
import Testing

@testable import DesingletonPlanner

/// How `--split-by` cuts a plan: which piece each edit goes with, and the order of the steps.
@Suite struct PatchSeriesTests {
  static let manifest = """
    let package = Package(
      name: "P",
      targets: [
        .target(name: "Core"),
        .target(name: "Feature", dependencies: ["Core"]),
        .target(name: "App", dependencies: ["Feature"]),
        .target(name: "Other"),
      ]
    )
    """
  static let modules = ModuleMap(manifests: [SourceText(path: "Package.swift", text: manifest)])

  /// Two consumers created in one file: each call's edit goes with its consumer (the smallest range
  /// holding it), an import with the first piece that changes the file.
  static var plan: Plan {
    var plan = Plan()
    plan.add(.insert("import Core\n", at: 0), in: "Sources/App/Root.swift")
    plan.add(.insert("a: x, ", at: 110), in: "Sources/App/Root.swift")
    plan.add(.insert("b: x, ", at: 210), in: "Sources/App/Root.swift")
    plan.add(TextEdit(range: 10..<20, replacement: "a"), in: "Sources/Feature/A.swift")
    plan.add(TextEdit(range: 10..<20, replacement: "b"), in: "Sources/Other/B.swift")
    plan.parts = [
      PlanPart(
        name: "A", ranges: ["Sources/Feature/A.swift": [0..<100], "Sources/App/Root.swift": [100..<120, 0..<300]]),
      PlanPart(name: "B", ranges: ["Sources/Other/B.swift": [0..<100], "Sources/App/Root.swift": [200..<220]]),
    ]
    return plan
  }

  func edits(_ step: PatchSeries.Step) -> [String: [String]] {
    step.plan.edits.mapValues { $0.map(\.replacement) }
  }

  @Test func byConsumerEachPieceWithItsCallsAndTheImportFirst() {
    let steps = PatchSeries.steps(Self.plan, by: .consumer, modules: Self.modules)
    #expect(steps.map(\.name) == ["A", "B"])
    #expect(
      edits(steps[0]) == ["Sources/App/Root.swift": ["import Core\n", "a: x, "], "Sources/Feature/A.swift": ["a"]])
    // Each step holds the ones before it: the last is the whole plan.
    #expect(
      edits(steps[1]) == [
        "Sources/App/Root.swift": ["import Core\n", "a: x, ", "b: x, "], "Sources/Feature/A.swift": ["a"],
        "Sources/Other/B.swift": ["b"],
      ])
  }

  /// Of two pieces whose ranges in the file hold an edit and are of one size, the first listed
  /// takes it; a range in another file holds none of its edits.
  @Test func ofTwoRangesOfOneSizeTheFirstPieceTakesTheEdit() {
    var plan = Plan()
    plan.add(.insert("x", at: 50), in: "Sources/App/Root.swift")
    plan.add(.insert("y", at: 150), in: "Sources/App/Root.swift")
    plan.parts = [
      PlanPart(name: "A", ranges: ["Sources/Feature/A.swift": [0..<200], "Sources/App/Root.swift": [0..<100]]),
      PlanPart(name: "B", ranges: ["Sources/App/Root.swift": [0..<100, 100..<300]]),
      PlanPart(name: "C", ranges: ["Sources/App/Root.swift": [120..<320]]),
    ]
    let assignment = PatchSeries.assign(plan)
    #expect(assignment.edits["Sources/App/Root.swift"] == [0, 1])
  }

  @Test func byModuleThePiecesJoinTheModulesTheySpanInDependencyOrder() {
    let steps = PatchSeries.steps(Self.plan, by: .module, modules: Self.modules)
    // A spans Feature and App, B spans Other and App: one step; its modules in dependency order.
    #expect(steps.map(\.name) == ["Other+Feature+App"])

    var separate = Self.plan
    separate.edits["Sources/App/Root.swift"] = nil
    separate.add(TextEdit(range: 0..<1, replacement: "c"), in: "Sources/Core/Store.swift")
    // An edit in no piece's range, in a file no piece changes, goes with the first piece.
    #expect(PatchSeries.steps(separate, by: .module, modules: Self.modules).map(\.name) == ["Core+Feature", "Other"])
    separate.parts.append(PlanPart(name: "C", ranges: ["Sources/Core/Store.swift": [0..<10]]))
    let ordered = PatchSeries.steps(separate, by: .module, modules: Self.modules)
    // Core before Feature (Feature depends on it); Other, which depends on nothing, by name.
    #expect(ordered.map(\.name) == ["Core", "Feature", "Other"])
    #expect(edits(ordered[0]) == ["Sources/Core/Store.swift": ["c"]])
  }

  /// A piece that uses another's (a creation handed its creator's new properties) comes after it.
  @Test func aPieceComesAfterThePiecesItUses() {
    var plan = Self.plan
    plan.parts[0].after = ["B"]
    plan.parts[0].ranges["Sources/App/Root.swift"] = [100..<120]
    let steps = PatchSeries.steps(plan, by: .consumer, modules: Self.modules)
    #expect(steps.map(\.name) == ["B", "A"])
    // The import goes with the first piece applied that changes its file.
    #expect(edits(steps[0]) == ["Sources/App/Root.swift": ["import Core\n", "b: x, "], "Sources/Other/B.swift": ["b"]])
  }

  @Test func aPlanWithoutPiecesIsOneStep() {
    var plan = Self.plan
    plan.parts = []
    #expect(PatchSeries.steps(plan, by: .consumer, modules: Self.modules).map(\.name) == ["Changes"])
  }
}
