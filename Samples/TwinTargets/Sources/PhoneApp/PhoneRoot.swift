/// The phone app's composition root.
@MainActor
public final class PhoneRoot {
    public init() {}

    public func incomingCall(from caller: String) -> String {
        let screen = CallScreen(caller: caller)
        let before = screen.summary
        screen.silence()
        return before + " / " + screen.summary
    }
}
