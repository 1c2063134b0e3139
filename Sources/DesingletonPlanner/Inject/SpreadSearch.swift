import DesingletonCore
import DesingletonIndex

extension InjectPlanner {
  /// `run`, planned again without the units that would use the accessor more than before
  /// (`AccessorSpread`) until none does, so that a migration never spreads it. `rewrite` gives the
  /// project with a plan applied; the report carries the accessor census before and after.
  ///
  /// A part left out is weighed again against the code the plan leaves: other parts may have
  /// written the accessor into it where it creates what they inject (`Renderer(theming:
  /// Store.shared)` inside `Favorites`), and once it holds at least as many uses as it would write
  /// where it is created, injecting it no longer spreads the accessor. It is then planned in, so that
  /// the next run does not find it (one run is the fixpoint). The parts that weigh in are planned in
  /// together; when that plan would use the accessor more than the one before (what a part writes
  /// where it is created was counted while others were in that are out since), each is planned in
  /// alone and kept only when the count does not grow. When none weighs in, the parts still out are
  /// planned in again together and weighed afresh (what each writes depends on what else is out),
  /// once per set of parts left out; last, each part still out is planned in alone, as a second run
  /// would weigh it, and when that grows the count its creations inside other consumers pass the
  /// accessor for what the creator does not use (`InjectOptions.passedDirectly`) instead of the
  /// creator taking it to hand down, and it is tried once more; when it still grows the count, it is
  /// tried with the parts left out that it wrote the accessor into (its creators, which would then
  /// take a protocol to hand it down).
  ///
  /// ## Before
  /// `Main` uses `Othering` three times and makes `Provider`, which uses `Deciding` once; a global
  /// makes two `Main`s.
  /// ## After
  /// Both are injected, and `Main` makes `Provider(deciding: Store.shared)`: taking `Deciding` to
  /// hand it down would write it at both places `Main` is made.
  public static func run(
    singleton: Singleton, options: InjectOptions, project: Project, rewrite: (Plan) throws -> Project
  ) throws -> (plan: Plan, report: InjectReport) {
    var search = SpreadSearch(options: options, before: try AccessorCensus.of(singleton, in: project))
    try project.index.requireCoverage()
    while true {
      var (plan, report) = try run(singleton: singleton, options: search.options, project: project)
      report.before = search.before
      try project.index.requireCoverage()
      let rewritten = try rewrite(plan)
      guard let after = rewritten.index.singletons.first(where: { $0.typeName == singleton.typeName }) else {
        return (plan, report)
      }
      var census = try AccessorCensus.of(after, in: rewritten)
      report.after = census
      // With --default-argument the accessor stays, by design, as each new parameter's default.
      if options.defaultArgument { return (plan, report) }
      let original = try project.sources(of: Array(plan.edits.keys))
      let exclusions = AccessorSpread.exclusions(
        plan: plan, before: search.before, after: census, accessExpression: singleton.accessExpression, original: original)
      if search.leaveOut(exclusions) { continue }
      if let settled = search.settled, let previous = settled.report.after, census.outsideRootsAndTests > previous.outsideRootsAndTests {
        // The parts planned in last, or all those still out tried again at once, go back out.
        let inside = { (site: FilePlace, unit: String) -> Bool in project.index.isInside(unit, at: site.offset, in: site.path) }
        guard search.takeBackLastAdmitted(spreading: exclusions, inside: inside) else { return settled }
        (plan, report) = settled
        census = previous
      }
      guard search.admitNext(census: census, current: (plan, report)) else { return (plan, report) }
    }
  }
}

/// What `InjectPlanner.run(…, rewrite:)` has decided so far: the parts left out, those planned in
/// again, and the last plan that did not spread the accessor.
struct SpreadSearch {
  var options: InjectOptions
  let before: AccessorCensus
  var leftOut: [AccessorSpread.Exclusion] = []
  /// Units planned in again after being left out.
  var admitted: Set<String> = []
  /// The parts planned in last, taken back if the count grows.
  var lastAdmitted: [AccessorSpread.Exclusion] = []
  /// Parts to plan in one at a time, after planning them in together grew the count.
  var oneByOne: [AccessorSpread.Exclusion] = []
  /// Parts whose planning in alone grew the count.
  var refused: Set<[String]> = []
  var tried: Set<Set<String>> = []
  /// Parts planned in together with the creators they wrote the accessor into.
  var triedTogether: Set<Set<String>> = []
  /// The part and creators being planned in together now, to leave out again as they were.
  var together: (units: Set<String>, part: AccessorSpread.Exclusion, creators: [AccessorSpread.Exclusion])?
  /// What was left out before the parts still out were tried again at once, to go back to when
  /// that plan uses the accessor more.
  var beforeRetry: (leftOut: [AccessorSpread.Exclusion], spreading: [String: Diagnostic], refused: Set<[String]>)?
  /// Whether parts still out are being planned in alone (the last stage: no more tries at once).
  var plannedAlone = false
  /// How many more plans the alone stage may make.
  var aloneBudget = 0
  var settled: (plan: Plan, report: InjectReport)?

  init(options: InjectOptions, before: AccessorCensus) {
    self.options = options
    self.before = before
  }

  /// Leaves out the parts that spread the accessor (but those planned in again: weighed against
  /// the code other parts leave, not the original); true when there were any.
  mutating func leaveOut(_ exclusions: [AccessorSpread.Exclusion]) -> Bool {
    let spreading = exclusions.map { exclusion in
      var exclusion = exclusion
      exclusion.notes.removeAll { options.spreading[$0.unit] != nil || admitted.contains($0.unit) }
      return exclusion
    }.filter { !$0.notes.isEmpty }
    leftOut += spreading
    for (unit, note) in spreading.flatMap(\.notes) { options.spreading[unit] = note }
    return !spreading.isEmpty
  }

  /// Leaves out again the parts planned in last, or those left out before all were tried again at
  /// once; false when neither was. A part that grew the count alone, even passing the accessor
  /// directly, is tried once more together with the parts left out that it wrote the accessor into
  /// (its creators: `Legacy` making `Debug(deciding: Store.shared)`), since those would take a
  /// protocol to hand it down, as a second run would plan them. `spreading`: the parts of the plan
  /// just made that wrote the accessor more than they removed; `inside`: whether a place is inside
  /// a unit's declarations.
  mutating func takeBackLastAdmitted(
    spreading: [AccessorSpread.Exclusion] = [], inside: (FilePlace, String) -> Bool = { _, _ in false }
  ) -> Bool {
    if lastAdmitted.isEmpty, let retry = beforeRetry {
      (leftOut, options.spreading, refused) = retry
      beforeRetry = nil
      return true
    }
    guard !lastAdmitted.isEmpty else { return false }
    for (unit, note) in lastAdmitted.flatMap(\.notes) {
      admitted.remove(unit)
      options.spreading[unit] = note
    }
    leftOut += lastAdmitted
    if let trial = together, lastAdmitted.count == 1, Set(lastAdmitted[0].units) == trial.units {
      // With its creators it grew the count too: each goes back out as it was, the part refused.
      together = nil
      leftOut.removeAll { Set($0.units) == trial.units }
      leftOut += [trial.part] + trial.creators
      refused.insert(trial.part.units)
      for unit in trial.units { options.passedDirectly[unit] = nil }
      lastAdmitted = []
      return true
    }
    if lastAdmitted.count > 1 {
      oneByOne = lastAdmitted
    } else if let part = lastAdmitted.first, !part.units.allSatisfy({ options.passedDirectly[$0] != nil }), aloneBudget > 0 {
      aloneBudget -= 1
      // Alone, it grew the count through what its creators would hand down: next, its creations
      // inside the consumers planned now pass the accessor for what the creator does not use.
      let planned = Set(settled?.report.consumers.map(\.typeName) ?? [])
      for unit in part.units { options.passedDirectly[unit] = planned }
      oneByOne = [part]
    } else if let part = lastAdmitted.first, lastAdmitted.count == 1, aloneBudget > 0,
      case let sites = spreading.filter({ $0.units.contains(where: part.units.contains) }).flatMap(\.sites),
      case let creators = leftOut.filter({ other in
        !other.units.contains(where: part.units.contains) && sites.contains { site in other.units.contains { inside(site, $0) } }
      }),
      !creators.isEmpty, case let joined = creators.reduce(part, Self.joined), triedTogether.insert(Set(joined.units)).inserted
    {
      aloneBudget -= 1
      for unit in part.units { options.passedDirectly[unit] = nil }
      leftOut.removeAll { Set($0.units) == Set(part.units) }
      together = (Set(joined.units), part, creators)
      oneByOne = [joined]
    } else {
      refused.formUnion(lastAdmitted.map(\.units))
      for unit in lastAdmitted.flatMap(\.units) { options.passedDirectly[unit] = nil }
    }
    lastAdmitted = []
    return true
  }

  private static func joined(_ first: AccessorSpread.Exclusion, _ second: AccessorSpread.Exclusion) -> AccessorSpread.Exclusion {
    AccessorSpread.Exclusion(notes: first.notes + second.notes, added: first.added + second.added, sites: first.sites + second.sites)
  }

  /// Plans in the next parts to weigh (`current` settled as the plan to fall back to); false when
  /// there is nothing left to try.
  mutating func admitNext(census: AccessorCensus, current: (plan: Plan, report: InjectReport)) -> Bool {
    // The parts planned in last kept the count: what the others would write has changed, so those
    // refused are weighed again (the alone stage's budget bounds the run). A part that planned
    // nothing in (a creator of no consumer now) is still out: it is weighed again once what it
    // would create goes in.
    if let trial = together, lastAdmitted.count == 1, Set(lastAdmitted[0].units) == trial.units { together = nil }
    let planned = Set(current.report.consumers.map(\.typeName))
    let idle = lastAdmitted.filter { !$0.units.contains(where: planned.contains) }
    if idle.count < lastAdmitted.count { refused = [] }
    for (unit, note) in idle.flatMap(\.notes) {
      admitted.remove(unit)
      options.spreading[unit] = note
    }
    leftOut += idle
    refused.formUnion(idle.map(\.units))
    lastAdmitted = []
    beforeRetry = nil
    var weighed =
      oneByOne.isEmpty
      ? leftOut.filter { !refused.contains($0.units) && $0.added <= $0.units.reduce(0) { $0 + census.spreadUses[$1, default: 0] } }
      : [oneByOne.removeFirst()]
    settled = current
    if weighed.isEmpty {
      // What a part left out would write was counted when others were left out too (creations
      // inside a type left out then, taken in since, now hand down what they hold): the parts
      // still out are tried again, all at once, and those that still spread are left out anew.
      let out = Set(leftOut.flatMap(\.units))
      if !plannedAlone, !out.isEmpty, tried.insert(out).inserted {
        beforeRetry = (leftOut, options.spreading, refused)
        leftOut = []
        refused = []
        for unit in out { options.spreading[unit] = nil }
        return true
      }
      // Last, each part still out is planned in alone, as a second run would weigh it against
      // this plan, and kept when the count does not grow.
      // Each plan there is a planning of the whole run: at most four a part still out then.
      if !plannedAlone { aloneBudget = 4 * leftOut.count }
      plannedAlone = true
      guard let next = leftOut.first(where: { !refused.contains($0.units) }), aloneBudget > 0 else { return false }
      aloneBudget -= 1
      weighed = [next]
    }
    // A part planned in together with its creators takes them out of what is left out.
    let weighedUnits = Set(weighed.flatMap(\.units))
    leftOut.removeAll { part in part.units.allSatisfy(weighedUnits.contains) }
    lastAdmitted = weighed
    for unit in weighed.flatMap(\.units) {
      admitted.insert(unit)
      options.spreading[unit] = nil
    }
    return true
  }
}
