/// `scan --format html`: one self-contained page (no network, no script) with, per singleton, the
/// usage matrix as a heat map and the graph of `ScanGraph` as inline SVG, laid out in three
/// columns: singleton | slices | consumers.
public enum ScanPage {
  /// Wide gaps between the columns: the edges' member lists are written in them.
  static let columnX = [20, 540, 1060]
  static let nodeWidth = 260
  static let nodeHeight = 26
  static let rowHeight = 40

  public static func html(_ report: ScanReport) -> String {
    var out = """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <title>desingleton scan</title>
      <style>
      body { font-family: -apple-system, Helvetica, Arial, sans-serif; margin: 2em; color: #222; }
      table.heat { border-collapse: collapse; font-size: 13px; margin: 1em 0; }
      table.heat th, table.heat td { border: 1px solid #ddd; padding: 3px 6px; text-align: center; }
      table.heat th.member, table.heat td.member { text-align: left; font-family: Menlo, monospace; }
      table.heat th.consumer { writing-mode: vertical-rl; transform: rotate(180deg); font-weight: normal; }
      svg text { font-size: 12px; font-family: Helvetica, Arial, sans-serif; }
      svg .node rect { stroke: #555; fill: #fff; }
      svg .singleton rect { fill: #fde2d8; stroke-width: 2; }
      svg .slice rect { fill: #e3efff; }
      svg .edge path { fill: none; stroke: #999; }
      svg .edge text { font-size: 10px; fill: #555; paint-order: stroke; stroke: #fff; stroke-width: 3px; }
      </style>
      </head>
      <body>

      """
    let count = report.singletons.count
    out += "<h1>\(count == 0 ? "No" : String(count)) singleton\(count == 1 ? "" : "s")</h1>\n"
    out += "<p>\(report.files) files, \(report.lines) lines. Cells: r read, w write, c call; "
    out += "the darker a row, the more consumers use the member.</p>\n"
    for entry in report.singletons {
      out += "\n<section>\n<h2>\(escaped(entry.type)).\(escaped(entry.accessor))</h2>\n"
      out += "<p>\(escaped(entry.place.file)):\(entry.place.line), \(entry.members.count) members, "
      out += "\(entry.references) references, \(entry.consumers.count) consumer types</p>\n"
      out += heatMap(entry)
      out += qualityLines(entry)
      var single = report
      single.singletons = [entry]
      out += svg(ScanGraph(single))
      out += "</section>\n"
    }
    return out + "</body>\n</html>\n"
  }

  /// The figures of the suggested slices, and of the slices given (`--slice` or saved), with the
  /// consumers each leaves uncovered.
  static func qualityLines(_ entry: ScanReport.SingletonEntry) -> String {
    var out = ""
    for (title, quality) in [("Suggested slices", entry.quality), ("The slices given", entry.chosenQuality)] {
      guard let quality else { continue }
      out += "<p class=\"quality\">\(title): \(escaped(quality.summary))"
      if !quality.uncoveredConsumers.isEmpty {
        out += "; uncovered (they use a member no slice holds): \(escaped(quality.uncoveredConsumers.joined(separator: ", ")))"
      }
      out += "</p>\n"
    }
    return out
  }

  /// Members down, consumers across; a used cell's colour is the share of consumers using its member.
  static func heatMap(_ entry: ScanReport.SingletonEntry) -> String {
    let members = entry.members.map(\.name).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
    let sliceOf = Dictionary(
      entry.suggestedSlices.flatMap { slice in slice.members.map { ($0, slice.name) } },
      uniquingKeysWith: { first, _ in first }
    )
    var out = "<table class=\"heat\">\n<tr><th class=\"member\">member</th><th>slice</th>"
    for consumer in entry.consumers { out += "<th class=\"consumer\">\(escaped(consumer.type))</th>" }
    out += "<th>consumers</th></tr>\n"
    for member in members {
      let marks = entry.consumers.map { consumer in
        (consumer.reads.contains(member) ? "r" : "") + (consumer.writes.contains(member) ? "w" : "")
          + (consumer.calls.contains(member) ? "c" : "")
      }
      let users = marks.filter { !$0.isEmpty }.count
      let share = entry.consumers.isEmpty ? 0 : Double(users) / Double(entry.consumers.count)
      // From a pale to a deep red; white text once the cell is dark.
      let alpha = Double(15 + Int(85 * share)) / 100
      let cellStyle = "background: rgba(200, 40, 20, \(alpha))\(share > 0.6 ? "; color: #fff" : "")"
      out += "<tr><td class=\"member\">\(escaped(member))</td><td>\(escaped(sliceOf[member] ?? ""))</td>"
      for mark in marks {
        out += mark.isEmpty ? "<td></td>" : "<td style=\"\(cellStyle)\">\(mark)</td>"
      }
      out += "<td>\(users)</td></tr>\n"
    }
    return out + "</table>\n"
  }

  /// The graph in three columns, each node a box, each edge a curve with its members.
  static func svg(_ graph: ScanGraph) -> String {
    var position: [String: (x: Int, y: Int)] = [:]
    let rows = max(1, [ScanGraph.Column.singleton, .slice, .consumer].map { graph.nodes(in: $0).count }.max() ?? 1)
    for column in [ScanGraph.Column.singleton, .slice, .consumer] {
      var nodes = graph.nodes(in: column)
      // Fewer crossings: each node next to the mean height of the nodes its edges come from.
      let height = { (node: ScanGraph.Node) -> Double in
        let from = graph.edges.filter { $0.to == node.id }.compactMap { position[$0.from]?.y }
        return from.isEmpty ? 0 : Double(from.reduce(0, +)) / Double(from.count)
      }
      let order = Dictionary(uniqueKeysWithValues: nodes.enumerated().map { ($1.id, $0) })
      nodes.sort { (height($0), order[$0.id] ?? 0) < (height($1), order[$1.id] ?? 0) }
      // A shorter column is centred.
      let top = 40 + (rows - nodes.count) * rowHeight / 2
      for (row, node) in nodes.enumerated() {
        position[node.id] = (columnX[column.rawValue], top + row * rowHeight)
      }
    }
    let width = (columnX.last ?? 0) + nodeWidth + 20
    let height = 40 + rows * rowHeight
    var out = "<svg width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\" role=\"img\">\n"
    for (column, title) in ["singleton", "slices", "consumers"].enumerated() {
      out += "<text x=\"\(columnX[column])\" y=\"20\" font-weight=\"bold\">\(title)</text>\n"
    }
    for edge in graph.edges {
      guard let from = position[edge.from], let to = position[edge.to] else { continue }
      let x1 = from.x + nodeWidth
      let y1 = from.y + nodeHeight / 2
      let x2 = to.x
      let y2 = to.y + nodeHeight / 2
      let label = escaped(edge.members.joined(separator: ", "))
      out += "<g class=\"edge\"><title>\(label)</title>"
      let middle = (x1 + x2) / 2
      out += "<path d=\"M \(x1) \(y1) C \(middle) \(y1), \(middle) \(y2), \(x2) \(y2)\"/>"
      if !label.isEmpty {
        out += "<text x=\"\((x1 + x2) / 2)\" y=\"\((y1 + y2) / 2 - 3)\" text-anchor=\"middle\">\(label)</text>"
      }
      out += "</g>\n"
    }
    for node in graph.nodes {
      guard let place = position[node.id] else { continue }
      let kind = ["singleton", "slice", "consumer"][node.column.rawValue]
      out +=
        "<g class=\"node \(kind)\"><rect x=\"\(place.x)\" y=\"\(place.y)\" width=\"\(nodeWidth)\" height=\"\(nodeHeight)\" rx=\"4\"/>"
      out += "<text x=\"\(place.x + 8)\" y=\"\(place.y + 17)\">\(escaped(node.label))</text></g>\n"
    }
    return out + "</svg>\n"
  }

  static func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }
}
