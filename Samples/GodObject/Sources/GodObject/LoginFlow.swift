/// Signs a user in unless one is already.
@MainActor
final class LoginFlow {
    func signIn(as user: String) -> String? {
        if !AppServices.shared.isSignedIn {
            AppServices.shared.signIn(user: user)
            AppServices.shared.trackEvent("login")
        }
        return AppServices.shared.accountID
    }
}
