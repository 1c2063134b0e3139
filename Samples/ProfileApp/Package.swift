// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "ProfileApp",
    products: [
        .library(name: "ProfileApp", targets: ["ProfileApp"]),
    ],
    dependencies: [
        .package(path: "../UIKit"),
    ],
    targets: [
        .target(
            name: "ProfileApp",
            dependencies: [
                .product(name: "UIKit", package: "UIKit"),
            ]
        ),
        .testTarget(
            name: "ProfileAppTests",
            dependencies: [
                "ProfileApp",
                .product(name: "UIKit", package: "UIKit"),
                // Swift Testing's cross-import overlay for UIKit; see ../UIKit/Sources/_Testing_UIKit.
                .product(name: "_Testing_UIKit", package: "UIKit"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
