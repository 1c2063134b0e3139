import DesingletonCore
import DesingletonIndex
import SwiftSyntax

/// The environment keys a SwiftUI view that reads its slices from the environment needs
/// (`--swiftui-environment`): one file beside the singleton's.
extension InjectWriter {
  /// An `EnvironmentValues` entry per protocol that views read from the environment, in a new file
  /// next to the singleton's. The value is implicitly unwrapped and its default is nil: once `finish`
  /// removes the accessor no instance is reachable from the key's static context, a stand-in would
  /// hide a view shown outside the root's `.environment(\.key, value)`, and a `fatalError` default
  /// would fire on every `.environment(\.key, value)` (a key path write reads the old value first).
  /// A view shown without the value stops where it uses it; every use reads as before.
  func writeEnvironmentKeys(to edits: inout InjectEdits) throws {
    let index = project.index
    let existing = Set(index.members(of: "EnvironmentValues").map(\.name))
    var protocols: [String] = []
    for consumer in design.consumers where consumer.readsEnvironment {
      for name in consumer.protocols where !protocols.contains(name) && !existing.contains(lowerCamel(name)) {
        protocols.append(name)
      }
    }
    guard !protocols.isEmpty else { return }
    let rank = Dictionary(
      uniqueKeysWithValues: ProtocolCatalog(singleton: design.singleton, index: index).entries.enumerated().map { ($1.name, $0) })
    protocols.sort { (rank[$0] ?? 0) < (rank[$1] ?? 0) }
    let singletonPath = design.singleton.declaration.path
    let directory = singletonPath.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    let path = (directory.isEmpty ? "" : directory + "/") + "\(design.singleton.typeName)Environment.swift"
    guard project.bytes(path) == nil else {
      throw Refusal("'\(path)' exists but declares no environment key for \(protocols.map { "'\($0)'" }.joined(separator: ", ")); add them or remove the file first")
    }
    let source = try project.file(singletonPath).source
    let unit = source.indentUnit
    var lines = ["import SwiftUI", ""]
    for name in protocols {
      let key = lowerCamel(name)
      let access = (index.primaryDeclaration(of: index.resolveType(name))?.access ?? .internal) >= .public ? "public " : ""
      lines += [
        "/// Where views read '\(name)'; nil until '.environment(\\.\(key), value)' sets it where the root view is made.",
        "private struct \(name)Key: EnvironmentKey {",
        "\(unit)static var defaultValue: (any \(name))? { nil }",
        "}",
        "",
        "extension EnvironmentValues {",
        "\(unit)\(access)var \(key): (any \(name))! {",
        "\(unit)\(unit)get { self[\(name)Key.self] }",
        "\(unit)\(unit)set { self[\(name)Key.self] = newValue }",
        "\(unit)}",
        "}",
        "",
      ]
    }
    lines.removeLast()
    edits.plan.newFiles[path] = lines.joined(separator: source.lineEnding) + source.lineEnding
    edits.plan.companions[path] = singletonPath
    edits.plan.notes.append(
      Note(.created, "the environment keys \(protocols.map { "'\\.\(lowerCamel($0))'" }.joined(separator: ", "))", at: Note.Place(path: path), depth: 1))
  }
}
