// swift-tools-version: 6.0
// A small stand-in for Apple's SwiftUI so the sample apps build and test on Linux.
// Only the API the samples use is here, with Apple's names and signatures, and a `render`
// function that shows a view once, as a test would see it on screen.
import PackageDescription

let package = Package(
    name: "SwiftUI",
    products: [
        .library(name: "SwiftUI", targets: ["SwiftUI"]),
    ],
    targets: [
        .target(name: "SwiftUI"),
        .testTarget(name: "SwiftUITests", dependencies: ["SwiftUI"]),
    ],
    swiftLanguageModes: [.v6]
)
