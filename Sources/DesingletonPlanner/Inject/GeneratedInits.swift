import DesingletonCore
import DesingletonIndex

extension InjectWriter {
  /// The init the design generates for a consumer that had none of its own (memberwise, a class's
  /// with its superclass's inits and required inits, or plain).
  func generatedInitLines(
    _ generated: GeneratedInit, of consumer: Consumer, _ texts: InitTexts, indent memberIndent: String, unit: String,
    notes requiredNotes: inout [Note]
  ) -> [String] {
    let (parameters, assignments, singletonAssignments) = (texts.parameters, texts.assignments, texts.singletonAssignments)
    var lines: [String] = []
    let inner = memberIndent + unit
    switch generated {
    case .memberwise(let memberwise, let body):
      lines.append("\(memberIndent)init(\((parameters + memberwise).joined(separator: ", "))) {")
      lines += (assignments + body).map { inner + $0 }
      lines.append("\(memberIndent)}")
    case .classInit(let superCall, let coderInit, let inherited, let required):
      let access = consumer.generatedInitAccess
      if superCall != nil || inherited.isEmpty {
        lines.append("\(memberIndent)\(access)init(\(parameters.joined(separator: ", "))) {")
        lines += assignments.map { inner + $0 }
        if let superCall { lines.append(inner + superCall) }
        lines.append("\(memberIndent)}")
      }
      for (position, inheritedInit) in inherited.enumerated() {
        if position > 0 || superCall != nil { lines.append("") }
        let all = parameters + (inheritedInit.parameters.isEmpty ? [] : [inheritedInit.parameters])
        lines.append("\(memberIndent)\(access)init\(inheritedInit.failable)(\(all.joined(separator: ", ")))\(inheritedInit.effects) {")
        lines += assignments.map { inner + $0 }
        lines.append(inner + inheritedInit.superCall)
        lines.append("\(memberIndent)}")
      }
      for requiredInit in required {
        lines.append("")
        lines.append("\(memberIndent)required init\(requiredInit.failable)(\(requiredInit.parameters))\(requiredInit.effects) {")
        lines += singletonAssignments.map { inner + $0 }
        lines.append(inner + requiredInit.superCall)
        lines.append("\(memberIndent)}")
        requiredNotes.append(
          Note(
            .kept, "required init\(requiredInit.failable)(\(requiredInit.shape.map { "\($0.label):" }.joined())) takes '\(accessExpression)'",
            at: Note.Place(line: consumer.primary.location), depth: 1))
      }
      if coderInit {
        lines.append("")
        lines.append("\(memberIndent)required init?(coder: NSCoder) {")
        lines += singletonAssignments.map { inner + $0 }
        lines.append(inner + "super.init(coder: coder)")
        lines.append("\(memberIndent)}")
        requiredNotes.append(
          Note(.kept, "required init?(coder:) takes '\(accessExpression)'", at: Note.Place(line: consumer.primary.location), depth: 1))
      }
    case .plain:
      lines.append("\(memberIndent)init(\(parameters.joined(separator: ", "))) {")
      lines += assignments.map { inner + $0 }
      lines.append("\(memberIndent)}")
    }
    return lines
  }
}
