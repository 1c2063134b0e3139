// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "XcodeFolders",
    products: [
        .library(name: "XcodeFolders", targets: ["XcodeFolders"]),
    ],
    dependencies: [
        .package(path: "../UIKit"),
    ],
    targets: [
        .target(
            name: "XcodeFolders",
            dependencies: [
                .product(name: "UIKit", package: "UIKit"),
            ]
        ),
        .testTarget(
            name: "XcodeFoldersTests",
            dependencies: [
                "XcodeFolders",
                .product(name: "UIKit", package: "UIKit"),
                // Swift Testing's cross-import overlay for UIKit; see ../UIKit/Sources/_Testing_UIKit.
                .product(name: "_Testing_UIKit", package: "UIKit"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
