/// The composition root: the app makes one and starts it.
@MainActor
final class AppCoordinator {
    private(set) var list: ListScreen?
    let player = Player()

    init() {}

    @discardableResult
    func start() -> ListScreen {
        Store.shared.add("welcome")
        let list = ScreenFactory.makeList()
        self.list = list
        return list
    }

    func open(_ item: String) -> DetailScreen {
        ScreenFactory.makeDetail(item: item)
    }
}
