// swift-tools-version: 6.0
import PackageDescription

// A SwiftUI app whose views use the singleton: a view with `@State` and `@Environment`, one given
// a `@Binding`, one that owns a `@StateObject` model which uses the singleton too, and one whose
// callers pass its `@State`'s initial value.
let package = Package(
    name: "SwiftUIApp",
    products: [
        .library(name: "SwiftUIApp", targets: ["SwiftUIApp"]),
    ],
    dependencies: [
        .package(path: "../SwiftUI"),
    ],
    targets: [
        .target(
            name: "SwiftUIApp",
            dependencies: [
                .product(name: "SwiftUI", package: "SwiftUI"),
            ]
        ),
        .testTarget(
            name: "SwiftUIAppTests",
            dependencies: [
                "SwiftUIApp",
                .product(name: "SwiftUI", package: "SwiftUI"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
