import SwiftUI

/// Edits the filter its parent owns.
struct FilterField: View {
    @Binding var filter: String

    var body: some View {
        HStack {
            Text("Filter \(Library.shared.titles.count) books")
            TextField("Filter", text: $filter)
        }
    }
}
