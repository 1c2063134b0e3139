import DesingletonCore
import DesingletonIndex
import DesingletonPlanner
import Foundation
import Testing

/// Reading Xcode projects into the module map, and adding new files to them. Edited project files
/// are read back with `Tests/Xcode/pbxproj.py`, a reader written apart from the tool's own.
@Suite struct XcodeProjectTests {
  /// A classic project in `App/`: a group tree with paths, a file relative to the project's folder
  /// (`SOURCE_ROOT`), a file only one target compiles, a test bundle depending on the app.
  static let classic = """
    // !$*UTF8*$!
    {
    \tarchiveVersion = 1;
    \tclasses = {
    \t};
    \tobjectVersion = 56;
    \tobjects = {

    /* Begin PBXBuildFile section */
    \t\tB00000000000000000000001 /* Store.swift in Sources */ = {isa = PBXBuildFile; fileRef = F00000000000000000000001 /* Store.swift */; };
    \t\tB00000000000000000000002 /* Store.swift in Sources */ = {isa = PBXBuildFile; fileRef = F00000000000000000000001 /* Store.swift */; };
    \t\tB00000000000000000000003 /* Phone.swift in Sources */ = {isa = PBXBuildFile; fileRef = F00000000000000000000002 /* Phone.swift */; };
    \t\tB00000000000000000000004 /* Root.swift in Sources */ = {isa = PBXBuildFile; fileRef = F00000000000000000000003 /* Root.swift */; };
    \t\tB00000000000000000000005 /* StoreTests.swift in Sources */ = {isa = PBXBuildFile; fileRef = F00000000000000000000004 /* StoreTests.swift */; };
    /* End PBXBuildFile section */

    /* Begin PBXFileReference section */
    \t\tF00000000000000000000001 /* Store.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = Store.swift; sourceTree = "<group>"; };
    \t\tF00000000000000000000002 /* Phone.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = "Screens/Phone.swift"; sourceTree = "<group>"; };
    \t\tF00000000000000000000003 /* Root.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; name = Root.swift; path = Shared/Root.swift; sourceTree = SOURCE_ROOT; };
    \t\tF00000000000000000000004 /* StoreTests.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = StoreTests.swift; sourceTree = "<group>"; };
    \t\tF00000000000000000000005 /* App.app */ = {isa = PBXFileReference; explicitFileType = wrapper.application; includeInIndex = 0; path = App.app; sourceTree = BUILT_PRODUCTS_DIR; };
    /* End PBXFileReference section */

    /* Begin PBXGroup section */
    \t\tA00000000000000000000001 = {
    \t\t\tisa = PBXGroup;
    \t\t\tchildren = (
    \t\t\t\tA00000000000000000000002 /* Code */,
    \t\t\t\tA00000000000000000000003 /* Tests */,
    \t\t\t\tF00000000000000000000003 /* Root.swift */,
    \t\t\t\tF00000000000000000000005 /* App.app */,
    \t\t\t);
    \t\t\tsourceTree = "<group>";
    \t\t};
    \t\tA00000000000000000000002 /* Code */ = {
    \t\t\tisa = PBXGroup;
    \t\t\tchildren = (
    \t\t\t\tF00000000000000000000002 /* Phone.swift */,
    \t\t\t\tF00000000000000000000001 /* Store.swift */,
    \t\t\t);
    \t\t\tname = Code; // a group with a name and a path
    \t\t\tpath = "Sources/App";
    \t\t\tsourceTree = "<group>";
    \t\t};
    \t\tA00000000000000000000003 /* Tests */ = {
    \t\t\tisa = PBXGroup;
    \t\t\tchildren = (
    \t\t\t\tF00000000000000000000004 /* StoreTests.swift */,
    \t\t\t);
    \t\t\tpath = Tests;
    \t\t\tsourceTree = "<group>";
    \t\t};
    /* End PBXGroup section */

    /* Begin PBXNativeTarget section */
    \t\tC00000000000000000000001 /* Phone */ = {
    \t\t\tisa = PBXNativeTarget;
    \t\t\tbuildPhases = (
    \t\t\t\tD00000000000000000000001 /* Sources */,
    \t\t\t);
    \t\t\tdependencies = (
    \t\t\t);
    \t\t\tname = Phone;
    \t\t\tproductType = "com.apple.product-type.application";
    \t\t};
    \t\tC00000000000000000000002 /* Mac */ = {
    \t\t\tisa = PBXNativeTarget;
    \t\t\tbuildPhases = (
    \t\t\t\tD00000000000000000000002 /* Sources */,
    \t\t\t);
    \t\t\tdependencies = (
    \t\t\t);
    \t\t\tname = Mac;
    \t\t\tproductType = "com.apple.product-type.application";
    \t\t};
    \t\tC00000000000000000000003 /* PhoneTests */ = {
    \t\t\tisa = PBXNativeTarget;
    \t\t\tbuildPhases = (
    \t\t\t\tD00000000000000000000003 /* Sources */,
    \t\t\t);
    \t\t\tdependencies = (
    \t\t\t\tE00000000000000000000001 /* PBXTargetDependency */,
    \t\t\t);
    \t\t\tname = PhoneTests;
    \t\t\tproductType = "com.apple.product-type.bundle.unit-test";
    \t\t};
    /* End PBXNativeTarget section */

    /* Begin PBXProject section */
    \t\t900000000000000000000001 /* Project object */ = {
    \t\t\tisa = PBXProject;
    \t\t\tmainGroup = A00000000000000000000001;
    \t\t\tprojectDirPath = "";
    \t\t\ttargets = (
    \t\t\t\tC00000000000000000000001 /* Phone */,
    \t\t\t\tC00000000000000000000002 /* Mac */,
    \t\t\t\tC00000000000000000000003 /* PhoneTests */,
    \t\t\t);
    \t\t};
    /* End PBXProject section */

    /* Begin PBXSourcesBuildPhase section */
    \t\tD00000000000000000000001 /* Sources */ = {
    \t\t\tisa = PBXSourcesBuildPhase;
    \t\t\tfiles = (
    \t\t\t\tB00000000000000000000001 /* Store.swift in Sources */,
    \t\t\t\tB00000000000000000000003 /* Phone.swift in Sources */,
    \t\t\t\tB00000000000000000000004 /* Root.swift in Sources */,
    \t\t\t);
    \t\t};
    \t\tD00000000000000000000002 /* Sources */ = {
    \t\t\tisa = PBXSourcesBuildPhase;
    \t\t\tfiles = (
    \t\t\t\tB00000000000000000000002 /* Store.swift in Sources */,
    \t\t\t);
    \t\t};
    \t\tD00000000000000000000003 /* Sources */ = {
    \t\t\tisa = PBXSourcesBuildPhase;
    \t\t\tfiles = (
    \t\t\t\tB00000000000000000000005 /* StoreTests.swift in Sources */,
    \t\t\t);
    \t\t};
    /* End PBXSourcesBuildPhase section */

    /* Begin PBXTargetDependency section */
    \t\tE00000000000000000000001 /* PBXTargetDependency */ = {
    \t\t\tisa = PBXTargetDependency;
    \t\t\ttarget = C00000000000000000000001 /* Phone */;
    \t\t};
    /* End PBXTargetDependency section */
    \t};
    \trootObject = 900000000000000000000001 /* Project object */;
    }

    """

  /// Synchronized folders: `Sources` in the app and the widget (which leaves `App/Store.swift` out),
  /// `Extras` in no target, though its exception set gives the widget `Extras/Glance.swift`.
  static let synchronized = """
    // !$*UTF8*$!
    {
    \tarchiveVersion = 1;
    \tclasses = {
    \t};
    \tobjectVersion = 77;
    \tobjects = {

    /* Begin PBXFileSystemSynchronizedBuildFileExceptionSet section */
    \t\t700000000000000000000001 /* Exceptions for "Sources" folder in "Widget" target */ = {
    \t\t\tisa = PBXFileSystemSynchronizedBuildFileExceptionSet;
    \t\t\tmembershipExceptions = (
    \t\t\t\tApp/Store.swift,
    \t\t\t);
    \t\t\ttarget = C00000000000000000000002 /* Widget */;
    \t\t};
    \t\t700000000000000000000002 /* Exceptions for "Extras" folder in "Widget" target */ = {
    \t\t\tisa = PBXFileSystemSynchronizedBuildFileExceptionSet;
    \t\t\tmembershipExceptions = (
    \t\t\t\tGlance.swift,
    \t\t\t);
    \t\t\ttarget = C00000000000000000000002 /* Widget */;
    \t\t};
    /* End PBXFileSystemSynchronizedBuildFileExceptionSet section */

    /* Begin PBXFileSystemSynchronizedRootGroup section */
    \t\t600000000000000000000001 /* Sources */ = {isa = PBXFileSystemSynchronizedRootGroup; exceptions = (700000000000000000000001 /* Exceptions for "Sources" folder in "Widget" target */, ); explicitFileTypes = {}; explicitFolders = (); path = Sources; sourceTree = "<group>"; };
    \t\t600000000000000000000002 /* Extras */ = {
    \t\t\tisa = PBXFileSystemSynchronizedRootGroup;
    \t\t\texceptions = (
    \t\t\t\t700000000000000000000002 /* Exceptions for "Extras" folder in "Widget" target */,
    \t\t\t);
    \t\t\tpath = Extras;
    \t\t\tsourceTree = "<group>";
    \t\t};
    /* End PBXFileSystemSynchronizedRootGroup section */

    /* Begin PBXGroup section */
    \t\tA00000000000000000000001 = {
    \t\t\tisa = PBXGroup;
    \t\t\tchildren = (
    \t\t\t\t600000000000000000000001 /* Sources */,
    \t\t\t\t600000000000000000000002 /* Extras */,
    \t\t\t);
    \t\t\tsourceTree = "<group>";
    \t\t};
    /* End PBXGroup section */

    /* Begin PBXNativeTarget section */
    \t\tC00000000000000000000001 /* App */ = {
    \t\t\tisa = PBXNativeTarget;
    \t\t\tbuildPhases = (
    \t\t\t);
    \t\t\tfileSystemSynchronizedGroups = (
    \t\t\t\t600000000000000000000001 /* Sources */,
    \t\t\t);
    \t\t\tname = App;
    \t\t\tproductType = "com.apple.product-type.application";
    \t\t};
    \t\tC00000000000000000000002 /* Widget */ = {
    \t\t\tisa = PBXNativeTarget;
    \t\t\tbuildPhases = (
    \t\t\t);
    \t\t\tfileSystemSynchronizedGroups = (
    \t\t\t\t600000000000000000000001 /* Sources */,
    \t\t\t);
    \t\t\tname = Widget;
    \t\t\tproductType = "com.apple.product-type.app-extension";
    \t\t};
    /* End PBXNativeTarget section */

    /* Begin PBXProject section */
    \t\t900000000000000000000001 /* Project object */ = {
    \t\t\tisa = PBXProject;
    \t\t\tmainGroup = A00000000000000000000001;
    \t\t\ttargets = (
    \t\t\t\tC00000000000000000000001 /* App */,
    \t\t\t\tC00000000000000000000002 /* Widget */,
    \t\t\t);
    \t\t};
    /* End PBXProject section */
    \t};
    \trootObject = 900000000000000000000001 /* Project object */;
    }

    """

  func project(_ text: String, at path: String, generator: String? = nil) throws -> XcodeProject {
    try XcodeProject(source: SourceText(path: path, text: text), generator: generator)
  }

  // MARK: Reading

  @Test func aClassicProjectGivesEachTargetItsSourcesThroughTheGroups() throws {
    let project = try project(Self.classic, at: "App/App.xcodeproj/project.pbxproj")
    #expect(project.folder == "App")
    #expect(project.targets.map(\.name) == ["Phone", "Mac", "PhoneTests"])
    #expect(project.targets[0].files == ["App/Sources/App/Store.swift", "App/Sources/App/Screens/Phone.swift", "App/Shared/Root.swift"])
    #expect(project.targets[1].files == ["App/Sources/App/Store.swift"])
    #expect(project.targets.map(\.isTest) == [false, false, true])
    #expect(project.targets.map(\.isProgram) == [true, true, false], "applications run as programs of their own; a test bundle does not")
    #expect(project.targets[2].dependencies == ["Phone"])
    #expect(project.targets[2].files == ["App/Tests/StoreTests.swift"])
    // A product lives in the build folder, not in the project.
    #expect(project.path(of: "F00000000000000000000005") == nil)

    let map = ModuleMap(manifests: [], xcodeProjects: [project])
    #expect(map.modules(of: "App/Sources/App/Store.swift") == ["Mac", "Phone"])
    #expect(map.modules(of: "App/Sources/App/Screens/Phone.swift") == ["Phone"])
    #expect(map.modules(of: "App/Tests/StoreTests.swift") == ["PhoneTests"])
    #expect(map.modules(of: "App/Sources/App/Unlisted.swift") == [])
    #expect(!map.crossesModules("App/Sources/App/Screens/Phone.swift", "App/Sources/App/Store.swift"))
    #expect(map.module("PhoneTests", canSee: "Phone"))
    #expect(map.targets(named: "PhoneTests").first?.isTest == true)
    #expect(map.programs(of: "App/Sources/App/Store.swift") == ["Phone", "Mac"])
    #expect(map.programs(of: "App/Tests/StoreTests.swift") == [])
  }

  /// A target is known by its module name, as `import` spells it: `PRODUCT_MODULE_NAME` expanded,
  /// else the product name (by default the target's) made a C99 identifier. Dependencies follow.
  @Test func targetsAreKnownByTheirModuleNames() throws {
    // The test bundle's dependency names the app target by its id, hence by its name.
    var text = Self.classic
      .replacingOccurrences(of: "\t\t\tname = Phone;", with: "\t\t\tname = \"My Phone App\";")
      .replacingOccurrences(of: "\t\t\tname = Mac;", with: "\t\t\tname = \"Shared-macOS\";\n\t\t\tbuildConfigurationList = L00000000000000000000001;")
    let configurations = """
      /* Begin XCBuildConfiguration section */
      \t\tG00000000000000000000001 /* Debug */ = {
      \t\t\tisa = XCBuildConfiguration;
      \t\t\tbuildSettings = {
      \t\t\t\tPRODUCT_MODULE_NAME = "$(PRODUCT_NAME:c99extidentifier)Kit";
      \t\t\t\tPRODUCT_NAME = "$(TARGET_NAME)";
      \t\t\t};
      \t\t\tname = Debug;
      \t\t};
      /* End XCBuildConfiguration section */

      /* Begin XCConfigurationList section */
      \t\tL00000000000000000000001 = {
      \t\t\tisa = XCConfigurationList;
      \t\t\tbuildConfigurations = (
      \t\t\t\tG00000000000000000000001 /* Debug */,
      \t\t\t);
      \t\t};
      /* End XCConfigurationList section */

      /* Begin PBXNativeTarget section */
      """
    text = text.replacingOccurrences(of: "/* Begin PBXNativeTarget section */\n", with: configurations)
    let project = try project(text, at: "App/App.xcodeproj/project.pbxproj")
    #expect(project.targets.map(\.moduleName) == ["My_Phone_App", "Shared_macOSKit", "PhoneTests"])
    let map = ModuleMap(manifests: [], xcodeProjects: [project])
    #expect(map.modules(of: "App/Sources/App/Store.swift") == ["My_Phone_App", "Shared_macOSKit"])
    #expect(map.modules(of: "App/Tests/StoreTests.swift") == ["PhoneTests"])
    #expect(map.module("PhoneTests", canSee: "My_Phone_App"))
    #expect(XcodeProject.c99Identifier("2D Game") == "_2D_Game")
  }

  /// A framework another target builds, linked in a target's frameworks phase without a target
  /// dependency (a workspace's app linking its library project's `Kit.framework`), is a dependency:
  /// the app's code can import `Kit`.
  @Test func aLinkedFrameworkIsADependency() throws {
    let frameworks = """
      /* Begin PBXFrameworksBuildPhase section */
      \t\tD00000000000000000000009 /* Frameworks */ = {
      \t\t\tisa = PBXFrameworksBuildPhase;
      \t\t\tfiles = (
      \t\t\t\tB00000000000000000000009 /* Kit.framework in Frameworks */,
      \t\t\t);
      \t\t};
      /* End PBXFrameworksBuildPhase section */
      \t\tB00000000000000000000009 /* Kit.framework in Frameworks */ = {isa = PBXBuildFile; fileRef = F00000000000000000000009 /* Kit.framework */; };
      \t\tF00000000000000000000009 /* Kit.framework */ = {isa = PBXFileReference; explicitFileType = wrapper.framework; path = Kit.framework; sourceTree = BUILT_PRODUCTS_DIR; };

      /* Begin PBXNativeTarget section */
      """
    let text = Self.classic
      .replacingOccurrences(of: "/* Begin PBXNativeTarget section */\n", with: frameworks)
      .replacingOccurrences(
        of: "\t\t\t\tD00000000000000000000002 /* Sources */,\n",
        with: "\t\t\t\tD00000000000000000000002 /* Sources */,\n\t\t\t\tD00000000000000000000009 /* Frameworks */,\n")
    let project = try project(text, at: "App/App.xcodeproj/project.pbxproj")
    #expect(project.targets.map(\.dependencies) == [[], ["Kit"], ["Phone"]])
    // The library's own project, read beside it, declares the target `Kit`.
    var map = ModuleMap(manifests: [], xcodeProjects: [project])
    map.targets.append(ModuleMap.Target(name: "Kit", directory: "Kit", isTest: false, files: ["Kit/Store.swift"], kind: .xcode))
    #expect(map.module("Mac", canSee: "Kit"))
    #expect(!map.module("Phone", canSee: "Kit"))
  }

  @Test func theProjectsFolderIsHowTheCommandSpellsIt() throws {
    let here = try project(Self.classic, at: "App.xcodeproj/project.pbxproj")
    #expect(here.folder == "")
    #expect(here.targets[1].files == ["Sources/App/Store.swift"])
    let dotted = try project(Self.classic, at: "./App.xcodeproj/project.pbxproj")
    #expect(dotted.targets[1].files == ["./Sources/App/Store.swift"])
    #expect(dotted.relative("./Sources/App/Store.swift") == "Sources/App/Store.swift")
    let nested = try project(Self.classic, at: "./work/App.xcodeproj/project.pbxproj")
    #expect(nested.targets[1].files == ["./work/Sources/App/Store.swift"])
    let absolute = try project(Self.classic, at: "/work/App/App.xcodeproj/project.pbxproj")
    #expect(absolute.targets[1].files == ["/work/App/Sources/App/Store.swift"])
  }

  @Test func synchronizedFoldersWithMembershipExceptions() throws {
    let project = try project(Self.synchronized, at: "Proj.xcodeproj/project.pbxproj")
    let map = ModuleMap(manifests: [], xcodeProjects: [project])
    #expect(map.modules(of: "Sources/App/Store.swift") == ["App"])
    #expect(map.modules(of: "Sources/App/Screen.swift") == ["App", "Widget"])
    #expect(map.modules(of: "Sources/Deep/Nested/File.swift") == ["App", "Widget"])
    // A folder no target compiles: only what an exception set gives a target.
    #expect(map.modules(of: "Extras/Glance.swift") == ["Widget"])
    #expect(map.modules(of: "Extras/Other.swift") == [])
    let widget = try #require(project.targets.first { $0.name == "Widget" })
    #expect(widget.folders.map(\.path) == ["Sources"])
    #expect(widget.folders.first?.excluded == ["Sources/App/Store.swift"])
  }

  @Test func aBrokenProjectFileIsRefusedAtItsPlace() {
    let broken = "// !$*UTF8*$!\n{\n\tobjects = {\n\t\tA = {isa = PBXGroup; children = (B, C;\n"
    #expect {
      try project(broken, at: "X.xcodeproj/project.pbxproj")
    } throws: { error in
      (error as? Refusal)?.diagnostics.first?.description.hasPrefix("X.xcodeproj/project.pbxproj:4:") ?? false
    }
  }

  @Test func quotedStringsAndCommentsReadLikeXcodeWritesThem() throws {
    let list = try PropertyList.parse(
      SourceText(path: "p", text: #"{ a = "x \"y\" \\ z"; /* c */ b = (1, "two", ); // end"# + "\n" + #"c = {}; d = bare/path.swift; }"#))
    #expect(list["a"]?.string == #"x "y" \ z"#)
    #expect(list["b"]?.array?.compactMap(\.string) == ["1", "two"])
    #expect(list["c"]?.entries?.isEmpty == true)
    #expect(list["d"]?.string == "bare/path.swift")
    #expect(PropertyList.quoted("Store.swift") == "Store.swift")
    #expect(PropertyList.quoted("A+B.swift") == "\"A+B.swift\"")
    #expect(PropertyList.quoted("<group>") == "\"<group>\"")
  }

  // MARK: Editing

  /// A plan that creates `files` next to `companion`, its project edits applied.
  func edited(_ text: String, at path: String, creating files: [String], next companion: String) throws -> (String, Plan) {
    let project = try project(text, at: path)
    var plan = Plan()
    for file in files {
      plan.newFiles[file] = "protocol P {}\n"
      plan.companions[file] = companion
    }
    let result = try XcodeProjectEdits.add(to: plan, modules: ModuleMap(manifests: [], xcodeProjects: [project]))
    let edits = result.edits[path] ?? []
    var bytes = Array(text.utf8)
    for edit in edits.sorted(by: >) { bytes.replaceSubrange(edit.range, with: Array(edit.replacement.utf8)) }
    return (String(decoding: bytes, as: UTF8.self), result)
  }

  @Test func aNewFileJoinsTheCompanionsGroupAndTargets() throws {
    let (text, plan) = try edited(
      Self.classic, at: "App.xcodeproj/project.pbxproj",
      creating: ["Sources/App/Counting.swift", "Sources/App/Naming.swift"], next: "Sources/App/Store.swift")
    let checked = try IndependentReader.read(text)
    #expect(checked.duplicateIds.isEmpty)
    #expect(checked.dangling.isEmpty)
    #expect(checked.objects == 21 + 6)
    for name in ["Counting", "Naming"] {
      let file = "Sources/App/\(name).swift"
      #expect(checked.targets["Phone"]?.contains(file) == true)
      #expect(checked.targets["Mac"]?.contains(file) == true)
      #expect(checked.targets["PhoneTests"]?.contains(file) == false)
      #expect(checked.groups[file] == "Sources/App")
    }
    // Right after the companion, in order, with the file's indentation.
    #expect(
      text.contains(
        "\t\t\t\tF00000000000000000000001 /* Store.swift */,\n\t\t\t\t" + "\(try id(of: "Counting.swift", in: text)) /* Counting.swift */,\n"))
    #expect(plan.noteLines.contains("App.xcodeproj: Naming.swift added to group 'Code' and to the Sources of 'Phone', 'Mac'"))
    // Every untouched line survives: the edit only inserts lines.
    let old = Self.classic.split(separator: "\n", omittingEmptySubsequences: false)
    let new = text.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(new.count == old.count + 12)
    #expect(old.allSatisfy { new.contains($0) })

    // The same run gives the same ids.
    let (again, _) = try edited(
      Self.classic, at: "App.xcodeproj/project.pbxproj",
      creating: ["Sources/App/Counting.swift", "Sources/App/Naming.swift"], next: "Sources/App/Store.swift")
    #expect(again == text)
  }

  @Test func aNewIdNeverCollidesWithOneTheProjectHas() throws {
    let (text, _) = try edited(
      Self.classic, at: "App.xcodeproj/project.pbxproj", creating: ["Sources/App/Counting.swift"],
      next: "Sources/App/Store.swift")
    let taken = try id(of: "Counting.swift", in: text)
    // A project that already uses that id for something else.
    let crowded = Self.classic.replacingOccurrences(of: "F00000000000000000000005", with: taken)
    let (other, _) = try edited(
      crowded, at: "App.xcodeproj/project.pbxproj", creating: ["Sources/App/Counting.swift"],
      next: "Sources/App/Store.swift")
    let checked = try IndependentReader.read(other)
    #expect(checked.duplicateIds.isEmpty && checked.dangling.isEmpty)
    #expect(try id(of: "Counting.swift", in: other) != taken)
    #expect(checked.targets["Mac"]?.contains("Sources/App/Counting.swift") == true)
  }

  @Test func aFileInASubfolderOfTheGroupOrBesideASourceRootFile() throws {
    // The companion's group is Sources/App, the new file goes to Sources/App/Screens.
    let (text, _) = try edited(
      Self.classic, at: "App.xcodeproj/project.pbxproj", creating: ["Sources/App/Screens/Tapping.swift"],
      next: "Sources/App/Screens/Phone.swift")
    #expect(text.contains("name = Tapping.swift; path = Screens/Tapping.swift; sourceTree = \"<group>\";"))
    let checked = try IndependentReader.read(text)
    #expect(checked.targets["Phone"]?.contains("Sources/App/Screens/Tapping.swift") == true)
    #expect(checked.targets["Mac"]?.contains("Sources/App/Screens/Tapping.swift") == false)

    let (rooted, _) = try edited(
      Self.classic, at: "App.xcodeproj/project.pbxproj", creating: ["Shared/Owning.swift"], next: "Shared/Root.swift")
    #expect(rooted.contains("name = Owning.swift; path = Shared/Owning.swift; sourceTree = SOURCE_ROOT;"))
    #expect(try IndependentReader.read(rooted).targets["Phone"]?.contains("Shared/Owning.swift") == true)
  }

  @Test func aSynchronizedFolderOnlyMirrorsTheCompanionsExceptions() throws {
    let (text, plan) = try edited(
      Self.synchronized, at: "Proj.xcodeproj/project.pbxproj", creating: ["Sources/App/Counting.swift"],
      next: "Sources/App/Store.swift")
    // Where it sorts, as Xcode keeps the list.
    #expect(text.contains("\t\t\t\tApp/Counting.swift,\n\t\t\t\tApp/Store.swift,\n\t\t\t);"))
    #expect(try IndependentReader.read(text).folders["Widget"]?.first?.exceptions == ["App/Counting.swift", "App/Store.swift"])
    #expect(plan.noteLines == ["Proj.xcodeproj: Counting.swift added to the membership exceptions of 'Widget', like the file it goes with"])

    // A companion in no exception set: nothing to edit.
    let (same, quiet) = try edited(
      Self.synchronized, at: "Proj.xcodeproj/project.pbxproj", creating: ["Sources/App/Counting.swift"],
      next: "Sources/App/Screen.swift")
    #expect(same == Self.synchronized)
    #expect(quiet.notes.isEmpty)

    // A new file outside the folder (`--output-dir`) cannot follow by itself: the summary says so.
    let (outside, told) = try edited(
      Self.synchronized, at: "Proj.xcodeproj/project.pbxproj", creating: ["Protocols/Counting.swift"],
      next: "Sources/App/Screen.swift")
    #expect(outside == Self.synchronized)
    #expect(
      told.noteLines == [
        "Proj.xcodeproj: Counting.swift is outside the synchronized folder 'Sources' that compiles Screen.swift; add it to the same targets in Xcode"
      ])
  }

  @Test func aGeneratedProjectIsNotEdited() throws {
    let project = try project(Self.classic, at: "App.xcodeproj/project.pbxproj", generator: "XcodeGen (project.yml)")
    var plan = Plan()
    plan.newFiles["Sources/App/Counting.swift"] = "protocol Counting {}\n"
    plan.companions["Sources/App/Counting.swift"] = "Sources/App/Store.swift"
    let result = try XcodeProjectEdits.add(to: plan, modules: ModuleMap(manifests: [], xcodeProjects: [project]))
    #expect(result.edits.isEmpty)
    #expect(
      result.noteLines == [
        "App.xcodeproj is generated by XcodeGen (project.yml) and was not edited: regenerate it so that its targets compile the new files"
      ])
  }

  @Test func aGeneratorsSpecNextToTheProjectMarksItGenerated() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("desingleton-xcodegen-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try FileManager.default.createDirectory(atPath: directory + "/App.xcodeproj", withIntermediateDirectories: true)
    try Data(Self.classic.utf8).write(to: URL(fileURLWithPath: directory + "/App.xcodeproj/project.pbxproj"))
    #expect(try XcodeProject.read(directory + "/App.xcodeproj/project.pbxproj").generator == nil)
    try Data("name: App\n".utf8).write(to: URL(fileURLWithPath: directory + "/project.yml"))
    #expect(try XcodeProject.read(directory + "/App.xcodeproj/project.pbxproj").generator == "XcodeGen (project.yml)")
  }

  func id(of name: String, in text: String) throws -> String {
    let line = try #require(text.split(separator: "\n").first { $0.contains("/* \(name) */ = {isa = PBXFileReference") })
    return String(line.trimmingCharacters(in: .whitespaces).prefix(24))
  }
}

/// `Tests/Xcode/pbxproj.py`'s reading of a project file.
struct IndependentReader {
  struct Target {
    var isTest: Bool
  }
  var targets: [String: [String]]
  var kinds: [String: Target] = [:]
  var folders: [String: [(path: String, exceptions: [String])]]
  var groups: [String: String]
  var duplicateIds: [String]
  var dangling: [String]
  var objects: Int

  static func read(_ text: String) throws -> IndependentReader {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("desingleton-pbx-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try FileManager.default.createDirectory(atPath: directory + "/P.xcodeproj", withIntermediateDirectories: true)
    try Data(text.utf8).write(to: URL(fileURLWithPath: directory + "/P.xcodeproj/project.pbxproj"))
    return try readFile(directory + "/P.xcodeproj/project.pbxproj")
  }

  static func readFile(_ path: String) throws -> IndependentReader {
    let result = try run(["python3", packageRoot + "/Tests/Xcode/pbxproj.py", path])
    guard result.status == 0, let json = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any] else {
      throw Refusal("pbxproj.py failed: \(result.standardError)")
    }
    let targets = json["targets"] as? [String: [String: Any]] ?? [:]
    return IndependentReader(
      targets: targets.mapValues { $0["files"] as? [String] ?? [] },
      kinds: targets.mapValues { Target(isTest: $0["test"] as? Bool ?? false) },
      folders: targets.mapValues { target in
        (target["folders"] as? [[String: Any]] ?? []).map {
          (path: $0["path"] as? String ?? "", exceptions: $0["exceptions"] as? [String] ?? [])
        }
      },
      groups: json["groups"] as? [String: String] ?? [:],
      duplicateIds: json["duplicateIds"] as? [String] ?? [],
      dangling: json["dangling"] as? [String] ?? [],
      objects: json["objects"] as? Int ?? 0)
  }
}

/// `--protocols-in-singleton-file`: the protocols follow the type in its own file; no new file.
@Suite struct ProtocolsInSingletonFileTests {
  @Test func theProtocolsFollowTheType() throws {
    let files = [
      "Store.swift": """
        import Foundation

        @MainActor
        final class Store {
            static let shared = Store()
            var count = 0
            func bump() { count += 1 }
            func reset() { count = 0 }
        }

        struct Unrelated {}

        """,
      "Counter.swift": "@MainActor\nfinal class Counter {\n    func tap() { Store.shared.bump() }\n    func zero() { Store.shared.reset() }\n}\n",
    ]
    let options = ExtractProtocolOptions(
      slices: [Slice(name: "Counting", members: ["count", "bump"]), Slice(name: "Resetting", members: ["reset"])],
      protocolsInSingletonFile: true)
    try expectPlan(
      files, singleton: "Store",
      produces: [
        "Store.swift": """
        import Foundation

        @MainActor
        final class Store {
            static let shared = Store()
            var count = 0
            func bump() { count += 1 }
            func reset() { count = 0 }
        }

        @MainActor
        protocol Counting: AnyObject, Sendable {
            var count: Int { get }
            func bump()
        }

        @MainActor
        protocol Resetting: AnyObject, Sendable {
            func reset()
        }

        struct Unrelated {}

        extension Store: Counting, Resetting {}

        """
      ], notes: ["Counting: count, bump -> Store.swift", "Resetting: reset -> Store.swift"],
      sourceLocation: #_sourceLocation
    ) { try ExtractProtocolPlanner.plan(singleton: $0, options: options, project: $1) }
  }
}

/// The sample apps' project files after a real `extract-protocol`, read back independently.
@Suite(.serialized) struct XcodeSampleProjectTests {
  func copy(_ sample: String) throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("desingleton-xsample-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try run(["cp", "-R", packageRoot + "/Samples/" + sample, directory + "/" + sample])
    try run(["rm", "-rf", directory + "/" + sample + "/.build"])
    return directory + "/" + sample
  }

  @Test func theClassicSamplesNewFilesAreInBothAppsAndTheirGroup() throws {
    let directory = try copy("XcodeApp")
    defer { try? FileManager.default.removeItem(atPath: (directory as NSString).deletingLastPathComponent) }
    let project = directory + "/XcodeApp.xcodeproj/project.pbxproj"
    let before = try IndependentReader.readFile(project)
    let sources = directory + "/Sources/XcodeApp"
    let existing = Set(try FileManager.default.contentsOfDirectory(atPath: sources))
    let result = try run([packageRoot + "/.build/debug/desingleton", "extract-protocol"], in: directory)
    #expect(result.status == 0, "\(result.standardError)")
    let after = try IndependentReader.readFile(project)
    // The protocol files the suggested slices created, whatever they are named.
    let created = Set(try FileManager.default.contentsOfDirectory(atPath: sources)).subtracting(existing).sorted()
      .map { "Sources/XcodeApp/\($0)" }
    #expect(created.count >= 2)
    #expect(Set(after.targets["XcodeApp"] ?? []) == Set((before.targets["XcodeApp"] ?? []) + created))
    #expect(Set(after.targets["XcodeAppMac"] ?? []) == Set((before.targets["XcodeAppMac"] ?? []) + created))
    #expect(after.targets["XcodeAppTests"] == before.targets["XcodeAppTests"])
    for file in created { #expect(after.groups[file] == "Sources/XcodeApp") }
    #expect(after.duplicateIds.isEmpty && after.dangling.isEmpty)
    #expect(after.objects == before.objects + 3 * created.count)
  }

  @Test func theSynchronizedSamplesNewFilesMirrorTheWidgetsException() throws {
    let directory = try copy("XcodeFolders")
    defer { try? FileManager.default.removeItem(atPath: (directory as NSString).deletingLastPathComponent) }
    let project = directory + "/XcodeFolders.xcodeproj/project.pbxproj"
    let before = try IndependentReader.readFile(project)
    let result = try run(
      [packageRoot + "/.build/debug/desingleton", "extract-protocol", "--slice", "VolumeControl=volume,louder"], in: directory)
    #expect(result.status == 0, "\(result.standardError)")
    let after = try IndependentReader.readFile(project)
    #expect(after.objects == before.objects)
    #expect(after.folders["FoldersWidget"]?.first?.exceptions
      == ["XcodeFolders/Settings.swift", "XcodeFolders/SettingsScreen.swift", "XcodeFolders/VolumeControl.swift"])
    #expect(after.folders["XcodeFolders"]?.first?.exceptions == [])
    #expect(after.duplicateIds.isEmpty && after.dangling.isEmpty)
  }
}

/// The tool's reader and the independent one agree on every target's files and folders: the
/// samples' projects, and any listed in `DESINGLETON_XCODE_PROJECTS` (paths separated by `:`).
@Suite struct XcodeReadersAgreeTests {
  static var projects: [String] {
    let extra = ProcessInfo.processInfo.environment["DESINGLETON_XCODE_PROJECTS"]?.split(separator: ":").map(String.init)
    return [
      packageRoot + "/Samples/XcodeApp/XcodeApp.xcodeproj/project.pbxproj",
      packageRoot + "/Samples/XcodeFolders/XcodeFolders.xcodeproj/project.pbxproj",
    ] + (extra ?? [])
  }

  @Test(arguments: projects)
  func bothReadersFindTheSameTargets(_ path: String) throws {
    let mine = try XcodeProject(source: FileLoader.read(path))
    let theirs = try IndependentReader.readFile(path)
    #expect(Set(mine.targets.map(\.name)) == Set(theirs.targets.keys))
    for target in mine.targets {
      // The tool spells paths as the command does; the checker's are inside the project's folder.
      let files = target.files.compactMap { mine.relative($0) }
      #expect(files.sorted() == theirs.targets[target.name]?.sorted(), "\(target.name)")
      let folders = target.folders.map { folder in
        (mine.relative(folder.path) ?? "", folder.excluded.compactMap { mine.relative($0) }.sorted())
      }
      let expected = (theirs.folders[target.name] ?? []).map { folder in
        (folder.path, folder.exceptions.map { XcodeProject.normalized(folder.path + "/" + $0) }.sorted())
      }
      #expect(folders.map(\.0) == expected.map(\.0), "\(target.name)")
      #expect(folders.map(\.1) == expected.map(\.1), "\(target.name)")
    }
    #expect(mine.targets.filter(\.isTest).map(\.name).sorted() == theirs.kinds.filter { $0.value.isTest }.map(\.key).sorted())
  }
}
