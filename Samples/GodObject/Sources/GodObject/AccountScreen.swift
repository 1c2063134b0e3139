import Foundation

/// The signed-in account, with a refresh button and a way out.
@MainActor
final class AccountScreen {
    private(set) var lines: [String] = []

    func appear() {
        AppServices.shared.trackScreen("account")
        AppServices.shared.refreshAccount()
        lines = [
            AppServices.shared.accountName,
            AppServices.shared.accountID ?? "-",
            AppServices.shared.accountAvatarURL?.absoluteString ?? "-",
            AppServices.shared.lastAccountRefresh == nil ? "never refreshed" : "refreshed",
        ]
    }

    func signOut() {
        AppServices.shared.signOut()
        lines = []
    }
}
