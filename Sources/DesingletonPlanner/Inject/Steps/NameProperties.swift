import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftSyntax

/// Step 9: the names of the new properties.
extension InjectContext {
  /// A property name per protocol that collides with nothing in the consumer's scope: an alias's or
  /// a held parameter's own name, else the protocol's, numbered when taken.
  func nameProperties(_ named: Consumer) throws -> Consumer {
    var consumer = named
    let typeName = consumer.typeName
    // Names used or declared anywhere in the type, its superclasses' members, and its subclasses'
    // (a stored property named like a subclass's member would be overridden by it).
    var taken = Set(consumer.declarations.flatMap(\.members).map(\.name))
    for step in index.superclassChain(of: typeName) {
      if case .project(let name) = step { taken.formUnion(index.members(of: name).map(\.name)) }
    }
    for subclass in CompositionRoots.madeAs(typeName, index: index).dropFirst() {
      taken.formUnion(index.members(of: subclass).map(\.name))
    }
    // The same in every plan a command weighs: worked out once for these declarations.
    let places = consumer.declarations.map { "\($0.path)@\($0.range.bytes)" }.joined(separator: ", ")
    taken.formUnion(
      try project.answer("names in scope of \(places)") {
        let nodes = try consumer.declarations.compactMap { declaration in
          try project.file(declaration.path).node(at: declaration.range.bytes)
        }
        return NamesInScope.names(in: nodes)
      })
    var groupNames: [Int: String] = [:]
    for protocolName in consumer.protocols {
      if let alias = consumer.aliasProperties[protocolName], case .alias(let name) = alias.use {
        consumer.names[protocolName] = name
        continue
      }
      if let held = consumer.heldParameters[protocolName], case .held(let name) = held.use {
        consumer.names[protocolName] = name
        continue
      }
      // Protocols held together take one name, the held parameter's they go to.
      let group = consumer.combined.firstIndex { $0.protocols.contains(protocolName) }
      if let group, let name = groupNames[group] {
        consumer.names[protocolName] = name
        continue
      }
      let name = NamesInScope.free(group.map { consumer.combined[$0].name } ?? lowerCamel(protocolName), taken: taken)
      taken.insert(name)
      consumer.names[protocolName] = name
      if let group { groupNames[group] = name }
    }
    return consumer
  }
}
