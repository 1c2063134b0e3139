import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftParser
import SwiftSyntax

/// A requirement or extension member (no indentation) and the `#if` conditions of its declaration.
struct ConditionalText {
  var text: String
  var conditions: [String]

  init(_ text: String, _ conditions: [String]) {
    self.text = text
    self.conditions = conditions
  }

  /// One entry per text, at its first place: a member declared in several `#if` branches is
  /// required under any of their conditions, and unconditionally where those cover every branch
  /// (`within`: the condition the whole protocol already sits in).
  static func merged(_ items: [ConditionalText], within: ConditionLogic.Formula?) -> [ConditionalText] {
    var order: [String] = []
    var alternatives: [String: [[String]]] = [:]
    for item in items {
      if alternatives[item.text] == nil { order.append(item.text) }
      alternatives[item.text, default: []].append(item.conditions)
    }
    return order.map { text in
      let all = alternatives[text] ?? []
      if all.count == 1 && within == nil { return ConditionalText(text, all[0]) }
      guard let any = ConditionLogic.anyOf(all) else { return ConditionalText(text, []) }
      if let formula = ConditionLogic.formula(any), ConditionLogic.implies(within, formula) {
        return ConditionalText(text, [])
      }
      return ConditionalText(text, all.count == 1 ? all[0] : [any])
    }
  }

  /// The texts, each run of texts under the same conditions wrapped in one `#if` ... `#endif`.
  static func blocks(_ items: [ConditionalText], separator: String) -> [String] {
    var blocks: [String] = []
    var position = 0
    while position < items.count {
      let conditions = items[position].conditions
      var end = position
      while end < items.count && items[end].conditions == conditions { end += 1 }
      let texts = items[position..<end].map(\.text)
      if conditions.isEmpty {
        blocks.append(contentsOf: texts)
      } else {
        blocks.append("#if \(condition(conditions))\n" + texts.joined(separator: separator) + "\n#endif")
      }
      position = end
    }
    return blocks
  }

  /// One condition for nested clauses: `A && (B || C)`.
  static func condition(_ conditions: [String]) -> String {
    guard conditions.count > 1 else { return conditions.first ?? "" }
    return conditions.map { text in
      var parser = Parser(text)
      let expression = ExprSyntax.parse(from: &parser)
      return expression.is(SequenceExprSyntax.self) || expression.is(InfixOperatorExprSyntax.self) ? "(\(text))" : text
    }.joined(separator: " && ")
  }
}

/// How the singleton's protocols are declared: isolation, class-bound, Sendable, `@objc`, access.
struct ProtocolTraits {
  var attributes: [String] = []
  var inherited: [String] = []
  var isolation: String?

  /// Slices that must be `@objc` protocols: a member is reached through `#selector` or `#keyPath`,
  /// and every member is `@objc` (so Objective-C can represent it). Other slices are Swift protocols,
  /// even of `@objc` members: nothing dispatches through them with the Objective-C runtime.
  var objcSlices: Set<String> = []
  /// Slices of `@objc` members that are Swift protocols all the same, for a note.
  var swiftSlicesOfObjCMembers: Set<String> = []

  init(
    primary: TypeDecl, declarations: [TypeDecl], members: [MemberDecl], slices: [Slice], index: Index,
    objcDispatched: Set<String> = []
  ) {
    isolation = primary.attributes.first(where: index.isGlobalActorAttribute)
    for slice in slices {
      // A private member sharing a sliced name stays on the singleton: it says nothing about the protocol.
      let own = members.filter {
        slice.members.contains($0.name) && ($0.access ?? .internal) > .fileprivate && !$0.isStatic
          && [.property, .method, .subscript].contains($0.kind)
      }
      if !own.isEmpty && own.allSatisfy({ $0.attributes.contains("@objc") }) {
        if own.contains(where: { objcDispatched.contains($0.name) }) {
          objcSlices.insert(slice.name)
        } else {
          swiftSlicesOfObjCMembers.insert(slice.name)
        }
      }
    }
    let objc = !objcSlices.isEmpty
    if let isolation { attributes.append(isolation) }
    let inheritance = Set(declarations.flatMap(\.inherited))
    switch primary.kind {
    case .class:
      inherited.append("AnyObject")
      if isolation != nil || inheritance.contains("Sendable") || inheritance.contains("@unchecked Sendable") {
        inherited.append("Sendable")
      }
    case .actor:
      inherited.append("Actor")
    default:
      if objc { inherited.append("AnyObject") }
      if inheritance.contains("Sendable") { inherited.append("Sendable") }
    }
  }

  func protocolHeader(name: String, refining parent: String?, access: AccessLevel?) -> String {
    var text = (objcSlices.contains(name) ? ["@objc"] + attributes : attributes).map { $0 + "\n" }.joined()
    text += (access.map { $0.keyword + " " } ?? "") + "protocol \(name)"
    let parents = parent.map { [$0] } ?? inherited
    if !parents.isEmpty { text += ": " + parents.joined(separator: ", ") }
    return text + " {\n"
  }

  var extensionAttributes: String {
    isolation.map { $0 + "\n" } ?? ""
  }
}
