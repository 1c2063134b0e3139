import Testing
import UIKit
@testable import SingletonShapes

/// Shape 3, `_shared` behind a computed `shared`, with a static `reset()`.
@MainActor
struct DebugSettingsViewControllerTests {

    @Test func resetGoesBackToTheDefaults() throws {
        let debug = DebugSettingsViewController()
        debug.loadViewIfNeeded()

        try #require(debug.button("debug.reset")).tap()

        #expect(debug.title == "Debug")
        #expect(debug.label("debug.new_checkout.state")?.text == "new_checkout: off")
        #expect(debug.label("debug.dark_mode.state")?.text == "dark_mode: on")
    }

    @Test func togglingAFlagOverridesIt() throws {
        let debug = DebugSettingsViewController(flags: [.newCheckout])
        debug.loadViewIfNeeded()
        try #require(debug.button("debug.reset")).tap()

        try #require(debug.button("debug.new_checkout.toggle")).tap()
        #expect(debug.label("debug.new_checkout.state")?.text == "new_checkout: on")

        try #require(debug.button("debug.new_checkout.toggle")).tap()
        #expect(debug.label("debug.new_checkout.state")?.text == "new_checkout: off")

        #expect(debug.label("debug.dark_mode.state") == nil)
    }

    @Test func resetDropsOverrides() throws {
        let debug = DebugSettingsViewController()
        debug.loadViewIfNeeded()
        try #require(debug.button("debug.reset")).tap()
        try #require(debug.button("debug.dark_mode.toggle")).tap()
        #expect(debug.label("debug.dark_mode.state")?.text == "dark_mode: off")

        try #require(debug.button("debug.reset")).tap()

        #expect(debug.label("debug.dark_mode.state")?.text == "dark_mode: on")
    }
}
