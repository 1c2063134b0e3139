import SwiftParser
import SwiftSyntax

/// Writes a `MockDesign` as a Swift file: the header, the imports, and the double in its shape.
///
/// Every requirement gets mockolo's members: a property `x` gets `xSetCallCount`; a method `f`
/// gets `fCallCount`, `fArgValues` (the arguments that can be kept, one tuple per call when there
/// are several) and `fHandler`, which the method calls. In a locked shape (`Sendable`, actor) every
/// piece of state is private behind the lock and read or set through a property of the same name
/// without the underscore; the handler runs outside the lock, so it may call the mock again.
struct MockWriter {
  let design: MockDesign

  private var indent: String { design.indent }

  /// The locks' names: `lock` and `staticLock`, unless a requirement has that name.
  private var lockNames: (instance: String, type: String) {
    let taken = Set(
      flattened(design.items).map { item -> String in
        switch item {
        case .property(let property): property.name
        case .method(let method): method.name
        }
      }
    )
    return (
      taken.contains("lock") ? "mockLock" : "lock", taken.contains("staticLock") ? "mockStaticLock" : "staticLock"
    )
  }
  private var guarded: Bool { design.shape.isGuarded }

  func file() -> String {
    var body = ""
    var header = design.imports.map { $0 + "\n" }.joined()
    for block in design.conditionedImports {
      header += "#if \(block.condition)\n" + block.lines.joined(separator: "\n") + "\n#endif\n"
    }
    if !header.isEmpty { body += header + "\n" }
    if let condition = design.condition {
      body += "#if \(condition)\n"
      if !design.innerImports.isEmpty { body += design.innerImports.joined(separator: "\n") + "\n\n" }
    }
    body += declaration().joined(separator: "\n") + "\n"
    if design.condition != nil { body += "#endif\n" }
    return MockHeader.header(protocolName: design.protocolName, body: body) + body
  }

  private func declaration() -> [String] {
    var lines: [String] = []
    let name = design.mockName
    let conformance = design.protocolName
    switch design.shape {
    case .globalActor(let attribute):
      lines += [attribute, "final class \(name): \(conformance) {"]
    case .sendable:
      lines.append("final class \(name): \(conformance), @unchecked Sendable {")
    case .actor:
      lines.append("actor \(name): \(conformance) {")
    case .plain:
      lines.append("final class \(name): \(conformance) {")
    }
    var blocks: [[String]] = []
    let all = flattened(design.items)
    if guarded {
      var locks: [String] = []
      if all.contains(where: { !$0.isStatic }) { locks.append("private let \(lockNames.instance) = NSLock()") }
      if all.contains(where: \.isStatic) { locks.append("private static let \(lockNames.type) = NSLock()") }
      if !locks.isEmpty { blocks.append(locks) }
    }
    let initialized = all.compactMap { item -> MockProperty? in
      guard case .property(let property) = item, needsInitParameter(property) else { return nil }
      return property
    }
    if !initialized.isEmpty {
      // A closure stored in the mock escapes the init (`@escaping () -> Void`); an optional one already does.
      let parameters = initialized.map { "\($0.name): \(Self.isFunctionType($0.type) ? "@escaping " : "")\($0.type)" }
        .joined(separator: ", ")
      blocks.append(
        ["init(\(parameters)) {"] + initialized.map { indent + "self.\(guarded ? "_" : "")\($0.name) = \($0.name)" } + [
          "}"
        ]
      )
    }
    blocks += design.items.map(lines(for:))
    lines += blocks.enumerated().flatMap { position, block in
      (position == 0 ? [] : [""]) + block.map { $0.isEmpty ? $0 : indent + $0 }
    }
    lines.append("}")
    return lines
  }

  private enum Flat {
    case property(MockProperty)
    case method(MockMethod)
    var isStatic: Bool {
      switch self {
      case .property(let property): property.isStatic
      case .method(let method): method.isStatic
      }
    }
  }

  private func flattened(_ items: [MockItem]) -> [Flat] {
    items.flatMap { item -> [Flat] in
      switch item {
      case .property(let property): [.property(property)]
      case .method(let method): [.method(method)]
      case .conditional(let clauses): clauses.flatMap { flattened($0.items) }
      }
    }
  }

  private func needsInitParameter(_ property: MockProperty) -> Bool {
    property.defaultValue == nil && !property.isStatic && !property.isConditional
  }

  private func lines(for item: MockItem) -> [String] {
    switch item {
    case .property(let property):
      return lines(for: property)
    case .method(let method):
      return lines(for: method)
    case .conditional(let clauses):
      var result: [String] = []
      for clause in clauses {
        result.append(clause.directive)
        let inner = clause.items.map(lines(for:))
        result += inner.enumerated().flatMap { position, block in (position == 0 ? [] : [""]) + block }
      }
      result.append("#endif")
      return result
    }
  }

  // MARK: State

  /// The lock that guards a member's state.
  private func lock(_ isStatic: Bool) -> String { isStatic ? lockNames.type : lockNames.instance }

  /// `static` and the isolation words a stored property needs in this shape.
  private func storedPrefix(_ isStatic: Bool) -> String {
    switch design.shape {
    case .globalActor: isStatic ? "static " : ""
    case .plain: isStatic ? "nonisolated(unsafe) static " : ""
    case .sendable: isStatic ? "nonisolated(unsafe) static " : ""
    case .actor: isStatic ? "nonisolated(unsafe) static " : "nonisolated(unsafe) "
    }
  }

  /// The words before a guarded shape's public accessor of its state.
  private func accessorPrefix(_ isStatic: Bool) -> String {
    if isStatic { return "static " }
    return design.shape == .actor ? "nonisolated " : ""
  }

  /// A piece of state tests read but do not set (a count, the arguments).
  private func readOnly(_ name: String, _ type: String, _ initial: String, isStatic: Bool) -> [String] {
    if !guarded {
      return ["private(set) \(storedPrefix(isStatic))var \(name): \(type) = \(initial)"]
    }
    return [
      "private \(storedPrefix(isStatic))var _\(name): \(type) = \(initial)",
      "\(accessorPrefix(isStatic))var \(name): \(type) { \(lock(isStatic)).withLock { _\(name) } }",
    ]
  }

  /// A piece of state tests set (a handler).
  private func settable(_ name: String, _ type: String, isStatic: Bool) -> [String] {
    if !guarded {
      return ["\(storedPrefix(isStatic))var \(name): \(type)"]
    }
    let lock = lock(isStatic)
    return [
      "private \(storedPrefix(isStatic))var _\(name): \(type)",
      "\(accessorPrefix(isStatic))var \(name): \(type) {",
      indent + "get { \(lock).withLock { _\(name) } }",
      indent + "set { \(lock).withLock { _\(name) = newValue } }",
      "}",
    ]
  }

  // MARK: Properties

  private func lines(for property: MockProperty) -> [String] {
    let name = property.name
    let type = property.type
    let isStatic = property.isStatic
    let count = name + "SetCallCount"
    var result = readOnly(count, "Int", "0", isStatic: isStatic)
    let mustBeSet = property.defaultValue == nil && !needsInitParameter(property)
    let unset = "fatalError(\"set \(name)\")"
    if !guarded {
      if mustBeSet {
        result += [
          "private \(storedPrefix(isStatic))var _\(name): \(type)?",
          "\(isStatic ? "static " : "")var \(name): \(type) {",
          indent + "get {",
          indent + indent + "guard let _\(name) else { \(unset) }",
          indent + indent + "return _\(name)",
          indent + "}",
          indent + "set {",
          indent + indent + "_\(name) = newValue",
          indent + indent + "\(count) += 1",
          indent + "}",
          "}",
        ]
      } else {
        let initial = property.defaultValue.map { " = \($0)" } ?? ""
        result.append("\(storedPrefix(isStatic))var \(name): \(type)\(initial) { didSet { \(count) += 1 } }")
      }
      return result
    }
    let lock = lock(isStatic)
    let storage = "private \(storedPrefix(isStatic))var _\(name): \(type)"
    if mustBeSet {
      result += [
        storage + "?",
        "\(accessorPrefix(isStatic))var \(name): \(type) {",
        indent + "get {",
        indent + indent + "guard let value = \(lock).withLock({ _\(name) }) else { \(unset) }",
        indent + indent + "return value",
        indent + "}",
      ]
    } else {
      result += [
        storage + (property.defaultValue.map { " = \($0)" } ?? ""),
        "\(accessorPrefix(isStatic))var \(name): \(type) {",
        indent + "get { \(lock).withLock { _\(name) } }",
      ]
    }
    result += [indent + "set { \(lock).withLock { _\(name) = newValue; _\(count) += 1 } }", "}"]
    return result
  }

  // MARK: Methods

  private func lines(for method: MockMethod) -> [String] {
    let base = method.mockName
    let isStatic = method.isStatic
    let count = base + "CallCount"
    let values = base + "ArgValues"
    let handler = base + "Handler"
    let stored = method.parameters.filter { $0.storedType != nil }
    var storedType: String?
    var storedValue = ""
    // An argument of a generic type is passed as `Any` explicitly (an optional one would warn).
    func value(_ parameter: MockMethod.Parameter) -> String { parameter.name + (parameter.isErased ? " as Any" : "") }
    if stored.count == 1, let type = stored[0].storedType {
      storedType = type
      storedValue = value(stored[0])
    } else if stored.count > 1 {
      storedType = "(" + stored.map { "\($0.name): \($0.storedType ?? "")" }.joined(separator: ", ") + ")"
      storedValue = "(" + stored.map { "\($0.name): \(value($0))" }.joined(separator: ", ") + ")"
    }

    var result = readOnly(count, "Int", "0", isStatic: isStatic)
    if let storedType { result += readOnly(values, "[\(storedType)]", "[]", isStatic: isStatic) }
    result += settable(handler, handlerType(of: method), isStatic: isStatic)

    var body: [String] = []
    let handlerValue: String
    if guarded {
      // The local must not hide a parameter (`observe(_ handler:)`).
      let local = method.parameters.contains { $0.name == "handler" } ? handler : "handler"
      body.append("let \(local) = \(lock(isStatic)).withLock {")
      body.append(indent + "_\(count) += 1")
      if storedType != nil { body.append(indent + "_\(values).append(\(storedValue))") }
      body.append(indent + "return _\(handler)")
      body.append("}")
      handlerValue = local
    } else {
      body.append("\(count) += 1")
      if storedType != nil { body.append("\(values).append(\(storedValue))") }
      handlerValue = handler
    }
    let arguments = method.parameters.map { ($0.isInout ? "&" : "") + value($0) }.joined(separator: ", ")
    let call =
      (method.handlerThrows != nil ? "try " : "") + (method.isAsync ? "await " : "") + "\(handlerValue)(\(arguments))"
    body.append("if let \(handlerValue) {")
    if let returnType = method.returnType {
      if method.castsResult {
        body.append(indent + "if let result = \(call) as? \(returnType) { return result }")
        body.append(indent + "fatalError(\"\(handler) returned a value that is not a '\(returnType)'\")")
      } else {
        body.append(indent + "return \(call)")
      }
    } else {
      body.append(indent + call)
    }
    body.append("}")
    if method.returnType != nil {
      body.append(method.defaultResult.map { "return \($0)" } ?? "fatalError(\"set \(handler)\")")
    }
    result.append(method.signature + " {")
    result += body.map { indent + $0 }
    result.append("}")
    return result
  }

  private func handlerType(of method: MockMethod) -> String {
    let parameters = method.parameters.map(\.handlerType).joined(separator: ", ")
    var effects = method.isAsync ? " async" : ""
    if let throwsClause = method.handlerThrows { effects += " " + throwsClause }
    let result = method.castsResult ? "Any" : (method.returnType ?? "Void")
    let attribute: String
    switch design.shape {
    case .globalActor(let actor): attribute = actor + " "
    case .sendable, .actor: attribute = "@Sendable "
    case .plain: attribute = ""
    }
    return "(\(attribute)(\(parameters))\(effects) -> \(result))?"
  }
}

extension MockWriter {
  /// Whether a written type is a function type (`() -> Void`, `@Sendable (Int) -> Void`), not an
  /// optional of one or a type that holds one (`[() -> Void]`).
  static func isFunctionType(_ written: String) -> Bool {
    var parser = Parser(written)
    var type = TypeSyntax.parse(from: &parser)
    if let attributed = type.as(AttributedTypeSyntax.self) { type = attributed.baseType }
    return type.is(FunctionTypeSyntax.self)
  }
}
