import DesingletonIndex
import SwiftSyntax

/// How a stored property declared with one of SwiftUI's property wrappers is set by an init.
///
/// ## Before
/// ```swift
/// struct AddBookView: View {
///   @State var draft: String
///   @Binding var filter: String
///   @Environment(\.lineLimit) private var lineLimit
/// }
/// ```
/// ## After (the init `inject` writes)
/// ```swift
/// init(adding: Adding, draft: String, filter: Binding<String>) {
///   self.adding = adding
///   self._draft = State(initialValue: draft)
///   self._filter = filter
/// }
/// ```
/// `@State`/`@StateObject`/`@ObservedObject` are parameters only when their callers pass them
/// today (or they have no initial value); `@Environment`, `@EnvironmentObject`, `@FocusState`,
/// `@Namespace` and the other values SwiftUI itself provides never are.
enum ViewProperty: Equatable {
  case state
  case stateObject
  case binding
  case observedObject
  /// SwiftUI provides the value: never an init parameter.
  case provided
  /// Another property wrapper: set through its `init(wrappedValue:)` as Swift's memberwise init does.
  case otherWrapper(String)

  /// Wrappers whose value must be a concrete `ObservableObject` (an existential is none), as a
  /// member's attributes spell them.
  static let observingAttributes: Set<String> = ["@ObservedObject", "@StateObject", "@EnvironmentObject"]

  /// Wrappers whose value SwiftUI gives the view; an init never sets them.
  static let providedWrappers: Set<String> = [
    "Environment", "EnvironmentObject", "FocusState", "FocusedValue", "FocusedObject", "FocusedBinding", "Namespace",
    "GestureState", "AppStorage", "SceneStorage", "ScaledMetric", "AccessibilityFocusState", "Query", "FetchRequest",
    "SectionedFetchRequest", "UIApplicationDelegateAdaptor", "NSApplicationDelegateAdaptor",
  ]

  /// The wrapper a stored property is declared with, nil for none (global actors, `@objc` and
  /// Interface Builder attributes are no wrappers).
  init?(_ variable: VariableDeclSyntax, index: Index) {
    for element in variable.attributes {
      guard let attribute = element.as(AttributeSyntax.self) else { continue }
      let written = attribute.attributeName.trimmedDescription
      let name = written.split(separator: ".").last.map(String.init) ?? written
      if index.isGlobalActorAttribute("@" + written) || Self.plainAttributes.contains(name) { continue }
      guard name.first?.isUppercase == true else { continue }
      switch name {
      case "State": self = .state
      case "StateObject": self = .stateObject
      case "Binding": self = .binding
      case "ObservedObject": self = .observedObject
      default: self = Self.providedWrappers.contains(name) ? .provided : .otherWrapper(name)
      }
      return
    }
    return nil
  }

  private static let plainAttributes: Set<String> = [
    "IBOutlet", "IBInspectable", "IBAction", "NSManaged", "GKInspectable", "NSCopying", "MainActor", "Sendable",
    "ViewBuilder", "SceneBuilder", "ToolbarContentBuilder", "CommandsBuilder", "Published",
  ]

  /// The statement that sets the property from `value` (the parameter, or a moved initial value).
  func assignment(_ name: String, _ value: String) -> String {
    switch self {
    case .state: return "self._\(name) = State(initialValue: \(value))"
    case .stateObject: return "self._\(name) = StateObject(wrappedValue: \(value))"
    case .binding: return "self._\(name) = \(value)"
    case .observedObject: return "self._\(name) = ObservedObject(wrappedValue: \(value))"
    case .provided, .otherWrapper: return "self.\(name) = \(value)"
    }
  }

  /// Whether an initial value that creates a consumer can move into the inits: the wrapper has an
  /// init that takes the value.
  var takesMovedValue: Bool {
    switch self {
    case .state, .stateObject, .observedObject: return true
    case .binding, .provided, .otherWrapper: return false
    }
  }
}
