import DesingletonCore
import DesingletonIndex
import SwiftSyntax

/// What `inject` decided, for people (the summary) and scripts (`--format json`): the consumers with
/// their protocols, the call sites changed, the consumers skipped and the types the system creates,
/// each with the reason, and how many references to the accessor there are before and after.
public struct InjectReport: Sendable {
  public struct InjectedConsumer: Sendable, Equatable {
    public var typeName: String
    public var place: Location
    /// Protocol and the property that holds it, in the order the init takes them.
    public var properties: [(protocolName: String, name: String)]
    public var referencesRewritten: Int
    /// The consumer had no designated init of its own and gets one.
    public var generatedInit: Bool

    public static func == (lhs: Self, rhs: Self) -> Bool {
      lhs.typeName == rhs.typeName && lhs.place == rhs.place && lhs.referencesRewritten == rhs.referencesRewritten
        && lhs.generatedInit == rhs.generatedInit
        && lhs.properties.map(\.protocolName) == rhs.properties.map(\.protocolName)
        && lhs.properties.map(\.name) == rhs.properties.map(\.name)
    }
  }

  public struct ChangedCallSite: Sendable, Equatable {
    public var typeName: String
    public var place: Location
    /// The call passes the accessor itself for at least one protocol (its creator does not hold it).
    public var passesAccessor: Bool
  }

  public var singleton: String
  public var consumers: [InjectedConsumer]
  public var callSites: [ChangedCallSite]
  public var skipped: [SkippedConsumer]
  public var frameworkCreated: [SkippedConsumer]
  /// Composition roots that create other consumers: they keep the accessor until `finish`.
  public var roots: [SkippedConsumer] = []
  public var warnings: [Diagnostic]
  /// Filled in once the result is known (the caller counts the references in the rewritten files).
  public var before: AccessorCensus?
  public var after: AccessorCensus?

  /// The version of the JSON document; fields may be added, none removed.
  public static let schemaVersion = 1

  /// `accessor references outside roots, entry points and tests: N before → M after (in all A → B:
  /// K in roots, F framework-created, S static, …)`: the first count is the one a migration never
  /// raises (roots and entry points are where `finish` puts the instance, tests get their own).
  public var censusLine: String? {
    guard let before, let after else { return nil }
    var parts = [
      "\(after.roots) in roots", "\(after.frameworkCreated) framework-created", "\(after.staticContexts) static",
    ]
    if after.tests > 0 { parts.append("\(after.tests) in tests") }
    if after.coderInits > 0 { parts.append("\(after.coderInits) in init?(coder:)") }
    if after.singleton > 0 { parts.append("\(after.singleton) in the singleton and what it makes") }
    if after.elsewhere > 0 { parts.append("\(after.elsewhere) elsewhere") }
    return "accessor references outside roots, entry points and tests: \(before.outsideRootsAndTests) before → "
      + "\(after.outsideRootsAndTests) after (in all \(before.total) → \(after.total): \(parts.joined(separator: ", ")))"
  }

  public func json(files: PlanFiles = PlanFiles()) -> String {
    func place(_ location: Location?) -> JSONValue {
      guard let location else { return .object([]) }
      return .object([("file", .string(location.path)), ("line", .int(location.line)), ("column", .int(location.column))])
    }
    func skip(_ item: SkippedConsumer) -> JSONValue {
      .object([
        ("type", .string(item.typeName)), ("reason", .string(item.reason.rawValue)),
        ("title", .string(item.reason.title)), ("place", place(item.diagnostics.first?.location)),
        ("messages", .array(item.diagnostics.map { .string($0.description) })),
      ])
    }
    func census(_ census: AccessorCensus?) -> JSONValue {
      guard let census else { return .object([]) }
      return .object([
        ("total", .int(census.total)), ("roots", .int(census.roots)), ("frameworkCreated", .int(census.frameworkCreated)),
        ("static", .int(census.staticContexts)), ("tests", .int(census.tests)), ("coderInits", .int(census.coderInits)),
        ("singleton", .int(census.singleton)), ("elsewhere", .int(census.elsewhere)),
        ("outsideRootsAndTests", .int(census.outsideRootsAndTests)),
      ])
    }
    let protocols = consumers.flatMap { $0.properties.map(\.protocolName) }
    var seen: Set<String> = []
    return JSONValue.object([
      ("schemaVersion", .int(Self.schemaVersion)),
      ("singleton", .string(singleton)),
      ("protocols", .array(protocols.filter { seen.insert($0).inserted }.sorted().map(JSONValue.string))),
      (
        "consumers",
        .array(
          consumers.map { consumer in
            .object([
              ("type", .string(consumer.typeName)), ("place", place(consumer.place)),
              ("protocols", .array(consumer.properties.map { .string($0.protocolName) })),
              ("properties", .array(consumer.properties.map { .string($0.name) })),
              ("referencesRewritten", .int(consumer.referencesRewritten)),
              ("generatedInit", .bool(consumer.generatedInit)),
            ])
          })
      ),
      (
        "callSites",
        .array(
          callSites.map { site in
            .object([
              ("type", .string(site.typeName)), ("place", place(site.place)),
              ("passesAccessor", .bool(site.passesAccessor)),
            ])
          })
      ),
      ("skipped", .array(skipped.map(skip))),
      ("frameworkCreated", .array(frameworkCreated.map(skip))),
      ("roots", .array(roots.map(skip))),
      ("warnings", .array(warnings.map { .string($0.description) })),
      ("accessorReferences", .object([("before", census(before)), ("after", census(after))])),
      ("files", files.json),
    ] + files.closingEntries).text()
  }
}

/// The references to a singleton's accessor, by the kind of place they are in. After `inject --all`
/// only composition roots (types no code outside tests creates), types the system creates, static
/// contexts, tests, coder inits, and the singleton with the types it makes while it is made should
/// be left; `elsewhere` counts the rest.
public struct AccessorCensus: Sendable, Equatable {
  public var total = 0
  public var roots = 0
  public var frameworkCreated = 0
  public var staticContexts = 0
  public var tests = 0
  public var coderInits = 0
  public var singleton = 0
  public var elsewhere = 0
  /// The types counted in `elsewhere`, in order.
  public var elsewhereTypes: [String] = []
  /// Where the references outside roots and tests are: the ones a migration must never add to.
  public var spreadRanges: [DesingletonIndex.SourceRange] = []
  /// How many references are outside composition roots, entry points and tests.
  public var outsideRootsAndTests: Int { spreadRanges.count }
  /// How many of `spreadRanges` are uses in each consumer's own code (not its coder inits or static
  /// members): the uses injecting that consumer would take away.
  public var spreadUses: [String: Int] = [:]

  /// The census of `singleton`'s accessor in `project`, counted once per project: a refusal's next
  /// commands plan `inject` several times on the same code.
  public static func of(_ singleton: Singleton, in project: Project) throws -> AccessorCensus {
    try project.answer("accessor census of \(singleton)") {
      try AccessorCensus(singleton: singleton, project: project)
    }
  }

  public init(singleton: Singleton, project: Project) throws {
    let collaborators = InjectPlanner.createdWhileMade(singleton, project: project)
    for item in CompositionRoots.remainingReferences(singleton: singleton, root: nil, project: project) {
      total += 1
      // An instance of a root or entry point is where the instance comes from (its static members,
      // such as a preview's, are not); tests get their own.
      // The census counts a kept required init's use with its type's, as a consumer's.
      var item = item
      if item.kind == .requiredInit { item.kind = .consumer }
      let inInstance = [.consumer, .coderInit, .frameworkCreated, .root].contains(item.kind)
      let isRootOrEntry = try inInstance && item.typeName.map { owner in
        try CompositionRoots.isEntryPoint(owner, index: project.index) || CompositionRoots.isCompositionRoot(owner, project: project)
      } ?? false
      if item.kind != .test && !isRootOrEntry {
        spreadRanges.append(item.reference.range)
        if item.kind == .consumer, let owner = item.typeName { spreadUses[owner, default: 0] += 1 }
      }
      switch item.kind {
      case .test: tests += 1
      case .topLevel, .staticContext: staticContexts += 1
      case .singleton: self.singleton += 1
      case .coderInit, .requiredInit: coderInits += 1
      case .frameworkCreated: frameworkCreated += 1
      case .root: roots += 1
      case .consumer:
        guard let owner = item.typeName else {
          elsewhere += 1
          continue
        }
        // What the singleton makes while it is made cannot be handed the instance.
        if collaborators[owner] != nil {
          self.singleton += 1
          continue
        }
        if try CompositionRoots.isCompositionRoot(owner, project: project) {
          roots += 1
        } else {
          elsewhere += 1
          if !elsewhereTypes.contains(owner) { elsewhereTypes.append(owner) }
        }
      }
    }
  }
}

extension InjectDesign {
  func report(project: Project) -> InjectReport {
    InjectReport(
      singleton: singleton.typeName,
      consumers: consumers.filter { !$0.protocols.isEmpty }.map { consumer in
        InjectReport.InjectedConsumer(
          typeName: consumer.typeName, place: consumer.primary.location,
          properties: consumer.protocols.map { ($0, consumer.name(of: $0)) },
          referencesRewritten: consumer.references.count, generatedInit: consumer.generatedInit != nil)
      },
      callSites: callSites.compactMap { site in
        guard let source = try? project.file(site.call.path).source else { return nil }
        return InjectReport.ChangedCallSite(
          typeName: site.call.typeName,
          place: source.location(ofOffset: site.call.call.positionAfterSkippingLeadingTrivia.utf8Offset),
          passesAccessor: site.passesAccessor)
      },
      skipped: skipped, frameworkCreated: frameworkCreated, roots: roots, warnings: warnings)
  }
}

extension InjectDesign {
  /// The pieces `--split-by consumer` takes one at a time: per consumer, its declarations and the
  /// creations whose arguments change with its init, which only build together. A consumer created
  /// inside another injected consumer and handed that one's new properties comes after it; when the
  /// creation is a stored property's initial value, which moves into the creator's inits, the two
  /// are one piece.
  func parts(project: Project) -> [PlanPart] {
    let injected = consumers.filter { !$0.protocols.isEmpty }
    var leader = Array(injected.indices)
    func find(_ number: Int) -> Int {
      var number = number
      while leader[number] != number { number = leader[number] }
      return number
    }
    var ranges = Array(repeating: [String: [Range<Int>]](), count: injected.count)
    for (number, consumer) in injected.enumerated() {
      for declaration in consumer.declarations {
        ranges[number][declaration.range.path, default: []].append(declaration.range.bytes)
      }
    }
    var after = Array(repeating: Set<Int>(), count: injected.count)
    for site in callSites {
      guard let created = injected.firstIndex(where: { $0.typeName == site.call.typeName }) else { continue }
      let call = site.call.call
      let range = call.positionAfterSkippingLeadingTrivia.utf8Offset..<call.endPositionBeforeTrailingTrivia.utf8Offset
      ranges[created][site.call.path, default: []].append(range)
      // Arguments other than the accessor are the creator's properties.
      guard !site.captured.isEmpty,
        let creatorName = site.call.context.typeName.map(project.index.resolveType),
        let creator = injected.firstIndex(where: { $0.typeName == creatorName }), creator != created
      else { continue }
      if MovedInitialValue(around: Syntax(call)) != nil {
        leader[find(created)] = find(creator)
      } else {
        after[created].insert(creator)
      }
    }
    joinFactories(injected, leader: &leader, ranges: &ranges, after: &after, index: project.index)
    for site in configurations {
      guard let configured = injected.firstIndex(where: { $0.typeName == site.typeName }) else { continue }
      ranges[configured][site.path, default: []].append(site.statement.position.utf8Offset..<site.statement.endPosition.utf8Offset)
    }
    var parts: [PlanPart] = []
    var partOf: [Int: Int] = [:]
    for number in injected.indices {
      let root = find(number)
      if let existing = partOf[root] {
        parts[existing].name += "+" + injected[number].typeName
        parts[existing].units.append(injected[number].typeName)
        parts[existing].ranges.merge(ranges[number]) { $0 + $1 }
      } else {
        partOf[root] = parts.count
        parts.append(PlanPart(name: injected[number].typeName, ranges: ranges[number]))
      }
    }
    for number in injected.indices {
      guard let part = partOf[find(number)] else { continue }
      for creator in after[number].sorted() {
        guard let other = partOf[find(creator)], other != part, !parts[part].after.contains(parts[other].name) else {
          continue
        }
        parts[part].after.append(parts[other].name)
      }
    }
    return parts
  }

  /// A factory's new parameters, the creations inside it that pass them and the calls of it that
  /// pass values for them only build together: the consumers it creates are one piece with them,
  /// and with those of a factory that calls it; a call passing its caller's properties comes after
  /// the caller's piece.
  func joinFactories(
    _ injected: [Consumer], leader: inout [Int], ranges: inout [[String: [Range<Int>]]], after: inout [Set<Int>], index: Index
  ) {
    func find(_ number: Int) -> Int {
      var number = number
      while leader[number] != number { number = leader[number] }
      return number
    }
    var factoryPart: [String: Int] = [:]
    for factory in factories {
      let members = factory.created.sorted().compactMap { name in injected.firstIndex { $0.typeName == name } }
      guard let first = members.first else { continue }
      for member in members.dropFirst() where find(member) != find(first) { leader[find(member)] = find(first) }
      factoryPart[factory.key] = first
      let clause = factory.declaration.signature.parameterClause
      ranges[first][factory.path, default: []].append(clause.positionAfterSkippingLeadingTrivia.utf8Offset..<clause.endPositionBeforeTrailingTrivia.utf8Offset)
    }
    for site in factorySites {
      guard let part = factoryPart[site.factory] else { continue }
      let call = site.call.call
      ranges[part][site.call.path, default: []].append(call.positionAfterSkippingLeadingTrivia.utf8Offset..<call.endPositionBeforeTrailingTrivia.utf8Offset)
      if let caller = factories.first(where: { $0.contains(site.call) }), let other = factoryPart[caller.key], find(other) != find(part) {
        leader[find(other)] = find(part)
      } else if !site.captured.isEmpty, let creatorName = site.call.context.typeName.map(index.resolveType),
        let creator = injected.firstIndex(where: { $0.typeName == creatorName }), find(creator) != find(part)
      {
        after[part].insert(creator)
      }
    }
  }
}
