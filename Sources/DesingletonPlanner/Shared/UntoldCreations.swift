import DesingletonIndex

/// Creations whose type the code does not say (`.init(...)` with no type the context names): which
/// types one may create, asked by every planner that must find each creation of a type.
extension InitCallFinder {
  /// An init's argument labels, whether each has a default, and where its variadic parameters are.
  typealias InitShape = (parameters: [(label: String, hasDefault: Bool)], variadic: [Int])

  /// Whether `.init(...)` whose type the code does not say may create `typeName` through one of
  /// `shapes` (its inits): one of them takes these labels, and in a file that does not name the
  /// type (`unnamed`) what gives it its type is where the call is (`ImplicitTypeGivers.canGive`).
  static func mayCreate(
    _ creation: UnrewritableCreation, _ typeName: String, shapes: [InitShape], unnamed: Bool, project: Project
  ) throws -> Bool {
    let labelsMatch = shapes.contains {
      matches(labels: creation.labels, trailingClosures: creation.trailingClosures, parameters: $0.parameters, variadic: $0.variadic)
    }
    guard labelsMatch, unnamed else { return labelsMatch }
    return try givers(of: typeName, project: project).canGive(creation.argument, label: creation.label)
  }
}
