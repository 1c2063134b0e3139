import SwiftUI

/// What the reading settings screen shows and does.
@MainActor
final class ReadingModel: ObservableObject {
    @Published private(set) var size = 0

    func enlarge() {
        Library.shared.enlarge()
        size = Library.shared.fontSize
    }
}

/// The font size, and a button that makes it larger.
struct ReadingSettings: View {
    @StateObject private var model = ReadingModel()
    @FocusState private var focused: Bool

    var body: some View {
        HStack {
            Text("Font \(Library.shared.fontSize)")
            Button("Larger") { model.enlarge() }
        }
    }
}
