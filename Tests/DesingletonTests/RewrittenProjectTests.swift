import DesingletonCore
import DesingletonIndex
import DesingletonPlanner
import Foundation
import SwiftSyntax
import Testing

/// A project rewritten by a plan (`Project.replacing`): what it keeps of the project it was made
/// from (every file, the trees of the files it did not replace, the words of the Objective-C files).
@Suite struct RewrittenProjectTests {
  /// A project with a plan's files replaced still has every file the first load had: one the
  /// loader left out (it does not mention the singleton) still creates the consumer, so the
  /// consumer is no composition root there either. Otherwise a plan's accessor census would call a
  /// type a root that a fresh load does not, and a second run would find it to inject.
  @Test func keepsTheFilesTheLoaderLeftOut() throws {
    let directory = try PrinterTestSupport.makeTemporaryDirectory()
    defer { PrinterTestSupport.removeDirectory(directory) }
    let texts = [
      "Store.swift": "final class Store {\n  static let shared = Store()\n  var theme = \"\"\n}\n",
      "Flow.swift": "struct Flow {\n  func title() -> String { Store.shared.theme }\n}\n",
      "Container.swift": "struct Container {\n  func make() -> Flow { Flow() }\n}\n",
    ]
    for (name, text) in texts { try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8) }
    let paths = texts.keys.sorted().map { directory + "/" + $0 }
    let project = Project(index: IndexBuilder().build(paths: paths, mentioning: ["Store"]))
    #expect(!project.index.files.map(\.path).contains(directory + "/Container.swift"))
    #expect(try !CompositionRoots.isCompositionRoot("Flow", project: project))
    let changed = SourceText(path: directory + "/Flow.swift", text: "struct Flow {\n  let x = 1\n  func title() -> String { Store.shared.theme }\n}\n")
    let rewritten = try project.replacing([changed])
    #expect(rewritten.index.allPaths == project.index.allPaths)
    #expect(try !CompositionRoots.isCompositionRoot("Flow", project: rewritten))
  }

  /// A rewritten project answers `file(_:)` for a file it did not replace with the project
  /// before's tree (parsed there once, for every plan checked against it), and parses a replaced
  /// file from the project before's tree and the plan's edits when that project held it; a
  /// replaced file that does not parse is still refused.
  @Test func aRewrittenProjectReadsTheTreesOfTheProjectBefore() throws {
    let project = makeProject(["A.swift": "let a = Store.shared", "B.swift": "let b = 1", "C.swift": "struct C {}"])
    let parsedBefore = try project.file("A.swift").tree.id
    _ = try project.file("B.swift")
    let rewritten = try project.replacing(
      [SourceText(path: "B.swift", text: "let b = Store.shared"), SourceText(path: "D.swift", text: "let d = (")],
      edits: ["B.swift": [TextEdit(range: 8..<9, replacement: "Store.shared")]])
    let b = try rewritten.file("B.swift")
    #expect(b.isFromEdits && b.tree.description == "let b = Store.shared")
    #expect(try rewritten.file("A.swift").tree.id == parsedBefore)
    // Parsed for the rewritten project, kept by the project before.
    let c = try rewritten.file("C.swift")
    #expect(try project.file("C.swift").tree.id == c.tree.id)
    #expect(c.source.text == "struct C {}")
    #expect(throws: Refusal.self) { try rewritten.file("D.swift") }
    let again = try project.replacing([SourceText(path: "B.swift", text: "let b = 2")])
    let b2 = try again.file("B.swift")
    #expect(!b2.isFromEdits && b2.source.text == "let b = 2")
    #expect(try again.file("C.swift").tree.id == c.tree.id)
  }

  /// Which Objective-C files contain a name is looked up in their words, listed once, with the
  /// answer of a byte search of each file (part of a word too), in a rewritten project as well.
  @Test func objectiveCFilesContainingANameAnswerAsAByteSearch() throws {
    let files = [
      "Legacy/Badge.m": "#import \"Badge.h\"\n[[Badge alloc] init]; [Store shared];",
      "Legacy/Badge.h": "@interface Badge : NSObject\n@end", "Legacy/Old.mm": "// BadgeView\nint x = 1;",
      "App.swift": "final class Store { static let shared = Store() }",
    ]
    let project = makeProject(files)
    let rewritten = try project.replacing([SourceText(path: "App.swift", text: "final class Store {}")])
    for name in ["Badge", "Store", "shared", "adg", "NSObject", "Missing", "x"] {
      let expected = project.objectiveCPaths.filter { files[$0]!.contains(name) }
      #expect(project.objectiveCPaths(containing: name) == expected, "\(name)")
      #expect(rewritten.objectiveCPaths(containing: name) == expected, "\(name)")
    }
  }

  /// The project one compilation unit sees (`unit(around:)`, twin targets planned apart) keeps the
  /// Objective-C headers of the modules it sees, read as their Swift interfaces, as the whole
  /// project does: a header's class is still declared, and the header is still not Swift to edit.
  @Test func aUnitKeepsTheObjectiveCHeadersItSees() throws {
    let header = "Sources/Legacy/include/Badge.h"
    let project = makeProject([
      "Package.swift": """
        // swift-tools-version:5.9
        import PackageDescription
        let package = Package(name: "P", targets: [
          .target(name: "Legacy"), .target(name: "Phone", dependencies: ["Legacy"]), .target(name: "Mac"),
        ])
        """,
      "Sources/Phone/Store.swift": "final class Store { static let shared = Store() }",
      "Sources/Mac/Store.swift": "final class Store { static let shared = Store() }",
      header: "#import <Foundation/Foundation.h>\n@interface Badge : NSObject\n- (void)show;\n@end\n",
      "Sources/Legacy/Badge.m": "#import \"Badge.h\"\n@implementation Badge\n- (void)show {}\n@end\n",
    ])
    #expect(project.index.isObjectiveC(header) && project.index.hasType("Badge"))
    let phone = project.unit(around: "Phone")
    #expect(phone.index.isObjectiveC(header))
    #expect(phone.index.hasType("Badge"))
    #expect(throws: Refusal.self) { try phone.sources(of: [header]) }
    // A unit that cannot see the module leaves its header out, as it does its Swift files.
    let mac = project.unit(around: "Mac")
    #expect(!mac.index.hasType("Badge"))
  }
}
