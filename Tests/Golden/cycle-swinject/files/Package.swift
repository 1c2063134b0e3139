// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "CycleApp",
    products: [
        .library(name: "CycleApp", targets: ["CycleApp"]),
    ],
    dependencies: [
        .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
    ],
    targets: [
        .target(
            name: "CycleApp",
            dependencies: [
                .product(name: "Swinject", package: "Swinject"),
            ]
        ),
        .testTarget(
            name: "CycleAppTests",
            dependencies: [
                "CycleApp",
                .product(name: "Swinject", package: "Swinject"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
