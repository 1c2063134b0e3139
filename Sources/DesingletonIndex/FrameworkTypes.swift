/// The Apple framework types the model knows without their sources: which names are classes (with
/// their superclass, designated inits and isolation) and which are protocols. A name in neither table
/// and not declared in the project is unknown, and the model says so instead of guessing from its
/// spelling.
public enum FrameworkTypes {
  public struct Class: Sendable {
    public let name: String
    public let superclass: String?
    /// Designated inits, as argument labels (`_` for none); the first is the one a generated init calls.
    public let designatedInits: [[String]]
    /// The arguments a generated `super.init(...)` passes to the first designated init.
    public let defaultSuperInit: String
    /// `required init?(coder:)` must be implemented by a subclass that declares a designated init.
    public let requiresCoderInit: Bool
    public let isMainActor: Bool
    /// The system, not the app's code, creates instances (from a storyboard, a model, a reuse queue).
    public let isSystemInstantiated: Bool
  }

  /// Looks a class up by its name as written (`UIKit.UIView` and `UIView` alike).
  public static func `class`(named written: String) -> Class? {
    classes[lastComponent(written)]
  }

  /// Whether a framework type is a class: one of the table's, or a Foundation class apps commonly keep
  /// one shared, configured instance of (`extension UserDefaults { static let shared = ... }`).
  /// Value types (`Color`, `Notification.Name`) and unknown names are not.
  public static func isClass(_ written: String) -> Bool {
    `class`(named: written) != nil || sharedFoundationClasses.contains(lastComponent(written))
  }

  private static let sharedFoundationClasses: Set<String> = [
    "UserDefaults", "NotificationCenter", "FileManager", "URLSession", "URLCache", "HTTPCookieStorage",
    "DateFormatter", "ISO8601DateFormatter", "NumberFormatter", "DateComponentsFormatter", "ByteCountFormatter",
    "MeasurementFormatter", "RelativeDateTimeFormatter", "JSONDecoder", "JSONEncoder", "PropertyListDecoder",
    "PropertyListEncoder", "Bundle", "OperationQueue", "NSCache", "ProcessInfo", "NSUbiquitousKeyValueStore",
    "NSPersistentContainer", "NSManagedObjectContext", "CLLocationManager", "DispatchQueue", "NSLock",
  ]

  public static func isProtocol(_ written: String) -> Bool {
    protocols.contains(lastComponent(written))
  }

  /// Protocols whose conformers the system creates with their own init: application, scene and
  /// extension delegates, SwiftUI's `App`, intents.
  public static func isSystemCreatedProtocol(_ written: String) -> Bool {
    systemCreatedProtocols.contains(lastComponent(written))
  }

  /// A framework designated init as a subclass that overrides it writes its parameters, and the
  /// arguments that forward them to `super`, by argument labels; nil for an init not in the table.
  public static func overridableInit(labels: [String]) -> (parameters: String, arguments: String)? {
    switch labels {
    case []: return ("", "")
    case ["frame"]: return ("frame: CGRect", "frame: frame")
    case ["nibName", "bundle"]:
      return ("nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?", "nibName: nibNameOrNil, bundle: nibBundleOrNil")
    case ["style", "reuseIdentifier"]:
      return ("style: UITableViewCell.CellStyle, reuseIdentifier: String?", "style: style, reuseIdentifier: reuseIdentifier")
    case ["style"]: return ("style: UITableView.Style", "style: style")
    case ["window"]: return ("window: NSWindow?", "window: window")
    default: return nil
    }
  }

  /// The argument labels of the inits a framework protocol the model knows requires (`[[]]` for
  /// `init()`); nil for a protocol it does not know, which may require any.
  public static func initRequirements(of written: String) -> [[String]]? {
    let name = lastComponent(written)
    if let labels = initRequirementLabels[name] { return labels }
    return protocols.contains(name) ? [] : nil
  }

  private static let initRequirementLabels: [String: [[String]]] = [
    "App": [[]], "AppIntent": [[]], "Decodable": [["from"]], "Codable": [["from"]], "NSCoding": [["coder"]],
    "NSSecureCoding": [["coder"]], "RawRepresentable": [["rawValue"]], "ExpressibleByStringLiteral": [["stringLiteral"]],
    "ExpressibleByIntegerLiteral": [["integerLiteral"]], "ExpressibleByArrayLiteral": [["arrayLiteral"]],
    "AppEnum": [["rawValue"]],
  ]

  /// Attributes that make the system create the type: `@main` and the application-delegate attributes.
  public static let entryPointAttributes: Set<String> = ["@main", "@NSApplicationMain", "@UIApplicationMain"]

  /// Protocols whose conformance the compiler synthesizes from the stored properties: a new stored
  /// property of a protocol type breaks the synthesis unless the type implements the requirement.
  /// Each protocol with the members that implement it by hand.
  public static let synthesizedConformances: [String: [String]] = [
    "Equatable": ["=="], "Hashable": ["hash", "=="], "Comparable": ["<"], "Codable": ["init(from:)", "encode"],
    "Decodable": ["init(from:)"], "Encodable": ["encode"],
  ]

  /// Framework protocols and classes that make a type `Equatable` (what a `case .shared:` pattern
  /// compares with through `~=`).
  public static let equatableSupertypes: Set<String> = ["Equatable", "Hashable", "Comparable", "NSObject"]

  private static let systemCreatedProtocols: Set<String> = [
    "UIApplicationDelegate", "UIWindowSceneDelegate", "UISceneDelegate", "NSApplicationDelegate",
    "WKExtensionDelegate", "WKApplicationDelegate", "App", "AppIntent",
  ]

  /// Protocols whose conformance makes a type `@MainActor` (SwiftUI's, UIKit's delegates).
  public static func isMainActorProtocol(_ written: String) -> Bool {
    mainActorProtocols.contains(lastComponent(written))
  }

  /// Whether a name written in an extension of a framework type may be one of its generic
  /// parameters or associated types: a single capital letter, or a name the standard library and
  /// Apple's frameworks give them (`Element` of `Array`, `Wrapped` of `Optional`, `Output` of
  /// `Publisher`, `ObjectType` of `NSCache`).
  public static func isGenericParameterName(_ name: String) -> Bool {
    (name.utf8.count == 1 && name.first?.isUppercase == true) || genericParameterNames.contains(name)
  }

  private static let genericParameterNames: Set<String> = [
    "Element", "Wrapped", "Key", "Value", "Success", "Failure", "Output", "Input", "Index", "Indices", "SubSequence",
    "Iterator", "Bound", "Pointee", "Root", "RawValue", "ID", "Body", "Content", "Label", "Stride", "Magnitude",
    "ObjectType", "KeyType", "ResultType", "Upstream", "SchedulerTimeType", "SectionIdentifierType",
    "ItemIdentifierType", "Words", "Instance", "ArrayLiteralElement",
  ]

  public static func lastComponent(_ written: String) -> String {
    let stripped = written.firstComponent(separatedBy: UInt8(ascii: "<")).map(String.init) ?? written
    return stripped.lastComponent(separatedBy: UInt8(ascii: ".")).map(String.init) ?? stripped
  }

  private static let classes: [String: Class] = {
    var table: [String: Class] = [:]
    func add(
      _ name: String, _ superclass: String?, _ inits: [[String]], superInit: String, coder: Bool, mainActor: Bool,
      system: Bool = false
    ) {
      table[name] = Class(
        name: name, superclass: superclass, designatedInits: inits, defaultSuperInit: superInit,
        requiresCoderInit: coder, isMainActor: mainActor, isSystemInstantiated: system)
    }
    // Foundation
    add("NSObject", nil, [[]], superInit: "super.init()", coder: false, mainActor: false)
    add("Operation", "NSObject", [[]], superInit: "super.init()", coder: false, mainActor: false)
    add("Thread", "NSObject", [[]], superInit: "super.init()", coder: false, mainActor: false)
    add("NSManagedObject", "NSObject", [["entity", "insertInto"]], superInit: "", coder: false, mainActor: false, system: true)
    add("NSDocument", "NSObject", [[]], superInit: "super.init()", coder: false, mainActor: true)
    add("GKState", "NSObject", [[]], superInit: "super.init()", coder: false, mainActor: false)
    // UIKit
    add("UIResponder", "NSObject", [[]], superInit: "super.init()", coder: false, mainActor: true)
    add("UIView", "UIResponder", [["frame"], ["coder"]], superInit: "super.init(frame: .zero)", coder: true, mainActor: true)
    for view in [
      "UIControl", "UIButton", "UILabel", "UIImageView", "UIScrollView", "UITableView", "UICollectionView", "UIStackView",
      "UITextField", "UITextView", "UISwitch", "UISlider", "UIVisualEffectView", "UINavigationBar", "UIToolbar",
      "UITabBar", "UICollectionReusableView", "UITableViewHeaderFooterView",
    ] {
      add(view, "UIView", [["frame"], ["coder"]], superInit: "super.init(frame: .zero)", coder: true, mainActor: true)
    }
    add("UICollectionViewCell", "UICollectionReusableView", [["frame"], ["coder"]], superInit: "super.init(frame: .zero)",
      coder: true, mainActor: true, system: true)
    add("UITableViewCell", "UIView", [["style", "reuseIdentifier"], ["coder"]],
      superInit: "super.init(style: .default, reuseIdentifier: nil)", coder: true, mainActor: true, system: true)
    add("UIViewController", "UIResponder", [["nibName", "bundle"], ["coder"]],
      superInit: "super.init(nibName: nil, bundle: nil)", coder: true, mainActor: true)
    for controller in [
      "UINavigationController", "UITabBarController", "UIPageViewController", "UISplitViewController",
      "UICollectionViewController",
    ] {
      add(controller, "UIViewController", [["nibName", "bundle"], ["coder"]],
        superInit: "super.init(nibName: nil, bundle: nil)", coder: true, mainActor: true)
    }
    add("UITableViewController", "UIViewController", [["style"], ["nibName", "bundle"], ["coder"]],
      superInit: "super.init(style: .plain)", coder: true, mainActor: true)
    // AppKit
    add("NSResponder", "NSObject", [[]], superInit: "super.init()", coder: true, mainActor: true)
    add("NSView", "NSResponder", [["frame"], ["coder"]], superInit: "super.init(frame: .zero)", coder: true, mainActor: true)
    for view in ["NSControl", "NSButton", "NSTextField", "NSImageView", "NSScrollView", "NSTableView", "NSStackView"] {
      add(view, "NSView", [["frame"], ["coder"]], superInit: "super.init(frame: .zero)", coder: true, mainActor: true)
    }
    add("NSTableCellView", "NSView", [["frame"], ["coder"]], superInit: "super.init(frame: .zero)", coder: true,
      mainActor: true, system: true)
    add("NSViewController", "NSResponder", [["nibName", "bundle"], ["coder"]],
      superInit: "super.init(nibName: nil, bundle: nil)", coder: true, mainActor: true)
    add("NSWindowController", "NSResponder", [["window"], ["coder"]], superInit: "super.init(window: nil)", coder: true,
      mainActor: true)
    add("NSWindow", "NSResponder", [["contentRect", "styleMask", "backing", "defer"]], superInit: "", coder: false,
      mainActor: true)
    return table
  }()

  private static let protocols: Set<String> = [
    // Swift and Foundation
    "Sendable", "Equatable", "Hashable", "Comparable", "Identifiable", "Codable", "Decodable", "Encodable", "Error",
    "CustomStringConvertible", "CustomDebugStringConvertible", "CaseIterable", "RawRepresentable", "Sequence",
    "Collection", "IteratorProtocol", "AnyObject", "Actor", "NSCoding", "NSSecureCoding", "NSCopying", "ObservableObject",
    "LocalizedError", "URLSessionDelegate", "URLSessionTaskDelegate", "URLSessionDataDelegate", "NSObjectProtocol",
    "ExpressibleByStringLiteral", "ExpressibleByIntegerLiteral", "ExpressibleByArrayLiteral", "Strideable",
    // SwiftUI
    "View", "App", "Scene", "ViewModifier", "PreviewProvider", "UIViewRepresentable", "UIViewControllerRepresentable",
    "NSViewRepresentable", "NSViewControllerRepresentable", "EnvironmentKey", "DynamicProperty", "Shape",
    // App lifecycle and intents
    "UIApplicationDelegate", "UIWindowSceneDelegate", "UISceneDelegate", "NSApplicationDelegate", "WKExtensionDelegate",
    "WKApplicationDelegate", "AppIntent", "AppEntity", "AppEnum",
    // UIKit and AppKit delegates and data sources
    "UITableViewDelegate", "UITableViewDataSource", "UICollectionViewDelegate", "UICollectionViewDataSource",
    "UICollectionViewDelegateFlowLayout", "UIScrollViewDelegate", "UITextFieldDelegate", "UITextViewDelegate",
    "UINavigationControllerDelegate", "UIGestureRecognizerDelegate", "UISearchBarDelegate", "UISearchResultsUpdating",
    "UIAdaptivePresentationControllerDelegate", "UIPopoverPresentationControllerDelegate",
    "NSTableViewDelegate", "NSTableViewDataSource", "NSWindowDelegate", "NSTextFieldDelegate", "NSMenuDelegate",
    "NSOutlineViewDelegate", "NSOutlineViewDataSource", "NSCollectionViewDelegate", "NSCollectionViewDataSource",
  ]

  private static let mainActorProtocols: Set<String> = [
    "View", "App", "Scene", "UIApplicationDelegate", "UIWindowSceneDelegate", "UISceneDelegate",
    "NSApplicationDelegate", "UIViewRepresentable", "UIViewControllerRepresentable", "NSViewRepresentable",
    "NSViewControllerRepresentable", "PreviewProvider",
  ]
}
