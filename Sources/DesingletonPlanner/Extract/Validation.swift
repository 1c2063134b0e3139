import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftParser
import SwiftSyntax

extension ExtractProtocolPlanner {
  static func normalizedPath(_ path: String) -> String {
    var parts: [Substring] = []
    for part in path.split(separator: "/", omittingEmptySubsequences: true) where part != "." { parts.append(part) }
    return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
  }

  static func validate(
    _ slices: [Slice], singleton: Singleton, primary: TypeDecl, members: [MemberDecl], conformed: Set<String>,
    index: Index
  ) throws {
    var diagnostics: [Diagnostic] = []
    var owner: [String: String] = [:]
    for slice in slices {
      let existing = index.types(named: slice.name).flatMap { index.declarations(of: $0) }
      let existingProtocol = existing.first { $0.kind == .protocol }
      if slice.name == singleton.simpleTypeName {
        diagnostics.append(.error("slice '\(slice.name)' has the singleton's own name", at: primary.location))
      } else if existingProtocol == nil, let clash = existing.first {
        diagnostics.append(.error("slice '\(slice.name)' clashes with \(clash.kind.rawValue) '\(clash.qualifiedName)', which is not a protocol", at: clash.location))
      } else if let existingProtocol, !conformed.contains(slice.name),
        let missing = unmetRequirement(
          of: index.resolveType(slice.name), by: singleton, primary: primary, members: members, index: index)
      {
        diagnostics.append(
          .error(
            "slice '\(slice.name)' names an existing protocol that '\(singleton.typeName)' does not conform to and "
              + "cannot: \(missing); choose another name", at: existingProtocol.location))
        continue
      }
      if slice.members.isEmpty {
        diagnostics.append(.error("slice '\(slice.name)' names no members", at: primary.location))
      }
      for name in slice.members {
        if let other = owner[name] {
          diagnostics.append(.error("member '\(name)' is named in two slices, '\(other)' and '\(slice.name)'", at: primary.location))
          continue
        }
        owner[name] = slice.name
        let matching = members.filter { $0.name == name && [.property, .method, .subscript].contains($0.kind) }
        if matching.isEmpty {
          // A member moved into an existing slice protocol (or its extension) by an earlier run.
          if existingProtocol != nil, existing.contains(where: { $0.members.contains { $0.name == name } }) { continue }
          if name == "init" || members.contains(where: { $0.name == name }) {
            diagnostics.append(.error("'\(name)' cannot be a protocol requirement", at: primary.location))
          } else {
            diagnostics.append(.error("'\(singleton.typeName)' has no member '\(name)'", at: primary.location))
          }
          continue
        }
        if existingProtocol != nil {
          // An existing protocol is reused as it is: a member it does not declare would silently stay out.
          if !existing.contains(where: { $0.members.contains { $0.name == name } }) {
            diagnostics.append(
              .error("slice '\(slice.name)' exists already and does not declare '\(name)'; name it in a new slice", at: primary.location))
          }
          continue
        }
        for member in matching where singleton.accessors.contains(member.name) || member.name == singleton.backingStorage {
          diagnostics.append(.error("'\(name)' is the singleton's accessor and cannot be sliced", at: member.location))
        }
        // A name covers the members of that name that can be requirements; a private one of the same
        // name simply stays. Only a name that is private and nothing else is refused.
        if !matching.contains(where: { ($0.access ?? .internal) > .fileprivate }) {
          for member in matching {
            if let access = member.access, access <= .fileprivate {
              diagnostics.append(.error("'\(name)' is \(access.keyword) and cannot be a protocol requirement; make it internal or leave it out of the slice", at: member.location))
            }
          }
        }
      }
    }
    if !diagnostics.isEmpty { throw Refusal(diagnostics) }
  }

  /// What keeps the singleton from conforming to an existing protocol it does not conform to yet:
  /// a requirement no member of the singleton matches by kind, name, labels and staticness, a
  /// refined protocol the index does not declare, or an isolation the singleton does not share.
  static func unmetRequirement(
    of protocolName: String, by singleton: Singleton, primary: TypeDecl, members: [MemberDecl], index: Index,
    visiting: Set<String> = []
  ) -> String? {
    guard !visiting.contains(protocolName) else { return nil }
    let all = index.declarations(of: protocolName)
    let declarations = all.filter { $0.kind == .protocol }
    guard !declarations.isEmpty else { return "'\(protocolName)' is not a protocol this project declares" }
    // A requirement the protocol's own extensions implement asks nothing of the singleton.
    let implemented = Set(all.filter(\.isExtension).flatMap(\.members).map(ProvidedMembers.Signature.init))
    let own = Set(members.filter { ($0.access ?? .internal) > .fileprivate }.map(ProvidedMembers.Signature.init))
    let singletonIsolation = primary.attributes.first(where: index.isGlobalActorAttribute)
    for declaration in declarations {
      for member in declaration.members {
        switch member.kind {
        case .property, .method, .subscript:
          let signature = ProvidedMembers.Signature(member)
          if implemented.contains(signature) { continue }
          if !own.contains(signature) {
            return "it requires '\(member.displayName)', which '\(singleton.typeName)' does not have"
          }
          // The same name and labels with another type is another member (`func load() -> Int` is not `-> String`).
          let candidates = members.filter { ProvidedMembers.Signature($0) == signature && ($0.access ?? .internal) > .fileprivate }
          if let required = member.typeText,
            !candidates.contains(where: { $0.typeText.map { sameType($0, required) } ?? true })
          {
            return "it requires '\(member.displayName)' of type '\(required)', which '\(singleton.typeName)' does not have"
          }
          if member.kind == .property, member.isSettable,
            !members.contains(where: {
              ProvidedMembers.Signature($0) == signature && $0.isSettable && ($0.setterAccess ?? .internal) > .fileprivate
            })
          {
            return "it requires '\(member.name)' to be settable"
          }
        case .associatedType, .initializer:
          return "it requires \(member.kind == .initializer ? "an initializer" : "associated type '\(member.name)'")"
        default:
          continue
        }
      }
      if let isolation = singletonIsolation, !declaration.attributes.contains(isolation) {
        return "it is not \(isolation) like '\(singleton.typeName)'"
      }
      for written in declaration.inherited {
        switch written {
        case "AnyObject" where [.class, .actor].contains(primary.kind): continue
        case "Actor" where primary.kind == .actor: continue
        case "Sendable" where singletonIsolation != nil || primary.kind == .actor
          || primary.inherited.contains("Sendable") || primary.inherited.contains("@unchecked Sendable"):
          continue
        default:
          if let missing = unmetRequirement(
            of: index.resolveType(written), by: singleton, primary: primary, members: members, index: index,
            visiting: visiting.union([protocolName]))
          {
            return missing
          }
        }
      }
    }
    return nil
  }

  /// Whether two types as written are the same type: spaces aside, and a qualified name matching its short form.
  static func sameType(_ left: String, _ right: String) -> Bool {
    let (a, b) = (left.filter { !$0.isWhitespace }, right.filter { !$0.isWhitespace })
    return a == b || a.hasSuffix("." + b) || b.hasSuffix("." + a)
  }
}
