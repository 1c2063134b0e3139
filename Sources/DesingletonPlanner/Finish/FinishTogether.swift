import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftSyntax

/// `finish --singleton A --singleton B`: singletons that need each other are finished in one
/// transaction. Each is finished as alone (`decide`, `write`), except that the uses of its accessor
/// in the others' accessors and in their properties set after creation do not block: the root makes
/// them all in one stored property, in the order their accessors need them, and then sets each
/// property set after creation (`inject` gives those to a type in a creation cycle), which becomes
/// `weak`: the root owns the instance it points to.
///
/// ## Before
/// ```swift
/// final class Player {
///   /// Set after creation by whoever makes both: 'SyncService' needs this 'Player' while it is made.
///   lazy var reporting: Reporting = SyncService.shared
///   static let shared = Player()
/// }
/// final class SyncService {
///   static let shared = SyncService(nowPlaying: Player.shared)
/// }
/// final class AppRoot {
///   func makeProgress() -> ProgressScreen { ProgressScreen(syncProviding: SyncService.shared) }
/// }
/// ```
/// ## After (`finish --singleton Player --singleton SyncService`)
/// ```swift
/// final class Player {
///   /// Set by 'AppRoot' right after it makes both: 'SyncService' needs this 'Player' while it is made; weak, as 'AppRoot' owns it.
///   weak var reporting: Reporting!
/// }
/// final class SyncService {
/// }
/// final class AppRoot {
///   /// Made together: 'SyncService' needs 'Player' while it is made; 'Player' is given 'SyncService' after.
///   private let (player, syncService): (Player, SyncService) = {
///     let player = Player()
///     let syncService = SyncService(nowPlaying: player)
///     player.reporting = syncService
///     return (player, syncService)
///   }()
///   func makeProgress() -> ProgressScreen { ProgressScreen(syncProviding: syncService) }
/// }
/// ```
extension FinishPlanner {
  public static func runTogether(
    singletons: [Singleton], options: FinishOptions, project: Project, rewrite: ((Plan) throws -> Project)? = nil
  ) throws -> (plan: Plan, reports: [FinishReport]) {
    let together = try Together(singletons: singletons, options: options, project: project, rewrite: rewrite)
    var plan = Plan()
    var reports: [FinishReport] = []
    if let declaration = try together.rootDeclaration(project: project) { plan.add(declaration, in: together.root.path) }
    for design in together.designs {
      let (own, report) = try write(design, project: project)
      // Each singleton's notes are its own: one said about another is said again.
      var notes: Set<Note> = []
      try add(own, to: &plan, notes: &notes, conflict: "the singletons finished together would change this code differently; finish them one at a time")
      reports.append(report)
    }
    try together.writeBackEdges(project: project, plan: &plan)
    return (plan, reports)
  }
}

/// What `finish` decided for singletons finished together: each one's design (made as alone, with
/// the uses the others' making replaces set apart), the order their accessors need them in, and the
/// properties set after creation.
struct Together {
  struct BackEdge {
    /// The singleton whose property it is, the property, and the singleton it is set to.
    var owner: String
    var property: String
    var value: String
    var type: String
    var declaration: VariableDeclSyntax
    var path: String
  }

  var designs: [FinishDesign]
  var root: TypeDecl
  /// Each singleton's name in the root, by type.
  var names: [String: String]
  /// The singletons each one's accessor needs while it is made.
  var needs: [String: Set<String>] = [:]
  /// In each singleton's accessor, the uses of the others' accessors, and the name each becomes.
  var inAccessor: [String: [(Range<Int>, String)]] = [:]
  var backEdges: [BackEdge] = []
  var order: [String] = []

  init(singletons: [Singleton], options: FinishOptions, project: Project, rewrite: ((Plan) throws -> Project)?) throws {
    let all = Set(singletons.map(\.typeName))
    var designs: [FinishDesign] = []
    for singleton in singletons {
      var own = options
      own.together = all.subtracting([singleton.typeName])
      var design = try FinishPlanner.decide(singleton: singleton, options: own, project: project, rewrite: rewrite)
      design.declaredTogether = true
      try Self.check(design)
      designs.append(design)
    }
    self.designs = designs
    root = designs[0].rootDecl
    guard root.kind == .class else {
      throw Refusal(
        "'\(root.qualifiedName)' is not a class: its one stored property holding the instances made together would need a class; make them in its init by hand",
        at: root.location)
    }
    names = Dictionary(uniqueKeysWithValues: designs.map { ($0.singleton.typeName, $0.name) })
    for design in designs {
      for item in design.madeTogether {
        guard let owner = item.typeName else { continue }
        if MadeTogether.accessorMaking(item.reference, in: owner, project: project) != nil {
          needs[owner, default: []].insert(design.singleton.typeName)
          inAccessor[owner, default: []].append((item.reference.range.bytes, design.name))
        } else if let edge = try MadeTogether.backEdge(of: item.reference, project: project) {
          backEdges.append(
            BackEdge(
              owner: owner, property: edge.name, value: design.singleton.typeName, type: edge.type, declaration: edge.declaration,
              path: item.reference.range.path))
        }
      }
    }
    order = try Self.creationOrder(designs.map(\.singleton.typeName), needs: needs, at: designs[0].singleton.declaration.start)
    switch options.container {
    case .swinject: try registerTogether(project: project)
    case .dependencies: try liveTogether(project: project)
    case nil: break
    }
  }

  /// What finishing one of them as alone cannot carry over.
  static func check(_ design: FinishDesign) throws {
    if design.keepsAccessor {
      throw Refusal("'\(design.singleton.typeName)' is declared in Objective-C; finish it alone", at: design.singleton.declaration.start)
    }
    if let owner = design.owner {
      throw Refusal(
        "'\(design.root)' holds '\(design.singleton.accessExpression)' in a stored property; finished together, the instances are made in one property: finish it alone, or change that property by hand",
        at: owner.location)
    }
    if let test = design.remaining.first(where: { $0.kind == .test }) {
      throw Refusal(
        "'\(design.singleton.accessExpression)' is used by a test\(test.typeName.map { " '\($0)'" } ?? ""); singletons finished together are made by the root only: let the test make them through the root, or change it by hand",
        at: test.reference.location)
    }
  }

  /// The singletons in an order where each comes after those its accessor needs (stable otherwise);
  /// a refusal when their accessors need each other.
  static func creationOrder(_ types: [String], needs: [String: Set<String>], at place: Location) throws -> [String] {
    var order: [String] = []
    var left = types
    while !left.isEmpty {
      guard let next = left.first(where: { (needs[$0] ?? []).isSubset(of: Set(order)) }) else {
        throw Refusal(
          "\(left.map { "'\($0)'" }.joined(separator: " and ")) each need the other while they are made; let one of them take the other after it is made ('inject' gives a type in a creation cycle properties set after creation), then finish them together",
          at: place)
      }
      order.append(next)
      left.removeAll { $0 == next }
    }
    return order
  }

  /// Who needs whom, for the root's comment.
  var facts: String {
    var facts = order.compactMap { typeName -> String? in
      guard let needed = needs[typeName], !needed.isEmpty else { return nil }
      return "'\(typeName)' needs \(order.filter(needed.contains).map { "'\($0)'" }.joined(separator: " and ")) while it is made"
    }
    facts += backEdges.map { "'\($0.owner)' is given '\($0.value)' after" }
    return facts.isEmpty ? "the singletons finished in one run" : facts.joined(separator: "; ")
  }

  /// The root's declaration of them all: one stored property making them in order and setting the
  /// properties set after creation, or (Swinject) one `Assembler` for all their assemblies; with
  /// swift-dependencies, whose live values are made on first use, a `@Dependency` per slice it reads.
  func rootDeclaration(project: Project) throws -> TextEdit? {
    let source = try project.file(root.path).source
    let unit = source.indentUnit
    let indent = root.members.first.map { source.indentation(at: $0.range.bytes.lowerBound) }
      ?? source.indentation(at: root.range.bytes.lowerBound) + unit
    let properties = order.map { names[$0] ?? $0 }
    // The widest any singleton's uses need.
    let access = designs.map(\.propertyAccess).max() ?? .private
    var lines: [String]
    if let container = designs[0].container, container.design.kind == .dependencies {
      lines = designs.flatMap { $0.container?.rootProperties ?? [] }
      if lines.isEmpty { return nil }
    } else if let container = designs[0].container {
      let assembler = container.design.assemblerName
      let assemblies = order.compactMap { type in designs.first { $0.singleton.typeName == type }?.container?.design.assemblyName }
      lines = ["/// Made together: \(facts).\(backEdges.isEmpty ? "" : " '\(order[0])' is resolved first, so that each is made once.")"]
      if backEdges.isEmpty {
        lines.append("private let \(assembler) = Assembler([\(assemblies.map { $0 + "()" }.joined(separator: ", "))])")
      } else {
        lines += [
          "private let \(assembler): Assembler = {",
          unit + "let \(assembler) = Assembler([\(assemblies.map { $0 + "()" }.joined(separator: ", "))])",
          unit + "_ = \(assembler).resolver.resolve(\(order[0]).self)",
          unit + "return \(assembler)",
          "}()",
        ]
      }
      lines += order.map { "\(access.written)var \(names[$0] ?? $0): \($0) { \(assembler).resolver.resolve(\($0).self)! }" }
    } else {
      lines = [
        "/// Made together: \(facts).",
        "\(access.written)let (\(properties.joined(separator: ", "))): (\(order.joined(separator: ", "))) = {",
      ]
      for typeName in order {
        guard let design = designs.first(where: { $0.singleton.typeName == typeName }) else { continue }
        let members = project.index.declarations(of: typeName).flatMap(\.members)
        let creation = try FinishPlanner.instanceExpression(
          design.singleton, members: members, project: project, replacing: inAccessor[typeName] ?? [])
        lines.append(unit + "let \(design.name)\(creation.type.map { ": \($0)" } ?? "") = \(creation.expression)")
      }
      lines += backEdges.map { unit + "\(names[$0.owner] ?? $0.owner).\($0.property) = \(names[$0.value] ?? $0.value)" }
      lines += [unit + "return (\(properties.joined(separator: ", ")))", "}()"]
    }
    let le = source.lineEnding
    let open = root.bodyOpen
    let nextLine = source.lineEnd(of: open)
    let blankFollows = nextLine < source.bytes.count && source.isBlank(nextLine..<source.lineEnd(of: nextLine))
    return .insert(le + lines.map { indent + $0 }.joined(separator: le) + (blankFollows ? "" : le), at: open)
  }

  /// Swinject: no assembly registers another singleton of the group as a type that receives its
  /// protocols; each one resolves the singletons its accessor needed, and sets its properties set
  /// after creation in `initCompleted`.
  mutating func registerTogether(project: Project) throws {
    let all = Set(designs.map(\.singleton.typeName))
    for position in designs.indices {
      guard var container = designs[position].container else { continue }
      let typeName = designs[position].singleton.typeName
      container.design.consumers.removeAll { all.contains($0.typeName) }
      let needed = order.filter { needs[typeName]?.contains($0) == true }
      container.design.resolved = needed.map { (names[$0] ?? lowerCamel($0), $0) }
      let members = project.index.declarations(of: typeName).flatMap(\.members)
      container.design.creation = try FinishPlanner.instanceExpression(
        designs[position].singleton, members: members, project: project, replacing: inAccessor[typeName] ?? []
      ).expression
      container.design.completions = backEdges.filter { $0.owner == typeName }.map {
        (property: $0.property, name: names[$0.value] ?? lowerCamel($0.value), type: $0.value)
      }
      designs[position].container = container
    }
  }

  /// swift-dependencies: each live value reads the ones its accessor needed from `DependencyValues`
  /// (`Dependency(\\.nowPlayingProvider).wrappedValue`), made on first use like the live values.
  mutating func liveTogether(project: Project) throws {
    for position in designs.indices {
      guard var container = designs[position].container else { continue }
      let typeName = designs[position].singleton.typeName
      var replacements: [(Range<Int>, String)] = []
      for design in designs where design.singleton.typeName != typeName {
        let slices = Set(design.container?.design.slices.map(\.name) ?? [])
        for item in design.madeTogether where item.typeName == typeName {
          guard MadeTogether.accessorMaking(item.reference, in: typeName, project: project) != nil else { continue }
          guard let slice = try ContainerPlanner.sliceOfArgument(item.reference, slices: slices, project: project),
            let property = design.container?.design.slices.first(where: { $0.name == slice })?.property
          else {
            throw Refusal(
              "'\(design.singleton.accessExpression)' is not passed here as one of its protocols, which swift-dependencies would read; finish them without --container, or with --container swinject",
              at: item.reference.location)
          }
          replacements.append((item.reference.range.bytes, "Dependency(\\.\(property)).wrappedValue"))
        }
      }
      let members = project.index.declarations(of: typeName).flatMap(\.members)
      container.design.creation = try FinishPlanner.instanceExpression(
        designs[position].singleton, members: members, project: project, replacing: replacements
      ).expression
      designs[position].container = container
    }
  }

  /// Each property set after creation is the root's to set: `weak`, since the root owns what it
  /// points to, and implicitly unwrapped, since nothing uses it before the root sets it. With
  /// swift-dependencies it reads the slice's `@Dependency` at each use instead.
  func writeBackEdges(project: Project, plan: inout Plan) throws {
    let index = project.index
    if let writer = designs[0].container, writer.design.kind == .dependencies {
      try readBackEdges(writer, project: project, plan: &plan)
      return
    }
    for edge in backEdges {
      let file = try project.file(edge.path)
      let protocolType = index.primaryDeclaration(of: index.resolveType(edge.type))
      let classBound = protocolType?.inherited.contains { $0 == "AnyObject" || $0 == "class" } ?? false
      let type = classBound ? "\(edge.type)!" : "(any \(edge.type) & AnyObject)!"
      let start = edge.declaration.positionAfterSkippingLeadingTrivia.utf8Offset
      plan.add(
        TextEdit(range: start..<edge.declaration.endPositionBeforeTrailingTrivia.utf8Offset, replacement: "weak var \(edge.property): \(type)"),
        in: edge.path)
      let setter = designs[0].container == nil ? "'\(root.qualifiedName)' right after it makes both" : "the container once both are made"
      let owner = designs[0].container == nil ? "'\(root.qualifiedName)'" : "its container"
      let said = "/// Set by \(setter): '\(edge.value)' needs this '\(edge.owner)' while it is made; weak, as \(owner) owns it."
      if let edit = MadeTogether.commentEdit(edge.declaration, needing: edge.value, owner: lastComponent(edge.owner), with: said) {
        plan.add(edit, in: edge.path)
      }
      plan.notes.append(
        Note(.changed, "'\(edge.owner).\(edge.property)' is weak now, set by \(setter)", at: Note.Place(line: file.source.location(ofOffset: start))))
    }
  }

  /// swift-dependencies: `lazy var reporting: Reporting = SyncService.shared` becomes
  /// `@Dependency(\\.reporting) var reporting`, resolved at each use, when both live values exist.
  func readBackEdges(_ writer: ContainerWriter, project: Project, plan: inout Plan) throws {
    let index = project.index
    for edge in backEdges {
      let file = try project.file(edge.path)
      let slices = designs.first { $0.singleton.typeName == edge.value }?.container?.design.slices ?? []
      guard let slice = slices.first(where: { $0.name == index.resolveType(edge.type) }) else {
        throw Refusal(
          "'\(edge.owner).\(edge.property)' is typed '\(edge.type)', which is not one of the protocols '\(edge.value)' is registered under; finish them without --container",
          at: file.source.location(ofOffset: edge.declaration.positionAfterSkippingLeadingTrivia.utf8Offset))
      }
      let start = edge.declaration.positionAfterSkippingLeadingTrivia.utf8Offset
      plan.add(
        TextEdit(
          range: start..<edge.declaration.endPositionBeforeTrailingTrivia.utf8Offset,
          replacement: "@Dependency(\\.\(slice.property)) var \(edge.property)"),
        in: edge.path)
      let said = "/// Read at each use: '\(edge.value)' needs this '\(edge.owner)' while it is made, and both are live values made on first use."
      if let edit = MadeTogether.commentEdit(edge.declaration, needing: edge.value, owner: lastComponent(edge.owner), with: said) {
        plan.add(edit, in: edge.path)
      }
      if let edit = writer.importEdit(in: file), !(plan.edits[edge.path] ?? []).contains(edit) { plan.add(edit, in: edge.path) }
      plan.notes.append(
        Note(
          .changed, "'\(edge.owner).\(edge.property)' reads '\\.\(slice.property)' with @Dependency at each use",
          at: Note.Place(line: file.source.location(ofOffset: start))))
    }
  }
}
