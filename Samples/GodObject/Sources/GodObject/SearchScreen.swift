/// Searches the loaded messages.
@MainActor
final class SearchScreen {
    func search(_ query: String) -> [String] {
        AppServices.shared.trackScreen("search")
        if AppServices.shared.messages.isEmpty {
            AppServices.shared.loadMessages()
        }
        AppServices.shared.search(for: query)
        return AppServices.shared.searchResults.map(\.subject)
    }

    func cancel() -> String {
        AppServices.shared.clearSearch()
        return AppServices.shared.searchQuery
    }
}
