// swift-tools-version: 6.0
import PackageDescription

// An app in four modules: the singleton is public in `Core`; its consumers are in two feature
// modules and the app module, which is also the composition root.
let package = Package(
    name: "ModularApp",
    products: [
        .library(name: "App", targets: ["App"]),
    ],
    targets: [
        .target(name: "Core"),
        .target(name: "Profile", dependencies: ["Core"]),
        .target(name: "Reader", dependencies: ["Core"]),
        .target(name: "App", dependencies: ["Core", "Profile", "Reader"]),
        .testTarget(name: "CoreTests", dependencies: ["Core"]),
        .testTarget(name: "AppTests", dependencies: ["App", "Core", "Profile", "Reader"]),
    ],
    swiftLanguageModes: [.v6]
)
