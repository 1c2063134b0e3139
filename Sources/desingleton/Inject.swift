import ArgumentParser
import DesingletonCore
import DesingletonIndex
import DesingletonPlanner

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

  func validate() throws {
    if types.isEmpty == !all {
      throw ValidationError("give either --type NAME (one or more) or --all")
    }
  }

  func run() throws {
    let project = try common.loadProject(singleton: singleton, extra: types, widen: true)
    let target = try resolveSingleton(singleton, in: project.index)
    let options = InjectOptions(types: all ? nil : types, defaultArgument: defaultArgument)
    let plan = try ModuleUnits.plan(typeName: target.typeName, project: project) { unit in
      try InjectPlanner.plan(singleton: try resolveSingleton(target.typeName, in: unit.index), options: options, project: unit)
    }
    try writing.carryOut(plan, project: project, root: common.root)
  }
}
