import SwiftUI

/// A title to add, starting from the draft its caller gives.
struct AddBookView: View {
    @State var draft: String
    @Namespace private var namespace

    var body: some View {
        HStack {
            TextField("Title", text: $draft)
            Button("Add") { Library.shared.add(draft) }
        }
    }
}
