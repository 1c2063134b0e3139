/// The list of items, under a header; selecting an item opens its detail.
@MainActor
final class ListScreen {
    let title: String
    let header: Header

    init(title: String) {
        self.title = title
        header = Header(title: title)
    }

    var rows: [String] { Store.shared.items }

    func select(_ item: String) -> DetailScreen {
        ScreenFactory.makeDetail(item: item)
    }
}
