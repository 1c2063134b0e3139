final class StatsScreen {
  func summary() -> String {
    let count = MetricsLogger.shared.countOfEvents()
    return "\(count) events"
  }

  func clear(done: @escaping @Sendable (Bool) -> Void) {
    MetricsLogger.shared.flush(completion: done)
    MetricsLogger.shared.reset()
  }
}
