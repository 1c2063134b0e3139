import SwiftUI

/// Adds a note and shows what is selected; the selection starts empty, with no initial value.
struct DetailView: View {
    @State private var selection: String?

    var body: some View {
        VStack {
            Text("Selected: \(selection ?? "none")")
            Button("Add note") {
                Store.shared.add("note")
                selection = "note \(Store.shared.count)"
            }
        }
    }
}
