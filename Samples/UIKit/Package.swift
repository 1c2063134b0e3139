// swift-tools-version: 6.0
// A small stand-in for Apple's UIKit so the sample apps build and test on Linux.
// Only the API the samples use is here, with Apple's names and signatures.
import PackageDescription

let package = Package(
    name: "UIKit",
    products: [
        .library(name: "UIKit", targets: ["UIKit"]),
        // Swift Testing's cross-import overlay for UIKit (see Sources/_Testing_UIKit).
        // Test targets that `import Testing` and `import UIKit` depend on it.
        .library(name: "_Testing_UIKit", targets: ["_Testing_UIKit"]),
    ],
    targets: [
        .target(name: "UIKit"),
        .target(name: "_Testing_UIKit", dependencies: ["UIKit"]),
        .testTarget(name: "UIKitTests", dependencies: ["UIKit", "_Testing_UIKit"]),
    ],
    swiftLanguageModes: [.v6]
)
