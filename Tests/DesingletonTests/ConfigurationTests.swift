import DesingletonCore
import Foundation
import Testing

@testable import DesingletonPlanner

/// `.desingleton.json`: what is read, what is a warning, and where an error points.
struct ConfigurationTests {
  func read(_ text: String) throws -> Configuration {
    try Configuration.read(SourceText(path: ".desingleton.json", text: text))
  }

  func refusal(_ text: String) -> String {
    do {
      _ = try read(text)
      return "no error"
    } catch {
      return "\(error)"
    }
  }

  @Test func readsEveryKey() throws {
    let configuration = try read(
      """
      {
        "version": 1,
        "excludes": ["Generated", "*.pb.swift"],
        "accessors": ["current"],
        "singletons": {
          "SessionController": {
            "slices": {"CurrentCart": ["cart", "addItemToCart"], "CurrentUserProvider": ["currentUser"]},
            "inject": {"defaultArgument": true, "propertyInjection": false, "swiftuiEnvironment": true},
            "finish": {"container": "dependencies", "dependencyWrapper": true},
            "mocks": {"outputDir": "Tests/AppTests/Doubles"}
          }
        }
      }
      """
    )
    #expect(configuration.excludes == ["Generated", "*.pb.swift"])
    #expect(configuration.accessors == ["current"])
    #expect(configuration.warnings.isEmpty)
    let settings = try #require(configuration.settings(named: "App.SessionController"))
    // The file's order, not the keys' order.
    #expect(settings.slices?.map(\.name) == ["CurrentCart", "CurrentUserProvider"])
    #expect(settings.slices?.first?.members == ["cart", "addItemToCart"])
    #expect(settings.inject == Configuration.InjectSettings(defaultArgument: true, propertyInjection: false, swiftuiEnvironment: true))
    #expect(settings.finish == Configuration.FinishSettings(container: .dependencies, dependencyWrapper: true))
    #expect(settings.mocks.outputDir == "Tests/AppTests/Doubles")
    #expect(configuration.settings(named: "Other") == nil)
  }

  @Test func aContainerIsOneTheToolKnows() {
    #expect(
      refusal(#"{"version": 1, "singletons": {"Cart": {"finish": {"container": "needle"}}}}"#)
        == ".desingleton.json:1:64: error: expected 'swinject' or 'dependencies', found a string")
    #expect(
      refusal(#"{"version": 1, "singletons": {"Cart": {"mocks": {"outputDir": 3}}}}"#)
        == ".desingleton.json:1:63: error: expected a directory, found a number")
  }

  @Test func unknownKeysAreWarningsAtTheirPlace() throws {
    let configuration = try read(
      """
      {"version": 1, "colour": "red",
       "singletons": {"Cart": {"inject": {"swiftui": true}, "slice": {}}}}
      """
    )
    #expect(
      configuration.warnings.map(\.description) == [
        ".desingleton.json:1:16: warning: unknown key 'colour'",
        ".desingleton.json:2:37: warning: unknown key 'swiftui'",
        ".desingleton.json:2:55: warning: unknown key 'slice'",
      ]
    )
  }

  @Test func malformedFilesAreOneErrorAtTheirPlace() {
    #expect(
      refusal("{\"version\": 1,\n  \"excludes\": [\"a\",]}")
        == ".desingleton.json:2:20: error: a trailing comma is not allowed in JSON"
    )
    #expect(
      refusal("{\"version\": 1, \"excludes\": \"a\"}")
        == ".desingleton.json:1:28: error: expected an array of strings, found a string"
    )
    #expect(
      refusal("{\"version\": 1, \"accessors\": [\"cur rent\"]}")
        == ".desingleton.json:1:30: error: 'cur rent' is not an accessor name"
    )
    #expect(
      refusal("{\"version\": 2}")
        == ".desingleton.json:1:13: error: unsupported version; this desingleton reads version 1"
    )
    #expect(refusal("{\"excludes\": []}") == ".desingleton.json:1:1: error: missing \"version\": 1")
    #expect(refusal("[1]") == ".desingleton.json:1:1: error: expected an object, found an array")
    #expect(refusal("{\"version\": 1") == ".desingleton.json:1:14: error: the object is not closed")
    #expect(refusal("{\"version\": 1, \"version\": 1}") == ".desingleton.json:1:16: error: duplicate key 'version'")
    #expect(
      refusal("{\"version\": 1, \"singletons\": {\"Cart\": {\"inject\": {\"defaultArgument\": \"yes\"}}}}")
        == ".desingleton.json:1:70: error: expected true or false, found a string"
    )
    #expect(
      refusal("{\"version\": 1, \"singletons\": {\"Cart\": {\"slices\": {\"Empty\": []}}}}")
        == ".desingleton.json:1:60: error: the slice 'Empty' has no members"
    )
    #expect(refusal("{\"version\": 1} x") == ".desingleton.json:1:16: error: unexpected text after the JSON value")
  }

  @Test func stringsDecodeTheirEscapes() throws {
    let configuration = try read(#"{"version": 1.0, "excludes": ["a\/b", "\u00e9\ud83d\ude00", "tab\there"]}"#)
    #expect(configuration.excludes == ["a/b", "é😀", "tab\there"])
  }
}
