import SwiftUI

/// The list of books, filtered as the user types, as many as the environment's line limit allows.
struct ShelfView: View {
    let heading: String
    @State private var filter = ""
    @Environment(\.lineLimit) private var lineLimit

    var body: some View {
        VStack {
            Text("\(heading) (\(Library.shared.titles.count))")
            FilterField(filter: $filter)
            ForEach(visibleTitles, id: \.self) { title in
                Text(title)
            }
            ReadingSettings()
            AddBookView(draft: "New book")
        }
    }

    private var visibleTitles: [String] {
        let matching = Library.shared.titles.filter { filter.isEmpty || $0.contains(filter) }
        return lineLimit.map { Array(matching.prefix($0)) } ?? matching
    }
}
