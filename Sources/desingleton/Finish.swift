import ArgumentParser
import DesingletonCore
import DesingletonIndex
import DesingletonPlanner
import DesingletonPrinter

struct Finish: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Delete the singleton's static accessor and let the composition root own the one instance."
  )

  @OptionGroup var common: CommonOptions
  @OptionGroup var writing: WriteOptions

  @Option(
    name: .customLong("singleton"),
    help: ArgumentHelp(
      "The singleton type (needed when the paths hold more than one); repeat it to finish singletons that need each other in one run.",
      valueName: "singleton"))
  var singletons: [String] = []

  var singleton: String? { singletons.first }

  @Option(
    name: .customLong("root"),
    help: ArgumentHelp(
      "The composition root (coordinator or app delegate) that will own the instance; when two targets each declare the singleton, one root per target (repeatable). Default: the one root that still uses the accessor, else the one '@main' type or application delegate.",
      valueName: "type"))
  var roots: [String] = []

  func validate() throws {
    if singletons.count > 1 && format == .json { throw ValidationError("--format json takes one --singleton") }
    if singletons.count > 1 && roots.count > 1 { throw ValidationError("singletons finished together have one --root") }
    if dependencyWrapper == true && container != nil && container != .dependencies {
      throw ValidationError("--dependency-wrapper needs --container dependencies")
    }
  }

  @Flag(help: "Let tests that still use the accessor create their own instance.")
  var includeTests = false

  @Option(
    help: ArgumentHelp(
      "Hand the instance to a dependency container: 'swinject' (an Assembly registers it under each protocol) or 'dependencies' (a swift-dependencies key per protocol); 'none' overrides a container set in .desingleton.json.",
      valueName: "container"))
  var container: ContainerChoice?

  @Flag(
    inversion: .prefixedNo,
    help: "With --container dependencies: consumers read their protocols with @Dependency instead of taking them in their init.")
  var dependencyWrapper: Bool?

  @Option(help: "Summary format: text (on stderr) for people, json (on stdout) for scripts.")
  var format: Scan.Format = .text

  mutating func run() throws {
    let configuration = try common.prepare()
    if singletons.count > 1 { return try finishTogether(configuration) }
    let loader = try common.loader(singleton: singleton, extra: roots, readsConsumers: true)
    guard let target = try loader.run(finished) else {
      printError(
        singleton.map { "nothing to do: '\($0)' has no static accessor left, or (declared in Objective-C) no Swift code uses it" }
          ?? "nothing to do: no singleton found")
      printEmptyReport(singleton ?? "")
      return
    }
    // A flag wins over the file; the file over the default.
    let saved = configuration.settings(for: target).finish
    let container = self.container.map(\.kind) ?? saved.container
    let dependencyWrapper = dependencyWrapper ?? saved.dependencyWrapper ?? false
    if dependencyWrapper && container != .dependencies {
      throw Refusal("the dependency wrapper needs the 'dependencies' container")
    }
    var reports: [FinishReport] = []
    var notes: [String] = []
    let diffRoot = common.root
    // The root chosen is said before what the plan says, a refusal too.
    defer { for note in notes { printError(note) } }
    // A refusal's next command is checked by planning it: `finish` is handed that check.
    let finishOptions = { [includeTests] (root: String) in
      FinishOptions(
        root: root, includeTests: includeTests, container: container, dependencyWrapper: dependencyWrapper,
        nextStep: NextCommand.injectTypes)
    }
    let plan = try loader.run { project in
      reports = []
      notes = []
      if format == .json { try project.refuseTwinsForJSON(of: target.typeName, module: nil, choose: "run on one target's folder") }
      return try ModuleUnits.plan(typeName: target.typeName, project: project) { unit in
        let unitSingleton = try resolveSingleton(target.typeName, in: unit.index)
        // Each target's own root: the first one named that the target has, else the one it proposes.
        let root: String
        if let named = roots.first(where: { !unit.index.types(named: $0).isEmpty || unit.index.hasType($0) }) ?? roots.first {
          root = named
        } else {
          let proposal = try CompositionRoots.proposedRoot(singleton: unitSingleton, project: unit)
          if proposal.root == nil, !proposal.perProgram.isEmpty, format == .text {
            notes.append(
              "note: the composition roots are \(proposal.perProgram.map { "'\($0)'" }.joined(separator: ", ")), one per program, each owning its own instance as the static accessor gave each program its own; name one with --root")
            let options = finishOptions(proposal.perProgram[0])
            let (plan, unitReports) = try FinishPlanner.runPerProgram(
              singleton: unitSingleton, roots: proposal.perProgram, options: options, project: unit
            ) { [diffRoot] in try rewritten(unit, by: $0, root: diffRoot) }
            reports += unitReports
            return plan
          }
          guard let proposed = proposal.root else {
            guard let likeliest = proposal.candidates.first else {
              throw Refusal(
                "no composition root found for '\(target.typeName)': no type only tests create uses it, and there is no '@main' type or application delegate; name the type that will own the instance with --root",
                at: unitSingleton.declaration.start)
            }
            let options = finishOptions(likeliest)
            throw try FinishPlanner.severalOwners(
              singleton: unitSingleton, candidates: proposal.candidates, options: options, project: unit
            ) { [diffRoot] in try rewritten(unit, by: $0, root: diffRoot) }
          }
          notes.append("note: the composition root is '\(proposed)'; name another with --root")
          root = proposed
        }
        let options = finishOptions(root)
        let (plan, report) = try FinishPlanner.run(singleton: unitSingleton, options: options, project: unit) { [diffRoot] in try rewritten(unit, by: $0, root: diffRoot) }
        reports.append(report)
        return plan
      }
    }
    for note in notes { printError(note) }
    notes = []
    let project = loader.project
    switch format {
    case .text: try writing.carryOut(plan, project: project, root: common.root, verifying: configuration.verify)
    case .json: try writing.carryOut(plan, project: project, root: common.root, verifying: configuration.verify) { reports[0].json(files: $0) }
    }
  }

  /// `--singleton A --singleton B`: singletons that need each other, finished in one run by the one
  /// root they all share (`FinishPlanner.runTogether`).
  func finishTogether(_ configuration: Configuration) throws {
    let loader = try common.loader(singleton: singletons[0], extra: Array(singletons.dropFirst()) + roots, readsConsumers: true)
    let diffRoot = common.root
    var notes: [String] = []
    defer { for note in notes { printError(note) } }
    let plan = try loader.run { project in
      notes = []
      var found: [Singleton] = []
      // A second run: the accessors are gone.
      let left = singletons.filter { name in project.index.singletons.contains { $0.typeName == name || $0.simpleTypeName == name } }
      if left.isEmpty { return Plan() }
      for name in singletons {
        let singleton = try resolveSingleton(name, in: project.index)
        if !found.contains(where: { $0.typeName == singleton.typeName }) { found.append(singleton) }
      }
      let saved = configuration.settings(for: found[0]).finish
      let container = self.container.map(\.kind) ?? saved.container
      let root: String
      if let named = roots.first {
        root = named
      } else {
        let together = Set(found.map(\.typeName))
        let proposals = try found.map { try CompositionRoots.proposedRoot(singleton: $0, project: project, together: together).root }
        guard let first = proposals.first ?? nil, proposals.allSatisfy({ $0 == first }) else {
          throw Refusal(
            "no one composition root found for \(found.map { "'\($0.typeName)'" }.joined(separator: " and ")): name the type that will own them all with --root",
            at: found[0].declaration.start)
        }
        notes.append("note: the composition root is '\(first)'; name another with --root")
        root = first
      }
      let options = FinishOptions(root: root, includeTests: includeTests, container: container, nextStep: NextCommand.injectTypes)
      return try FinishPlanner.runTogether(singletons: found, options: options, project: project) { [diffRoot] in
        try rewritten(project, by: $0, root: diffRoot)
      }.plan
    }
    for note in notes { printError(note) }
    notes = []
    if plan.isEmpty {
      printError("nothing to do: \(singletons.map { "'\($0)'" }.joined(separator: " and ")) have no static accessor left")
      return
    }
    try writing.carryOut(plan, project: loader.project, root: common.root, verifying: configuration.verify)
  }

  /// The singleton to finish; nil when there is nothing to do: the type named has no static
  /// accessor left, or the code has no singleton.
  func finished(_ project: Project) throws -> Singleton? {
    if let singleton, !project.index.singletons.contains(where: { $0.typeName == singleton || $0.simpleTypeName == singleton }),
      !project.index.types(named: singleton).isEmpty
    {
      return nil
    }
    if singleton == nil && project.index.singletons.isEmpty { return nil }
    let found = try resolveSingleton(singleton, in: project.index)
    // An Objective-C accessor stays in its header: finished once Swift code no longer uses it.
    if project.index.isObjectiveC(found.declaration.path) && project.index.references(to: found).isEmpty { return nil }
    return found
  }

  /// With `--format json`, nothing to do is still a report: nothing removed, no file changed.
  func printEmptyReport(_ singleton: String) {
    guard format == .json else { return }
    print(FinishReport(singleton: singleton, root: roots.first ?? "", references: []).json(files: PlanFiles()), terminator: "")
  }
}

/// `--container`: a container, or `none` to override the configuration file.
enum ContainerChoice: String, ExpressibleByArgument, CaseIterable {
  case swinject, dependencies, none

  var kind: ContainerKind? { ContainerKind(rawValue: rawValue) }
}
