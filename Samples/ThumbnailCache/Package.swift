// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "ThumbnailCache",
    products: [
        .library(name: "ThumbnailCache", targets: ["ThumbnailCache"]),
    ],
    dependencies: [
        .package(path: "../UIKit"),
    ],
    targets: [
        .target(
            name: "ThumbnailCache",
            dependencies: [
                .product(name: "UIKit", package: "UIKit"),
            ]
        ),
        .testTarget(
            name: "ThumbnailCacheTests",
            dependencies: [
                "ThumbnailCache",
                .product(name: "UIKit", package: "UIKit"),
                // Swift Testing's cross-import overlay for UIKit; see ../UIKit/Sources/_Testing_UIKit.
                .product(name: "_Testing_UIKit", package: "UIKit"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
