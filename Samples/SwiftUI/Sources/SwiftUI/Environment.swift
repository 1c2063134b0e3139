/// A key for a value in the environment, with the value a view reads when no ancestor set one.
public protocol EnvironmentKey {
    associatedtype Value
    static var defaultValue: Value { get }
}

/// The values a view reads from the views around it.
public struct EnvironmentValues: CustomStringConvertible {
    var values: [ObjectIdentifier: Any] = [:]
    /// Objects put in with `View.environment(_:)`, by their type (Observation style).
    var observables: [ObjectIdentifier: AnyObject] = [:]

    public init() {}

    public subscript<K: EnvironmentKey>(key: K.Type) -> K.Value {
        get { values[ObjectIdentifier(key)].map { $0 as! K.Value } ?? K.defaultValue }
        set { values[ObjectIdentifier(key)] = newValue }
    }

    public var description: String { "EnvironmentValues(\(values.count) values)" }

    func object<T: ObservableObject>(_ type: T.Type) -> T? {
        values[ObjectIdentifier(type)] as? T
    }

    mutating func setObject<T: ObservableObject>(_ object: T) {
        values[ObjectIdentifier(T.self)] = object
    }

    func observable<T: AnyObject>(_ type: T.Type) -> T? {
        observables[ObjectIdentifier(type)] as? T
    }

    mutating func setObservable<T: AnyObject>(_ object: T?, as type: T.Type) {
        observables[ObjectIdentifier(type)] = object
    }
}

private struct IsEnabledKey: EnvironmentKey {
    static var defaultValue: Bool { true }
}

private struct LineLimitKey: EnvironmentKey {
    static var defaultValue: Int? { nil }
}

extension EnvironmentValues {
    /// Whether controls in the view respond to the user.
    public var isEnabled: Bool {
        get { self[IsEnabledKey.self] }
        set { self[IsEnabledKey.self] = newValue }
    }

    /// The most lines a text shows; nil for no limit.
    public var lineLimit: Int? {
        get { self[LineLimitKey.self] }
        set { self[LineLimitKey.self] = newValue }
    }
}

/// A value the view reads from its environment.
@propertyWrapper
public struct Environment<Value>: DynamicProperty, EnvironmentReading {
    let read: (EnvironmentValues) -> Value
    let box = Box<EnvironmentValues?>(nil)

    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) { read = { $0[keyPath: keyPath] } }

    /// Reads the object of this type an ancestor put in with `View.environment(_:)`
    /// (Observation style; Apple's constraint is `Value: AnyObject & Observable`).
    public init(_ objectType: Value.Type) where Value: AnyObject {
        read = { environment in
            guard let object = environment.observable(objectType) else {
                fatalError("No Observable object of type \(Value.self) found. A View.environment(_:) for \(Value.self) may be missing as an ancestor of this view.")
            }
            return object
        }
    }

    public var wrappedValue: Value {
        read(box.value ?? EnvironmentValues())
    }

    func install(_ environment: EnvironmentValues) { box.value = environment }
}

/// An observable object an ancestor put in the environment.
@propertyWrapper
public struct EnvironmentObject<ObjectType: ObservableObject>: DynamicProperty, EnvironmentReading {
    let box = Box<ObjectType?>(nil)

    public init() {}

    public var wrappedValue: ObjectType {
        guard let object = box.value else {
            fatalError("No ObservableObject of type \(ObjectType.self) found. A View.environmentObject(_:) for \(ObjectType.self) may be missing as an ancestor of this view.")
        }
        return object
    }

    public var projectedValue: ObservedObject<ObjectType>.Wrapper {
        ObservedObject<ObjectType>.Wrapper(object: wrappedValue)
    }

    func install(_ environment: EnvironmentValues) { box.value = environment.object(ObjectType.self) }
}

/// A view whose content sees a changed environment.
public struct ModifiedEnvironment<Content: View>: View, PrimitiveView {
    public typealias Body = Never
    let content: Content
    let change: (inout EnvironmentValues) -> Void

    public var body: Never { fatalError("ModifiedEnvironment has no body") }

    func render(in environment: EnvironmentValues, into output: Rendering) {
        var changed = environment
        change(&changed)
        output.draw(content, in: changed)
    }
}

extension View {
    /// Sets an environment value for this view and the views inside it.
    public func environment<V>(_ keyPath: WritableKeyPath<EnvironmentValues, V>, _ value: V) -> some View {
        ModifiedEnvironment(content: self) { $0[keyPath: keyPath] = value }
    }

    /// Puts an observable object in the environment of this view and the views inside it.
    public func environmentObject<T: ObservableObject>(_ object: T) -> some View {
        ModifiedEnvironment(content: self) { $0.setObject(object) }
    }

    /// Puts an object in the environment of this view and the views inside it, for
    /// `@Environment(T.self)` to read (Observation style; Apple's constraint is `T: AnyObject & Observable`).
    public func environment<T: AnyObject>(_ object: T?) -> some View {
        ModifiedEnvironment(content: self) { $0.setObservable(object, as: T.self) }
    }

    /// Disables the controls inside this view.
    public func disabled(_ disabled: Bool) -> some View {
        ModifiedEnvironment(content: self) { $0.isEnabled = $0.isEnabled && !disabled }
    }
}
