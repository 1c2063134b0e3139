/// The running app. Its delegate is made by the system at launch, never by the app's code.
@MainActor
open class UIApplication: UIResponder {

    public struct LaunchOptionsKey: Hashable, RawRepresentable, Sendable {
        public var rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }
    }

    public static let shared = UIApplication()

    open weak var delegate: UIApplicationDelegate?

    private override init() {
        super.init()
    }
}

/// What the system calls at launch.
@MainActor
public protocol UIApplicationDelegate: AnyObject {
    var window: UIWindow? { get set }

    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool
}

extension UIApplicationDelegate {
    public var window: UIWindow? {
        get { nil }
        set {}
    }

    public func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        true
    }
}
