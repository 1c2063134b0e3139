// Combine is not on Linux: the little of it that SwiftUI's observation needs is here.

/// Tells subscribers that an object is about to change.
public final class ObservableObjectPublisher {
    var subscribers: [() -> Void] = []

    public init() {}

    public func send() {
        for subscriber in subscribers { subscriber() }
    }

    /// Runs `action` before each change.
    public func sink(receiveValue action: @escaping () -> Void) {
        subscribers.append(action)
    }
}

/// An object whose changes views observe.
public protocol ObservableObject: AnyObject {
    var objectWillChange: ObservableObjectPublisher { get }
}

private nonisolated(unsafe) var publishers: [ObjectIdentifier: ObservableObjectPublisher] = [:]

extension ObservableObject {
    public var objectWillChange: ObservableObjectPublisher {
        let key = ObjectIdentifier(self)
        if let publisher = publishers[key] { return publisher }
        let publisher = ObservableObjectPublisher()
        publishers[key] = publisher
        return publisher
    }
}

/// A property of an observable object that announces its changes.
@propertyWrapper
public struct Published<Value> {
    var value: Value

    public init(wrappedValue value: Value) { self.value = value }
    public init(initialValue value: Value) { self.value = value }

    public static subscript<EnclosingSelf: ObservableObject>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Value {
        get { object[keyPath: storageKeyPath].value }
        set {
            object.objectWillChange.send()
            object[keyPath: storageKeyPath].value = newValue
        }
    }

    @available(*, unavailable, message: "@Published is only available on properties of classes")
    public var wrappedValue: Value {
        get { fatalError() }
        set { fatalError() }
    }
}

/// An observable object a view creates and owns.
@propertyWrapper
public struct StateObject<ObjectType: ObservableObject>: DynamicProperty {
    let box: Box<ObjectType?>
    let make: () -> ObjectType

    public init(wrappedValue thunk: @autoclosure @escaping () -> ObjectType) {
        box = Box(nil)
        make = thunk
    }

    public var wrappedValue: ObjectType {
        if let object = box.value { return object }
        let object = make()
        box.value = object
        return object
    }

    public var projectedValue: ObservedObject<ObjectType>.Wrapper {
        ObservedObject<ObjectType>.Wrapper(object: wrappedValue)
    }
}

/// An observable object someone else owns.
@propertyWrapper
public struct ObservedObject<ObjectType: ObservableObject>: DynamicProperty {
    @dynamicMemberLookup
    public struct Wrapper {
        let object: ObjectType

        public subscript<Subject>(dynamicMember keyPath: ReferenceWritableKeyPath<ObjectType, Subject>) -> Binding<Subject> {
            let object = self.object
            return Binding(get: { object[keyPath: keyPath] }, set: { object[keyPath: keyPath] = $0 })
        }
    }

    public var wrappedValue: ObjectType

    public init(wrappedValue: ObjectType) { self.wrappedValue = wrappedValue }
    public init(initialValue: ObjectType) { self.wrappedValue = initialValue }

    public var projectedValue: Wrapper { Wrapper(object: wrappedValue) }
}
