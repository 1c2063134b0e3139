// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "XcodeApp",
    products: [
        .library(name: "XcodeApp", targets: ["XcodeApp"]),
    ],
    dependencies: [
        .package(path: "../UIKit"),
    ],
    targets: [
        .target(
            name: "XcodeApp",
            dependencies: [
                .product(name: "UIKit", package: "UIKit"),
            ]
        ),
        .testTarget(
            name: "XcodeAppTests",
            dependencies: [
                "XcodeApp",
                .product(name: "UIKit", package: "UIKit"),
                // Swift Testing's cross-import overlay for UIKit; see ../UIKit/Sources/_Testing_UIKit.
                .product(name: "_Testing_UIKit", package: "UIKit"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
