import ArgumentParser
import DesingletonCore
import DesingletonIndex
import DesingletonPlanner

struct Mocks: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Write a test double for each slice protocol into the test target of the protocol's module."
  )

  @OptionGroup var common: CommonOptions
  @OptionGroup var writing: WriteOptions

  @Option(help: "The singleton whose protocols get doubles (needed when the paths hold more than one).")
  var singleton: String?

  @Option(
    name: .customLong("slice"),
    help: ArgumentHelp(
      "A protocol to write a double for (repeatable; default: every project protocol the singleton conforms to).",
      valueName: "name"
    )
  )
  var slices: [String] = []

  @Option(
    help: "Write the doubles into this directory (default: the test target that depends on each protocol's module)."
  )
  var outputDir: String?

  @Flag(help: "Replace a double that was edited by hand, or a file that 'mocks' did not write.")
  var force = false

  @Option(help: "Summary format: text (on stderr) for people, json (on stdout) for scripts.")
  var format: Scan.Format = .text

  mutating func run() throws {
    let configuration = try common.prepare()
    let loader = try common.loader(singleton: singleton, extra: slices)
    let (plan, report) = try loader.run { project -> (Plan, MocksReport) in
      var typeName: String?
      if let singleton {
        // After 'finish' the type has no accessor left: a type of that name is enough.
        let found = project.index.types(named: singleton).filter {
          project.index.primaryDeclaration(of: $0)?.kind != .protocol
        }
        if found.count > 1 { throw Refusal("'\(singleton)' is ambiguous: \(found.joined(separator: ", "))") }
        guard let name = found.first else { throw Refusal("no type named '\(singleton)'") }
        typeName = name
      } else if slices.isEmpty {
        typeName = try resolveSingleton(nil, in: project.index).typeName
      }
      let options = MocksOptions(protocols: slices.isEmpty ? nil : slices, outputDirectory: outputDir ?? typeName.flatMap { configuration.settings(named: $0)?.mocks.outputDir }, force: force)
      return try MocksPlanner.run(typeName: typeName, options: options, project: project)
    }
    let project = loader.project
    switch format {
    case .text: try writing.carryOut(plan, project: project, root: common.root, verifying: configuration.verify)
    case .json: try writing.carryOut(plan, project: project, root: common.root, verifying: configuration.verify) { report.json(files: $0) }
    }
  }
}
