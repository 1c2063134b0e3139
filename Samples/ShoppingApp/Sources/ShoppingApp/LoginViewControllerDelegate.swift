/// Told when the shopper has signed in.
@MainActor
protocol LoginViewControllerDelegate: AnyObject {
    func loginViewController(_ controller: LoginViewController, didLogInAs user: User)
}
