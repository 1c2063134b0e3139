import SwiftUI

/// The current theme; made by a view that has the store in its environment.
struct ThemeBadge: View {
    var body: some View {
        Text("Theme: \(Store.shared.theme)")
    }
}
