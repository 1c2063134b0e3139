/// The base class for controls (buttons, text fields) that deliver actions on events.
@MainActor
open class UIControl: UIView {

    /// Control events, as in UIKit.
    public struct Event: OptionSet, Hashable, Sendable {
        public let rawValue: UInt

        public init(rawValue: UInt) {
            self.rawValue = rawValue
        }

        public static let touchDown = Event(rawValue: 1 << 0)
        public static let touchUpInside = Event(rawValue: 1 << 6)
        public static let touchUpOutside = Event(rawValue: 1 << 7)
        public static let valueChanged = Event(rawValue: 1 << 12)
        public static let primaryActionTriggered = Event(rawValue: 1 << 13)
        public static let editingDidBegin = Event(rawValue: 1 << 16)
        public static let editingChanged = Event(rawValue: 1 << 17)
        public static let editingDidEnd = Event(rawValue: 1 << 18)
        public static let allEvents = Event(rawValue: 0xFFFF_FFFF)
    }

    /// Control states, as in UIKit.
    public struct State: OptionSet, Hashable, Sendable {
        public let rawValue: UInt

        public init(rawValue: UInt) {
            self.rawValue = rawValue
        }

        public static let normal = State([])
        public static let highlighted = State(rawValue: 1 << 0)
        public static let disabled = State(rawValue: 1 << 1)
        public static let selected = State(rawValue: 1 << 2)
    }

    open var isEnabled = true
    open var isSelected = false
    open var isHighlighted = false

    open var state: State {
        var state: State = .normal
        if !isEnabled { state.insert(.disabled) }
        if isSelected { state.insert(.selected) }
        if isHighlighted { state.insert(.highlighted) }
        return state
    }

    private var registeredActions: [(action: UIAction, events: Event)] = []

    /// Adds an action to perform when one of `controlEvents` happens.
    open func addAction(_ action: UIAction, for controlEvents: Event) {
        registeredActions.append((action, controlEvents))
    }

    open func removeAction(_ action: UIAction, for controlEvents: Event) {
        registeredActions.removeAll { $0.action === action && $0.events == controlEvents }
    }

    open func removeAction(identifiedBy actionIdentifier: UIAction.Identifier, for controlEvents: Event) {
        registeredActions.removeAll { $0.action.identifier == actionIdentifier && $0.events == controlEvents }
    }

    /// The events for which the control has actions.
    open var allControlEvents: Event {
        registeredActions.reduce(into: Event()) { $0.formUnion($1.events) }
    }

    /// Performs the actions registered for `controlEvents`, as a tap does on the device.
    open func sendActions(for controlEvents: Event) {
        // Copy first: a handler may add or remove actions (or rebuild the screen).
        let matching = registeredActions.filter { !$0.events.isDisjoint(with: controlEvents) }
        for entry in matching {
            sendAction(entry.action)
        }
    }

    open func sendAction(_ action: UIAction) {
        action.sender = self
        action.handler(action)
        action.sender = nil
    }
}
