import Foundation

/// What an index built from part of a code base can answer for, and what it was asked that it
/// cannot. A scan parses only the files that can matter (`PhasedScan`): every question the index
/// answers by a type's name (its declarations, what a written name resolves to, whether a method
/// name is mutating somewhere) is recorded here; one asked about a name whose declaring files were
/// not all parsed is missing, and the scan parses those files and asks again. When nothing is
/// missing, every answer is the one the whole code base gives.
public final class NameCoverage: @unchecked Sendable {
  /// Names, each the simple name a type is declared with.
  public struct Needs: Sendable, Equatable {
    /// Every file that can declare a type, extension or type alias of the name is parsed.
    public var types: Set<String> = []
    /// And those types keep their members.
    public var members: Set<String> = []
    /// The declarations of the types of these qualified names (no dot: declared at a file's top
    /// level, or extended), with their members: every file that can declare or extend a type of the
    /// name outside braces is parsed (`BytePrefilter.canDeclareAtTopLevel`), not the files that
    /// nest a type of that simple name in another.
    public var topLevelMembers: Set<String> = []
    /// The same, for what the declarations say of the type (its outline), not its members.
    public var topLevelTypes: Set<String> = []
    /// Every file that can declare a `mutating func` of the name is parsed.
    public var mutatingMethods: Set<String> = []
    /// Every file that can reference one of these accessors is parsed: where the accessor's name
    /// follows a `.` and what stands before the dot can be its type (`BytePrefilter.referenceBase`).
    public var accessors: Set<Accessor> = []
    /// Every file that can declare a function, property or enum case of the name is parsed.
    public var callables: Set<String> = []
    /// The same for a function with a parameter of this argument label: only the files whose bytes
    /// also have the label (a declaration writes its labels; a closure property takes none).
    public var labeledCallables: Set<LabeledCallable> = []
    /// Every file that can reference an accessor of the name as an implicit member (`f(.shared)`)
    /// is parsed: a command about one singleton, whose explicit references name its type.
    public var implicitAccessors: Set<String> = []
    /// Every file whose code contains the word (not only a string literal's text:
    /// `BytePrefilter.mentionsInCode`) is parsed, keeping every type's members: for a question
    /// about what names it (the subclasses of a type, the types holding a protocol).
    public var mentions: Set<String> = []
    /// Every file that can declare a type alias whose type writes one of these names is parsed:
    /// its bytes have `typealias` and the name (the aliases of a type, and of those aliases).
    public var aliasTargets: Set<String> = []
    /// A question about the whole code base (every type alias, every type name): parse every file.
    public var everything = false

    public init() {}

    public var isEmpty: Bool {
      types.isEmpty && members.isEmpty && topLevelMembers.isEmpty && topLevelTypes.isEmpty && mutatingMethods.isEmpty && accessors.isEmpty && callables.isEmpty
        && labeledCallables.isEmpty && mentions.isEmpty && aliasTargets.isEmpty && implicitAccessors.isEmpty && !everything
    }

    public mutating func formUnion(_ other: Needs) {
      types.formUnion(other.types)
      members.formUnion(other.members)
      topLevelMembers.formUnion(other.topLevelMembers)
      topLevelTypes.formUnion(other.topLevelTypes)
      mutatingMethods.formUnion(other.mutatingMethods)
      accessors.formUnion(other.accessors)
      callables.formUnion(other.callables)
      labeledCallables.formUnion(other.labeledCallables)
      mentions.formUnion(other.mentions)
      aliasTargets.formUnion(other.aliasTargets)
      implicitAccessors.formUnion(other.implicitAccessors)
      everything = everything || other.everything
    }

    /// What is asked, a kind at a time with a few names of each (`--stats`): "types Foo, Bar (+3)".
    public var summary: String {
      if everything { return "everything" }
      func few(_ kind: String, _ names: [String]) -> String? {
        guard !names.isEmpty else { return nil }
        let sorted = names.sorted()
        return "\(kind) " + sorted.prefix(3).joined(separator: ", ") + (sorted.count > 3 ? " (+\(sorted.count - 3))" : "")
      }
      return [
        few("types", Array(types)), few("members", Array(members)), few("top-level members", Array(topLevelMembers)),
        few("top-level types", Array(topLevelTypes)), few("mutating", Array(mutatingMethods)),
        few("accessors", accessors.map { "\($0.type).\($0.name)" }), few("callables", Array(callables)),
        few("labelled", labeledCallables.map { "\($0.name)(\($0.label):)" }), few("mentions", Array(mentions)),
        few("alias targets", Array(aliasTargets)), few("implicit", Array(implicitAccessors)),
      ].compactMap { $0 }.joined(separator: "; ")
    }

    /// What is asked here and not in `other` (nothing, where `other` is everything).
    public func subtracting(_ other: Needs) -> Needs {
      guard !other.everything else { return Needs() }
      var rest = Needs()
      rest.types = types.subtracting(other.types)
      rest.members = members.subtracting(other.members)
      rest.topLevelMembers = topLevelMembers.subtracting(other.topLevelMembers).subtracting(other.members)
      rest.topLevelTypes = topLevelTypes.subtracting(other.topLevelTypes).subtracting(other.topLevelMembers)
        .subtracting(other.types)
      rest.mutatingMethods = mutatingMethods.subtracting(other.mutatingMethods)
      rest.accessors = accessors.subtracting(other.accessors)
      rest.callables = callables.subtracting(other.callables)
      // The files asked for every callable of a name answer for each of its labels.
      rest.labeledCallables = labeledCallables.filter { !other.labeledCallables.contains($0) && !other.callables.contains($0.name) }
      rest.mentions = mentions.subtracting(other.mentions)
      // A file with the word in it answers for the aliases that write it.
      rest.aliasTargets = aliasTargets.subtracting(other.aliasTargets).subtracting(other.mentions)
      rest.implicitAccessors = implicitAccessors.subtracting(other.implicitAccessors)
      rest.everything = everything
      return rest
    }
  }

  /// A callable's name and the argument label of one of its parameters.
  public struct LabeledCallable: Hashable, Sendable {
    public var name: String
    public var label: String
  }

  /// An accessor by its name and the simple name of the type that declares it: a reference writes
  /// the type's name, an alias of it or `Self` before the dot, or no type at all (`f(.shared)`).
  public struct Accessor: Hashable, Sendable {
    public var type: String
    public var name: String

    public init(type: String, name: String) {
      self.type = type
      self.name = name
    }
  }

  public let covered: Needs
  /// The simple names of the singletons a command is about (nil: every singleton, as a scan). Only
  /// their references are complete: those of the others are the ones in the files parsed.
  public let focus: Set<String>?
  /// Whether no file left unparsed can answer what is asked (the scan that built the index
  /// chooses the files a widening would parse); then the answers given were already the whole
  /// code base's, and the scan counts it covered. Nil: every question missing stays missing.
  private let settles: ((Needs) -> Bool)?
  private let lock = NSLock()
  private var missing = Needs()
  /// What was missing and found answered by no file left (`settleMissing`): covered from then on.
  private var settled = Needs()

  public init(covered: Needs, focus: Set<String>? = nil, settles: ((Needs) -> Bool)? = nil) {
    self.covered = covered
    self.focus = focus
    self.settles = settles
  }

  /// Whether nothing asked is missing now: true when nothing was, or when no file left can answer
  /// what was (which is covered from then on). `Index.requireCoverage` asks it.
  func settleMissing() -> Bool {
    lock.lock()
    ticks += 1
    let ticket = ticks
    let asked = missing
    lock.unlock()
    if !asked.isEmpty {
      guard let settles, settles(asked) else { return false }
    }
    lock.lock()
    defer { lock.unlock() }
    if !asked.isEmpty {
      settled.formUnion(asked)
      missing = missing.subtracting(settled)
      guard missing.isEmpty else { return false }
    }
    completedBefore = max(completedBefore, ticket)
    return true
  }

  /// A ticket that orders a piece of work finished now against the checks that nothing asked is
  /// missing (`settleMissing`): work whose ticket is below `completeBefore` asked only what the
  /// whole code base answers, so its result is the whole code base's (`Project.answer`).
  public func ticket() -> Int {
    lock.lock()
    defer { lock.unlock() }
    ticks += 1
    return ticks
  }

  /// Every ticket below this was taken before a check found nothing asked missing.
  public var completeBefore: Int {
    lock.lock()
    defer { lock.unlock() }
    return completedBefore
  }

  private var ticks = 0
  private var completedBefore = 0

  /// Thrown by `Index.requireCoverage()`: what was asked is not all parsed yet, so the work under
  /// way will be done again on a wider index; the loader parses what is missing and runs again.
  public struct Incomplete: Error {}

  /// What was asked and is not covered; nil when everything asked was.
  public var missingNeeds: Needs? {
    lock.lock()
    defer { lock.unlock() }
    return missing.isEmpty ? nil : missing
  }

  /// The simple name a written type name is looked up by (`Outer.Inner<T>` → `Inner`), as
  /// `Index.resolve` does; nil when no type can be declared with it (`[Int]`, `Foo?`).
  static func key(_ written: String) -> String? {
    // By bytes: `<` and `.` are ASCII, and a name is asked about thousands of times.
    let utf8 = written.utf8
    var name = utf8[...]
    if let generic = name.firstIndex(of: UInt8(ascii: "<")) { name = name[..<generic] }
    if let dot = name.lastIndex(of: UInt8(ascii: ".")) { name = name[name.index(after: dot)...] }
    guard !name.isEmpty, name.allSatisfy({ BytePrefilter.isIdentifierByte($0) || $0 == UInt8(ascii: "`") })
    else { return nil }
    return name.count == utf8.count ? written : String(Substring(name))
  }

  func needType(_ written: String) {
    // Most names asked about are simple and covered: no key to make.
    if covered.types.contains(written) { return }
    guard let key = NameCoverage.key(written), !covered.everything, !covered.types.contains(key) else { return }
    record { $0.types.insert(key) }
  }

  /// The declarations of the type of this qualified name, as outlines (kind, attributes,
  /// inheritance). Of a name without a dot, only the files that can declare it at their top level
  /// answer.
  func needOutline(_ qualifiedName: String) {
    guard NameCoverage.key(qualifiedName) == qualifiedName else { return needType(qualifiedName) }
    guard !covered.everything, !covered.types.contains(qualifiedName), !covered.topLevelTypes.contains(qualifiedName),
      !covered.topLevelMembers.contains(qualifiedName)
    else { return }
    record { $0.topLevelTypes.insert(qualifiedName) }
  }

  /// The declarations of the type of this qualified name, with their members. Only a declaration
  /// at a file's top level (or an extension) has a qualified name without a dot.
  func needMembers(_ qualifiedName: String) {
    if covered.members.contains(qualifiedName) || covered.topLevelMembers.contains(qualifiedName) { return }
    guard let key = NameCoverage.key(qualifiedName), !covered.everything, !covered.members.contains(key) else { return }
    if key == qualifiedName {
      record { $0.topLevelMembers.insert(key) }
    } else {
      record { $0.members.insert(key) }
    }
  }

  func needMutatingMethod(_ name: String) {
    guard !covered.everything, !covered.mutatingMethods.contains(name) else { return }
    record { $0.mutatingMethods.insert(name) }
  }

  func needAccessor(_ name: String, of type: String) {
    let accessor = Accessor(type: type, name: name)
    guard !covered.everything, !covered.accessors.contains(accessor) else { return }
    record { $0.accessors.insert(accessor) }
  }

  func needCallable(_ name: String) {
    guard !covered.everything, !covered.callables.contains(name) else { return }
    record { $0.callables.insert(name) }
  }

  /// The callables of the name with a parameter of the label (`_`: any callable of the name).
  func needCallable(_ name: String, label: String) {
    guard label != "_" else { return needCallable(name) }
    let callable = LabeledCallable(name: name, label: label)
    guard !covered.everything, !covered.callables.contains(name), !covered.labeledCallables.contains(callable) else { return }
    record { $0.labeledCallables.insert(callable) }
  }

  func needImplicitAccessor(_ name: String) {
    // Files with an implicit member of an accessor's name are parsed for any `Accessor` of it.
    guard !covered.everything, !covered.implicitAccessors.contains(name), !covered.accessors.contains(where: { $0.name == name })
    else { return }
    record { $0.implicitAccessors.insert(name) }
  }

  func needAliasTarget(_ word: String) {
    guard !covered.everything, !covered.aliasTargets.contains(word), !covered.mentions.contains(word) else { return }
    record { $0.aliasTargets.insert(word) }
  }

  func needMentions(_ word: String) {
    guard !covered.everything, !covered.mentions.contains(word) else { return }
    record { $0.mentions.insert(word) }
  }

  func needEverything() {
    guard !covered.everything else { return }
    record { $0.everything = true }
  }

  private func record(_ change: (inout Needs) -> Void) {
    lock.lock()
    defer { lock.unlock() }
    guard !settled.isEmpty else { return change(&missing) }
    var asked = Needs()
    change(&asked)
    missing.formUnion(asked.subtracting(settled))
  }
}

extension Optional where Wrapped == NameCoverage {
  func needType(_ written: String) { self?.needType(written) }
  func needMembers(_ written: String) { self?.needMembers(written) }
  func needOutline(_ qualifiedName: String) { self?.needOutline(qualifiedName) }
}
