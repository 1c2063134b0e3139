import DesingletonCore
import Testing

@testable import DesingletonPrinter

@Suite("Printer: EditApplier")
struct PrinterEditApplierTests {
  private func apply(
    _ edits: [TextEdit],
    to text: String,
    expecting expected: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    do {
      let result = try EditApplier.apply(edits, to: SourceText(path: "F.swift", text: text))
      #expect(String(decoding: result, as: UTF8.self) == expected, sourceLocation: sourceLocation)
    } catch {
      Issue.record("unexpected refusal: \(error)", sourceLocation: sourceLocation)
    }
  }

  private func refusal(
    _ edits: [TextEdit],
    to text: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> String {
    do {
      let result = try EditApplier.apply(edits, to: SourceText(path: "F.swift", text: text))
      Issue.record(
        "expected a refusal, got '\(String(decoding: result, as: UTF8.self))'",
        sourceLocation: sourceLocation
      )
      return ""
    } catch {
      return "\(error)"
    }
  }

  @Test func appliesEditsGivenInAnyOrder() {
    let text = "let a = 1\nlet b = 2\nlet c = 3\n"
    let edits = [
      PrinterTestSupport.replacing("3", with: "three", in: text),
      PrinterTestSupport.replacing("a", with: "alpha", in: text),
      PrinterTestSupport.replacing("2", with: "two", in: text),
    ]
    apply(edits, to: text, expecting: "let alpha = 1\nlet b = two\nlet c = three\n")
    apply(edits.reversed(), to: text, expecting: "let alpha = 1\nlet b = two\nlet c = three\n")
  }

  @Test func noEditsKeepsEveryByte() {
    apply([], to: "a\r\nb", expecting: "a\r\nb")
  }

  @Test func insertionsAtOneOffsetKeepTheirOrder() {
    let text = "struct S {}\n"
    let brace = PrinterTestSupport.offset(of: "}", in: text)
    apply(
      [.insert("1", at: brace), .insert("2", at: brace), .insert("3", at: brace)],
      to: text,
      expecting: "struct S {123}\n"
    )
    apply(
      [.insert("3", at: brace), .insert("1", at: brace), .insert("2", at: brace)],
      to: text,
      expecting: "struct S {312}\n"
    )
  }

  @Test func insertionsAtTheEdgesOfAReplacement() {
    let text = "let x = old\n"
    let edit = PrinterTestSupport.replacing("old", with: "new", in: text)
    apply(
      [.insert(">", at: edit.range.upperBound), edit, .insert("<", at: edit.range.lowerBound)],
      to: text,
      expecting: "let x = <new>\n"
    )
  }

  @Test func insertionsAtStartAndEndOfFile() {
    apply(
      [.insert("// end\n", at: 6), .insert("// start\n", at: 0)],
      to: "x = 1\n",
      expecting: "// start\nx = 1\n// end\n"
    )
  }

  @Test func deletion() {
    let text = "a\nremove me\nb\n"
    apply([PrinterTestSupport.replacing("remove me\n", with: "", in: text)], to: text, expecting: "a\nb\n")
  }

  @Test func overlappingEditsAreRefusedAtTheOverlap() {
    let text = "let a = 1\nlet value = 2\n"
    let wide = PrinterTestSupport.replacing("value = 2", with: "v = 3", in: text)
    let narrow = PrinterTestSupport.replacing("= 2", with: "= 4", in: text)
    let message = refusal([narrow, wide], to: text)
    #expect(message.hasPrefix("F.swift:2:11: error: internal error: two edits overlap"), "\(message)")
    #expect(message.contains("'v = 3'") && message.contains("'= 4'"), "\(message)")
  }

  @Test func identicalReplacementsAreRefused() {
    let text = "let a = 1\n"
    let edit = PrinterTestSupport.replacing("1", with: "2", in: text)
    #expect(refusal([edit, edit], to: text).contains("two edits overlap"))
  }

  @Test func insertionInsideAReplacementIsRefused() {
    let text = "let a = 12345\n"
    let edit = PrinterTestSupport.replacing("12345", with: "0", in: text)
    let message = refusal([edit, .insert("x", at: edit.range.lowerBound + 2)], to: text)
    #expect(message.hasPrefix("F.swift:1:11: error: internal error: two edits overlap"), "\(message)")
  }

  @Test func adjacentReplacementsAreFine() {
    let text = "abcdef"
    apply(
      [TextEdit(range: 3..<6, replacement: "DEF"), TextEdit(range: 0..<3, replacement: "ABC")],
      to: text,
      expecting: "ABCDEF"
    )
  }

  @Test func rangeOutsideTheFileIsRefused() {
    let message = refusal([TextEdit(range: 3..<12, replacement: "")], to: "abcdef")
    #expect(message.contains("reaches outside the file"), "\(message)")
  }

  @Test func rangeInsideAMultiByteCharacterIsRefused() {
    let text = "let s = \"😀\"\n"
    let emoji = PrinterTestSupport.offset(of: "😀", in: text)
    let message = refusal([TextEdit(range: (emoji + 1)..<(emoji + 4), replacement: "")], to: text)
    #expect(
      message.hasPrefix("F.swift:1:11: error: internal error: an edit begins or ends inside a multi-byte"),
      "\(message)"
    )
  }

  @Test func multiByteCharactersBeforeAnEdit() {
    let text = "let s = \"😀 café\" // ✅\nlet x = 1\n"
    apply(
      [
        PrinterTestSupport.replacing("1", with: "2", in: text),
        PrinterTestSupport.replacing("café", with: "thé", in: text),
      ],
      to: text,
      expecting: "let s = \"😀 thé\" // ✅\nlet x = 2\n"
    )
  }

  @Test func byteOrderMarkCRLFAndNoTrailingNewlineSurvive() throws {
    let prefix: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("// 😀\r\n\tlet a = ".utf8)
    let suffix: [UInt8] = Array("\r\n\r\n  // trailing \t \r\nlet b = 2".utf8)
    let bytes = prefix + Array("1".utf8) + suffix
    let source = SourceText(path: "F.swift", bytes: bytes)
    let edit = TextEdit(range: prefix.count..<(prefix.count + 1), replacement: "42")
    let result = try EditApplier.apply([edit], to: source)
    #expect(result == prefix + Array("42".utf8) + suffix)
  }
}
