import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory desingleton scan`: runs the `desingleton` tool
/// in the package's directory on the package's target directories (or the ones named with
/// `--target`, repeatable), passing every other argument through. Paths in the output are relative
/// to the package, as when the tool runs there on `.`.
@main
struct DesingletonPlugin: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {
    var extractor = ArgumentExtractor(arguments)
    let named = extractor.extractOption(named: "target")
    let root = context.package.directoryURL.standardizedFileURL.path
    let targets =
      named.isEmpty
      ? context.package.targets
      : try context.package.targets(named: named)
    var paths = targets.compactMap { target -> String? in
      guard target is SourceModuleTarget else { return nil }
      return Self.relative(target.directoryURL.standardizedFileURL.path, to: root)
    }
    // The manifest tells the tool which module each file is in.
    if named.isEmpty { paths.insert("Package.swift", at: 0) }
    try Self.run(
      tool: try context.tool(named: "desingleton").url, in: context.package.directoryURL,
      arguments: Self.arguments(extractor.remainingArguments, paths: paths))
  }

  /// The command and its options first, then the paths (after `--`, so a path is never read as an option).
  static func arguments(_ given: [String], paths: [String]) -> [String] {
    if given.contains("--") { return given + paths }
    return given + ["--"] + paths
  }

  static func relative(_ path: String, to root: String) -> String {
    guard path.hasPrefix(root + "/") else { return path }
    return String(path.dropFirst(root.count + 1))
  }

  /// Runs the tool with the plugin's standard output; its exit status becomes the plugin's.
  /// SwiftPM prints what a plugin writes to standard error on its standard output, where it would mix
  /// with a diff or JSON: the tool's standard error lines come back as progress messages, which
  /// SwiftPM prints on its standard error (as `[Desingleton] line`).
  static func run(tool: URL, in directory: URL, arguments: [String]) throws {
    let process = Process()
    process.executableURL = tool
    process.arguments = arguments
    process.currentDirectoryURL = directory
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let data = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n") { Diagnostics.progress(String(line)) }
    if process.terminationReason == .exit, process.terminationStatus == 0 { return }
    throw ToolFailure(status: process.terminationStatus)
  }
}

/// The tool's own error lines are already printed; this only carries its exit status.
struct ToolFailure: Error, CustomStringConvertible {
  var status: Int32
  var description: String { "desingleton exited with status \(status)" }
}

#if canImport(XcodeProjectPlugin)
  import XcodeProjectPlugin

  extension DesingletonPlugin: XcodeCommandPlugin {
    /// In Xcode: the tool runs in the project's directory on that directory, or on the directories of
    /// the targets' Swift files when targets are chosen with `--target`.
    func performCommand(context: XcodePluginContext, arguments: [String]) throws {
      var extractor = ArgumentExtractor(arguments)
      let named = Set(extractor.extractOption(named: "target"))
      let root = context.xcodeProject.directoryURL.standardizedFileURL.path
      var paths: [String] = []
      for target in context.xcodeProject.targets where named.contains(target.displayName) {
        for file in target.inputFiles where file.url.pathExtension == "swift" {
          let path = Self.relative(file.url.standardizedFileURL.path, to: root)
          if !paths.contains(path) { paths.append(path) }
        }
      }
      if named.isEmpty { paths = ["."] }
      try Self.run(
        tool: try context.tool(named: "desingleton").url, in: context.xcodeProject.directoryURL,
        arguments: Self.arguments(extractor.remainingArguments, paths: paths))
    }
  }
#endif
