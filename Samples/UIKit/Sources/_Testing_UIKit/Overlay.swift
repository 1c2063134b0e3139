// Swift Testing declares a cross-import overlay for UIKit: a file that imports both `Testing`
// and `UIKit` also imports a module named `_Testing_UIKit`. Apple platforms ship that module;
// the Linux toolchain does not, so this package provides it. Like the toolchain's own
// `_Testing_Foundation`, it re-exports Testing; it adds nothing else.
//
// Every test target that imports Testing and UIKit in the same file must depend on the
// `_Testing_UIKit` product.
@_exported import Testing
import UIKit
