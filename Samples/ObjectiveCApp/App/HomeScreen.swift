final class HomeScreen {
  let title = "Home"

  func appear() {
    MetricsLogger.shared.logScreen(1, duration: 0.25)
  }

  func tapSignOut() {
    MetricsLogger.shared.logTap(7)
    SessionStore.shared().signOut()
  }
}
