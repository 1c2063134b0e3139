/// Why logging in failed.
enum LoginError: Error, Equatable, Sendable {
    case missingUsername
    case invalidCredentials
}
