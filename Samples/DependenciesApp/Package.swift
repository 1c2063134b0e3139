// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "DependenciesApp",
    products: [
        .library(name: "DependenciesApp", targets: ["DependenciesApp"]),
    ],
    dependencies: [
        // Only the traits the app uses: without Clocks and CombineSchedulers (OpenCombine on Linux)
        // there is less to build.
        .package(url: "https://github.com/pointfreeco/swift-dependencies", exact: "1.17.1", traits: ["Foundation"]),
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
