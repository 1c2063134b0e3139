// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "CycleApp",
    products: [
        .library(name: "CycleApp", targets: ["CycleApp"]),
    ],
    dependencies: [
        .package(url: "https://github.com/pointfreeco/swift-dependencies", exact: "1.17.1", traits: ["Foundation"]),
    ],
    targets: [
        .target(
            name: "CycleApp",
            dependencies: [
                .product(name: "Dependencies", package: "swift-dependencies"),
            ]
        ),
        .testTarget(
            name: "CycleAppTests",
            dependencies: [
                "CycleApp",
                .product(name: "Dependencies", package: "swift-dependencies"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
