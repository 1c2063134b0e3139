import DesingletonCore
import DesingletonIndex

/// Cuts a plan into steps for `--split-by`: one patch per module or per part (a consumer, the
/// slices, a double), each applying on the ones before it and building.
///
/// Steps, in order: `assign` each edit and new file to a part (the smallest range holding it, else
/// the first part that changes its file, else the first part); `group` the parts into units (per
/// part, or per module with every module a part touches joined, since a changed init and its call
/// sites only build together) in dependency order; `accumulate` the units into plans, each holding
/// everything before it, so that each patch is the difference between two rendered plans.
///
/// ## Before
/// `inject --all` on ModularApp: one plan changing `ProfileViewModel`, `ReaderViewModel` and their
/// creations in `AppCoordinator`.
/// ## After (`--split-by consumer`)
/// `ProfileViewModel` with its creation, then `ReaderViewModel` with its creation, as two steps.
public enum PatchSeries {
  public enum SplitBy: String, Sendable, CaseIterable {
    case module, consumer
  }

  /// A step: its name and the plan of everything up to and including it.
  public struct Step: Sendable {
    public var name: String
    public var plan: Plan
  }

  public static func steps(_ plan: Plan, by split: SplitBy, modules: ModuleMap) -> [Step] {
    let assigned = assign(plan)
    let units = group(assigned, by: split, modules: modules)
    return accumulate(units, of: plan, assigned: assigned)
  }

  /// Which part each edit (by path and position in the plan's list) and each new file belongs to.
  struct Assignment {
    var parts: [PlanPart]
    var edits: [String: [Int]] = [:]
    var newFiles: [String: Int] = [:]
  }

  static func assign(_ plan: Plan) -> Assignment {
    var assignment = Assignment(parts: plan.parts.isEmpty ? [PlanPart(name: "Changes")] : plan.parts)
    let parts = assignment.parts
    // Each file's ranges with their parts, in the parts' order: an edit is weighed only against
    // the ranges of its own file.
    var ranges: [String: [(part: Int, range: Range<Int>)]] = [:]
    for (number, part) in parts.enumerated() {
      for (path, partRanges) in part.ranges {
        ranges[path, default: []] += partRanges.map { (number, $0) }
      }
    }
    var unplaced: [(path: String, position: Int)] = []
    for (path, edits) in plan.edits.sorted(by: { $0.key < $1.key }) {
      var owners = Array(repeating: -1, count: edits.count)
      let fileRanges = ranges[path] ?? []
      for (position, edit) in edits.enumerated() {
        var best: (part: Int, size: Int)?
        for (number, range) in fileRanges
        where range.lowerBound <= edit.range.lowerBound && edit.range.upperBound <= range.upperBound {
          if best.map({ range.count < $0.size }) ?? true { best = (number, range.count) }
        }
        if let best { owners[position] = best.part } else { unplaced.append((path, position)) }
      }
      assignment.edits[path] = owners
    }
    // The first part applied that changes the file, else the first part applied.
    var rank = Array(repeating: 0, count: parts.count)
    let order = partOrder(parts)
    for (position, number) in order.enumerated() { rank[number] = position }
    for (path, position) in unplaced {
      let owners = (assignment.edits[path] ?? []).filter { $0 >= 0 }
      assignment.edits[path]?[position] = owners.min { rank[$0] < rank[$1] } ?? order[0]
    }
    for path in plan.newFiles.keys.sorted() {
      assignment.newFiles[path] = parts.firstIndex { $0.newFiles.contains(path) } ?? order[0]
    }
    return assignment
  }

  /// A step before it is accumulated: the parts it takes, whole or only in some files.
  struct Unit {
    var name: String
    /// Whether an edit or new file of this part in this file belongs to the unit.
    var takes: (_ part: Int, _ path: String) -> Bool
  }

  static func group(_ assignment: Assignment, by split: SplitBy, modules: ModuleMap) -> [Unit] {
    // The files each part changes or creates.
    var paths = Array(repeating: Set<String>(), count: assignment.parts.count)
    for (path, owners) in assignment.edits { for owner in owners { paths[owner].insert(path) } }
    for (path, owner) in assignment.newFiles { paths[owner].insert(path) }
    switch split {
    case .consumer:
      return partOrder(assignment.parts).filter { !paths[$0].isEmpty }.map { number in
        Unit(name: assignment.parts[number].name) { part, _ in part == number }
      }
    case .module:
      func module(_ path: String) -> String { modules.module(of: path) ?? "Other" }
      // Modules a part touches go together.
      var leader: [String: String] = [:]
      func find(_ name: String) -> String {
        var name = name
        while let next = leader[name], next != name { name = next }
        return name
      }
      let all = Set(paths.flatMap { $0.map(module) })
      for name in all { leader[name] = name }
      for touched in paths {
        let names = touched.map(module).sorted()
        for name in names.dropFirst() { leader[find(name)] = find(names[0]) }
      }
      var groups: [String: Set<String>] = [:]
      for name in all { groups[find(name), default: []].insert(name) }
      let ordered = dependencyOrder(Array(groups.values), modules: modules)
      return ordered.map { members in
        Unit(name: members.joined(separator: "+")) { _, path in members.contains(module(path)) }
      }
    }
  }

  /// The parts' positions, each after the parts it names in `after`, otherwise in the plan's order
  /// (on a cycle, the first part left).
  static func partOrder(_ parts: [PlanPart]) -> [Int] {
    var placed: [Int] = []
    var names: Set<String> = []
    var remaining = Array(parts.indices)
    while !remaining.isEmpty {
      let next = remaining.firstIndex { parts[$0].after.allSatisfy(names.contains) } ?? 0
      let number = remaining.remove(at: next)
      placed.append(number)
      names.insert(parts[number].name)
    }
    return placed
  }

  /// Groups of modules, each after the groups holding modules it depends on (directly or not);
  /// otherwise by name. Each group's modules in the same order.
  static func dependencyOrder(_ groups: [Set<String>], modules: ModuleMap) -> [[String]] {
    func dependencies(of name: String) -> Set<String> {
      var seen: Set<String> = []
      var queue = modules.targets(named: name).flatMap(\.dependencies)
      while let next = queue.popLast() {
        if seen.insert(next).inserted { queue += modules.targets(named: next).flatMap(\.dependencies) }
      }
      return seen
    }
    func depth(_ name: String) -> Int { dependencies(of: name).count }
    let sortedGroups = groups.map { $0.sorted { (depth($0), $0) < (depth($1), $1) } }
    var remaining = sortedGroups.sorted { $0.joined() < $1.joined() }
    var result: [[String]] = []
    while !remaining.isEmpty {
      let placed = Set(result.flatMap { $0 })
      // The first group whose outside dependencies are all placed (the first group at all on a cycle).
      let next =
        remaining.firstIndex { group in
          group.allSatisfy { dependencies(of: $0).subtracting(group).isSubset(of: placed) }
        } ?? 0
      result.append(remaining.remove(at: next))
    }
    return result
  }

  static func accumulate(_ units: [Unit], of plan: Plan, assigned: Assignment) -> [Step] {
    var steps: [Step] = []
    var taken = Plan()
    for unit in units {
      for (path, edits) in plan.edits.sorted(by: { $0.key < $1.key }) {
        let owners = assigned.edits[path] ?? []
        for (position, edit) in edits.enumerated() where unit.takes(owners[position], path) {
          taken.add(edit, in: path)
        }
      }
      for (path, text) in plan.newFiles.sorted(by: { $0.key < $1.key })
      where unit.takes(assigned.newFiles[path] ?? 0, path) {
        taken.newFiles[path] = text
        if let companion = plan.companions[path] { taken.companions[path] = companion }
      }
      steps.append(Step(name: unit.name, plan: taken))
    }
    return steps
  }
}
