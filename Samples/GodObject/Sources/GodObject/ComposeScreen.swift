/// Writing a message, signed with the account's name; unsent text is kept as a draft.
@MainActor
final class ComposeScreen {
    private(set) var signature = ""

    func appear() {
        signature = "-- " + AppServices.shared.accountName
    }

    func saveDraft(_ text: String) -> Int {
        AppServices.shared.saveDraft(text + "\n" + signature)
        AppServices.shared.trackEvent("draft.save")
        return AppServices.shared.draftCount
    }

    func discardAll() {
        for draft in AppServices.shared.drafts {
            AppServices.shared.discardDraft(id: draft.id)
        }
    }
}
