import DesingletonCore
import Foundation

extension Project {
  /// Whether code in the file at `path` can name the type: its modules can import the type's
  /// (`ModuleMap.file(_:canSee:)`), and from another module the type and each type it is nested in
  /// are declared `public` or `open`, or `package` where the modules share a package
  /// (`ModuleMap.module(_:sharesPackageWith:)`); a `private` or `fileprivate` one only from its own
  /// file. A type the project does not declare can be named from anywhere.
  public func file(_ path: String, canName typeName: String) -> Bool {
    guard let primary = index.primaryDeclaration(of: typeName) else { return true }
    guard modules.file(path, canSee: primary.path) else { return false }
    let crosses = modules.crossesModules(path, primary.path)
    let sharesPackage = modules.modules(of: path).allSatisfy { own in
      modules.modules(of: primary.path).contains { modules.module(own, sharesPackageWith: $0) }
    }
    var components = typeName.split(separator: ".").map(String.init)
    while !components.isEmpty {
      if let declaration = index.primaryDeclaration(of: components.joined(separator: ".")) {
        let access = declaration.access ?? .internal
        if access <= .fileprivate && declaration.path != path { return false }
        if crosses && access < (sharesPackage ? .package : .public) { return false }
      }
      components.removeLast()
    }
    return true
  }

  /// Whether some Swift file of the project has an `import` line naming the module (`import os`,
  /// `@testable import Core`): a module the project's build already finds. `paths(naming:)`'s byte
  /// search first, then the lines of those files.
  public func importsModule(_ module: String) -> Bool {
    paths(naming: [module]).contains { path in
      guard let bytes = bytes(path) else { return false }
      return ImportLines.modules(in: String(decoding: bytes, as: UTF8.self)).contains { $0.module == module }
    }
  }
}
