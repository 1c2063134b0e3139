/// Where the app starts: it makes the screens.
final class AppRoot {
  let home: HomeScreen
  let stats: StatsScreen

  init() {
    home = HomeScreen()
    stats = StatsScreen()
  }

  func start() {
    home.appear()
    if SessionStore.shared().isSignedIn() {
      _ = stats.summary()
    }
  }
}
