import DesingletonCore
import Testing

@testable import DesingletonPlanner

/// `extract-protocol --save-slices`: the slices go into the file, and nothing else of it changes.
struct ConfigurationEditorTests {
  let slices = [
    Slice(name: "CurrentCart", members: ["cart", "addItemToCart"]), Slice(name: "UserProviding", members: ["user"]),
  ]

  func saved(
    _ text: String?,
    singleton: String = "Shop.Session",
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> String? {
    let source = text.map { SourceText(path: ".desingleton.json", text: $0) }
    let plan = try ConfigurationEditor.savingSlices(
      slices,
      singleton: singleton,
      simpleName: "Session",
      path: ".desingleton.json",
      source: source
    )
    if let created = plan.newFiles[".desingleton.json"] { return created }
    guard let text, let edits = plan.edits[".desingleton.json"] else { return nil }
    var bytes = Array(text.utf8)
    for edit in edits.sorted().reversed() { bytes.replaceSubrange(edit.range, with: Array(edit.replacement.utf8)) }
    let result = String(decoding: bytes, as: UTF8.self)
    // What was written reads back as the same slices, with no warning.
    let read = try Configuration.read(SourceText(path: ".desingleton.json", text: result))
    #expect(read.settings(named: singleton)?.slices == slices, sourceLocation: sourceLocation)
    #expect(read.warnings.isEmpty, sourceLocation: sourceLocation)
    return result
  }

  @Test func aNewFile() throws {
    expectText(
      try saved(nil),
      """
      {
        "version": 1,
        "singletons": {
          "Shop.Session": {
            "slices": {
              "CurrentCart": ["cart", "addItemToCart"],
              "UserProviding": ["user"]
            }
          }
        }
      }

      """
    )
  }

  @Test func aFileWithoutSingletonsKeepsEverythingElse() throws {
    expectText(
      try saved("{\n    \"version\": 1,\n    \"excludes\": [\"Generated\"]\n}\n"),
      """
      {
          "singletons": {
              "Shop.Session": {
                  "slices": {
                      "CurrentCart": ["cart", "addItemToCart"],
                      "UserProviding": ["user"]
                  }
              }
          },
          "version": 1,
          "excludes": ["Generated"]
      }

      """
    )
  }

  @Test func theSimpleNameAlreadyUsedIsKeptAndItsSlicesReplaced() throws {
    expectText(
      try saved(
        """
        {
          "version": 1,
          "singletons": {
            "Session": {
              "inject": {"defaultArgument": true},
              "slices": {"Old": ["cart"]}
            }
          }
        }

        """
      ),
      """
      {
        "version": 1,
        "singletons": {
          "Session": {
            "inject": {"defaultArgument": true},
            "slices": {
              "CurrentCart": ["cart", "addItemToCart"],
              "UserProviding": ["user"]
            }
          }
        }
      }

      """
    )
  }

  @Test func savedAlreadyChangesNothing() throws {
    let text =
      "{\"version\": 1, \"singletons\": {\"Session\": {\"slices\": {\"CurrentCart\": [\"cart\", \"addItemToCart\"], \"UserProviding\": [\"user\"]}}}}\n"
    #expect(try saved(text) == nil)
  }
}
