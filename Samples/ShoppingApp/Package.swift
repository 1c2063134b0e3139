// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "ShoppingApp",
    products: [
        .library(name: "ShoppingApp", targets: ["ShoppingApp"]),
    ],
    dependencies: [
        .package(path: "../UIKit"),
    ],
    targets: [
        .target(
            name: "ShoppingApp",
            dependencies: [
                .product(name: "UIKit", package: "UIKit"),
            ]
        ),
        .testTarget(
            name: "ShoppingAppTests",
            dependencies: [
                "ShoppingApp",
                .product(name: "UIKit", package: "UIKit"),
                // Swift Testing's cross-import overlay for UIKit; see ../UIKit/Sources/_Testing_UIKit.
                .product(name: "_Testing_UIKit", package: "UIKit"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
