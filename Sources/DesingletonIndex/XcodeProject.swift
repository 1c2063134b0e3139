import DesingletonCore
import Foundation

/// An Xcode project (`Name.xcodeproj/project.pbxproj`) read without Xcode: its native targets, the
/// files each one compiles, and where every file sits in the group tree.
///
/// - A target's files are its Sources build phase (`PBXSourcesBuildPhase` → `PBXBuildFile` →
///   `PBXFileReference`), each reference's path resolved through the groups above it (`sourceTree`
///   `<group>`: relative to the parent group's folder; `SOURCE_ROOT`: to the project's folder;
///   `<absolute>`), and the Xcode 16 synchronized folders on its `fileSystemSynchronizedGroups`
///   (every file under the folder except the `membershipExceptions` of the folder's
///   `PBXFileSystemSynchronizedBuildFileExceptionSet` for that target; a folder the target does not
///   list gives it exactly the files its exception set for the target names).
/// - Test bundles (`com.apple.product-type.bundle.unit-test`, `.ui-testing`) are tests.
/// - Dependencies are the targets of its `PBXTargetDependency` objects and its Swift package products.
///
/// Paths are spelled as the command's paths spell them: the project's folder (the one holding the
/// `.xcodeproj`) as found, then the path inside it.
public struct XcodeProject: Sendable {
  public struct Target: Sendable {
    public var id: String
    public var name: String
    /// The module its sources form, as the compiler and `import` spell it: `PRODUCT_MODULE_NAME`,
    /// else the product name (`PRODUCT_NAME`, by default the target's name) made a C99 identifier
    /// (`My App Watch` → `My_App_Watch`, `Shared-watchOS` → `Shared_watchOS`).
    public var moduleName: String
    public var isTest: Bool
    /// Whether its product runs as a process of its own (`ModuleMap.Target.isProgram`).
    public var isProgram = false
    /// The files of its Sources build phase, and those a synchronized folder's exceptions add.
    public var files: [String]
    /// The synchronized folders it compiles, each with the files and folders excepted from it.
    public var folders: [(path: String, excluded: [String])]
    public var dependencies: [String]
  }

  /// Where a file sits: the file reference and the group listing it.
  public struct FileEntry: Sendable {
    public var referenceID: String
    public var reference: PropertyList
    /// The group whose `children` lists the reference, and the element's value there.
    public var groupID: String?
    public var childValue: PropertyList?
  }

  /// The path of `project.pbxproj`, as found.
  public var path: String { source.path }
  public let source: SourceText
  /// The folder holding the `.xcodeproj`, as the command's paths spell it ("" for the current one).
  public let folder: String
  /// The `.xcodeproj` folder's name.
  public let bundleName: String
  /// What generates the project (`XcodeGen (project.yml)`, `Tuist (Project.swift)`), when a
  /// generator's spec is next to it: such a project is regenerated, never edited.
  public let generator: String?
  public let root: PropertyList
  /// The `objects` dictionary's entries, in file order.
  public let objectEntries: [PropertyList.Entry]
  public let objects: [String: PropertyList]
  public private(set) var targets: [Target] = []
  private let parents: [String: String]

  /// Reads `project.pbxproj`; `generator` names a generator whose spec sits next to the `.xcodeproj`.
  public init(source: SourceText, generator: String? = nil) throws {
    self.source = source
    self.generator = generator
    let components = source.path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    bundleName = components.count >= 2 ? components[components.count - 2] : ""
    let joined = components.dropLast(2).joined(separator: "/")
    // `/App.xcodeproj/project.pbxproj` is in `/`.
    folder = components.count > 2 && joined.isEmpty ? "/" : joined
    root = try PropertyList.parse(source)
    guard let objectsValue = root["objects"], let entries = objectsValue.entries else {
      throw Refusal("cannot read the Xcode project: it has no 'objects'", at: source.location(ofOffset: 0))
    }
    objectEntries = entries
    var objects: [String: PropertyList] = [:]
    for entry in entries { objects[entry.key] = entry.value }
    self.objects = objects
    var parents: [String: String] = [:]
    for entry in entries
    where ["PBXGroup", "PBXVariantGroup", "XCVersionGroup"].contains(entry.value["isa"]?.string ?? "") {
      for child in entry.value.strings("children") where parents[child] == nil { parents[child] = entry.key }
    }
    self.parents = parents
    targets = readTargets()
  }

  /// Reads the project file at `path`; a generator's spec next to the `.xcodeproj` (XcodeGen's
  /// `project.yml`, Tuist's `Project.swift`) marks it as generated.
  public static func read(_ path: String) throws -> XcodeProject {
    let source = try FileLoader.read(path)
    let bundle = (path as NSString).deletingLastPathComponent
    let folder = (bundle as NSString).deletingLastPathComponent
    let specs = [("project.yml", "XcodeGen"), ("project.yaml", "XcodeGen"), ("Project.swift", "Tuist")]
    let generator = specs.first { spec in
      FileManager.default.fileExists(atPath: folder.isEmpty ? spec.0 : folder + "/" + spec.0)
    }
    return try XcodeProject(source: source, generator: generator.map { "\($0.1) (\($0.0))" })
  }

  // MARK: Paths

  /// The path of a file reference or group inside the project's folder ("" for the folder itself;
  /// absolute for `<absolute>`), or nil when it is relative to a build setting (`BUILT_PRODUCTS_DIR`,
  /// `SDKROOT`).
  public func relativePath(of id: String) -> String? {
    var seen: Set<String> = []
    return relativePath(of: id, seen: &seen)
  }

  private func relativePath(of id: String, seen: inout Set<String>) -> String? {
    guard seen.insert(id).inserted, let object = objects[id] else { return nil }
    let own = object["path"]?.string ?? ""
    let base: String
    switch object["sourceTree"]?.string ?? "<group>" {
    case "<group>":
      if let parent = parents[id] {
        guard let parentPath = relativePath(of: parent, seen: &seen) else { return nil }
        base = parentPath
      } else {
        // The main group: the project's folder, moved by `projectDirPath` when it is set.
        base = projectObject?["projectDirPath"]?.string ?? ""
      }
    case "SOURCE_ROOT": base = ""
    case "<absolute>": base = ""
    default: return nil
    }
    return Self.normalized(Self.joined(base, own))
  }

  /// A path inside the project's folder as the command's paths spell it.
  public func spelled(_ relative: String) -> String {
    if relative.hasPrefix("/") { return relative }
    if folder.isEmpty { return relative }
    if relative.isEmpty { return folder }
    if folder == "." { return "./" + Self.normalized(relative) }
    if folder.hasPrefix("./") { return "./" + Self.normalized(String(folder.dropFirst(2)) + "/" + relative) }
    return Self.normalized(folder + "/" + relative)
  }

  /// The path of a file reference or group as the command's paths spell it.
  public func path(of id: String) -> String? {
    relativePath(of: id).map(spelled)
  }

  /// `path` (as the command's paths spell it) inside the project's folder, or nil when it is not below it.
  public func relative(_ path: String) -> String? {
    if folder.isEmpty { return path.hasPrefix("/") || path.hasPrefix("../") ? nil : Self.normalized(path) }
    let prefix = folder.hasSuffix("/") ? folder : folder + "/"
    guard path.hasPrefix(prefix) else { return nil }
    return Self.normalized(String(path.dropFirst(prefix.count)))
  }

  static func joined(_ base: String, _ path: String) -> String {
    if path.hasPrefix("/") || base.isEmpty { return path }
    if path.isEmpty { return base }
    return base + "/" + path
  }

  /// Resolves `.` and `..` where it can, keeping leading `..` and a leading `/`.
  public static func normalized(_ path: String) -> String {
    var parts: [Substring] = []
    for part in path.split(separator: "/") {
      if part == "." { continue }
      if part == "..", let last = parts.last, last != ".." {
        parts.removeLast()
        continue
      }
      parts.append(part)
    }
    return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
  }

  /// The `PBXProject` object.
  public var projectObject: PropertyList? {
    root["rootObject"]?.string.flatMap { objects[$0] }
  }

  /// The id of the group that lists `id` among its children.
  public func parent(of id: String) -> String? { parents[id] }

  // MARK: Finding a file

  /// Every file reference whose path is `path` (as the command's paths spell it), with its group entry.
  public func entries(of path: String) -> [FileEntry] {
    var result: [FileEntry] = []
    for entry in objectEntries where entry.value["isa"]?.string == "PBXFileReference" {
      guard self.path(of: entry.key) == path else { continue }
      var found = FileEntry(referenceID: entry.key, reference: entry.value)
      if let group = parents[entry.key], let children = objects[group]?["children"]?.array {
        found.groupID = group
        found.childValue = children.first { $0.string == entry.key }
      }
      result.append(found)
    }
    return result
  }

  /// The `PBXBuildFile` ids that point to the file reference `id`.
  public func buildFiles(of referenceID: String) -> [String] {
    objectEntries.filter { $0.value["isa"]?.string == "PBXBuildFile" && $0.value["fileRef"]?.string == referenceID }
      .map(\.key)
  }

  /// The native targets' Sources build phases, with the target's name, in the project's target order.
  public var sourcesPhases: [(target: String, phaseID: String, phase: PropertyList)] {
    nativeTargetIDs.compactMap { id in
      guard let target = objects[id], let name = target["name"]?.string else { return nil }
      for phaseID in target.strings("buildPhases") {
        if let phase = objects[phaseID], phase["isa"]?.string == "PBXSourcesBuildPhase" {
          return (name, phaseID, phase)
        }
      }
      return nil
    }
  }

  /// The native targets' ids: the project's `targets` order, then any others in file order.
  public var nativeTargetIDs: [String] {
    let listed = projectObject?.strings("targets") ?? []
    let all = objectEntries.filter { $0.value["isa"]?.string == "PBXNativeTarget" }.map(\.key)
    return listed.filter { objects[$0]?["isa"]?.string == "PBXNativeTarget" } + all.filter { !listed.contains($0) }
  }

  /// The synchronized root groups (`PBXFileSystemSynchronizedRootGroup`) and their folders.
  public var synchronizedGroups: [(id: String, path: String)] {
    objectEntries.compactMap { entry in
      guard entry.value["isa"]?.string == "PBXFileSystemSynchronizedRootGroup", let path = path(of: entry.key) else {
        return nil
      }
      return (entry.key, path)
    }
  }

  /// The membership exception sets of a synchronized group: (set id, set, the target it is for).
  public func exceptionSets(ofGroup id: String) -> [(id: String, set: PropertyList, target: String)] {
    (objects[id]?.strings("exceptions") ?? []).compactMap { setID in
      guard let set = objects[setID], set["isa"]?.string == "PBXFileSystemSynchronizedBuildFileExceptionSet",
        let target = set["target"]?.string
      else { return nil }
      return (setID, set, target)
    }
  }

  // MARK: Targets

  /// Product types that run as processes of their own: applications (watch apps too), app and
  /// ExtensionKit extensions, command-line tools, XPC services.
  static let programProductTypes = [
    "com.apple.product-type.application", "com.apple.product-type.app-extension", "com.apple.product-type.extensionkit-extension",
    "com.apple.product-type.watchkit2-extension", "com.apple.product-type.tool", "com.apple.product-type.xpc-service",
  ]

  /// The frameworks a target links (`KeePassiumLib.framework` in its frameworks phase) by their
  /// names: a framework another target builds is a dependency even without a target dependency
  /// (Xcode finds it by the product, as a workspace's projects build one another's).
  private func linkedFrameworks(of target: PropertyList) -> [String] {
    var names: [String] = []
    for phaseID in target.strings("buildPhases") where objects[phaseID]?["isa"]?.string == "PBXFrameworksBuildPhase" {
      for buildFile in objects[phaseID]?.strings("files") ?? [] {
        guard let reference = objects[buildFile]?["fileRef"]?.string, let path = objects[reference]?["path"]?.string,
          path.hasSuffix(".framework")
        else { continue }
        let file = path.split(separator: "/").last.map(String.init) ?? path
        names.append(String(file.dropLast(".framework".count)))
      }
    }
    return names
  }

  private func readTargets() -> [Target] {
    let groups = synchronizedGroups
    return nativeTargetIDs.compactMap { id -> Target? in
      guard let object = objects[id], let name = object["name"]?.string else { return nil }
      let productType = object["productType"]?.string ?? ""
      var files: [String] = []
      for phaseID in object.strings("buildPhases") where objects[phaseID]?["isa"]?.string == "PBXSourcesBuildPhase" {
        for buildFile in objects[phaseID]?.strings("files") ?? [] {
          guard let reference = objects[buildFile]?["fileRef"]?.string, let path = path(of: reference) else { continue }
          files.append(path)
        }
      }
      let own = Set(object.strings("fileSystemSynchronizedGroups"))
      var folders: [(path: String, excluded: [String])] = []
      for group in groups {
        let exceptions = exceptionSets(ofGroup: group.id).filter { $0.target == id }
          .flatMap { $0.set.strings("membershipExceptions") }
          .map { Self.normalized(group.path + "/" + $0) }
        if own.contains(group.id) {
          folders.append((group.path, exceptions))
        } else {
          // A folder the target does not compile: its exceptions are the files the target does.
          files += exceptions
        }
      }
      var dependencies: [String] = []
      for dependencyID in object.strings("dependencies") {
        guard let dependency = objects[dependencyID] else { continue }
        if let target = dependency["target"]?.string, let targetName = objects[target]?["name"]?.string {
          dependencies.append(targetName)
        } else if let proxy = dependency["targetProxy"]?.string, let info = objects[proxy]?["remoteInfo"]?.string {
          dependencies.append(info)
        } else if let name = dependency["name"]?.string {
          dependencies.append(name)
        }
      }
      for product in object.strings("packageProductDependencies") {
        if let productName = objects[product]?["productName"]?.string { dependencies.append(productName) }
      }
      dependencies += linkedFrameworks(of: object)
      var target = Target(
        id: id, name: name, moduleName: moduleName(of: object, targetName: name),
        isTest: productType.hasSuffix(".unit-test") || productType.hasSuffix(".ui-testing"),
        files: files, folders: folders, dependencies: dependencies)
      target.isProgram = Self.programProductTypes.contains { productType.hasPrefix($0) }
      return target
    }
  }

  /// A target's module name from its build settings (the first configuration that sets one; the
  /// project's own settings below the target's), with `$(TARGET_NAME)` and `$(PRODUCT_NAME)`
  /// expanded and `:c99extidentifier` applied; a value still naming another setting is left for the
  /// target's name.
  private func moduleName(of target: PropertyList, targetName: String) -> String {
    func settings(_ listID: String?) -> [[String: String]] {
      guard let listID, let list = objects[listID] else { return [] }
      return list.strings("buildConfigurations").compactMap { objects[$0]?["buildSettings"]?.entries }.map { entries in
        var result: [String: String] = [:]
        for entry in entries { if let value = entry.value.string { result[entry.key] = value } }
        return result
      }
    }
    let layers = settings(target["buildConfigurationList"]?.string)
      + settings(root["rootObject"]?.string.flatMap { objects[$0] }?["buildConfigurationList"]?.string)
    func setting(_ key: String) -> String? { layers.lazy.compactMap { $0[key] }.first }
    func expand(_ value: String, productName: String) -> String? {
      var result = value
      for (pattern, replacement) in [
        ("$(TARGET_NAME:c99extidentifier)", Self.c99Identifier(targetName)), ("${TARGET_NAME:c99extidentifier}", Self.c99Identifier(targetName)),
        ("$(PRODUCT_NAME:c99extidentifier)", Self.c99Identifier(productName)), ("${PRODUCT_NAME:c99extidentifier}", Self.c99Identifier(productName)),
        ("$(TARGET_NAME)", targetName), ("${TARGET_NAME}", targetName), ("$(PRODUCT_NAME)", productName), ("${PRODUCT_NAME}", productName),
      ] {
        result = result.replacingOccurrences(of: pattern, with: replacement)
      }
      return result.contains("$") ? nil : result
    }
    let productName = setting("PRODUCT_NAME").flatMap { expand($0, productName: targetName) } ?? targetName
    if let module = setting("PRODUCT_MODULE_NAME").flatMap({ expand($0, productName: productName) }), !module.isEmpty {
      return Self.c99Identifier(module)
    }
    return Self.c99Identifier(productName)
  }

  /// A name made a C99 extended identifier, as Xcode makes a module name: every character that
  /// cannot be in one becomes `_`, and a leading digit gets a `_` before it.
  public static func c99Identifier(_ name: String) -> String {
    var result = String(name.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
    if let first = result.first, first.isNumber { result = "_" + result }
    return result.isEmpty ? "_" : result
  }

  /// The module map's targets: one for a target's explicit files, one per synchronized folder.
  public var mapTargets: [ModuleMap.Target] {
    // Targets are known to the module map by their module names; so are the targets they depend on.
    let moduleNames = Dictionary(targets.map { ($0.name, $0.moduleName) }, uniquingKeysWith: { first, _ in first })
    return targets.flatMap { target -> [ModuleMap.Target] in
      let dependencies = target.dependencies.map { moduleNames[$0] ?? $0 }
      var result: [ModuleMap.Target] = []
      if !target.files.isEmpty || target.folders.isEmpty {
        result.append(
          ModuleMap.Target(
            name: target.moduleName, directory: folder, isTest: target.isTest, files: Set(target.files),
            dependencies: dependencies, kind: .xcode, declaredIn: path, isProgram: target.isProgram))
      }
      for folder in target.folders {
        result.append(
          ModuleMap.Target(
            name: target.moduleName, directory: folder.path, isTest: target.isTest, excluded: folder.excluded,
            dependencies: dependencies, kind: .xcode, declaredIn: path, isProgram: target.isProgram))
      }
      return result
    }
  }
}
