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

  @Flag(help: "Give the new init parameters the singleton as their default value and leave call sites alone.")
  var defaultArgument = false

  @Flag(help: "Give types the system creates (cells, ...) a 'var slice: Slice!' property set where the code configures them.")
  var propertyInjection = false

  @Flag(help: "With --all: write nothing and exit 1 when any consumer would be skipped.")
  var strict = false

  @Option(help: "Summary format: text (on stderr) for people, json (on stdout) for scripts.")
  var format: Scan.Format = .text

  func validate() throws {
    if types.isEmpty == !all {
      throw ValidationError("give either --type NAME (one or more) or --all")
    }
  }

  func run() throws {
    let project = try common.loadProject(singleton: singleton, extra: types, widen: true)
    let target = try resolveSingleton(singleton, in: project.index)
    let options = InjectOptions(
      types: all ? nil : types, defaultArgument: defaultArgument, strict: strict, propertyInjection: propertyInjection)
    var (plan, report) = try InjectPlanner.run(singleton: target, options: options, project: project)
    // The accessor references before and after: the rewritten files indexed again.
    report.before = try AccessorCensus(singleton: target, project: project)
    let outputs = try Printer(root: common.root).render(plan, sources: project.sources(of: Array(plan.edits.keys) + Array(plan.newFiles.keys)))
    let rewritten = try project.replacing(outputs.map { SourceText(path: $0.path, text: String(decoding: $0.new, as: UTF8.self)) })
    if let after = rewritten.index.singletons.first(where: { $0.typeName == target.typeName }) {
      report.after = try AccessorCensus(singleton: after, project: rewritten)
    }
    switch format {
    case .text:
      if let line = report.censusLine { plan.notes.append(line) }
      try writing.carryOut(plan, project: project, root: common.root)
    case .json:
      // The diff of a dry run would mix with the JSON on stdout: only the JSON is printed.
      if !writing.dryRun {
        plan.notes = []
        try writing.carryOut(plan, project: project, root: common.root)
      }
      print(report.json(), terminator: "")
    }
  }
}
