import Testing
@testable import PhoneApp

@MainActor
@Suite struct PhoneRootTests {
    @Test func anIncomingCallCanBeSilenced() {
        #expect(PhoneRoot().incomingCall(from: "Ada") == "Ada, classic, vibrating / Ada, classic")
    }
}
