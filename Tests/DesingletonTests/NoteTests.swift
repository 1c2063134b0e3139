import DesingletonCore
import Testing

/// A note's printed line: the unit's module, two spaces a depth, its place, its message.
@Suite struct NoteTests {
  @Test(arguments: [
    (Note(.summary, "nothing to slice"), "nothing to slice"),
    (Note(.created, "Mock, a double of 'P'", at: Note.Place(path: "Tests/Mock.swift")), "Tests/Mock.swift: Mock, a double of 'P'"),
    (
      Note(.kept, "required init?(coder:) takes 'Store.shared'", at: Note.Place(line: Location(path: "A.swift", line: 3, column: 9)), depth: 1),
      "  A.swift:3: required init?(coder:) takes 'Store.shared'"
    ),
    (Note(.skipped, Diagnostic.error("passes the instance", at: Location(path: "P.swift", line: 2, column: 25)), depth: 2), "    P.swift:2:25: error: passes the instance"),
    (Note(.skipped, Diagnostic.warning("consider splitting it")), "warning: consider splitting it"),
  ])
  func line(_ note: Note, _ expected: String) {
    #expect(note.line == expected)
  }

  /// A unit's name comes before the indentation, as the lines of several units are read one after the other.
  @Test func aUnitsModuleComesFirst() {
    var note = Note(.changed, "Counter: counting: Counting; 1 reference rewritten", depth: 1)
    note.module = "Phone"
    #expect(note.line == "Phone:   Counter: counting: Counting; 1 reference rewritten")
  }
}
