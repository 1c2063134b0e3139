import DesingletonCore
import DesingletonIndex
import SwiftSyntax

/// The uses of a singleton's accessor that belong to other singletons made with it: in their
/// accessors (`static let shared = SyncService(nowPlaying: Player.shared)`) and in their properties
/// set after creation (`lazy var reporting: Reporting = SyncService.shared`, which `inject` gives a
/// type in a creation cycle). `finish` with all of them makes them together and replaces those uses;
/// finishing one alone, they are what says to finish them together.
public enum MadeTogether {
  /// Whether a remaining use of the accessor is one that the root's making of the singletons
  /// finished with it replaces: in another one's accessor (`static let shared = SyncService(nowPlaying: Player.shared)`),
  /// or the initial value of another one's property set after creation (`lazy var reporting: Reporting = SyncService.shared`).
  public static func isMadeTogether(_ item: RemainingReference, with together: Set<String>, project: Project) throws -> Bool {
    guard let owner = item.typeName, together.contains(owner) else { return false }
    if accessorMaking(item.reference, in: owner, project: project) != nil { return true }
    return try backEdge(of: item.reference, project: project) != nil
  }

  /// The static accessor of the singleton `owner` whose declaration holds the reference.
  public static func accessorMaking(_ reference: Reference, in owner: String, project: Project) -> MemberDecl? {
    guard let other = project.index.singleton(typeName: owner) else { return nil }
    return project.index.members(of: owner).first { member in
      member.isStatic && other.accessors.contains(member.name) && member.range.path == reference.range.path
        && member.range.bytes.lowerBound <= reference.range.bytes.lowerBound && reference.range.bytes.upperBound <= member.range.bytes.upperBound
    }
  }

  /// The property set after creation whose initial value is the reference
  /// (`lazy var reporting: Reporting = SyncService.shared`): its declaration, name and type.
  public static func backEdge(of reference: Reference, project: Project) throws -> (declaration: VariableDeclSyntax, name: String, type: String)? {
    let file = try project.file(reference.range.path)
    guard let node = file.expression(at: reference.range.bytes),
      let binding = node.parent?.as(InitializerClauseSyntax.self)?.parent?.as(PatternBindingSyntax.self),
      let type = binding.typeAnnotation?.type, isSetAfterCreationProperty(binding, type, instance: node),
      let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
      let declaration = binding.parent?.parent?.as(VariableDeclSyntax.self), declaration.bindings.count == 1
    else { return nil }
    return (declaration, name, type.trimmedDescription)
  }

  /// The doc comment `inject` writes above a property set after creation: `needing` is the singleton
  /// whose accessor needs `owner` while it is made.
  public static func setAfterCreationComment(needing: String, owner: String) -> String {
    "/// Set after creation by whoever makes both: '\(needing)' needs this '\(owner)' while it is made."
  }

  /// The edit that replaces that comment above the property's declaration, if it is still there.
  static func commentEdit(_ declaration: VariableDeclSyntax, needing: String, owner: String, with replacement: String) -> TextEdit? {
    let written = setAfterCreationComment(needing: needing, owner: owner)
    var offset = declaration.position.utf8Offset
    for piece in declaration.leadingTrivia {
      let length = piece.sourceLength.utf8Length
      if case .docLineComment(let text) = piece, text == written {
        return TextEdit(range: offset..<offset + length, replacement: replacement)
      }
      offset += length
    }
    return nil
  }
}
