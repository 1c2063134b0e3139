import DesingletonCore
import DesingletonIndex

extension Plan {
  /// Refuses a plan that would change a generated file (`GeneratedFile`): the next generation would
  /// undo the edit, and the code around it would no longer compile.
  public func refusingGeneratedFiles(in index: Index) throws {
    let touched = edits.filter { !$0.value.isEmpty }.keys.filter(index.isGenerated).sorted()
    guard !touched.isEmpty else { return }
    throw Refusal(
      touched.map { path in
        .error(
          "'\(path)' is a generated file, read but never rewritten: change its generator, or leave the code it uses "
            + "out of this command", at: Location(path: path, line: 1, column: 1))
      })
  }
}
