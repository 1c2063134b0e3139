import DesingletonCore
import DesingletonIndex
import Foundation

/// What `desingleton scan` reports: the singletons of a code base, who uses which of their members,
/// and how they could be sliced. Its JSON form is a stable schema (`schemaVersion`).
public struct ScanReport: Codable, Sendable, Equatable {
  public struct Place: Codable, Sendable, Equatable {
    public var file: String
    public var line: Int
    public var column: Int

    public init(_ location: Location) {
      file = location.path
      line = location.line
      column = location.column
    }
  }

  public struct Member: Codable, Sendable, Equatable {
    public var name: String
    /// `property`, `method` or `subscript`.
    public var kind: String
    public var declaration: String
  }

  public struct Consumer: Codable, Sendable, Equatable {
    public var type: String
    public var reads: [String]
    public var writes: [String]
    public var calls: [String]
    /// Places where the instance itself is passed on or stored.
    public var passesInstance: [Place]
    public var references: Int
    /// A test type (a test target's, or an `XCTestCase`): its uses may grow while consumers are
    /// injected, since tests then hand the instance to what they create.
    public var test: Bool = false
    /// Why it can never hold a slice (`Holders`), if so: it keeps reading the accessor, and the
    /// suggestion and its figures leave its usage out.
    public var keepsAccessor: String?
  }

  public struct Unattributed: Codable, Sendable, Equatable {
    public var place: Place
    public var reason: String

    public init(place: Place, reason: String) {
      self.place = place
      self.reason = reason
    }
  }

  public struct SingletonEntry: Codable, Sendable, Equatable {
    public var type: String
    public var kind: String
    public var accessor: String
    public var accessors: [String]
    public var shape: String
    public var place: Place
    public var strict: Bool
    public var members: [Member]
    public var references: Int
    public var consumers: [Consumer]
    public var unattributed: [Unattributed]
    public var suggestedSlices: [Slice]
    /// Members no consumer that can hold a slice uses, and no slice takes: they stay on the singleton only.
    public var unsliced: [String]
    /// Members consumers use that no suggested slice takes, with the reason.
    public var kept: [KeptMember]
    /// How the suggested slices serve the consumers; nil when nothing is suggested.
    public var quality: SliceQuality?
    /// How the slices the user gave (`scan --slice`, or saved in `.desingleton.json`) would serve them.
    public var chosenQuality: SliceQuality?
    /// Why nothing is suggested for this singleton at all, if that is so.
    public var note: String?
    /// The module of this singleton when another module declares a type of the same name (twins).
    public var module: String?
    /// With `--census`: the references outside composition roots, entry points and tests, the
    /// count `inject` never raises (`AccessorCensus`).
    public var referencesOutsideRootsAndTests: Int?
  }

  public var schemaVersion = 1
  public var files: Int
  public var lines: Int
  public var singletons: [SingletonEntry]
  /// Files skipped or indexed in part, as `path:line:col: warning: message`.
  public var warnings: [String]

  /// `chosen`: slices the user gave for a singleton (by its type name), to be measured beside the suggestion.
  public init(
    project: Project, only typeName: String? = nil, threads: Int? = nil,
    maxSlices: Int? = nil, census: Bool = false,
    chosen: @Sendable (Singleton) -> [Slice]? = { _ in nil }
  ) throws {
    let index = project.index
    files = index.files.count
    lines = index.lineCount
    warnings = index.warnings.map(\.description)
    let reported = index.singletons.filter { typeName == nil || $0.typeName == typeName }
    // The analysis reads the singletons' declarations and extensions; parse them in parallel first.
    project.preload(reported.flatMap { index.declarations(of: $0.typeName).map(\.path) }, threads: threads)
    // Each singleton's entry depends only on the index and those files: build them in parallel,
    // keep them in index order, and report the first refusal in that order.
    let results = parallelMap(count: reported.count, threads: threads) { position in
      Result {
        try ScanReport.entries(
          for: reported[position], project: project, maxSlices: maxSlices, census: census, chosen: chosen)
      }
    }
    singletons = try results.flatMap { try $0.get() }
  }

  /// One entry, or one per module when two targets each declare a type of this name.
  private static func entries(
    for singleton: Singleton, project: Project, maxSlices: Int?, census: Bool, chosen: (Singleton) -> [Slice]?
  ) throws -> [SingletonEntry] {
    func entry(_ singleton: Singleton, in project: Project) throws -> SingletonEntry {
      var entry = try ScanReport.entry(for: singleton, project: project, maxSlices: maxSlices, chosen: chosen(singleton))
      if census { entry.referencesOutsideRootsAndTests = try AccessorCensus(singleton: singleton, project: project).outsideRootsAndTests }
      return entry
    }
    guard let modules = project.twinModules(of: singleton.typeName) else { return [try entry(singleton, in: project)] }
    return try modules.compactMap { module in
      let unit = project.unit(around: module)
      guard let twin = unit.index.singleton(typeName: singleton.typeName) else { return nil }
      var found = try entry(twin, in: unit)
      found.module = module
      return found
    }
  }

  private static func entry(for singleton: Singleton, project: Project, maxSlices: Int?, chosen: [Slice]?) throws -> SingletonEntry {
    let analysis = try SingletonAnalysis(singleton: singleton, project: project)
    let suggestion = SliceSuggester.suggestion(analysis, project: project, maxSlices: maxSlices)
    var note: String?
    if singleton.isForeign {
      note = "declared outside the project: its members' signatures are not known, so no slice is suggested; "
        + "declare protocols by hand and conform with 'extension \(singleton.typeName): Slice {}'"
    } else if let typed = singleton.accessorProtocol {
      let declared = project.index.declarations(of: project.index.resolveType(typed)).contains { $0.kind == .protocol }
      note = declared
        ? "the accessor is typed as protocol '\(typed)': the slices become protocols '\(typed)' refines"
        : "the accessor is typed as '\(typed)', a protocol this code does not declare: no slice can be made for it"
    }
    // The slices serve, and are measured against, the consumers that can hold them.
    let receivers = analysis.receivers
    if note == nil && suggestion.slices.isEmpty && suggestion.kept.isEmpty {
      if receivers.contains(where: { !$0.members.isEmpty }) {
        note = "nothing to slice: every member its consumers use is in a protocol it conforms to already"
      } else if analysis.consumers.contains(where: { !$0.members.isEmpty }) {
        note = "nothing to slice: no consumer that can be given protocols uses one of its members "
          + "(tests, enums, protocols and types declared elsewhere keep the accessor)"
      } else {
        note = "nothing to slice: no consumer uses one of its members"
      }
    }
    let usage = receivers.map { ($0.typeName, $0.members.sorted()) }
    return SingletonEntry(
      type: singleton.typeName, kind: singleton.typeKind.rawValue, accessor: singleton.accessor,
      accessors: singleton.accessors, shape: singleton.shape.rawValue, place: Place(singleton.declaration.start),
      strict: singleton.isStrict,
      members: analysis.members.map { member in
        Member(
          name: member.name, kind: member.kind.rawValue,
          declaration: ScanReport.signature(of: member, of: singleton.typeName, in: project) ?? member.displayName)
      },
      references: analysis.references.count,
      consumers: analysis.consumers.map { usage in
        Consumer(
          type: usage.typeName, reads: usage.reads, writes: usage.writes, calls: usage.calls,
          passesInstance: usage.instanceUses.map(Place.init), references: usage.references.count,
          test: project.index.isTestType(usage.typeName),
          keepsAccessor: analysis.keepsAccessor[usage.typeName])
      },
      unattributed: analysis.unattributed.map { Unattributed(place: Place($0.reference.location), reason: $0.reason) },
      suggestedSlices: suggestion.slices, unsliced: suggestion.unsliced, kept: suggestion.kept,
      quality: suggestion.slices.isEmpty
        ? nil : SliceQuality(slices: suggestion.slices, usage: usage, requirable: suggestion.requirable.contains),
      chosenQuality: chosen.map { SliceQuality(slices: $0, usage: usage, requirable: suggestion.requirable.contains) },
      note: note)
  }

  /// The declaration's first line up to its body, whitespace folded.
  /// An Objective-C member without an exact Swift declaration is shown as its header writes it.
  static func signature(of member: MemberDecl, of typeName: String, in project: Project) -> String? {
    if project.index.importProblem(of: member, in: typeName) != nil { return member.imported?.written }
    guard let file = try? project.file(member.range.path) else { return nil }
    let bytes = file.source.bytes[member.range.bytes]
    var text = String(decoding: bytes, as: UTF8.self)
    if let brace = text.firstIndex(of: "{") { text = String(text[..<brace]) }
    if let equals = text.range(of: " = ") , member.kind == .property { text = String(text[..<equals.lowerBound]) }
    // Every member an Objective-C header declares is public to Swift: saying so says nothing.
    if member.imported != nil && text.hasPrefix("public ") { text.removeFirst(7) }
    // `\r\n` is one `Character`, equal to neither `\r` nor `\n`: files with Windows line ends.
    return text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" || $0 == "\r\n" })
      .joined(separator: " ")
  }

  /// The report as `JSONEncoder` would write it (pretty-printed, sorted keys, slashes unescaped),
  /// written directly, one singleton per thread: the `Codable` conformance is the schema, and a
  /// test holds the two equal.
  public func json(threads: Int? = nil) -> String {
    let entries = parallelMap(count: singletons.count, threads: threads) { [singletons] position in
      // An entry sits two levels down: in the `singletons` array of the top-level object.
      JSONValue.rendered(ScanReport.jsonValue(of: singletons[position]).bytes(indent: 4))
    }
    return JSONValue.object([
      ("schemaVersion", .int(schemaVersion)), ("files", .int(files)), ("lines", .int(lines)),
      ("singletons", .array(entries)), ("warnings", ScanReport.jsonStrings(warnings)),
    ]).text()
  }

  private static func jsonStrings(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }

  private static func jsonValue(of place: Place) -> JSONValue {
    .object([("file", .string(place.file)), ("line", .int(place.line)), ("column", .int(place.column))])
  }

  private static func jsonValue(of entry: SingletonEntry) -> JSONValue {
    .object([
      ("type", .string(entry.type)), ("kind", .string(entry.kind)), ("accessor", .string(entry.accessor)),
      ("accessors", jsonStrings(entry.accessors)), ("shape", .string(entry.shape)),
      ("place", jsonValue(of: entry.place)), ("strict", .bool(entry.strict)),
      ("members", .array(entry.members.map { .object([("name", .string($0.name)), ("kind", .string($0.kind)), ("declaration", .string($0.declaration))]) })),
      ("references", .int(entry.references)),
      ("consumers", .array(entry.consumers.map { consumer in
        .object([
          ("type", .string(consumer.type)), ("reads", jsonStrings(consumer.reads)), ("writes", jsonStrings(consumer.writes)),
          ("calls", jsonStrings(consumer.calls)), ("passesInstance", .array(consumer.passesInstance.map(jsonValue(of:)))),
          ("references", .int(consumer.references)), ("test", .bool(consumer.test)),
        ] + (consumer.keepsAccessor.map { [("keepsAccessor", JSONValue.string($0))] } ?? []))
      })),
      ("unattributed", .array(entry.unattributed.map { .object([("place", jsonValue(of: $0.place)), ("reason", .string($0.reason))]) })),
      ("suggestedSlices", .array(entry.suggestedSlices.map { .object([("name", .string($0.name)), ("members", jsonStrings($0.members))]) })),
      ("unsliced", jsonStrings(entry.unsliced)),
      ("kept", .array(entry.kept.map { .object([("member", .string($0.member)), ("reason", .string($0.reason))]) })),
    ] + (entry.quality.map { [("quality", jsonValue(of: $0))] } ?? [])
      + (entry.chosenQuality.map { [("chosenQuality", jsonValue(of: $0))] } ?? []) + (entry.note.map { [("note", JSONValue.string($0))] } ?? []) + (entry.module.map { [("module", JSONValue.string($0))] } ?? [])
      + (entry.referencesOutsideRootsAndTests.map { [("referencesOutsideRootsAndTests", JSONValue.int($0))] } ?? []))
  }

  private static func jsonValue(of quality: SliceQuality) -> JSONValue {
    .object([
      ("usedMembers", .int(quality.usedMembers)), ("coveredMembers", .int(quality.coveredMembers)),
      ("coverage", .number(quality.coverage)), ("meanCohesion", .number(quality.meanCohesion)),
      ("medianProtocols", .int(quality.medianProtocols)), ("maxProtocols", .int(quality.maxProtocols)),
      ("slices", .int(quality.slices)), ("slicedMembers", .int(quality.slicedMembers)),
      ("uncoveredConsumers", jsonStrings(quality.uncoveredConsumers)),
    ])
  }

  public func text() -> String {
    var out = ""
    if singletons.isEmpty {
      out += "no singletons found in \(files) files (\(lines) lines)\n"
    } else {
      out += "\(singletons.count) singleton\(singletons.count == 1 ? "" : "s") in \(files) files (\(lines) lines)\n"
    }
    for entry in singletons {
      out += "\n\(entry.type).\(entry.accessor)\(entry.shape == SingletonShape.accessorMethod.rawValue ? "()" : "")"
      out += "  \(entry.place.file):\(entry.place.line)  \(entry.kind), \(entry.shape), \(entry.strict ? "strict" : "not strict")"
      out += (entry.module.map { ", module \($0)" } ?? "") + "\n"
      let outside = entry.referencesOutsideRootsAndTests.map { " (\($0) outside composition roots, entry points and tests)" } ?? ""
      out += "  \(entry.members.count) members, \(entry.references) references\(outside), \(entry.consumers.count) consumer types\n"
      for member in entry.members { out += "    \(member.declaration)\n" }
      if !entry.consumers.isEmpty {
        out += "\n  usage (r read, w write, c call):\n"
        out += matrix(entry)
      }
      let passing = entry.consumers.filter { !$0.passesInstance.isEmpty }
      for consumer in passing {
        for place in consumer.passesInstance {
          out += "  \(place.file):\(place.line): \(consumer.type) passes the instance on\n"
        }
      }
      if !entry.unattributed.isEmpty {
        out += "\n  references outside any consumer instance (cannot be injected):\n"
        for item in entry.unattributed { out += "    \(item.place.file):\(item.place.line): \(item.reason)\n" }
      }
      out += "\n  suggested slices:\n"
      for slice in entry.suggestedSlices {
        out += "    \(slice.name): \(slice.members.joined(separator: ", "))\n"
      }
      if let note = entry.note { out += "    \(note)\n" }
      // A member only consumers that keep the accessor use is not one no consumer uses.
      let keeping = entry.consumers.filter { $0.keepsAccessor != nil }.flatMap { $0.reads + $0.writes + $0.calls }
      let unused = entry.unsliced.filter { !keeping.contains($0) }
      let keptUsed = entry.unsliced.filter(keeping.contains)
      if !unused.isEmpty {
        out += "    (used by no consumer, stays on \(entry.type)): \(unused.joined(separator: ", "))\n"
      }
      if !keptUsed.isEmpty {
        out += "    (used only by consumers that keep the accessor, stays on \(entry.type)): \(keptUsed.joined(separator: ", "))\n"
      }
      for kept in entry.kept {
        out += "    (stays on \(entry.type)) \(kept.member): \(kept.reason)\n"
      }
      for (label, quality) in [("quality", entry.quality), ("the slices given", entry.chosenQuality)] {
        guard let quality else { continue }
        out += "    \(label): \(quality.summary)\n"
        if !quality.uncoveredConsumers.isEmpty {
          out += "      uncovered (they use a member no slice holds): \(quality.uncoveredConsumers.joined(separator: ", "))\n"
        }
      }
      if !entry.suggestedSlices.isEmpty {
        let flags = entry.suggestedSlices.map { "--slice " + shellWord("\($0.name)=\($0.members.joined(separator: ","))") }
        // A project-specific accessor name must be given again, or the command would not find the singleton.
        let accessor = AccessorNames.standard.matches(entry.accessor) ? "" : "--accessor \(shellWord(entry.accessor)) "
        let module = entry.module.map { "--module \(shellWord($0)) " } ?? ""
        // Pasted into a shell as it is: every word quoted where a shell would split or expand it.
        out += "\n  desingleton extract-protocol \(accessor)--singleton \(shellWord(entry.type)) \(module)\(flags.joined(separator: " "))\n"
      }
    }
    if !warnings.isEmpty {
      out += "\n"
      for warning in warnings { out += warning + "\n" }
    }
    return out
  }

  private func matrix(_ entry: SingletonEntry) -> String {
    let rows = entry.members.map(\.name).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
    let width = max(rows.map(\.count).max() ?? 0, 6) + 2
    var out = "    " + String(repeating: " ", count: width)
    out += entry.consumers.indices.map { pad("\($0 + 1)", 3) }.joined() + "\n"
    for row in rows {
      out += "    " + pad(row, width)
      for consumer in entry.consumers {
        var mark = ""
        if consumer.reads.contains(row) { mark += "r" }
        if consumer.writes.contains(row) { mark += "w" }
        if consumer.calls.contains(row) { mark += "c" }
        out += pad(mark.isEmpty ? "." : mark, 3)
      }
      out += "\n"
    }
    for (number, consumer) in entry.consumers.enumerated() {
      // One that can never hold a slice is named with the reason: the figures leave it out.
      let keeps = consumer.keepsAccessor.map { " (keeps the accessor: \($0))" } ?? ""
      out += "    \(pad("\(number + 1)", 3))\(consumer.type)\(keeps)\n"
    }
    return out
  }

  private func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
  }
}
