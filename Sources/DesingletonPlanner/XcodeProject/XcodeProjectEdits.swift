import DesingletonCore
import DesingletonIndex
import Foundation

/// Adds a plan's new files to the Xcode projects that compile the existing files they go with
/// (`Plan.companions`), as insertions that keep the project file's formatting.
///
/// ## Before (`Store.swift` in the iOS and Mac targets; `Counting.swift` is new)
/// ```
/// 		A1 /* Store.swift in Sources */ = {isa = PBXBuildFile; fileRef = F1 /* Store.swift */; };
/// 				F1 /* Store.swift */,
/// ```
/// ## After
/// ```
/// 		A1 /* Store.swift in Sources */ = {isa = PBXBuildFile; fileRef = F1 /* Store.swift */; };
/// 		B7… /* Counting.swift in Sources */ = {isa = PBXBuildFile; fileRef = 9C… /* Counting.swift */; };
/// 				F1 /* Store.swift */,
/// 				9C… /* Counting.swift */,
/// ```
///
/// - A classic project gets a `PBXFileReference` (same `sourceTree` as the companion's, its path
///   relative to the companion's group), the group's child entry right after the companion's, one
///   `PBXBuildFile` per target whose Sources phase holds the companion, and that phase's entry right
///   after the companion's. Objects go into their sections in id order, as Xcode keeps them.
/// - Ids are 24 hex digits derived from the `.xcodeproj`'s name, the new file's path in the project
///   and the target: the same run gives the same ids; an id the project has is never reused.
/// - A synchronized folder compiles the new file by itself; only when the companion is listed in a
///   membership exception set is the new file added to that set too (where it sorts, when the list
///   is sorted, as Xcode keeps it).
/// - A generated project (XcodeGen, Tuist) is not edited: a note says to regenerate it.
public enum XcodeProjectEdits {
  public static func add(to plan: Plan, modules: ModuleMap) throws -> Plan {
    var result = plan
    let created = plan.newFiles.keys.filter { plan.companions[$0] != nil }.sorted()
    guard !created.isEmpty else { return plan }
    for project in modules.xcodeProjects {
      var editor = Editor(project: project)
      for path in created {
        guard let companion = plan.companions[path] else { continue }
        editor.add(path, companion: companion)
      }
      guard !editor.inserts.isEmpty || !editor.notes.isEmpty else { continue }
      result.notes += editor.notes
      if editor.inserts.isEmpty { continue }
      let edits = editor.edits()
      // The edited file must still read as a project: check it before anything is written.
      let edited = SourceText(path: project.path, bytes: apply(edits, to: project.source.bytes))
      do {
        _ = try XcodeProject(source: edited)
      } catch let refusal as Refusal {
        throw Refusal(
          [.error("internal error: the edited Xcode project would not read back; nothing was written")]
            + refusal.diagnostics)
      }
      for edit in edits { result.add(edit, in: project.path) }
    }
    return result
  }

  static func apply(_ edits: [TextEdit], to bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    var copied = 0
    for edit in edits.sorted() {
      out.append(contentsOf: bytes[copied..<edit.range.lowerBound])
      out.append(contentsOf: edit.replacement.utf8)
      copied = edit.range.upperBound
    }
    out.append(contentsOf: bytes[copied...])
    return out
  }

  /// The insertions for one project.
  struct Editor {
    let project: XcodeProject
    let lineEnding: String
    var ids: Set<String>
    /// Text to insert, by offset; at one offset, in order of their keys.
    var inserts: [Int: [(key: String, text: String)]] = [:]
    var notes: [Note] = []
    var generatedNoted = false

    init(project: XcodeProject) {
      self.project = project
      lineEnding = project.source.lineEnding
      ids = Set(project.objects.keys)
    }

    var bytes: [UInt8] { project.source.bytes }

    /// A note about this project file, which it names.
    mutating func note(_ message: String) {
      notes.append(Note(.project, message, at: Note.Place(path: project.bundleName)))
    }

    mutating func add(_ path: String, companion: String) {
      guard let relative = project.relative(path) else { return }
      let name = (path as NSString).lastPathComponent
      let entries = project.entries(of: companion)
      let exceptionSets = synchronizedExceptions(of: companion, newFile: path)
      func inside(_ folder: String, _ file: String) -> Bool { folder.isEmpty || file.hasPrefix(folder + "/") }
      if entries.isEmpty, project.generator == nil,
        let folder = project.synchronizedGroups.first(where: { inside($0.path, companion) && !inside($0.path, path) })
      {
        // `--output-dir` outside the synchronized folder that compiles the companion.
        note(
          "\(name) is outside the synchronized folder '\(folder.path)' that compiles "
            + "\((companion as NSString).lastPathComponent); add it to the same targets in Xcode")
        return
      }
      guard !entries.isEmpty || !exceptionSets.isEmpty else { return }
      if let generator = project.generator {
        if !generatedNoted {
          notes.append(
            Note(.project, "\(project.bundleName) is generated by \(generator) and was not edited: regenerate it so that its targets compile the new files"))
          generatedNoted = true
        }
        return
      }
      if !project.entries(of: path).isEmpty { return }
      var targets: [String] = []
      if let entry = entries.first {
        let referenceID = newID(relative, role: "file reference")
        let sourceTree = entry.reference["sourceTree"]?.string ?? "<group>"
        let base: String
        switch sourceTree {
        case "SOURCE_ROOT": base = ""
        default: base = entry.groupID.flatMap { project.relativePath(of: $0) } ?? ""
        }
        let referencePath = Self.path(relative, from: base)
        var fields = "isa = PBXFileReference; lastKnownFileType = sourcecode.swift; "
        if referencePath != name { fields += "name = \(PropertyList.quoted(name)); " }
        fields += "path = \(PropertyList.quoted(referencePath)); sourceTree = \(PropertyList.quoted(sourceTree)); "
        insertObject(id: referenceID, comment: name, fields: fields, isa: "PBXFileReference")
        if let child = entry.childValue {
          insertElement("\(referenceID) /* \(name) */", after: child, key: path)
        }
        let companionBuildFiles = Set(entries.flatMap { project.buildFiles(of: $0.referenceID) })
        for phase in project.sourcesPhases {
          guard
            let element = phase.phase["files"]?.array?.first(where: { companionBuildFiles.contains($0.string ?? "") })
          else { continue }
          let buildID = newID(relative, role: "build file in \(phase.target)")
          let phaseName = "Sources"
          insertObject(
            id: buildID, comment: "\(name) in \(phaseName)",
            fields: "isa = PBXBuildFile; fileRef = \(referenceID) /* \(name) */; ", isa: "PBXBuildFile")
          insertElement("\(buildID) /* \(name) in \(phaseName) */", after: element, key: path)
          targets.append(phase.target)
        }
        let group = entry.groupID.flatMap { project.objects[$0] }
        let groupName =
          group?["name"]?.string ?? group?["path"]?.string.map { ($0 as NSString).lastPathComponent }
          ?? "the main group"
        note(
          "\(name) added to group '\(groupName)'"
            + (targets.isEmpty ? "" : " and to the Sources of \(targets.map { "'\($0)'" }.joined(separator: ", "))"))
      }
      for (values, element, folderRelative, setTarget) in exceptionSets {
        // Xcode keeps exception lists sorted: the new path goes where it sorts, if the list is.
        let strings = values.compactMap(\.string)
        if strings == strings.sorted(), let next = values.first(where: { ($0.string ?? "") > folderRelative }) {
          insertElement(PropertyList.quoted(folderRelative), before: next, key: path)
        } else if strings == strings.sorted(), let last = values.last {
          insertElement(PropertyList.quoted(folderRelative), after: last, key: path)
        } else {
          insertElement(PropertyList.quoted(folderRelative), after: element, key: path)
        }
        note("\(name) added to the membership exceptions of '\(setTarget)', like the file it goes with")
      }
    }

    /// The exception sets naming `companion`: their elements, the companion's, with the new file's path inside the same
    /// synchronized folder and the set's target name.
    func synchronizedExceptions(
      of companion: String, newFile: String
    ) -> [(values: [PropertyList], element: PropertyList, path: String, target: String)] {
      var result: [(values: [PropertyList], element: PropertyList, path: String, target: String)] = []
      for group in project.synchronizedGroups {
        let prefix = group.path.isEmpty ? "" : group.path + "/"
        guard companion.hasPrefix(prefix), newFile.hasPrefix(prefix) else { continue }
        let companionInside = String(companion.dropFirst(prefix.count))
        let newInside = String(newFile.dropFirst(prefix.count))
        for set in project.exceptionSets(ofGroup: group.id) {
          guard let values = set.set["membershipExceptions"]?.array,
            let element = values.first(where: { $0.string.map(XcodeProject.normalized) == companionInside }),
            !values.contains(where: { $0.string.map(XcodeProject.normalized) == newInside })
          else { continue }
          let targetName = project.objects[set.target]?["name"]?.string ?? set.target
          result.append((values, element, newInside, targetName))
        }
      }
      return result
    }

    /// A new object id: 24 hex digits from a hash of the project's name, the file and its role.
    mutating func newID(_ relative: String, role: String) -> String {
      var salt = 0
      while true {
        let seed = "\(project.bundleName)\u{0}\(relative)\u{0}\(role)" + (salt == 0 ? "" : "\u{0}\(salt)")
        let high = Self.fnv1a(seed, basis: 0xcbf2_9ce4_8422_2325)
        let low = Self.fnv1a(seed, basis: 0x8422_2325_cbf2_9ce4)
        let id = String(format: "%016llX%08llX", high, low & 0xFFFF_FFFF)
        if ids.insert(id).inserted { return id }
        salt += 1
      }
    }

    static func fnv1a(_ text: String, basis: UInt64) -> UInt64 {
      var hash = basis
      for byte in text.utf8 {
        hash ^= UInt64(byte)
        hash = hash &* 0x0000_0100_0000_01B3
      }
      return hash
    }

    /// `path` relative to the folder `base` (both inside the project's folder).
    static func path(_ path: String, from base: String) -> String {
      let target = path.split(separator: "/")
      let from = base.split(separator: "/")
      var common = 0
      while common < min(target.count, from.count), target[common] == from[common] { common += 1 }
      let up = Array(repeating: "..", count: from.count - common)
      return (up + target[common...].map(String.init)).joined(separator: "/")
    }

    /// An object line in its section, at the place its id sorts to.
    mutating func insertObject(id: String, comment: String, fields: String, isa: String) {
      let section = project.objectEntries.filter { $0.value["isa"]?.string == isa }
      let line = "\(id) /* \(comment) */ = {\(fields)};"
      if let next = section.first(where: { $0.key > id }) {
        let start = lineStart(of: next.keyRange.lowerBound)
        let indent = String(decoding: bytes[start..<next.keyRange.lowerBound], as: UTF8.self)
        inserts[start, default: []].append((id, indent + line + lineEnding))
      } else if let last = section.last {
        let start = lineStart(of: last.keyRange.lowerBound)
        let indent = String(decoding: bytes[start..<last.keyRange.lowerBound], as: UTF8.self)
        inserts[lineEnd(after: last.end), default: []].append((id, indent + line + lineEnding))
      } else {
        // No such section yet: one of its own before the end of `objects`.
        guard let objects = project.root["objects"] else { return }
        let close = objects.range.upperBound - 1
        let start = lineStart(of: close)
        let indent = String(decoding: bytes[start..<close], as: UTF8.self) + "\t"
        let text =
          "/* Begin \(isa) section */" + lineEnding + indent + line + lineEnding + "/* End \(isa) section */"
          + lineEnding
        inserts[start, default: []].append((id, text))
      }
    }

    /// An array element after `element`: on its own line when the array has one element a line,
    /// otherwise right after the element's comma.
    mutating func insertElement(_ text: String, after element: PropertyList, key: String) {
      var offset = element.range.upperBound
      offset = skipTrivia(from: offset)
      guard offset < bytes.count, bytes[offset] == UInt8(ascii: ",") else {
        inserts[element.range.upperBound, default: []].append((key, ", " + text))
        return
      }
      offset += 1
      var end = offset
      while end < bytes.count, bytes[end] == 0x20 || bytes[end] == 0x09 || bytes[end] == 0x0D { end += 1 }
      if end < bytes.count, bytes[end] == 0x0A {
        let start = lineStart(of: element.range.lowerBound)
        let indent = String(decoding: bytes[start..<element.range.lowerBound], as: UTF8.self)
        inserts[end + 1, default: []].append((key, indent + text + "," + lineEnding))
      } else {
        inserts[offset, default: []].append((key, " " + text + ","))
      }
    }

    /// An array element before `element`: on its own line when the array has one element a line.
    mutating func insertElement(_ text: String, before element: PropertyList, key: String) {
      let start = lineStart(of: element.range.lowerBound)
      let indent = bytes[start..<element.range.lowerBound]
      if indent.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
        inserts[start, default: []].append((key, String(decoding: indent, as: UTF8.self) + text + "," + lineEnding))
      } else {
        inserts[element.range.lowerBound, default: []].append((key, text + ", "))
      }
    }

    func skipTrivia(from start: Int) -> Int {
      var offset = start
      while offset < bytes.count {
        if bytes[offset] == 0x20 || bytes[offset] == 0x09 {
          offset += 1
        } else if bytes[offset] == UInt8(ascii: "/"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "*") {
          offset += 2
          while offset + 1 < bytes.count,
            !(bytes[offset] == UInt8(ascii: "*") && bytes[offset + 1] == UInt8(ascii: "/"))
          {
            offset += 1
          }
          offset += 2
        } else {
          break
        }
      }
      return offset
    }

    func lineStart(of offset: Int) -> Int {
      var start = offset
      while start > 0, bytes[start - 1] != 0x0A { start -= 1 }
      return start
    }

    func lineEnd(after offset: Int) -> Int {
      var end = offset
      while end < bytes.count, bytes[end] != 0x0A { end += 1 }
      return min(end + 1, bytes.count)
    }

    func edits() -> [TextEdit] {
      inserts.keys.sorted().map { offset in
        let texts = inserts[offset, default: []].enumerated().sorted {
          ($0.element.key, $0.offset) < ($1.element.key, $1.offset)
        }
        return .insert(texts.map(\.element.text).joined(), at: offset)
      }
    }
  }
}
