/// A property the renderer looks into before it asks a view for its body.
public protocol DynamicProperty {}

/// A dynamic property that reads the environment the view is shown in.
protocol EnvironmentReading {
    func install(_ environment: EnvironmentValues)
}

/// Holds a value for `State` and `StateObject`: copies of the wrapper share it.
final class Box<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// Value storage a view owns.
@propertyWrapper
public struct State<Value>: DynamicProperty {
    let box: Box<Value>

    public init(wrappedValue value: Value) { box = Box(value) }
    public init(initialValue value: Value) { box = Box(value) }

    public var wrappedValue: Value {
        get { box.value }
        nonmutating set { box.value = newValue }
    }

    public var projectedValue: Binding<Value> {
        let box = self.box
        return Binding(get: { box.value }, set: { box.value = $0 })
    }
}

extension State where Value: ExpressibleByNilLiteral {
    public init() { self.init(wrappedValue: nil) }
}

/// A value owned elsewhere, read and written through.
@propertyWrapper @dynamicMemberLookup
public struct Binding<Value>: DynamicProperty {
    let get: () -> Value
    let set: (Value) -> Void

    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
        self.get = get
        self.set = set
    }

    public init(projectedValue: Binding<Value>) { self = projectedValue }

    public static func constant(_ value: Value) -> Binding<Value> {
        Binding(get: { value }, set: { _ in })
    }

    public var wrappedValue: Value {
        get { get() }
        nonmutating set { set(newValue) }
    }

    public var projectedValue: Binding<Value> { self }

    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        let get = self.get
        let set = self.set
        return Binding<Subject>(
            get: { get()[keyPath: keyPath] },
            set: { newValue in
                var value = get()
                value[keyPath: keyPath] = newValue
                set(value)
            })
    }
}

/// Which view has the keyboard focus.
@propertyWrapper
public struct FocusState<Value: Hashable>: DynamicProperty {
    let box: Box<Value>

    public init() where Value == Bool { box = Box(false) }
    public init<T: Hashable>() where Value == T? { box = Box(nil) }

    public var wrappedValue: Value {
        get { box.value }
        nonmutating set { box.value = newValue }
    }

    public var projectedValue: Binding<Value> {
        let box = self.box
        return Binding(get: { box.value }, set: { box.value = $0 })
    }
}

/// A namespace for matched geometry effects.
@propertyWrapper
public struct Namespace: DynamicProperty {
    public struct ID: Hashable, Sendable {
        let value: Int
    }

    nonisolated(unsafe) static var next = 0
    let id: ID

    public init() {
        Namespace.next += 1
        id = ID(value: Namespace.next)
    }

    public var wrappedValue: Namespace.ID { id }
}
