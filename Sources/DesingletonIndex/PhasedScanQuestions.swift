import DesingletonCore
import Foundation

/// What a widening of the phased scan asks of the files not parsed yet (`PhasedScan.select`).
extension PhasedScan {
  static let typeAliasWord = Array("typealias".utf8)

  /// What one widening asks of each file not parsed yet, as queries of its names (`NameSites`) or
  /// tests of its bytes.
  struct Asked: Sendable {
    let everything: Bool
    let keepsMembers: Bool
    let declared: NameSites.Query
    let topLevelNames: [String]
    let topLevel: NameSites.Query
    let mutating: NameSites.Query
    let callable: NameSites.Query
    /// The operators among the callables (`==`), which no file's names keep: found in its bytes.
    let operators: [[UInt8]]
    /// Labeled callables: each name's query, and its labels as bytes.
    let labeled: [(name: NameSites.Query, labels: [[UInt8]])]
    let bases: Set<[UInt8]>?
    let referenced: NameSites.ReferenceQuery
    let referencedBytes: [[UInt8]]
    let mentioned: [[UInt8]]
    /// The files whose code contains a word of `mentioned`, when known without reading every file
    /// (`PhasedScan.mentioning`); nil: each file's bytes say.
    let mentioning: Set<String>?
    let aliasTargets: [[UInt8]]
    let implicit: [[UInt8]]
    let implicitQuery: NameSites.Query

    init(
      _ needs: NameCoverage.Needs, everything: Bool, keepsMembers: Bool, typeAliasNames: Set<[UInt8]>?,
      mentioning: Set<String>?
    ) {
      self.everything = everything
      self.mentioning = mentioning
      self.keepsMembers = keepsMembers
      declared = NameSites.Query(needs.types.union(needs.members))
      topLevelNames = needs.topLevelMembers.union(needs.topLevelTypes).sorted()
      topLevel = NameSites.Query(topLevelNames)
      mutating = NameSites.Query(needs.mutatingMethods)
      let isOperator = { (name: String) in !name.utf8.contains(where: BytePrefilter.isIdentifierByte) }
      callable = NameSites.Query(needs.callables.filter { !isOperator($0) })
      operators = needs.callables.filter(isOperator).sorted().map { Array($0.utf8) }
      labeled = Dictionary(grouping: needs.labeledCallables, by: \.name).sorted { $0.key < $1.key }.map { name, callables in
        (NameSites.Query([name]), callables.map(\.label).sorted().map { Array($0.utf8) })
      }
      // A reference writes the accessor's type, an alias of it or `Self` before the dot (or no type).
      let bases = typeAliasNames.map { aliases in
        aliases.union(needs.accessors.map { Array($0.type.utf8) }).union([Array("Self".utf8)])
      }
      self.bases = bases
      referenced = NameSites.ReferenceQuery(
        accessors: needs.accessors.map(\.name), bases: bases.map { Set($0.map { String(decoding: $0, as: UTF8.self) }) })
      referencedBytes = Set(needs.accessors.map(\.name)).sorted().map { Array($0.utf8) }
      mentioned = needs.mentions.sorted().map { Array($0.utf8) }
      aliasTargets = needs.aliasTargets.sorted().map { Array($0.utf8) }
      implicit = needs.implicitAccessors.sorted().map { Array($0.utf8) }
      implicitQuery = NameSites.Query(needs.implicitAccessors)
    }

    /// What the widening does with a file read and counted, whose names (`known`) an earlier phase
    /// may have kept. `read`: the bytes its names were read from, when not the file's own (what a
    /// parse left out of it: `PhasedScan.partial`).
    func choice(
      _ path: String, _ summary: FileSummary, _ known: NameSites?, read: (() -> [UInt8]?)? = nil
    ) -> Choice {
      let read = read ?? { readBytes(path) }
      // `mentions`: the file contains a word asked about, and keeps every member.
      func parsed(mentions: Bool = false) -> Choice {
        .parse(everything: everything || mentions || keepsMembers)
      }
      // The names a file can declare or reference are kept once a phase has read them: later
      // phases read again only the files that can answer.
      if let sites = known, mentioned.isEmpty || mentioning != nil, aliasTargets.isEmpty || !sites.mentionsTypeAlias {
        if mentions(path) { return parsed(mentions: true) }
        return everything || wanted(sites, read) || sites.canReferenceImplicitly(implicitQuery) ? parsed() : .none
      }
      guard let bytes = read() else { return .none }
      if mentions(path, bytes) { return parsed(mentions: true) }
      if !aliasTargets.isEmpty, known?.mentionsTypeAlias ?? BytePrefilter.mentions([PhasedScan.typeAliasWord], in: bytes),
        BytePrefilter.mentions(aliasTargets, in: bytes)
      {
        return parsed()
      }
      if let sites = known {
        return everything || wanted(sites, { bytes }) || sites.canReferenceImplicitly(implicitQuery) ? parsed() : .none
      }
      if !implicit.isEmpty && BytePrefilter.canReferenceImplicitly(implicit, in: bytes) { return parsed() }
      // Where most files name a singleton, they are found by its accessor's name and what stands
      // before its dot, without keeping the file's names.
      if everything || BytePrefilter.canReference(referencedBytes, bases: bases, in: bytes) { return parsed() }
      let sites = NameSites(bytes)
      return wanted(sites, { bytes }) ? parsed() : .sites(summary, sites)
    }

    /// What the widening does with the top-level declarations a parse left out of a file
    /// (`PhasedScan.partial`), from their names and their bytes (`left`: the file's with everything
    /// else blank; from the file when nil). One question for the parse that leaves them out and for
    /// every widening after it.
    func choice(leftOut ranges: [Range<Int>], of path: String, _ sites: NameSites, left: [UInt8]? = nil) -> Choice {
      // With names known, a choice is to parse or not: the summary would only go with new names.
      let unused = FileSummary(path: path, lineCount: 0, types: [], candidateReferences: [], syntaxErrors: [])
      return choice(path, unused, sites) { left ?? readBytes(path).map { BodySkipping.keepingOnly(ranges, of: $0) } }
    }

    /// Whether the file's code contains a word asked about (`BytePrefilter.mentionsInCode`; `bytes`:
    /// the file's, when they are read already).
    func mentions(_ path: String, _ bytes: [UInt8]? = nil) -> Bool {
      if mentioned.isEmpty { return false }
      if let mentioning { return mentioning.contains(path) }
      guard let bytes = bytes ?? readBytes(path) else { return false }
      return BytePrefilter.mentionsInCode(mentioned, in: bytes)
    }

    /// Whether the file's names answer a question asked (`read`: the bytes they were read from).
    private func wanted(_ sites: NameSites, _ read: () -> [UInt8]?) -> Bool {
      if sites.canDeclare(declared) || sites.canReference(referenced)
        || (sites.mentionsMutating && sites.canDeclare(mutating)) || sites.canDeclareValue(callable)
      {
        return true
      }
      if !operators.isEmpty, let bytes = read(), BytePrefilter.canDeclareOperator(operators, in: bytes) { return true }
      // A labeled callable's declarations: the file that can declare the name is read for a label.
      let labels = labeled.filter { sites.canDeclareValue($0.name) }.flatMap(\.labels)
      if !labels.isEmpty, let bytes = read(), BytePrefilter.mentions(labels, in: bytes) { return true }
      // A top-level type's declarations: the rare file that names it after a keyword is read
      // to see whether that is outside braces.
      guard sites.canDeclare(topLevel), let bytes = read() else { return false }
      return BytePrefilter.canDeclareAtTopLevel(topLevelNames.map { Array($0.utf8) }, in: bytes)
    }
  }

  /// What a widening does with one file.
  enum Choice {
    case none
    /// Not parsed; the names it can declare or reference, learnt now.
    case sites(FileSummary, NameSites)
    /// Parsed, keeping every member or those asked about.
    case parse(everything: Bool)
  }
}
