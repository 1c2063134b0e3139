import DesingletonCore
import DesingletonIndex
import Foundation
import SwiftSyntax

/// Step 14: the imports the call sites need, and what the configured types are set to.
extension InjectContext {
  /// A creation site in another module than the singleton's that now passes the accessor names the
  /// singleton's type: its file imports the singleton's module if it does not already.
  func imports(for sites: [CallSite]) throws -> [String: String] {
    let modules = project.modules
    let singletonModules = modules.modules(of: singleton.declaration.path)
    guard !singletonModules.isEmpty else { return [:] }
    var result: [String: String] = [:]
    for site in sites where site.passesAccessor {
      let path = site.call.path
      // A file compiled in some module together with the singleton's file (an iOS and a Mac target
      // sharing both) needs no import.
      guard result[path] == nil, modules.crossesModules(path, singleton.declaration.path) else { continue }
      let module = modules.modules(of: singleton.declaration.path, visibleFrom: path).first ?? singletonModules[0]
      let imported = try project.file(path).tree.statements.contains { item in
        item.item.as(ImportDeclSyntax.self)?.path.first?.name.text == module
      }
      if !imported { result[path] = module }
    }
    return result
  }

  /// Each configuration site with what it assigns: the creator's own property when it holds the
  /// protocol, else the accessor.
  func configuredSites(_ draft: InjectDraft) -> [ConfigurationSite] {
    var result: [ConfigurationSite] = []
    for typeName in draft.order {
      guard let consumer = draft.consumers[typeName], consumer.propertyInjected else { continue }
      for var site in draft.configurationsByType[typeName] ?? [] {
        for protocolName in consumer.protocols {
          var value = accessExpression
          if !site.context.isStatic, let creator = site.context.typeName {
            if let holder = draft.consumers[creator], holder.protocols.contains(protocolName), let name = holder.names[protocolName] {
              value = name
            } else if let held = heldProperty(creator, protocolName) {
              value = held
            }
          }
          site.assignments.append("\(site.variable).\(consumer.name(of: protocolName)) = \(value)")
          if value != accessExpression { site.captured.append(value) }
        }
        result.append(site)
      }
    }
    return result
  }
}
