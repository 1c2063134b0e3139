/// A shortest edit script between two sequences of lines, found with Myers' O(ND) algorithm in its
/// linear-space form (divide at the middle snake), so a file of many thousands of lines that was
/// rewritten completely still diffs in O(N) memory.
///
/// Lines that occur on one side only can never match, so they are marked changed before the search
/// (as GNU diff and git's xdiff do); a rewritten file then costs almost nothing. When a part still needs
/// more than `costLimit` steps on each side of its middle, that part is reported as changed as a whole:
/// the diff stays correct, only no longer the shortest, and the time stays O((N+M) * costLimit).
struct LineDiff {
  /// One run of changed lines: `oldRange` of the old lines is replaced by `newRange` of the new lines.
  /// Either range may be empty; they start at the same place in the alignment of the two files.
  struct Change: Equatable {
    var oldRange: Range<Int>
    var newRange: Range<Int>
  }

  /// The changes in order, separated by at least one unchanged line.
  let changes: [Change]

  static let costLimit = 2048

  init(old: [Int], new: [Int], costLimit: Int = LineDiff.costLimit) {
    let inOld = Set(old)
    let inNew = Set(new)
    // Positions of the lines that may match something on the other side.
    let oldKept = old.indices.filter { inNew.contains(old[$0]) }
    let newKept = new.indices.filter { inOld.contains(new[$0]) }
    var search = MiddleSnakeSearch(old: oldKept.map { old[$0] }, new: newKept.map { new[$0] }, costLimit: costLimit)
    search.compare(oldRange: 0..<oldKept.count, newRange: 0..<newKept.count)
    var oldChanged = Array(repeating: true, count: old.count)
    var newChanged = Array(repeating: true, count: new.count)
    for (index, changed) in zip(oldKept, search.oldChanged) { oldChanged[index] = changed }
    for (index, changed) in zip(newKept, search.newChanged) { newChanged[index] = changed }
    changes = LineDiff.collect(oldChanged: oldChanged, newChanged: newChanged)
  }

  /// Splits bytes into lines, each keeping its own terminator (`\n`; a `\r` before it stays in the line).
  /// The last line has no terminator when the bytes do not end with a newline.
  static func lines(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
    var result: [ArraySlice<UInt8>] = []
    var start = 0
    for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
      result.append(bytes[start...offset])
      start = offset + 1
    }
    if start < bytes.count { result.append(bytes[start...]) }
    return result
  }

  /// Gives every distinct line one number, so the search compares integers instead of bytes.
  static func numbered(_ old: [ArraySlice<UInt8>], _ new: [ArraySlice<UInt8>]) -> (old: [Int], new: [Int]) {
    var numbers: [ByteKey: Int] = [:]
    func number(_ line: ArraySlice<UInt8>) -> Int {
      let key = ByteKey(line)
      if let known = numbers[key] { return known }
      let next = numbers.count
      numbers[key] = next
      return next
    }
    return (old.map(number), new.map(number))
  }

  private static func collect(oldChanged: [Bool], newChanged: [Bool]) -> [Change] {
    var changes: [Change] = []
    var i = 0
    var j = 0
    while i < oldChanged.count || j < newChanged.count {
      if i < oldChanged.count, j < newChanged.count, !oldChanged[i], !newChanged[j] {
        i += 1
        j += 1
        continue
      }
      let oldStart = i
      let newStart = j
      while i < oldChanged.count, oldChanged[i] { i += 1 }
      while j < newChanged.count, newChanged[j] { j += 1 }
      changes.append(Change(oldRange: oldStart..<i, newRange: newStart..<j))
    }
    return changes
  }
}

/// Marks which lines of each side are not part of a longest common subsequence (GNU diff's `compareseq`).
private struct MiddleSnakeSearch {
  let old: [Int]
  let new: [Int]
  let costLimit: Int
  var oldChanged: [Bool]
  var newChanged: [Bool]
  /// Furthest-reaching x per diagonal, for the forward and the backward search; reused between calls.
  private var forward: [Int]
  private var backward: [Int]

  init(old: [Int], new: [Int], costLimit: Int) {
    self.old = old
    self.new = new
    self.costLimit = max(costLimit, 1)
    oldChanged = Array(repeating: false, count: old.count)
    newChanged = Array(repeating: false, count: new.count)
    let size = old.count + new.count + 3
    forward = Array(repeating: 0, count: size)
    backward = Array(repeating: 0, count: size)
  }

  mutating func compare(oldRange: Range<Int>, newRange: Range<Int>) {
    var oldLow = oldRange.lowerBound
    var oldHigh = oldRange.upperBound
    var newLow = newRange.lowerBound
    var newHigh = newRange.upperBound
    while oldLow < oldHigh, newLow < newHigh, old[oldLow] == new[newLow] {
      oldLow += 1
      newLow += 1
    }
    while oldLow < oldHigh, newLow < newHigh, old[oldHigh - 1] == new[newHigh - 1] {
      oldHigh -= 1
      newHigh -= 1
    }
    if oldLow == oldHigh {
      for j in newLow..<newHigh { newChanged[j] = true }
      return
    }
    if newLow == newHigh {
      for i in oldLow..<oldHigh { oldChanged[i] = true }
      return
    }
    guard let snake = middleSnake(oldLow: oldLow, oldHigh: oldHigh, newLow: newLow, newHigh: newHigh) else {
      for i in oldLow..<oldHigh { oldChanged[i] = true }
      for j in newLow..<newHigh { newChanged[j] = true }
      return
    }
    compare(oldRange: oldLow..<snake.oldStart, newRange: newLow..<snake.newStart)
    compare(oldRange: snake.oldEnd..<oldHigh, newRange: snake.newEnd..<newHigh)
  }

  /// The middle snake of Myers' paper (section 4b): a run of equal lines that some shortest edit
  /// script passes through halfway. Both ranges are non-empty and differ in their first and last lines.
  private mutating func middleSnake(
    oldLow: Int,
    oldHigh: Int,
    newLow: Int,
    newHigh: Int
  ) -> (oldStart: Int, newStart: Int, oldEnd: Int, newEnd: Int)? {
    let n = oldHigh - oldLow
    let m = newHigh - newLow
    let delta = n - m
    let deltaIsOdd = delta & 1 != 0
    let limit = min((n + m + 1) / 2, costLimit)
    // Diagonal k is stored at index k + offset; k ranges over -limit-1 ... limit+1.
    let offset = limit + 1
    forward[offset + 1] = 0
    backward[offset + 1] = 0
    for d in 0...limit {
      for k in stride(from: -d, through: d, by: 2) {
        var x: Int
        if k == -d || (k != d && forward[offset + k - 1] < forward[offset + k + 1]) {
          x = forward[offset + k + 1]
        } else {
          x = forward[offset + k - 1] + 1
        }
        var y = x - k
        let startX = x
        let startY = y
        while x < n, y < m, old[oldLow + x] == new[newLow + y] {
          x += 1
          y += 1
        }
        forward[offset + k] = x
        let reverseDiagonal = delta - k
        if deltaIsOdd, reverseDiagonal >= -(d - 1), reverseDiagonal <= d - 1,
          x + backward[offset + reverseDiagonal] >= n
        {
          return (oldLow + startX, newLow + startY, oldLow + x, newLow + y)
        }
      }
      for k in stride(from: -d, through: d, by: 2) {
        // x and y count lines from the ends of the ranges.
        var x: Int
        if k == -d || (k != d && backward[offset + k - 1] < backward[offset + k + 1]) {
          x = backward[offset + k + 1]
        } else {
          x = backward[offset + k - 1] + 1
        }
        var y = x - k
        let startX = x
        let startY = y
        while x < n, y < m, old[oldHigh - 1 - x] == new[newHigh - 1 - y] {
          x += 1
          y += 1
        }
        backward[offset + k] = x
        let forwardDiagonal = delta - k
        if !deltaIsOdd, forwardDiagonal >= -d, forwardDiagonal <= d,
          x + forward[offset + forwardDiagonal] >= n
        {
          return (oldHigh - x, newHigh - y, oldHigh - startX, newHigh - startY)
        }
      }
    }
    // Only reached when the cost limit cut the search short: the searches meet by d = (n + m + 1) / 2.
    return nil
  }
}
