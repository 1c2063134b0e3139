// swift-tools-version: 6.0
import PackageDescription

// Two apps (a phone and a desk app), each with its own `Preferences` singleton of the same name
// and different members, as an iOS and a Mac target of one Xcode project often have.
let package = Package(
    name: "TwinTargets",
    products: [
        .library(name: "PhoneApp", targets: ["PhoneApp"]),
        .library(name: "DeskApp", targets: ["DeskApp"]),
    ],
    targets: [
        .target(name: "PhoneApp"),
        .target(name: "DeskApp"),
        .testTarget(name: "PhoneAppTests", dependencies: ["PhoneApp"]),
        .testTarget(name: "DeskAppTests", dependencies: ["DeskApp"]),
    ],
    swiftLanguageModes: [.v6]
)
