// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "GodObject",
    products: [
        .library(name: "GodObject", targets: ["GodObject"]),
    ],
    targets: [
        .target(name: "GodObject"),
        .testTarget(name: "GodObjectTests", dependencies: ["GodObject"]),
    ],
    swiftLanguageModes: [.v6]
)
