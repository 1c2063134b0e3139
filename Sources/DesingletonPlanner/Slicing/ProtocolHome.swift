import DesingletonIndex
import Foundation

/// Where a singleton's new protocols live: next to its declaration; for a class declared in
/// Objective-C, among the Swift code that uses it (a header's folder may be a C-family target's,
/// which holds no Swift): the folder most references to the accessor are in. The one answer for
/// where `extract-protocol` writes them and for the access they need (`SliceVisibility`).
enum ProtocolHome {
  static func directory(primary: TypeDecl, references: [Reference], index: Index) -> String {
    let declared = (primary.path as NSString).deletingLastPathComponent
    guard index.isObjectiveC(primary.path) else { return declared }
    var counts: [String: Int] = [:]
    for reference in references {
      counts[(reference.range.path as NSString).deletingLastPathComponent, default: 0] += 1
    }
    return counts.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key ?? declared
  }

  /// The file whose Xcode targets a new protocol file joins: the singleton's; for a class declared
  /// in Objective-C, the Swift file in the protocols' folder that uses the accessor most (a header
  /// is in no target's sources).
  static func companion(primary: TypeDecl, references: [Reference], index: Index) -> String {
    guard index.isObjectiveC(primary.path) else { return primary.path }
    let directory = directory(primary: primary, references: references, index: index)
    var counts: [String: Int] = [:]
    for reference in references where (reference.range.path as NSString).deletingLastPathComponent == directory {
      counts[reference.range.path, default: 0] += 1
    }
    return counts.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key ?? primary.path
  }

  /// The modules the protocols are declared in.
  static func modules(primary: TypeDecl, references: [Reference], project: Project) -> Set<String> {
    guard project.index.isObjectiveC(primary.path) else { return Set(project.modules.modules(of: primary.path)) }
    let directory = directory(primary: primary, references: references, index: project.index)
    return Set(project.modules.modules(of: directory.isEmpty ? "_.swift" : directory + "/_.swift"))
  }
}
