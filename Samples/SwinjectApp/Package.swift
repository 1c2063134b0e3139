// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "SwinjectApp",
    products: [
        .library(name: "SwinjectApp", targets: ["SwinjectApp"]),
    ],
    dependencies: [
        .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
    ],
    targets: [
        .target(
            name: "SwinjectApp",
            dependencies: [
                .product(name: "Swinject", package: "Swinject"),
            ]
        ),
        .testTarget(
            name: "SwinjectAppTests",
            dependencies: [
                "SwinjectApp",
                .product(name: "Swinject", package: "Swinject"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
