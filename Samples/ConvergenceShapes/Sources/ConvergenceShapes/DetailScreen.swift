/// One item, shown in the current theme.
@MainActor
final class DetailScreen {
    let item: String

    init(item: String) {
        self.item = item
    }

    var summary: String { "\(item) in \(Store.shared.theme)" }
}
