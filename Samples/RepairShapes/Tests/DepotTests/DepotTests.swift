import Testing
@testable import Depot

@MainActor
@Test func oneDepotSeesEveryChange() {
    Checkout().buy("lamp")
    #expect(Depot.shared.basket.items == ["lamp"])
    let gate = TurnstileGate()
    gate.enter()
    Gate().enter()
    #expect(gate.count() == 2)
    #expect(Kiosk().visitsSoFar() == 2)
    #expect(Poster().text() == "Depot: open all night")
    #expect(Counter.makeTicket(7).line() == "#7 after 2 visits")
}
