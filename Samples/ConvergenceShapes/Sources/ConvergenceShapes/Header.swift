/// A title with the number of items: half injected, its creators usually leave `store` out.
@MainActor
final class Header {
    let title: String
    private let store: Store

    init(title: String, store: Store = Store.shared) {
        self.title = title
        self.store = store
    }

    var text: String { "\(title) (\(store.count))" }
}
