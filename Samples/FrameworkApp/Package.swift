// swift-tools-version: 6.0
import PackageDescription

// An app whose consumers are shaped as UIKit apps have them: a project base class whose subclasses
// use its inits, a nib-style init, a dequeued cell, an application delegate, a Codable model, a
// property wrapper, a collaborator the singleton makes itself, and a nonisolated method.
let package = Package(
    name: "FrameworkApp",
    products: [
        .library(name: "FrameworkApp", targets: ["FrameworkApp"]),
    ],
    dependencies: [
        .package(path: "../UIKit"),
    ],
    targets: [
        .target(
            name: "FrameworkApp",
            dependencies: [
                .product(name: "UIKit", package: "UIKit"),
            ]
        ),
        .testTarget(
            name: "FrameworkAppTests",
            dependencies: [
                "FrameworkApp",
                .product(name: "UIKit", package: "UIKit"),
                .product(name: "_Testing_UIKit", package: "UIKit"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
