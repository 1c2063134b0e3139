/// The picture `scan` draws: each singleton, its suggested slices and its consumers, in three
/// columns. An edge from the singleton to a slice carries the slice's members; an edge from a slice
/// (or from the singleton, for members no slice takes) to a consumer carries the members that
/// consumer uses. `dot`, `mermaid` and the HTML page all draw this one graph.
public struct ScanGraph: Sendable, Equatable {
  public enum Column: Int, Sendable, Comparable {
    case singleton, slice, consumer

    public static func < (lhs: Column, rhs: Column) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  public struct Node: Sendable, Equatable {
    /// Unique in the graph: a consumer of two singletons is one node.
    public var id: String
    public var label: String
    public var column: Column
  }

  public struct Edge: Sendable, Equatable {
    public var from: String
    public var to: String
    public var members: [String]
  }

  /// In order: each singleton, then its slices, then consumers as they first appear.
  public var nodes: [Node] = []
  public var edges: [Edge] = []

  public init(_ report: ScanReport) {
    for entry in report.singletons {
      let key = entry.type + (entry.module.map { "@" + $0 } ?? "")
      let singleton = "singleton:" + key
      add(Node(id: singleton, label: entry.type + "." + entry.accessor, column: .singleton))
      for slice in entry.suggestedSlices {
        let id = "slice:" + key + "/" + slice.name
        add(Node(id: id, label: slice.name, column: .slice))
        edges.append(Edge(from: singleton, to: id, members: slice.members))
      }
      for consumer in entry.consumers {
        let id = "consumer:" + consumer.type
        add(Node(id: id, label: consumer.type, column: .consumer))
        let used = Set(consumer.reads + consumer.writes + consumer.calls)
        var left = entry.members.map(\.name).filter(used.contains).reduce(into: [String]()) {
          if !$0.contains($1) { $0.append($1) }
        }
        var throughSlices = false
        // One that can never hold a slice keeps reading the accessor for everything it uses.
        for slice in entry.suggestedSlices where consumer.keepsAccessor == nil {
          let members = left.filter(slice.members.contains)
          guard !members.isEmpty else { continue }
          edges.append(Edge(from: "slice:" + key + "/" + slice.name, to: id, members: members))
          left.removeAll(where: members.contains)
          throughSlices = true
        }
        // Members no slice takes, or only the instance itself passed on: straight from the singleton.
        if !left.isEmpty || !throughSlices {
          edges.append(Edge(from: singleton, to: id, members: left))
        }
      }
    }
  }

  private mutating func add(_ node: Node) {
    if !nodes.contains(where: { $0.id == node.id }) { nodes.append(node) }
  }

  public func nodes(in column: Column) -> [Node] { nodes.filter { $0.column == column } }

  /// Graphviz: `dot -Tsvg`.
  public func dot() -> String {
    var out = "digraph singletons {\n  rankdir=LR;\n  node [shape=box, fontname=\"Helvetica\"];\n"
    out += "  edge [fontname=\"Helvetica\", fontsize=10];\n"
    for node in nodes {
      let style: String
      switch node.column {
      case .singleton: style = ", style=bold"
      case .slice: style = ", shape=ellipse"
      case .consumer: style = ""
      }
      out += "  \(quoted(node.id)) [label=\(quoted(node.label))\(style)];\n"
    }
    for edge in edges {
      out += "  \(quoted(edge.from)) -> \(quoted(edge.to))"
      out += edge.members.isEmpty ? ";\n" : " [label=\(quoted(edge.members.joined(separator: ", ")))];\n"
    }
    return out + "}\n"
  }

  /// A Mermaid flowchart, for Markdown that renders it (GitHub, GitLab).
  public func mermaid() -> String {
    // Mermaid ids are plain words: the node's position.
    let ids = Dictionary(uniqueKeysWithValues: nodes.enumerated().map { ($1.id, "n\($0 + 1)") })
    var out = "flowchart LR\n"
    for node in nodes {
      let id = ids[node.id] ?? node.id
      let text = mermaidText(node.label)
      switch node.column {
      case .singleton: out += "  \(id)[[\"\(text)\"]]\n"
      case .slice: out += "  \(id)([\"\(text)\"])\n"
      case .consumer: out += "  \(id)[\"\(text)\"]\n"
      }
    }
    for edge in edges {
      let label = edge.members.isEmpty ? "" : "|\"\(mermaidText(edge.members.joined(separator: ", ")))\"|"
      out += "  \(ids[edge.from] ?? edge.from) -->\(label) \(ids[edge.to] ?? edge.to)\n"
    }
    return out
  }

  private func quoted(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
  }

  /// Text inside a quoted Mermaid label: quotes and markup characters as entity codes.
  private func mermaidText(_ text: String) -> String {
    text.unicodeScalars.map { scalar in
      "\"#<>&|".unicodeScalars.contains(scalar) ? "#\(scalar.value);" : String(scalar)
    }.joined()
  }
}
