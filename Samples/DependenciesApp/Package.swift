// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "DependenciesApp",
    products: [
        .library(name: "DependenciesApp", targets: ["DependenciesApp"]),
    ],
    dependencies: [
        .package(url: "https://github.com/pointfreeco/swift-dependencies", exact: "1.17.1"),
    ],
    targets: [
        .target(
            name: "DependenciesApp",
            dependencies: [
                .product(name: "Dependencies", package: "swift-dependencies"),
            ]
        ),
        .testTarget(
            name: "DependenciesAppTests",
            dependencies: [
                "DependenciesApp",
                .product(name: "Dependencies", package: "swift-dependencies"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
