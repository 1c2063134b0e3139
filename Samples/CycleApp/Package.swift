// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "CycleApp",
    products: [
        .library(name: "CycleApp", targets: ["CycleApp"]),
    ],
    targets: [
        .target(name: "CycleApp"),
        .testTarget(name: "CycleAppTests", dependencies: ["CycleApp"]),
    ],
    swiftLanguageModes: [.v6]
)
