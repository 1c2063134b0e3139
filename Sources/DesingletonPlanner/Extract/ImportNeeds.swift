import DesingletonIndex
import SwiftParser
import SwiftSyntax

/// Which of the singleton file's imports a new protocol file needs: exactly the modules its
/// requirements name types of, as far as that can be told without building.
///
/// - A module of the project (a target in the module map) is imported when the protocol names a
///   type declared in that module's files.
/// - Other modules (the SDK's, packages'): none when every type the protocol names is the
///   project's or the standard library's; only Foundation (or the first import that re-exports it:
///   UIKit, AppKit, SwiftUI, …) when the rest are Foundation's; all of them otherwise, since which
///   module declares an unknown type cannot be told. Moved members keep their bodies, which may call
///   anything: their protocol keeps every such import.
struct ImportNeeds {
  private var projectModules: Set<String> = []
  private var namedModules: Set<String> = []
  private var unknownTypes: Set<String> = []
  private var keepsAllOther = false

  /// Modules the new file is in: never imported.
  private var ownModules: Set<String> = []

  init(
    protocolText created: ExtractProtocolPlanner.Design.NewProtocol, context: ExtractProtocolPlanner.Context,
    excludingModules own: Set<String> = []
  ) {
    ownModules = own
    let index = context.index
    let modules = context.project.modules
    projectModules = Set(modules.targets.map(\.name))
    let texts = (created.requirements + created.mutableRequirements + created.extensionMembers).map(\.text)
    let tree = Parser.parse(source: "protocol P {\n" + texts.joined(separator: "\n") + "\n}\n")
    let finder = Finder(viewMode: .sourceAccurate)
    finder.walk(tree)
    keepsAllOther = finder.hasBodies && !finder.outsideNames.subtracting(finder.declaredNames).isEmpty
    for name in finder.typeNames.subtracting(finder.genericParameters) {
      let declarations = index.types(named: name).flatMap { index.declarations(of: $0) }.filter { !$0.isExtension }
      if declarations.isEmpty {
        if !Self.standardLibrary.contains(name) { unknownTypes.insert(name) }
        continue
      }
      for declaration in declarations { namedModules.formUnion(modules.modules(of: declaration.path)) }
    }
  }

  /// The import lines to keep, in their order.
  func filter(_ lines: [String]) -> [String] {
    let others = lines.filter { !projectModules.contains(Self.module(of: $0)) }
    var keptOthers: Set<String> = []
    if keepsAllOther || !unknownTypes.isSubset(of: Self.foundation) {
      keptOthers = Set(others)
    } else if !unknownTypes.isEmpty {
      let providers = others.filter { Self.foundationProviders.contains(Self.module(of: $0)) }
      let preferred = providers.first { Self.module(of: $0) == "Foundation" } ?? providers.first
      keptOthers = preferred.map { [$0] } ?? Set(others)
    }
    return lines.filter { line in
      let module = Self.module(of: line)
      if ownModules.contains(module) { return false }
      return projectModules.contains(module) ? namedModules.contains(module) : keptOthers.contains(line)
    }
  }

  static func module(of line: String) -> String { ImportLines.module(of: line) }

  private final class Finder: SyntaxVisitor {
    var typeNames: Set<String> = []
    var genericParameters: Set<String> = []
    var hasBodies = false
    /// Capitalized values and called functions that bodies name.
    var outsideNames: Set<String> = []
    /// What the protocol itself declares (a forwarding overload calls its requirement).
    var declaredNames: Set<String> = []

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
      declaredNames.insert(node.name.text)
      return .visitChildren
    }
    override func visit(_ node: IdentifierPatternSyntax) -> SyntaxVisitorContinueKind {
      declaredNames.insert(node.identifier.text)
      return .visitChildren
    }

    override func visit(_ node: IdentifierTypeSyntax) -> SyntaxVisitorContinueKind {
      typeNames.insert(node.name.text)
      return .visitChildren
    }
    override func visit(_ node: GenericParameterSyntax) -> SyntaxVisitorContinueKind {
      genericParameters.insert(node.name.text)
      return .visitChildren
    }
    override func visit(_ node: CodeBlockSyntax) -> SyntaxVisitorContinueKind {
      hasBodies = true
      return .visitChildren
    }
    override func visit(_ node: AccessorBlockSyntax) -> SyntaxVisitorContinueKind {
      hasBodies = true
      return .visitChildren
    }
    /// A body naming a capitalized value (`Date()`, `FileManager.default`) or a free function may
    /// need any module.
    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
      if node.parent?.is(MemberAccessExprSyntax.self) != true || node.parent?.as(MemberAccessExprSyntax.self)?.base?.id == node.id {
        let name = node.baseName.text
        if name.first?.isUppercase == true, !ImportNeeds.standardLibrary.contains(name) { outsideNames.insert(name) }
        if node.parent?.as(FunctionCallExprSyntax.self)?.calledExpression.id == node.id { outsideNames.insert(name) }
      }
      return .visitChildren
    }
  }

  static let standardLibrary: Set<String> = [
    "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Double", "Float", "Float16",
    "Bool", "String", "Character", "Substring", "Array", "ArraySlice", "ContiguousArray", "Dictionary", "Set", "Optional",
    "Result", "Void", "Never", "Error", "Any", "AnyObject", "AnyHashable", "Hashable", "Equatable", "Comparable", "Codable",
    "Encodable", "Decodable", "Sendable", "Identifiable", "CustomStringConvertible", "Sequence", "Collection",
    "IteratorProtocol", "Range", "ClosedRange", "StaticString", "Duration", "Task", "AsyncStream", "AsyncThrowingStream",
    "MainActor", "Actor", "Self", "ObjectIdentifier", "KeyPath", "WritableKeyPath", "ReferenceWritableKeyPath",
    "PartialKeyPath", "Numeric", "BinaryInteger", "FloatingPoint", "StringProtocol", "RandomNumberGenerator",
    "CheckedContinuation", "TaskGroup", "ThrowingTaskGroup", "AsyncSequence", "Clock", "ContinuousClock",
    "SuspendingClock", "Hasher", "RawRepresentable", "CaseIterable", "UnsafePointer", "UnsafeMutablePointer",
    "UnsafeRawPointer", "UnsafeMutableRawPointer", "UnsafeBufferPointer", "UnsafeMutableBufferPointer", "OpaquePointer",
    "Unicode", "Slice", "Mirror", "SIMD", "Encoder", "Decoder", "CodingKey", "RangeExpression", "BidirectionalCollection",
    "RandomAccessCollection", "MutableCollection", "RangeReplaceableCollection", "OptionSet", "SetAlgebra",
    "ExpressibleByStringLiteral", "ExpressibleByIntegerLiteral", "LosslessStringConvertible", "TextOutputStream",
    "Strideable", "SignedNumeric", "SignedInteger", "UnsignedInteger", "FixedWidthInteger", "BinaryFloatingPoint",
    "CustomDebugStringConvertible", "AnyIterator", "AnySequence", "AnyCollection", "EmptyCollection",
    "CollectionOfOne", "Unmanaged", "UnsafeContinuation", "CheckedThrowingContinuation", "TaskPriority",
    "CancellationError", "AsyncIteratorProtocol", "GlobalActor", "SerialExecutor", "TaskLocal", "Copyable",
  ]

  /// Types Foundation declares (or re-exports: Dispatch, CoreGraphics' basics on Apple platforms).
  static let foundation: Set<String> = [
    "Data", "URL", "Date", "UUID", "TimeInterval", "Notification", "NotificationCenter", "IndexPath", "IndexSet", "Locale",
    "TimeZone", "Calendar", "DateComponents", "DateInterval", "Decimal", "CharacterSet", "NSRange", "Measurement",
    "URLRequest", "URLSession", "URLResponse", "HTTPURLResponse", "URLComponents", "URLQueryItem", "FileManager",
    "UserDefaults", "Bundle", "NSObject", "OperationQueue", "Operation", "JSONEncoder", "JSONDecoder",
    "PropertyListEncoder", "PropertyListDecoder", "NSError", "NSString", "NSNumber", "NSAttributedString",
    "AttributedString", "Progress", "RunLoop", "Timer", "DispatchQueue", "DispatchTime", "DispatchWorkItem",
    "DispatchGroup", "DispatchSemaphore", "CGFloat", "CGPoint", "CGSize", "CGRect", "NSLock", "NSRecursiveLock",
    "DateFormatter", "NumberFormatter", "ISO8601DateFormatter", "Formatter", "ProcessInfo", "Thread", "NSCache",
    "NSPredicate", "NSSortDescriptor", "LocalizedError", "CustomNSError", "NSCoding", "NSSecureCoding", "NSCoder",
    "NSKeyedArchiver", "NSKeyedUnarchiver", "Scanner", "FileHandle", "Pipe", "Process", "NSRegularExpression",
    "HTTPCookie", "NSNotification", "URLSessionTask", "URLSessionDataTask", "URLCache", "NSData", "NSURL", "NSDate",
    "NSDictionary", "NSArray", "NSSet", "NSMutableArray", "NSMutableDictionary", "NSPointerArray", "NSHashTable",
    "NSMapTable", "NSIndexSet", "NSValue", "Morphology", "PersonNameComponents", "ByteCountFormatter", "NSCondition",
  ]

  /// Modules that re-export Foundation.
  static let foundationProviders: Set<String> = [
    "Foundation", "UIKit", "AppKit", "Cocoa", "SwiftUI", "WatchKit", "TVUIKit", "CoreData", "FoundationEssentials",
  ]
}
