import SwiftUI

/// The items, read from the environment; its badge reaches for the singleton itself.
struct ItemsView: View {
    @Environment(Store.self) private var store

    var body: some View {
        VStack {
            Text("\(store.count) items")
            ForEach(store.items, id: \.self) { item in
                Text(item)
            }
            ThemeBadge()
        }
    }
}
