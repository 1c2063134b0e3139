import DesingletonIndex
import Testing

/// The one reading of import lines: which lines import what, at which line, and whether the line
/// is one module path.
@Suite struct ImportLinesTests {
  @Test func theLinesThatImportAndTheirNumbers() {
    let text = [
      "// import Fake",
      "import Foundation",
      "let important = 1; let importer = 2",
      "@testable import Core",
      "  public import struct Foundation.Date\r",
      "",
      "import My App Watch",
      "internal import os // import again",
      "func f() { _ = \"import X\" }",
      "import Last",
    ].joined(separator: "\n")
    let found = ImportLines.modules(in: text).map { "\($0.module)@\($0.line)\($0.isOnePath ? "" : " (not one path)")" }
    #expect(found == ["Foundation@2", "Core@4", "Foundation@5", "My@7 (not one path)", "os@8", "Last@10"])
    #expect(ImportLines.modules(in: "").isEmpty)
    #expect(ImportLines.modules(in: "import A\nimport B").map(\.line) == [1, 2])
  }
}
