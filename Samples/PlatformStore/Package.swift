// swift-tools-version: 6.0
import PackageDescription

// A store declared once per platform under `#if`; its members use Foundation and the `Handles`
// module's types. Consumers are in `Viewer`.
let package = Package(
    name: "PlatformStore",
    products: [
        .library(name: "Viewer", targets: ["Viewer"]),
    ],
    targets: [
        .target(name: "Handles"),
        .target(name: "Storage", dependencies: ["Handles"]),
        .target(name: "Viewer", dependencies: ["Storage", "Handles"]),
        .testTarget(name: "ViewerTests", dependencies: ["Viewer", "Storage", "Handles"]),
    ],
    swiftLanguageModes: [.v6]
)
