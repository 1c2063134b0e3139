// swift-tools-version: 6.0
import PackageDescription

// One singleton, `Store.shared`, used by consumers in the shapes real apps have: a creator enum,
// a half-injected init, a composition root that reads the singleton, views reading it from the
// environment (Observation style), an App Intent through a refined protocol, a `lazy` creation,
// an optional `@State` with no initial value and a `@State` under `#if`.
let package = Package(
    name: "ConvergenceShapes",
    products: [
        .library(name: "ConvergenceShapes", targets: ["ConvergenceShapes"]),
    ],
    dependencies: [
        .package(path: "../SwiftUI"),
    ],
    targets: [
        // A stand-in for Apple's AppIntents: the little the app uses, with Apple's names.
        .target(name: "AppIntents"),
        .target(
            name: "ConvergenceShapes",
            dependencies: [
                "AppIntents",
                .product(name: "SwiftUI", package: "SwiftUI"),
            ]
        ),
        .testTarget(
            name: "ConvergenceShapesTests",
            dependencies: [
                "ConvergenceShapes",
                "AppIntents",
                .product(name: "SwiftUI", package: "SwiftUI"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
