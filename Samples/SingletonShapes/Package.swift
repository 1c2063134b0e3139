// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "SingletonShapes",
    products: [
        .library(name: "SingletonShapes", targets: ["SingletonShapes"]),
    ],
    dependencies: [
        .package(path: "../UIKit"),
    ],
    targets: [
        .target(
            name: "SingletonShapes",
            dependencies: [
                .product(name: "UIKit", package: "UIKit"),
            ]
        ),
        .testTarget(
            name: "SingletonShapesTests",
            dependencies: [
                "SingletonShapes",
                .product(name: "UIKit", package: "UIKit"),
                // Swift Testing's cross-import overlay for UIKit; see ../UIKit/Sources/_Testing_UIKit.
                .product(name: "_Testing_UIKit", package: "UIKit"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
