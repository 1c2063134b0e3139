import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftSyntax

/// The creations found in each file so far (`InitCallFinder.calls(of:superclassOf:project:)`), by
/// the type they create. A file is walked once for each type it names, and once for each set of
/// subclasses whose `super.init` calls are asked about, however many questions ask: a round of
/// promotion asks again with more types, `CompositionRoots.creators(of:)` asks for one type, and
/// both are answered from the same walks. A question asked again gets the answer it got.
///
/// What a walk for some types finds is what a walk for all of them would find, split by type:
/// - a call records the one type it creates, so a question's calls are those of its types, in
///   the order of the code;
/// - an `.init(...)` whose type the code does not say is the same whatever the types asked (a
///   file walked for a type names it, so its getters' and `Self`'s types are always looked up);
/// - an ambiguous name (`Cell(...)` with several types called `Cell`) keeps every type it may
///   mean, and a question takes the first of them it asks about.
final class CreationTable: @unchecked Sendable, KeptInPart {
  /// One file's part of a question: the types it names, and the subclasses it names with the
  /// superclass whose inits their `super.init` calls.
  struct Question {
    var path: String
    var types: [String]
    var subclasses: [(String, String)]

    var subclassKey: String { subclasses.map { "\($0.0):\($0.1)" }.joined(separator: ",") }
    /// The question as a key: a question asked again is answered as it was.
    var key: String { "\(path) \(types.joined(separator: ",")) \(subclassKey)" }
  }

  /// A walk of one file a question needs: for the types new to the file, or for `super.init`
  /// calls (then `types` is empty).
  struct Walk: Sendable {
    var path: String
    var types: Set<String>
    var subclasses: [String: String]
    var subclassKey: String?

    /// `table`: what an earlier walk of the file found whatever the types (`InitCallFinder.Sites`).
    func run(_ file: ParsedFile, _ index: Index, table: CreationTable) -> Walked {
      let visitor = InitCallFinder.walk(
        file, types: types, subclasses: subclasses, index: index, known: table.sites(of: path))
      return Walked(
        walk: self, deep: visitor.deep, calls: visitor.found, unrewritable: visitor.unrewritable,
        ambiguousCandidates: visitor.ambiguousCandidates,
        sites: InitCallFinder.Sites(
          root: Syntax(file.tree).id, keywordNodes: visitor.keywordNodes, contexts: [visitor.deep: visitor.contexts]))
    }
  }

  struct Walked {
    var walk: Walk
    var deep: Bool
    var calls: [InitCall]
    var unrewritable: [UnrewritableCreation]
    var ambiguousCandidates: [Int: [String]]
    /// What the walk found whatever the types (`InitCallFinder.Sites`).
    var sites: InitCallFinder.Sites
  }

  /// By file, what its walks found whatever the types: a walk for other types takes it instead of
  /// finding it again.
  private var sites: [String: InitCallFinder.Sites] = [:]

  func sites(of path: String) -> InitCallFinder.Sites? {
    lock.lock()
    defer { lock.unlock() }
    return sites[path]
  }

  private struct File {
    /// The types the file was walked for.
    var types: Set<String> = []
    var calls: [InitCall] = []
    var functionReferences: [UnrewritableCreation] = []
    /// By offset: the creation, and every type its name may mean.
    var ambiguous: [Int: (creation: UnrewritableCreation, candidates: [String])] = [:]
    /// The `.init(...)` creations whose type is unknown, by whether the walk looked up getters'
    /// and `Self`'s types.
    var implicit: [Bool: [UnrewritableCreation]] = [:]
    /// `super.init` calls, by the subclasses asked about.
    var supers: [String: [InitCall]] = [:]
  }

  private let lock = NSLock()
  private var files: [String: File] = [:]
  private var answers: [String: (calls: [InitCall], unrewritable: [UnrewritableCreation])] = [:]

  /// The answer to a question asked before; nil for a new one.
  func answered(_ question: Question) -> (calls: [InitCall], unrewritable: [UnrewritableCreation])? {
    lock.lock()
    defer { lock.unlock() }
    return answers[question.key]
  }

  /// The walks `question` needs before `answer(_:)` can answer it.
  func walks(answering question: Question) -> [Walk] {
    lock.lock()
    let file = files[question.path]
    lock.unlock()
    var walks: [Walk] = []
    let missing = Set(question.types).subtracting(file?.types ?? [])
    if !missing.isEmpty {
      walks.append(Walk(path: question.path, types: missing, subclasses: [:], subclassKey: nil))
    }
    if !question.subclasses.isEmpty, file?.supers[question.subclassKey] == nil {
      walks.append(
        Walk(
          path: question.path, types: [], subclasses: Dictionary(uniqueKeysWithValues: question.subclasses),
          subclassKey: question.subclassKey))
    }
    return walks
  }

  /// The walks recorded, with the ticket each was recorded at (`NameCoverage.ticket`): a loader's
  /// later run keeps those recorded before its last check found nothing asked missing.
  private var recorded: [(walked: Walked, ticket: Int)] = []

  func kept(before complete: Int) -> CreationTable {
    let kept = CreationTable()
    lock.lock()
    defer { lock.unlock() }
    for (walked, ticket) in recorded where ticket < complete { kept.record(walked, ticket: Int.min) }
    return kept
  }

  /// Keeps what a walk found; what another thread recorded first for the same types is kept.
  /// `ticket`: when, for a later run of the loader (nil: the project has no coverage).
  func record(_ walked: Walked, ticket: Int?) {
    lock.lock()
    defer { lock.unlock() }
    if let ticket { recorded.append((walked, ticket)) }
    // A file parsed again keeps the sites of its latest tree.
    if var known = sites[walked.walk.path], known.root == walked.sites.root {
      known.contexts.merge(walked.sites.contexts) { mine, _ in mine }
      sites[walked.walk.path] = known
    } else {
      sites[walked.walk.path] = walked.sites
    }
    var file = files[walked.walk.path] ?? File()
    if let key = walked.walk.subclassKey {
      if file.supers[key] == nil { file.supers[key] = walked.calls.filter(\.isSuperInit) }
    } else {
      let new = walked.walk.types.subtracting(file.types)
      file.calls += walked.calls.filter { new.contains($0.typeName) }
      file.types.formUnion(new)
      for creation in walked.unrewritable {
        switch creation.kind {
        case .functionReference:
          if let type = creation.typeName, new.contains(type) { file.functionReferences.append(creation) }
        case .ambiguous:
          if file.ambiguous[creation.offset] == nil, let candidates = walked.ambiguousCandidates[creation.offset] {
            file.ambiguous[creation.offset] = (creation, candidates)
          }
        case .implicitMember: continue
        }
      }
    }
    if file.implicit[walked.deep] == nil {
      file.implicit[walked.deep] = walked.unrewritable.filter { $0.kind == .implicitMember }
    }
    files[walked.walk.path] = file
  }

  /// The calls and the creations that cannot be updated that one walk of the file for all of the
  /// question's types and subclasses would find, in the order of the code. Every walk
  /// `walks(answering:)` asked for must be recorded first.
  func answer(_ question: Question) -> (calls: [InitCall], unrewritable: [UnrewritableCreation]) {
    let key = question.key
    lock.lock()
    if let known = answers[key] {
      lock.unlock()
      return known
    }
    let file = files[question.path] ?? File()
    lock.unlock()
    let types = Set(question.types)
    var calls = file.calls.filter { types.contains($0.typeName) }
    if !question.subclasses.isEmpty { calls += file.supers[question.subclassKey] ?? [] }
    // A call that holds another starting where it does is met first.
    func inOrder(_ a: InitCall, _ b: InitCall) -> Bool {
      a.call.position != b.call.position ? a.call.position < b.call.position : a.call.endPosition > b.call.endPosition
    }
    // Calls found by one walk are in order already.
    if zip(calls, calls.dropFirst()).contains(where: { inOrder($1, $0) }) {
      calls = calls.enumerated().sorted { left, right in
        inOrder(left.element, right.element) || (!inOrder(right.element, left.element) && left.offset < right.offset)
      }.map(\.element)
    }
    var unrewritable = (types.isEmpty ? file.implicit[false] : file.implicit[true] ?? file.implicit[false]) ?? []
    unrewritable += file.functionReferences.filter { $0.typeName.map(types.contains) ?? false }
    for (_, entry) in file.ambiguous {
      guard let created = entry.candidates.first(where: types.contains) else { continue }
      var creation = entry.creation
      creation.typeName = created
      unrewritable.append(creation)
    }
    if zip(unrewritable, unrewritable.dropFirst()).contains(where: { $0.offset > $1.offset }) {
      unrewritable = unrewritable.enumerated().sorted { left, right in
        left.element.offset != right.element.offset ? left.element.offset < right.element.offset : left.offset < right.offset
      }.map(\.element)
    }
    lock.lock()
    answers[key] = (calls, unrewritable)
    lock.unlock()
    return (calls, unrewritable)
  }
}
