/// Makes the screens: the coordinator and the list both ask it.
@MainActor
enum ScreenFactory {
    static func makeList() -> ListScreen {
        ListScreen(title: "Items")
    }

    static func makeDetail(item: String) -> DetailScreen {
        DetailScreen(item: item)
    }
}
