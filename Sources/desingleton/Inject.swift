import ArgumentParser
import DesingletonCore
import DesingletonIndex
import DesingletonPlanner
import DesingletonPrinter

struct Inject: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Give consumers the singleton's slices through their inits, and update every call site."
  )

  @OptionGroup var common: CommonOptions
  @OptionGroup var writing: WriteOptions

  @Option(name: .customLong("type"), help: ArgumentHelp("A consumer type to inject (repeatable).", valueName: "name"))
  var types: [String] = []

  @Flag(help: "Inject every consumer of the singleton that can be injected.")
  var all = false

  @Option(help: "The singleton type (needed when the paths hold more than one).")
  var singleton: String?

  @Option(help: "When two targets each declare a singleton of this name: inject only the one in this module.")
  var module: String?

  @Flag(
    inversion: .prefixedNo,
    help: "Give the new init parameters the singleton as their default value and leave call sites alone.")
  var defaultArgument: Bool?

  @Flag(
    inversion: .prefixedNo,
    help: "Give types the system creates (cells, ...) a 'var slice: Slice!' property set where the code configures them.")
  var propertyInjection: Bool?

  @Flag(
    inversion: .prefixedNo,
    help: "SwiftUI views read the slices from the environment ('@Environment(\\.slice)'); the root sets them with '.environment(\\.slice, value)'.")
  var swiftuiEnvironment: Bool?

  @Flag(help: "With --all: write nothing and exit 1 when any consumer would be skipped.")
  var strict = false

  @Option(help: "Summary format: text (on stderr) for people, json (on stdout) for scripts.")
  var format: Scan.Format = .text

  func validate() throws {
    if types.isEmpty == !all {
      throw ValidationError("give either --type NAME (one or more) or --all")
    }
  }

  mutating func run() throws {
    let configuration = try common.prepare()
    let loader = try common.loader(singleton: singleton, extra: types, readsConsumers: true)
    let target = try loader.run { try resolveSingleton(singleton, in: $0.index) }
    // A flag wins over the file; the file over the default.
    let saved = configuration.settings(for: target).inject
    let options = InjectOptions(
      types: all ? nil : types, defaultArgument: defaultArgument ?? saved.defaultArgument ?? false, strict: strict,
      propertyInjection: propertyInjection ?? saved.propertyInjection ?? false,
      swiftUIEnvironment: swiftuiEnvironment ?? saved.swiftuiEnvironment ?? false)
    // Planned per compilation unit when two targets each declare the singleton; one unit otherwise.
    // Planned again without the consumers a failed build blames.
    var reports: [InjectReport] = []
    func plan(_ project: Project, excluding excluded: [String: CompilerError]) throws -> Plan {
      reports = []
      if format == .json { try project.refuseTwinsForJSON(of: target.typeName, module: module, choose: "choose one with --module") }
      var options = options
      options.excluded = excluded
      return try ModuleUnits.plan(typeName: target.typeName, project: project, only: module) { unit in
        let unitTarget = try resolveSingleton(target.typeName, in: unit.index)
        // Planned again without what would spread the accessor: the rewritten files indexed again.
        var (unitPlan, report) = try InjectPlanner.run(singleton: unitTarget, options: options, project: unit) { try rewritten(unit, by: $0, root: common.root) }
        if format == .text, let line = report.censusLine { unitPlan.notes.append(Note(.summary, line)) }
        reports.append(report)
        return unitPlan
      }
    }
    let first = try loader.run { try plan($0, excluding: [:]) }
    func makePlan(excluding excluded: [String: CompilerError]) throws -> Plan {
      excluded.isEmpty ? first : try loader.run { try plan($0, excluding: excluded) }
    }
    let project = loader.project
    switch format {
    case .text:
      try writing.carryOut(project: project, root: common.root, verifying: configuration.verify, plan: makePlan)
    case .json:
      try writing.carryOut(project: project, root: common.root, verifying: configuration.verify, report: { reports[0].json(files: $0) }, plan: makePlan)
    }
  }
}
