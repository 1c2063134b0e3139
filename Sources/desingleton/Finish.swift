import ArgumentParser
import DesingletonCore
import DesingletonIndex
import DesingletonPlanner

struct Finish: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Delete the singleton's static accessor and let the composition root own the one instance."
  )

  @OptionGroup var common: CommonOptions
  @OptionGroup var writing: WriteOptions

  @Option(help: "The singleton type (needed when the paths hold more than one).")
  var singleton: String?

  @Option(help: "The composition root (coordinator or app delegate) that will own the instance.")
  var root: String

  @Flag(help: "Let tests that still use the accessor create their own instance.")
  var includeTests = false

  func run() throws {
    let project = try common.loadProject(singleton: singleton, extra: [root])
    if let singleton, !project.index.singletons.contains(where: { $0.typeName == singleton || $0.simpleTypeName == singleton }),
      !project.index.types(named: singleton).isEmpty
    {
      printError("nothing to do: '\(singleton)' has no static accessor left")
      return
    }
    if singleton == nil && project.index.singletons.isEmpty {
      printError("nothing to do: no singleton found")
      return
    }
    let target = try resolveSingleton(singleton, in: project.index)
    let plan = try FinishPlanner.plan(singleton: target, options: FinishOptions(root: root, includeTests: includeTests), project: project)
    try writing.carryOut(plan, project: project, root: common.root)
  }
}
