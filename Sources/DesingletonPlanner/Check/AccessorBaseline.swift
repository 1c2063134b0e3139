import DesingletonCore
import DesingletonIndex
import Foundation

/// A team's ratchet while it migrates: the accessor references per singleton and file, so that a
/// change adding one fails (`desingleton check --baseline FILE`).
///
/// A use is kept as the text of its line, trimmed, so that code moving up or down a file keeps
/// matching its baseline entry; a line holding two uses is listed twice. A use is new when its file
/// holds more uses with that line text than the baseline lists.
///
/// ## Before (the baseline)
/// `{"version": 1, "uses": {"Store": {"Sources/App/Shop.swift": ["Store.shared.buy()"]}}}`
/// ## After (a change adds `Store.shared.pay()` to `Shop.swift`)
/// `Sources/App/Shop.swift:9:5: error: new use of 'Store.shared' …`, exit 1.
public struct AccessorBaseline: Sendable, Equatable {
  /// One reference to a singleton's accessor.
  public struct Use: Sendable, Equatable {
    public var singleton: String
    public var accessExpression: String
    public var location: Location
    /// The line it is on, trimmed.
    public var line: String

    public init(singleton: String, accessExpression: String, location: Location, line: String) {
      self.singleton = singleton
      self.accessExpression = accessExpression
      self.location = location
      self.line = line
    }
  }

  /// The version of the file; a newer one is refused.
  public static let version = 1

  /// Singleton type → file → the trimmed lines of its uses, in file order.
  public var uses: [String: [String: [String]]]

  public init(uses: [String: [String: [String]]] = [:]) { self.uses = uses }

  public init(_ current: [Use]) {
    var uses: [String: [String: [String]]] = [:]
    for use in current { uses[use.singleton, default: [:]][use.location.path, default: []].append(use.line) }
    self.uses = uses
  }

  public var count: Int { uses.values.reduce(0) { $0 + $1.values.reduce(0) { $0 + $1.count } } }

  /// Every use of every singleton in the index, in file order. `bytes` gives a file's text.
  public static func uses(of singletons: [Singleton], index: Index, bytes: (String) -> [UInt8]?) -> [Use] {
    var result: [Use] = []
    var texts: [String: [UInt8]] = [:]
    for singleton in singletons {
      for reference in index.references(to: singleton) {
        let path = reference.range.path
        if texts[path] == nil { texts[path] = bytes(path) ?? [] }
        let text = texts[path]!
        let offset = min(reference.range.bytes.lowerBound, text.count)
        var start = offset
        while start > 0 && text[start - 1] != 0x0A && text[start - 1] != 0x0D { start -= 1 }
        var end = offset
        while end < text.count && text[end] != 0x0A && text[end] != 0x0D { end += 1 }
        let line = String(decoding: text[start..<end], as: UTF8.self).trimmingCharacters(in: .whitespaces)
        result.append(
          Use(singleton: singleton.typeName, accessExpression: singleton.accessExpression, location: reference.location, line: line))
      }
    }
    return result.sorted { ($0.location, $0.singleton) < ($1.location, $1.singleton) }
  }

  /// The uses the baseline does not list (those beyond its count of that line in that file), and
  /// how many uses it lists that are gone.
  public func compare(_ current: [Use]) -> (new: [Use], gone: Int) {
    var remaining: [String: [String: [String: Int]]] = [:]
    for (singleton, files) in uses {
      for (path, lines) in files {
        for line in lines { remaining[singleton, default: [:]][path, default: [:]][line, default: 0] += 1 }
      }
    }
    var new: [Use] = []
    for use in current {
      let left = remaining[use.singleton]?[use.location.path]?[use.line] ?? 0
      if left > 0 {
        remaining[use.singleton]?[use.location.path]?[use.line] = left - 1
      } else {
        new.append(use)
      }
    }
    let gone = remaining.values.reduce(0) { $0 + $1.values.reduce(0) { $0 + $1.values.reduce(0, +) } }
    return (new, gone)
  }

  /// The file's text: keys sorted, one line per use, so that a change to it reads well in a review.
  public func json() -> String {
    var lines = ["{", "  \"version\": \(Self.version),", "  \"uses\": {"]
    let singletons = uses.keys.sorted()
    for (position, singleton) in singletons.enumerated() {
      lines.append("    \(quoted(singleton)): {")
      let files = uses[singleton]!.keys.sorted()
      for (filePosition, path) in files.enumerated() {
        lines.append("      \(quoted(path)): [")
        let entries = uses[singleton]![path]!
        for (entryPosition, entry) in entries.enumerated() {
          lines.append("        \(quoted(entry))" + (entryPosition == entries.count - 1 ? "" : ","))
        }
        lines.append("      ]" + (filePosition == files.count - 1 ? "" : ","))
      }
      lines.append("    }" + (position == singletons.count - 1 ? "" : ","))
    }
    lines += ["  }", "}"]
    return lines.joined(separator: "\n") + "\n"
  }

  private func quoted(_ text: String) -> String {
    let data = try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])
    let array = data.map { String(decoding: $0, as: UTF8.self) } ?? "[\"\"]"
    return String(array.dropFirst().dropLast())
  }

  /// Reads a baseline file's text; a malformed one is a refusal naming the file.
  public static func read(_ text: String, path: String) throws -> AccessorBaseline {
    let place = Location(path: path, line: 1, column: 1)
    guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
      throw Refusal("the baseline is not a JSON object; write it again with 'desingleton check --baseline \(path)' after removing it", at: place)
    }
    guard let version = object["version"] as? Int, version <= Self.version else {
      throw Refusal("the baseline has no version this desingleton reads (it reads version \(Self.version))", at: place)
    }
    guard let uses = object["uses"] as? [String: [String: [String]]] else {
      throw Refusal("the baseline's 'uses' is not an object of singletons, files and lines", at: place)
    }
    return AccessorBaseline(uses: uses)
  }
}
