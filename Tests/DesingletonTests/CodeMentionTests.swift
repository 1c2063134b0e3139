import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftParser
import SwiftSyntax
import Testing

/// Which files a question about code naming a word parses (`BytePrefilter.mentionsInCode`): every
/// file where the word can be code, not one where only a string literal's text says it.
@Suite struct CodeMentionTests {
  func inCode(_ word: String, _ text: String) -> Bool {
    BytePrefilter.mentionsInCode([Array(word.utf8)], in: Array(text.utf8))
  }

  @Test(arguments: [
    // Code.
    ("let r: Refreshing = x", true),
    ("var state: any Refreshing", true),
    ("class A: Refreshing {}", true),
    ("f(\"a\", Refreshing.self)", true),
    ("f(\"\", Refreshing.self)", true),
    // An interpolation is code, in a one-line string and in a raw one.
    ("print(\"\\(Refreshing.self)\")", true),
    ("print(#\"\\#(Refreshing.self)\"#)", true),
    // What follows a multi-line string's end on its line.
    ("let s = \"\"\"\n  a \" b\n  \"\"\" + String(describing: Refreshing.self)", true),
    // Where the line cannot say: a comment, a regex, a raw string, an escape before the word.
    ("// \"Refreshing", true),
    ("let r = /\"/; let x: Refreshing", true),
    ("let s = #\"a\"#; let x: Refreshing", true),
    ("let s = \"a\\\"\"; let x: Refreshing", true),
    // A string literal's text.
    ("return \"Refreshing\"", false),
    ("case .refreshing: return \"Refreshing\"", false),
    ("let a = \"x\", b = \"Refreshing now\"", false),
    ("let s = \"\"\"\n  The \"Refreshing\" state\n  \"\"\"", false),
    ("return \"Refreshing\"\nreturn \"Refreshing\"", false),
    // Not there at all.
    ("let x = 1", false),
  ])
  func saysWhereAWordCanBeCode(_ text: String, _ expected: Bool) {
    #expect(inCode("Refreshing", text) == expected, "\(text)")
  }

  @Test func oneOccurrenceInCodeIsEnough() {
    #expect(inCode("Refreshing", "return \"Refreshing\"\nlet r: Refreshing"))
    #expect(BytePrefilter.mentionsInCode([Array("Nowhere".utf8), Array("Refreshing".utf8)], in: Array("x: Refreshing".utf8)))
  }

  /// Every identifier the parser reads outside a string literal's text is code: on every sample
  /// file, the byte test keeps it. And it leaves out words that only strings say.
  @Test func keepsEveryWordTheParserReadsAsCode() throws {
    let files = try FileLoader().swiftFiles(in: [packageRoot + "/Samples"]).files
    var checked = 0
    var onlyInStrings = 0
    for path in files {
      let bytes = try #require(readBytes(path))
      let tree = Parser.parse(source: String(decoding: bytes, as: UTF8.self))
      var code: Set<String> = []
      var text: Set<String> = []
      for token in tree.tokens(viewMode: .sourceAccurate) {
        if case .stringSegment(let segment) = token.tokenKind {
          for word in segment.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }) { text.insert(String(word)) }
        } else if case .identifier(let name) = token.tokenKind {
          code.insert(name.hasPrefix("`") ? String(name.dropFirst().dropLast()) : name)
        }
      }
      for word in code where !word.isEmpty {
        #expect(BytePrefilter.mentionsInCode([Array(word.utf8)], in: bytes), "\(path): \(word)")
        checked += 1
      }
      for word in text.subtracting(code) where word.count > 3 && !BytePrefilter.mentionsInCode([Array(word.utf8)], in: bytes) {
        onlyInStrings += 1
      }
    }
    #expect(checked > 1_000)
    #expect(onlyInStrings > 10)
  }
}

/// A file's words (`FileWords`): each whole word it holds, and those written before an
/// assignment or a comparison, answered as a byte search of the text would.
@Suite struct FileWordsTests {
  @Test(arguments: [
    // (text, word, holds it as a whole word, writes it before `=`, `==`, `!=` or `??`)
    ("self.part = .init()", "part", true, true),
    ("part == .init()", "part", true, true),
    ("part != other", "part", true, true),
    ("let x = part ?? .init()", "part", true, true),
    ("part! = .init()", "part", true, true),
    ("part? = .init()", "part", true, true),
    ("part /* a comment */ = .init()", "part", true, true),
    ("part\n  = .init()", "part", true, true),
    ("part.reset()", "part", true, false),
    ("f(part: .init())", "part", true, false),
    ("part?.reset()", "part", true, false),
    ("parts = []", "part", false, false),
    ("apart = 1", "part", false, false),
    ("part_2 = 1", "part", false, false),
    ("café = 1", "café", true, true),
    ("", "part", false, false),
    ("part", "part", true, false),
  ])
  func answersAsTheBytesDo(text: String, word: String, holds: Bool, assigns: Bool) {
    let words = FileWords(Array(text.utf8))
    #expect(words.contains(FileWords.hash(word)) == holds)
    #expect(words.assigns(FileWords.hash(word)) == assigns)
    #expect(!wordOccurrences(of: [Array(word.utf8)], in: Array(text.utf8)).isEmpty == holds)
  }
}
